/**
 * The posting half of a pull request's run (pull-request.yml's hosted job): the artifact of the
 * self-hosted bench job is untrusted data, and a run that ended without a verdict still completes
 * its check. Through Prism validating against GitHub's OpenAPI description, with the STAND-IN of
 * fake-github-nock.js keeping the check runs.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { postVerdictCommand } from '../../scripts/github/verdict-command.js';
import { readArtifactProblems } from '../../scripts/github/untrusted-results.js';
import { githubSettings } from '../support/github-settings.js';
import { serveFakeGitHub } from '../github-workflows/fake-github-server.js';
import { useFakeGitHubPerTest } from './fake-github-nock.js';
import { usePrismForFile } from './prism-harness.js';
import { FIXTURE_STORE } from './fixture-store.js';

/** @type {{url: string, close: () => Promise<void>}|null} */
let bridge = null;
const ctx = usePrismForFile({ upstream: async () => (bridge = await serveFakeGitHub()).url });
after(async () => { await bridge?.close(); });
const github = useFakeGitHubPerTest();

const SHA = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
const OTHER = 'beef0000beef0000beef0000beef0000beef0000';
const CLONE = 'https://github.com/acme/bench.git';
const RUN = 'https://github.example/acme/tagbench/actions/runs/99';
const timing = { throttle: false, retryAfterBaseMs: 1, recheckDelayMs: 0 };
const plan = { product: 'mariadb', hostClass: 'local', suite: 'smoke', expectRef: 'pull/12/head', expectRepository: CLONE, pull: '12', sha: SHA };

/**
 * An artifact as the bench job uploads it: the fixture's comparison as the ref run's, with the
 * ref fields a run writes (changed by `change` to forge one).
 * @param {string} dir
 * @param {Record<string, unknown>} [change]
 */
async function artifact(dir, change = {}) {
  const from = join(FIXTURE_STORE, 'verdicts/local/mariadb/10.11.19/smoke');
  const comparison = JSON.parse(await readFile(join(from, (await readdir(from))[0]), 'utf8'));
  comparison.ref = { name: 'pull/12/head', repository: CLONE, pullRequest: 12, commit: SHA, base: { how: 'pull-request-base', version: '10.11.18', ref: 'main', commit: OTHER }, ...change };
  const to = join(dir, 'refs/verdicts/local/mariadb/10.11.19/smoke');
  await mkdir(to, { recursive: true });
  await writeFile(join(to, 'vs-base.json'), JSON.stringify(comparison));
  return join(to, 'vs-base.json');
}

/** @param {Record<string, any>} options */
const post = (options) => postVerdictCommand({ repo: 'acme/bench', timing, runUrl: RUN, ...options }, githubSettings({ token: 'ghs_app', apiUrl: ctx.prism.url }));

test('a forged comparison in the artifact (another commit, pull request, repository) is refused before anything is posted; this run\'s own is posted', { timeout: 300_000 }, async () => {
  const f = github.start({ commits: [SHA] });
  f.allowLoopback();
  for (const [what, change] of /** @type {[string, Record<string, unknown>][]} */ ([
    ['commit', { commit: OTHER }], ['pull request', { pullRequest: 13 }], ['repository', { repository: 'https://github.com/evil/bench.git' }], ['ref', { name: 'main' }],
  ])) {
    const dir = await github.tempDir('tagbench-untrusted-');
    const file = await artifact(dir, change);
    await assert.rejects(post({ ...plan, comparison: file, untrusted: dir }), new RegExp(`not this run's comparison: the comparison's ${what} is`), what);
  }
  assert.equal(f.writes().length, 0, 'nothing was posted for a forged comparison');
  const dir = await github.tempDir('tagbench-untrusted-');
  assert.equal(await post({ ...plan, comparison: await artifact(dir), untrusted: dir }), 0);
  assert.deepEqual(f.checkRuns.map((r) => [r.head_sha, r.conclusion]), [[SHA, 'failure']]);
  for (const r of ctx.prism.requests) assert.deepEqual(r.errorViolations, [], `${r.method} ${r.path}`);
});

test('an artifact over the file-count or size cap, or holding a link, is refused', async () => {
  const dir = await github.tempDir('tagbench-untrusted-');
  await mkdir(join(dir, 'refs'), { recursive: true });
  for (let i = 0; i < 5; i++) await writeFile(join(dir, 'refs', `${i}.json`), 'x'.repeat(100));
  assert.deepEqual(await readArtifactProblems(dir, { files: 5, bytes: 500 }), []);
  assert.match((await readArtifactProblems(dir, { files: 4, bytes: 500 })).join(), /holds 5 files; at most 4/);
  assert.match((await readArtifactProblems(dir, { files: 5, bytes: 499 })).join(), /holds 500 bytes; at most 499/);
  await symlink('/etc/passwd', join(dir, 'refs', 'link.json'));
  assert.match((await readArtifactProblems(dir)).join(), /link\.json is not a regular file/);
});

test('a run without a verdict completes its check as neutral with the reason and the run\'s link; no token is a failure, not a dry run', { timeout: 300_000 }, async () => {
  const f = github.start({ commits: [SHA] });
  f.allowLoopback();
  const reason = 'nobody approved this run; see [here](https://evil.example) @octocat';
  assert.equal(await post({ neutral: reason, product: 'mariadb', hostClass: 'local', suite: 'smoke', sha: SHA }), 0);
  assert.equal(f.checkRuns.length, 1);
  const [run] = f.checkRuns;
  assert.deepEqual([run.status, run.conclusion, run.name, run.details_url], ['completed', 'neutral', 'tagbench: smoke on local', RUN]);
  assert.match(run.output.summary ?? '', /nobody approved this run/);
  assert.ok((run.output.summary ?? '').includes(RUN));
  assert.ok(!(run.output.summary ?? '').includes('](https'), 'no working Markdown link from the reason');
  assert.ok(!(run.output.summary ?? '').includes(' @octocat'), 'no mention from the reason');
  for (const r of ctx.prism.requests) assert.deepEqual(r.errorViolations, [], `${r.method} ${r.path}`);
  await assert.rejects(postVerdictCommand({ repo: 'acme/bench', neutral: 'x', product: 'mariadb', hostClass: 'local', suite: 'smoke', sha: SHA }, githubSettings({ apiUrl: ctx.prism.url })), /--neutral needs a token/);
});
