// `tagbench confirm --instances`: the rerun's server instances reach the run (runReleases
// validates them against the repeats before any server starts), default to the host class's,
// and bad values are refused with a clear message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRerunRequest } from '../../scripts/verify/confirm-regressions.js';

const root = new URL('../..', import.meta.url).pathname;
/** A real captured store (its README): the older comparison of 10.11.19 is unconfirmed, with regressions. */
const capturedStore = join(root, 'test/fixtures/github/captured-store');
const unconfirmedId = 'vs-10.11.18-20261121T135658Z-480feaf2';
const verdictsDir = 'verdicts/local/mariadb/10.11.19/smoke';

/** Servers of this file listen from here on (a port range no other test uses). */
const PORT_BASE = 23790;

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
  assert.ok(defaults.releases.every((r) => !('provider' in r)), 'no --provider: the install cache decides');
  // --provider: both releases from that build (the cache may hold Debian's and ours of one version).
  const source = buildRerunRequest(original, ['point-query'], { storeDir: '/s', workDir: '/w', provider: 'source' });
  assert.deepEqual(source.releases.map((r) => [r.version, r.provider]), [['10.11.18', 'source'], ['10.11.19', 'source']]);
  // --commit: the candidate's build of that commit (a moved tag's cache holds one per commit); the base as before.
  const commit = 'c'.repeat(40);
  const pinned = buildRerunRequest(original, ['point-query'], { storeDir: '/s', workDir: '/w', provider: 'source', commit });
  assert.deepEqual(pinned.releases.map((r) => [r.version, r.commit]), [['10.11.18', undefined], ['10.11.19', commit]]);
  assert.throws(() => buildRerunRequest(original, ['point-query'], { storeDir: '/s', workDir: '/w', provider: 'deb', commit }), /--commit '.*': a full commit id .* with --provider source/);
  assert.throws(() => buildRerunRequest(original, ['point-query'], { storeDir: '/s', workDir: '/w', provider: 'source', commit: 'abc' }), /--commit 'abc'/);
});

test('a ref comparison is rerun from the two source builds of its ref run, with its metadata, so the rerun stays under refs/', () => {
  const head = 'a'.repeat(40);
  const baseCommit = 'b'.repeat(40);
  const ref = { name: 'pull/7/head', repository: '/srv/git/server.git', pullRequest: 7, commit: head, base: { how: /** @type {const} */ ('pull-request-base'), version: '10.11.18', ref: 'main', commit: baseCommit } };
  const refComparison = { ...original, base: { version: '10.11.18+bbbbbbbbbbbb' }, candidate: { version: '10.11.18+aaaaaaaaaaaa' }, ref };
  const rerun = buildRerunRequest(refComparison, ['point-query'], { storeDir: '/s', workDir: '/w', repeats: '2' });
  assert.equal(rerun.repeats, 2);
  assert.deepEqual(rerun.releases.map((r) => [r.version, r.provider, r.commit, r.source?.ref, r.refRun?.role, r.refRun?.commit, r.refRun?.pullRequest]), [
    ['10.11.18+bbbbbbbbbbbb', 'source', baseCommit, baseCommit, 'base', head, 7],
    ['10.11.18+aaaaaaaaaaaa', 'source', head, head, 'candidate', head, 7],
  ]);
  // A release base (the ref branched from it) is its tag's build, as run --ref built it.
  const fromRelease = buildRerunRequest({ ...refComparison, base: { version: '10.11.18' }, ref: { ...ref, base: { ...ref.base, how: 'branched-from' } } }, ['point-query'], { storeDir: '/s', workDir: '/w' });
  assert.deepEqual(fromRelease.releases.map((r) => r.source), [{ gitUrl: ref.repository }, { gitUrl: ref.repository, ref: head }]);
  assert.throws(() => buildRerunRequest(refComparison, ['point-query'], { storeDir: '/s', workDir: '/w', commit: head }), /--commit does not go with a ref comparison/);
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

/**
 * @param {string} fragment
 * @returns {Promise<number[]>} pids whose command line holds fragment
 */
async function pidsWith(fragment) {
  const found = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(fragment)) found.push(Number(entry));
  }
  return found;
}

test('SIGTERM during the rerun (a runner cancelling the step at its timeout) stops its servers and confirms nothing', { timeout: 600_000 }, async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'tc-'));
  t.after(() => rm(base, { recursive: true, force: true }));
  const store = join(base, 'results');
  await cp(capturedStore, store, { recursive: true });
  // Short: server sockets live in the work dir (108-byte limit).
  const work = join(base, 'w');
  const child = spawn(process.execPath, [join(root, 'scripts/cli.js'), 'confirm', '--product', 'mariadb', '--version', '10.11.19', '--host-class', 'local',
    '--comparison', unconfirmedId, '--repeats', '2', '--instances', '1', '--store', store, '--work-dir', work,
    '--cache-dir', process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs'), '--port-base', String(PORT_BASE)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.once('close', (code) => resolve(code)));
  // Wait until a server of the rerun is up (its datadir is under the work dir), then cancel.
  const deadline = Date.now() + 300_000;
  let servers = [];
  while (servers.length === 0 && Date.now() < deadline && child.exitCode === null) {
    await new Promise((r) => setTimeout(r, 500));
    servers = (await pidsWith(work)).filter((pid) => pid !== child.pid);
  }
  assert.ok(servers.length > 0, `a server of the rerun should have started:\n${stderr}`);
  child.kill('SIGTERM');
  const code = await exited;
  assert.equal(code, 130, stderr);
  assert.match(stderr, /SIGTERM: stopping the rerun's servers; nothing will be confirmed/);
  assert.match(stderr, new RegExp(`comparison ${unconfirmedId} stays unconfirmed`));
  assert.deepEqual(await pidsWith(work), [], 'no server of the rerun is left running');
  assert.equal((await readdir(join(store, verdictsDir))).length, 2, 'no confirmed comparison was written');
});
