/**
 * pages.yml and promote-baseline.yml under act, on the fixture store: our own steps run (issue
 * list, site build; baseline promotion); the steps that need GitHub (results-branch checkout,
 * false-alarm count, Pages actions, the pull request) are skipped under act.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeFailure, runAct, STUB_MARK } from './run-act.js';

const FIXTURE_STORE = fileURLToPath(new URL('../fixtures/github/store/', import.meta.url));

/** @param {import('node:test').TestContext} t */
async function scratch(t) {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-'));
  const state = { passed: false };
  // Kept when the test fails: act.log is what one wants to read then.
  t.after(() => (state.passed ? rm(dir, { recursive: true, force: true }) : undefined));
  return { dir, state };
}

test('act runs pages.yml: issues list and site built from the store', { timeout: 10 * 60_000 }, async (t) => {
  const { dir, state } = await scratch(t);
  const out = join(dir, 'out');
  const result = await runAct({ workflow: '.github/workflows/pages.yml', dir, event: {}, vars: { TAGBENCH_OUT_DIR: out }, env: { TAGBENCH_STORE_DIR: FIXTURE_STORE } });
  assert.equal(result.code, 0, describeFailure(result));
  assert.doesNotMatch(result.log, new RegExp(STUB_MARK));
  assert.deepEqual(JSON.parse(await readFile(join(out, 'issues.json'), 'utf8')), [], 'no token under act: an empty issue list');
  assert.ok((await stat(join(out, 'site', 'index.html'))).isFile(), 'the site has an index.html');
  assert.match(result.log, /site: .*3 run records, 2 comparisons/);
  assert.doesNotMatch(result.log, /Main count false alarms/, 'triage needs GitHub (a token): skipped under act');
  await assert.rejects(stat(join(out, 'noise-summary.json')), { code: 'ENOENT' });
  const hosts = JSON.parse(await readFile(join(out, 'site', 'data', 'hosts', 'index.json'), 'utf8'));
  assert.equal(hosts.noise, null, 'without the triage step the site is built without a noise summary');
  state.passed = true;
});

test('act runs promote-baseline.yml: the baseline is promoted, the pull request step skipped', { timeout: 10 * 60_000 }, async (t) => {
  const { dir, state } = await scratch(t);
  const inputs = { product: 'mariadb', line: '10.11', version: '10.11.20', host_class: 'local', suite: 'smoke', runs: '', note: 'act test' };
  const result = await runAct({ workflow: '.github/workflows/promote-baseline.yml', dir, event: { inputs }, env: { TAGBENCH_STORE_DIR: FIXTURE_STORE } });
  assert.equal(result.code, 0, describeFailure(result));
  assert.doesNotMatch(result.log, new RegExp(STUB_MARK));
  assert.match(result.log, /Main tagbench baseline promote[\s\S]*Success - Main tagbench baseline promote/);
  assert.doesNotMatch(result.log, /Main open the pull request/, 'open-pr needs GitHub: skipped under act');
  state.passed = true;
});
