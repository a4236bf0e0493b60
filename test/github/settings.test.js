import { test } from 'node:test';
import assert from 'node:assert/strict';
import { botLoginsFrom, readGitHubSettings } from '../../scripts/github/settings.js';

test('the github settings are read from the environment once, as the handlers used to read it themselves', () => {
  const s = readGitHubSettings({
    GITHUB_TOKEN: 'ghs_1', GITHUB_REPOSITORY: 'acme/bench', GITHUB_API_URL: 'https://ghe.example/api/v3', GITHUB_SERVER_URL: 'https://ghe.example',
    GITHUB_RUN_ID: '9', GITHUB_STEP_SUMMARY: '/tmp/summary', GITHUB_OUTPUT: '/tmp/out', GITHUB_REF_NAME: 'dev', TAGBENCH_SITE_URL: 'https://site.example/',
    TAGBENCH_BOT_LOGINS: 'a[bot],b', TAGBENCH_CLOSE_ON_RECOVERY: 'true', TAGBENCH_HOST_LABELS: '{"local":["x"]}',
  });
  assert.deepEqual(s, {
    tokenEnv: 'GITHUB_TOKEN', token: 'ghs_1', repository: 'acme/bench', apiUrl: 'https://ghe.example/api/v3', runUrl: 'https://ghe.example/acme/bench/actions/runs/9',
    stepSummary: '/tmp/summary', output: '/tmp/out', refName: 'dev', siteUrl: 'https://site.example/', botLogins: 'a[bot],b', closeOnRecovery: true, hostLabels: '{"local":["x"]}',
  });
});

test('unset or empty: no token, github.com\'s API, no run URL without all three of server, repository and run id', () => {
  const s = readGitHubSettings({ GITHUB_TOKEN: '', GITHUB_API_URL: '', GITHUB_REPOSITORY: 'acme/bench', GITHUB_RUN_ID: '9', GITHUB_STEP_SUMMARY: '', TAGBENCH_CLOSE_ON_RECOVERY: 'yes' });
  assert.equal(s.token, null);
  assert.equal(s.apiUrl, 'https://api.github.com');
  assert.equal(s.runUrl, null);
  assert.equal(s.stepSummary, null);
  assert.equal(s.closeOnRecovery, false, 'only the word true turns closing on');
});

test('--token-env names the variable the token is read from, and messages name it', () => {
  const s = readGitHubSettings({ GITHUB_TOKEN: 'wrong', FORK_TOKEN: 'ghp_fork' }, 'FORK_TOKEN');
  assert.equal(s.token, 'ghp_fork');
  assert.equal(s.tokenEnv, 'FORK_TOKEN');
});

test('bot logins: --bot-login, else $TAGBENCH_BOT_LOGINS, else github-actions[bot]', () => {
  assert.deepEqual(botLoginsFrom('x, y', readGitHubSettings({ TAGBENCH_BOT_LOGINS: 'z' })), ['x', 'y']);
  assert.deepEqual(botLoginsFrom(undefined, readGitHubSettings({ TAGBENCH_BOT_LOGINS: 'z' })), ['z']);
  assert.deepEqual(botLoginsFrom(undefined, readGitHubSettings({})), ['github-actions[bot]']);
});

test('the CLI entry hands the environment to report: the job summary file, the run URL and the token\'s variable reach it', async () => {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const { mkdtemp, readdir, readFile, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { FIXTURE_STORE } = await import('./fixture-store.js');
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-settings-'));
  const summary = join(dir, 'step-summary.md');
  await writeFile(summary, '');
  const cli = new URL('../../scripts/cli.js', import.meta.url).pathname;
  const env = {
    PATH: process.env.PATH ?? '', GITHUB_STEP_SUMMARY: summary, GITHUB_REPOSITORY: 'acme/bench', GITHUB_SERVER_URL: 'https://github.example', GITHUB_RUN_ID: '77',
    GITHUB_TOKEN: 'not-read-here',
  };
  const { stderr } = await promisify(execFile)(process.execPath, [cli, 'report', '--store', FIXTURE_STORE, '--dry-run-dir', join(dir, 'issues'), '--token-env', 'NO_SUCH_TOKEN'], { env });
  assert.match(stderr, /no token in \$NO_SUCH_TOKEN: dry run/);
  assert.match(await readFile(summary, 'utf8'), /## tagbench report/);
  const [issue] = await readdir(join(dir, 'issues'));
  assert.match(await readFile(join(dir, 'issues', issue), 'utf8'), /https:\/\/github\.example\/acme\/bench\/actions\/runs\/77/);
});
