/**
 * The suite's plan (test/support/test-plan.js): which files run alone on the quiet CPU, which
 * beside them on the other CPU, and which side by side afterwards, read from this tree's files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALONE, STARTS_WORK, SLOW_FIRST, planTestFiles } from './support/test-plan.js';

test('every test file is in exactly one group; the quiet ones alone, the slowest heavy ones first', async () => {
  const [alone, light, heavy] = [await planTestFiles('alone'), await planTestFiles('light'), await planTestFiles('heavy')];
  assert.deepEqual(alone, Object.keys(ALONE));
  const all = [...alone, ...light, ...heavy];
  assert.equal(new Set(all).size, all.length, 'a file is in two groups');
  assert.ok(all.includes('test/test-plan.test.js'), 'this file is planned too');
  // Every listed slow file is one of the side-by-side files, and they start first, in the list's order.
  assert.deepEqual(SLOW_FIRST.filter((f) => !heavy.includes(f)), []);
  assert.deepEqual(heavy.slice(0, SLOW_FIRST.length), [...SLOW_FIRST]);
  await assert.rejects(planTestFiles(/** @type {any} */ ('quiet')), /expected 'alone', 'light' or 'heavy', got 'quiet'/);
});

test('a file that starts servers through the CPU throttle is heavy; the Octokit client\'s throttle: false is not a server', async () => {
  // Real lines of this tree's tests.
  assert.ok(STARTS_WORK.test("import { watchServer } from '../../scripts/verify/calibrate/server-throttle.js';"));
  assert.ok(STARTS_WORK.test("import { throttleServers } from './throttle-server.js';"));
  assert.ok(!STARTS_WORK.test("const client = () => createGitHubClient({ token: 't', baseUrl: FAKE_API, log: () => {}, throttle: false, retries: 0 });"));
  const [light, heavy] = [await planTestFiles('light'), await planTestFiles('heavy')];
  // The GitHub tests against a fake API or Prism run beside the quiet files; the files that
  // throttle a real server, or start one, do not.
  for (const f of ['test/github/github-failures.test.js', 'test/github/sync-issues.test.js', 'test/github/post-verdict-prism.test.js']) assert.ok(light.includes(f), `${f} should be light`);
  for (const f of ['test/verify/calibrate/server-throttle.test.js', 'test/github-workflows/benchmark-act.test.js', 'test/verify/calibrate/calibrate-preload.test.js', 'test/metrics/meters/work-server.test.js']) assert.ok(heavy.includes(f), `${f} should be heavy`);
});
