// `tagbench confirm --instances`: the rerun's server instances reach the run (runReleases
// validates them against the repeats before any server starts), default to the host class's,
// and bad values are refused with a clear message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRerunRequest } from '../../scripts/verify/confirm-regressions.js';

const root = new URL('../..', import.meta.url).pathname;
/** A real captured store (its README): the older comparison of 10.11.19 is unconfirmed, with regressions. */
const capturedStore = join(root, 'test/fixtures/github/captured-store');
const unconfirmedId = 'vs-10.11.18-20261121T135658Z-480feaf2';
const verdictsDir = 'verdicts/local/mariadb/10.11.19/smoke';

const original = { product: 'mariadb', suite: 'smoke', hostClass: 'local', base: { version: '10.11.18' }, candidate: { version: '10.11.19' } };

test('the rerun takes --instances and --repeats as given, and leaves both to the host class otherwise', () => {
  const given = buildRerunRequest(original, ['point-query'], { storeDir: '/s', workDir: '/w', repeats: '4', instances: '2' });
  assert.equal(given.instances, 2);
  assert.equal(given.repeats, 4);
  assert.deepEqual(given.only, ['point-query']);
  assert.deepEqual(given.releases.map((r) => r.version), ['10.11.18', '10.11.19']);
  const defaults = buildRerunRequest(original, ['point-query'], { storeDir: '/s', workDir: '/w' });
  assert.equal('instances' in defaults, false, 'no instances: runReleases takes the host class\'s');
  assert.equal('repeats' in defaults, false);
});

/**
 * @param {string[]} args after `confirm`
 */
async function confirmCli(args) {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-confirm-'));
  const store = join(base, 'results');
  await cp(capturedStore, store, { recursive: true });
  const res = spawnSync(process.execPath, [join(root, 'scripts/cli.js'), 'confirm', '--product', 'mariadb', '--version', '10.11.19',
    '--host-class', 'local', '--store', store, '--work-dir', join(base, 'work'), '--cache-dir', join(base, 'cache'), ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: res.status, stderr: res.stderr, comparisons: await readdir(join(store, verdictsDir)) };
}

test('confirm --instances reaches the rerun: more instances than repeats is refused there, before any server, and nothing is stored', async () => {
  const r = await confirmCli(['--comparison', unconfirmedId, '--repeats', '1', '--instances', '2']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /--instances must be an integer from 1 to the repeats \(1\), got 2/);
  assert.equal(r.comparisons.length, 2, 'no confirmed comparison was written');
});

test('confirm --instances 0 and --instances two are refused with a clear message', async () => {
  for (const bad of ['0', 'two']) {
    const r = await confirmCli(['--comparison', unconfirmedId, '--instances', bad]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`--instances is '${bad}': expected a whole number of 1 or more`));
    assert.doesNotMatch(r.stderr, /internal error/);
  }
});
