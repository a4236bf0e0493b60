/**
 * tagbench report --bisects: a stored bisect report goes on its bad release's regression issue
 * as one comment, found again by the comment's marker, so a rerun adds nothing. Against the
 * stateful stand-in of the issues API (fake-github-nock.js); the requests' shapes are checked
 * against GitHub's description in report-bisects-prism.test.js.
 */
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportCommand } from '../../scripts/github/report-command.js';
import { githubSettings } from '../support/github-settings.js';
import { computeFingerprint, renderMarker } from '../../scripts/github/issue-marker.js';
import { findBisectIssue, parseBisectMarker, planBisectComment, renderBisectComment } from '../../scripts/github/render-bisect-comment.js';
import { writeBisectReport } from '../../scripts/store/index.js';
import { makeBisectReport } from '../support/bisect-report.js';
import { FAKE_API, startFakeGitHub } from './fake-github-nock.js';

/** @type {ReturnType<typeof startFakeGitHub>|null} */
let fake = null;
/** @type {string[]} */
const dirs = [];
afterEach(async () => {
  fake?.done();
  fake = null;
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/**
 * @param {import('../../scripts/github/types.js').IssueKey} key
 * @param {number} number
 * @param {string} [author]
 */
function seededIssue(key, number, author) {
  const marker = { v: /** @type {1} */ (1), fingerprint: computeFingerprint(key), key, tests: ['point-query:throughput'], digest: '0123456789abcdef' };
  return { number, title: `regression in ${key.version}`, body: `${renderMarker(marker)}\nregressions…`, state: 'open', labels: ['tagbench-regression'], html_url: `https://github.example/acme/bench/issues/${number}`, author };
}

const KEY = { product: 'mariadb', line: '10.11', version: '10.11.22', hostClass: 'local', suite: 'smoke' };

/** A store holding one bisect report (no comparison). */
async function storeWithBisect() {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-bisect-report-'));
  dirs.push(dir);
  const { id } = await writeBisectReport(join(dir, 'store'), makeBisectReport());
  return { dir, store: join(dir, 'store'), id };
}

test('the comment goes on the bad release\'s official issue once; a rerun posts nothing', async () => {
  const { dir, store, id } = await storeWithBisect();
  fake = startFakeGitHub({ issues: [
    // An ad-hoc run's issue of the same release and the issue of the first bad release are not the place.
    seededIssue({ ...KEY, adHoc: { base: '10.11.17', mycnf: null, only: [] } }, 1),
    seededIssue({ ...KEY, version: '10.11.21' }, 2),
    seededIssue(KEY, 3),
  ] });
  const settings = githubSettings({ token: 't', repository: 'acme/bench', apiUrl: FAKE_API });
  const summaryFile = join(dir, 'summary.md');
  assert.equal(await reportCommand({ store, bisects: true, summaryFile, timing: { recheckDelayMs: 0, throttle: false } }, settings), 0);
  assert.equal(fake.comments.length, 1);
  const [comment] = fake.comments;
  assert.equal(comment.issue, 3);
  assert.equal(parseBisectMarker(comment.body), id);
  assert.match(comment.body, /\*\*First bad release: mariadb `10\.11\.21`\*\* \(last good: `10\.11\.20`\)/);
  assert.match(comment.body, /\| 2 \| `10\.11\.21` \| \*\*bad\*\* \| `point-query` throughput \| regression \(issue\) \| 0\.710 \|/);
  assert.match(await readFile(summaryFile, 'utf8'), /### Bisects\n\n- commented: bisect mariadb 10\.11\.18 \.\. 10\.11\.22 on local \(smoke\) \[#3\]\(https:\/\/github\.example\/acme\/bench\/issues\/3\) — first bad release 10\.11\.21/);

  const writesBefore = fake.writes().length;
  assert.equal(await reportCommand({ store, bisects: true, summaryFile, timing: { recheckDelayMs: 0, throttle: false } }, settings), 0);
  assert.equal(fake.writes().length, writesBefore, 'a rerun writes nothing');
  assert.equal(fake.comments.length, 1);
  assert.match(await readFile(summaryFile, 'utf8'), /- unchanged: bisect .* \[#3\].* — already posted/);
});

test('without the release\'s issue nothing is posted and the summary says why; a GitHub failure fails the report after the summary', async () => {
  const { dir, store } = await storeWithBisect();
  // Same key, but opened by someone the report does not trust: not tagbench's issue.
  fake = startFakeGitHub({ issues: [seededIssue(KEY, 4, 'mallory')] });
  const settings = githubSettings({ token: 't', repository: 'acme/bench', apiUrl: FAKE_API });
  const summaryFile = join(dir, 'summary.md');
  assert.equal(await reportCommand({ store, bisects: true, summaryFile, timing: { recheckDelayMs: 0, throttle: false } }, settings), 0);
  assert.deepEqual(fake.comments, []);
  assert.match(await readFile(summaryFile, 'utf8'), /- no-issue: bisect .* — no tagbench issue of mariadb 10\.11\.22 on local \(smoke\) in acme\/bench: nothing posted/);

  fake.done();
  fake = startFakeGitHub({ issues: [seededIssue(KEY, 3)] });
  fake.fail({ method: 'POST', path: /\/issues\/3\/comments$/, status: 422, body: { message: 'Validation Failed' } });
  await assert.rejects(reportCommand({ store, bisects: true, summaryFile, timing: { recheckDelayMs: 0, throttle: false } }, settings), /1 GitHub request\(s\) failed.*bisect bisect-.* on #3/);
  assert.match(await readFile(summaryFile, 'utf8'), /- failed: bisect mariadb 10\.11\.18 \.\. 10\.11\.22/);
});

test('a dry run writes the comment to a file', async () => {
  const { dir, store, id } = await storeWithBisect();
  const dryRunDir = join(dir, 'issues');
  assert.equal(await reportCommand({ store, bisects: true, dryRunDir, summaryFile: join(dir, 'summary.md') }, githubSettings()), 0);
  const text = await readFile(join(dryRunDir, `${id}.md`), 'utf8');
  assert.equal(parseBisectMarker(text), id);
  assert.match(text, /First bad release: mariadb `10\.11\.21`/);
});

test('planBisectComment: create, leave, or edit only a trusted comment carrying this report\'s marker', () => {
  const report = { ...makeBisectReport(), id: 'bisect-20261122T230000Z-aaaabbbb' };
  const body = renderBisectComment(report);
  const trusted = new Set(['github-actions[bot]']);
  const bot = { login: 'github-actions[bot]' };
  assert.deepEqual(planBisectComment([], report.id, body, trusted), { action: 'create' });
  assert.deepEqual(planBisectComment([{ id: 7, body, user: bot }], report.id, body, trusted), { action: 'unchanged', commentId: 7 });
  assert.deepEqual(planBisectComment([{ id: 8, body: body.replace('First bad', 'Old text: first bad'), user: bot }], report.id, body, trusted), { action: 'update', commentId: 8 });
  assert.deepEqual(planBisectComment([{ id: 9, body, user: { login: 'mallory' } }], report.id, body, trusted), { action: 'create' }, 'a copied marker by someone else counts for nothing');
  assert.deepEqual(planBisectComment([{ id: 10, body: body.replace(report.id, 'bisect-other'), user: bot }], report.id, body, trusted), { action: 'create' }, 'another bisect\'s comment is left alone');
  assert.equal(parseBisectMarker('<!-- tagbench-bisect {not json} -->'), null);
  // A labelled bad release (an install on disk) never has an issue.
  const issue = { ...seededIssue(KEY, 3), author: 'github-actions[bot]', url: 'u', state: /** @type {const} */ ('open'), untrustedMarker: false, marker: { v: /** @type {1} */ (1), fingerprint: computeFingerprint(KEY), key: KEY, tests: [], digest: 'x' } };
  assert.equal(findBisectIssue(report, [issue])?.number, 3);
  assert.equal(findBisectIssue({ ...report, bad: { ...report.bad, label: 'c4', name: '10.11.22#c4' } }, [issue]), null);
});
