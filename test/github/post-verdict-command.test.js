/**
 * `tagbench post-verdict` at its edge: options refused with a message naming the option and what
 * would be valid, and the dry run (no token, or --dry-run) writing the Markdown and the requests
 * it would make while sending nothing (the nock stand-in refuses any connection and records none).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { postVerdictCommand } from '../../scripts/github/verdict-command.js';
import { githubSettings } from '../support/github-settings.js';
import { renderVerdict } from '../../scripts/github/render-verdict.js';
import { readCalibrations } from '../../scripts/store/index.js';
import { useFakeGitHubPerTest, FAKE_API } from './fake-github-nock.js';
import { FIXTURE_STORE, loadFixtures } from './fixture-store.js';

const SHA = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
const github = useFakeGitHubPerTest();

async function comparisonFile() {
  const dir = join(FIXTURE_STORE, 'verdicts/local/mariadb/10.11.19/smoke');
  return join(dir, (await readdir(dir))[0]);
}

/**
 * @param {Record<string, any>} options
 * @param {import('../../scripts/github/settings.js').GitHubSettings} [settings] none set by default
 */
async function run(options, settings = githubSettings()) {
  return postVerdictCommand({ comparison: await comparisonFile(), repo: 'acme/bench', sha: SHA, ...options }, settings);
}

test('bad options are refused with what would be valid', async () => {
  await assert.rejects(run({ sha: 'HEAD' }), { name: 'UserError', message: /--sha is 'HEAD' but must be the commit's full SHA: 40 hexadecimal digits/ });
  await assert.rejects(run({ sha: `${SHA}0` }), /--sha is '.*' but must be/);
  await assert.rejects(run({ repo: 'acme' }), { name: 'UserError', message: /--repo \(or GITHUB_REPOSITORY\) is 'acme' but must be owner\/name/ });
  await assert.rejects(run({ repo: undefined }), { name: 'UserError', message: /needs --repo <owner\/name>/ });
  for (const pull of ['0', '-3', '1.5', 'abc']) await assert.rejects(run({ pull }), { name: 'UserError', message: new RegExp(`--pull is '${pull.replace('.', '\\.')}' but must be a pull-request number`) });
  await assert.rejects(run({ reportUrl: 'file:///etc/passwd' }), { name: 'UserError', message: /--report-url is 'file:\/\/\/etc\/passwd' but must be an http\(s\) URL/ });
  await assert.rejects(run({ comparison: undefined }), { name: 'UserError', message: /needs --comparison <file>/ });
  await assert.rejects(run({ comparison: join(FIXTURE_STORE, 'no-such.json') }), { name: 'UserError', message: /comparison file .*no-such\.json cannot be read/ });
});

test('--dry-run with a token set writes check-run.md, comment.md and requests.json, and sends nothing', async () => {
  const fake = github.start({ commits: [SHA] });
  const dir = await github.tempDir('tagbench-verdict-dry-');
  const reportUrl = 'https://github.example/acme/tagbench/actions/runs/5';
  assert.equal(await run({ pull: '12', reportUrl, dryRun: dir }, githubSettings({ token: 'ghs_app', apiUrl: FAKE_API })), 0);
  assert.deepEqual(fake.requests, [], 'nothing reached GitHub');
  const { c19 } = await loadFixtures();
  // The command reads the host class's stored calibrations from the project, as report does.
  const calibrations = await readCalibrations(new URL('../../bench', import.meta.url).pathname, c19.hostClass);
  assert.ok(calibrations.length > 0, 'the project has calibrations of the host class');
  const verdict = renderVerdict(c19, { sha: SHA, reportUrl, siteUrl: null, runUrl: null, calibrations });
  assert.equal(await readFile(join(dir, 'check-run.md'), 'utf8'), `# ${verdict.output.title}\n\n${verdict.output.summary}\n${verdict.output.text}`);
  assert.equal(await readFile(join(dir, 'comment.md'), 'utf8'), verdict.comment);
  const plan = JSON.parse(await readFile(join(dir, 'requests.json'), 'utf8'));
  assert.deepEqual({ repo: plan.repo, sha: plan.sha, pull: plan.pull, conclusion: plan.conclusion }, { repo: 'acme/bench', sha: SHA, pull: 12, conclusion: 'failure' });
  assert.deepEqual(plan.requests.map((/** @type {any} */ r) => `${r.method} ${r.path}`), [
    `GET /repos/acme/bench/commits/${SHA}/check-runs`,
    'PATCH /repos/acme/bench/check-runs/{check_run_id}',
    'POST /repos/acme/bench/check-runs',
    `POST /repos/acme/bench/statuses/${SHA}`,
    'GET /repos/acme/bench/issues/12/comments',
    'PATCH /repos/acme/bench/issues/comments/{comment_id}',
    'POST /repos/acme/bench/issues/12/comments',
  ]);
  const create = plan.requests[2].body;
  assert.deepEqual({ name: create.name, head_sha: create.head_sha, conclusion: create.conclusion, details_url: create.details_url }, { name: 'tagbench: smoke on local', head_sha: SHA, conclusion: 'failure', details_url: reportUrl });
  assert.equal(create.output.summary, verdict.output.summary);
  assert.ok(plan.requests.every((/** @type {any} */ r) => typeof r.when === 'string' && r.when.length > 0), 'each request says when it is made');
});

test('without a token: a dry run into out/verdict of the working directory, and no comment requests without --pull', async (t) => {
  const dir = await github.tempDir('tagbench-verdict-notoken-');
  const cwd = process.cwd();
  process.chdir(dir);
  t.after(() => process.chdir(cwd));
  assert.equal(await run({}, githubSettings({ apiUrl: FAKE_API })), 0);
  const plan = JSON.parse(await readFile(join(dir, 'out/verdict/requests.json'), 'utf8'));
  assert.equal(plan.pull, null);
  assert.ok(plan.requests.every((/** @type {any} */ r) => !r.path.includes('/issues/')));
  assert.match(await readFile(join(dir, 'out/verdict/comment.md'), 'utf8'), /^<!-- tagbench-verdict /);
});
