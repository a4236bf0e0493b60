import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readComparisons } from '../../scripts/store/index.js';
import { reportCommand } from '../../scripts/github/report-command.js';
import { githubSettings } from '../support/github-settings.js';
import { FIXTURE_STORE } from './fixture-store.js';
import { FAKE_API, useFakeGitHubPerTest } from './fake-github-nock.js';

const github = useFakeGitHubPerTest();
/** @type {ReturnType<typeof github.start>|null} */
let fake = null;
const tempDir = () => github.tempDir('tagbench-report-');

test('without a token: issue Markdown goes to the dry-run dir and the summary to $GITHUB_STEP_SUMMARY', async () => {
  const dir = await tempDir();
  const summaryFile = join(dir, 'step-summary.md');
  await writeFile(summaryFile, 'earlier step\n');
  const code = await reportCommand({ store: FIXTURE_STORE, dryRunDir: join(dir, 'issues') }, githubSettings({ stepSummary: summaryFile, repository: 'acme/bench' }));
  assert.equal(code, 0);
  const files = await readdir(join(dir, 'issues'));
  assert.deepEqual(files, ['tagbench-regression_v1_mariadb_10.11_10.11.19_local_smoke.md'], 'one issue: only 10.11.19 has confirmed regressions');
  const issue = await readFile(join(dir, 'issues', files[0]), 'utf8');
  assert.match(issue, /point-query/);
  const summary = await readFile(summaryFile, 'utf8');
  assert.ok(summary.startsWith('earlier step\n## tagbench report'), 'the summary is appended, not overwritten');
  assert.match(summary, /read-only-count \| throughput \| 🔴 regression \(not confirmed\)/);
});

test('a repeated report of the same regression produces one issue, not two', async () => {
  fake = github.start();
  const dir = await tempDir();
  const settings = githubSettings({ token: 'ghs_test', repository: 'acme/bench', apiUrl: FAKE_API, runUrl: 'https://github.example/acme/bench/actions/runs/11' });
  const options = { store: FIXTURE_STORE, version: '10.11.19', summaryFile: join(dir, 's.md') };
  assert.equal(await reportCommand(options, settings), 0);
  assert.equal(await reportCommand(options, { ...settings, runUrl: 'https://github.example/acme/bench/actions/runs/12' }), 0);
  assert.equal(fake.issues.length, 1);
  assert.match(fake.issues[0].body, /actions\/runs\/11/);
  assert.equal(fake.requests.filter((r) => r.method === 'POST' && r.path === '/repos/acme/bench/issues').length, 1);
  assert.deepEqual(fake.comments, [], 'nothing changed, so no comment either');
  assert.match(await readFile(join(dir, 's.md'), 'utf8'), /unchanged: .* \[#1\]/);
});

test('a bad comparison file is named in the error', async () => {
  const dir = await tempDir();
  const bad = join(dir, 'c.json');
  await writeFile(bad, JSON.stringify({ schemaVersion: 1, product: 'mariadb' }));
  await assert.rejects(reportCommand({ comparison: [bad], store: FIXTURE_STORE }, githubSettings()), (err) => {
    assert.equal(/** @type {Error} */ (err).name, 'UserError');
    assert.match(/** @type {Error} */ (err).message, new RegExp(`comparison file ${bad} is not a valid comparison`));
    return true;
  });
});

test('real captured pipeline output: one issue with the confirmed issue-level regressions, units and rerun', async () => {
  const dir = await tempDir();
  const store = fileURLToPath(new URL('../fixtures/github/captured-store/', import.meta.url));
  const code = await reportCommand({ store, dryRunDir: join(dir, 'issues'), summaryFile: join(dir, 'summary.md') }, githubSettings());
  assert.equal(code, 0);
  const files = await readdir(join(dir, 'issues'));
  assert.deepEqual(files, ['tagbench-regression_v1_mariadb_10.11_10.11.19_local_smoke.md']);
  const issue = await readFile(join(dir, 'issues', files[0]), 'utf8');
  const comparisons = await readComparisons(store);
  const newest = comparisons.at(-1);
  assert.ok(newest);
  // The newest comparison is the confirmed one; its confirmed issue-level regressions are listed.
  const expected = newest.tests.filter((t) => t.verdict === 'regression' && t.confirmed === true && /** @type {any} */ (t).level === 'issue');
  assert.ok(expected.length > 0, 'the captured comparison has confirmed regressions');
  for (const t of expected) assert.ok(issue.includes(`| ${t.test} | ${t.group} | ${t.metric} (${/** @type {any} */ (t).unit})`), `${t.test} ${t.metric} missing from the issue`);
  assert.match(issue, new RegExp(`${expected.length} confirmed regressions`));
  assert.match(issue, /\| rerun ratio \(CI\) \|/);
  assert.match(issue, /\| point-query \| point \| throughput \(op\/s\) ↑ \| .* \| \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] \|$/m, 'the rerun ratio and CI are in the row');
  assert.match(issue, /\| run records \| `20261121T135507Z-local-mariadb-10\.11\.18-smoke-495fd6` \|/);
});
