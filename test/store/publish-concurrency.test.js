// Real races on a real bare repository: separate `tagbench publish` processes.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, rm, mkdir } from 'node:fs/promises';
import { join, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRecord, readRecords, buildIndex } from '../../scripts/store/index.js';
import { makeRecord, tempDir, git, bareRepo, snapshot, cleanupTempDirs } from './store-testkit.js';

after(cleanupTempDirs);

const cli = fileURLToPath(new URL('../../scripts/cli.js', import.meta.url));

/**
 * Start `tagbench publish`; `killOn` kills it (SIGKILL) when stderr shows that text.
 * @param {string} store
 * @param {string} bare
 * @param {{killOn?: string, attempts?: number}} [opts]
 * @returns {Promise<{code: number|null, signal: string|null, stderr: string}>}
 */
function publish(store, bare, opts = {}) {
  return mkdir(join(store, '..', `${basename(store)}-tmp`), { recursive: true }).then(() => new Promise((resolve, reject) => {
    // Own process group, so a kill takes git children down too (as a cancelled CI job does);
    // own TMPDIR, so the temp repository a killed publisher leaves behind is cleaned up here.
    const child = spawn(process.execPath, [cli, 'publish', '--store', store, '--repo', bare, '--attempts', String(opts.attempts ?? 40)], {
      stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, TMPDIR: join(store, '..', `${basename(store)}-tmp`) },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
      if (opts.killOn && stderr.includes(opts.killOn) && child.pid) process.kill(-child.pid, 'SIGKILL');
    });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', async (code, signal) => {
      await rm(join(store, '..', `${basename(store)}-tmp`), { recursive: true, force: true });
      resolve({ code, signal, stderr });
    });
  }));
}

/** @param {string} bare */
async function branchState(bare) {
  assert.equal(git(['fsck', '--strict', '--no-dangling'], bare).trim(), '', 'git fsck is clean');
  assert.equal(git(['rev-list', '--min-parents=2', 'bench-data'], bare).trim(), '', 'linear history');
  const clone = await tempDir('clone');
  git(['clone', '-q', '--branch', 'bench-data', bare, clone]);
  const records = await readRecords(clone);
  const index = JSON.parse(await readFile(join(clone, 'index.json'), 'utf8'));
  await rm(join(clone, '.git'), { recursive: true });
  assert.deepEqual(await buildIndex(clone, { write: false }), index, 'index.json lists exactly the files');
  await rm(clone, { recursive: true });
  return { records, index };
}

test('ten concurrent publishers all land; nothing is lost; history stays linear', async () => {
  const bare = await bareRepo();
  /** @type {string[]} */
  const stores = [];
  /** @type {string[]} */
  const expected = ['shared-run'];
  for (let i = 0; i < 10; i++) {
    const store = await tempDir(`store${i}`);
    await writeRecord(store, makeRecord(`run-${i}-a`, { version: `10.11.${20 + i}` }));
    await writeRecord(store, makeRecord(`run-${i}-b`, { hostClass: i % 2 ? 'small-server' : 'local', suite: 'small' }));
    // The same record from every runner (e.g. a retried job): identical content is a no-op.
    await writeRecord(store, makeRecord('shared-run'));
    expected.push(`run-${i}-a`, `run-${i}-b`);
    stores.push(store);
  }
  const results = await Promise.all(stores.map((s) => publish(s, bare)));
  for (const r of results) assert.equal(r.code, 0, r.stderr);
  const { records, index } = await branchState(bare);
  assert.deepEqual(records.map((r) => r.id).sort(), expected.sort());
  assert.deepEqual(index.runs.map((/** @type {any} */ r) => r.id).sort(), expected.sort());
  const commits = Number(git(['rev-list', '--count', 'bench-data'], bare).trim());
  assert.ok(commits >= 1 && commits <= 10, `one commit per publisher that added something (got ${commits})`);
});

test('a publisher killed mid-way leaves the branch valid and its store untouched; a rerun lands', async () => {
  const bare = await bareRepo();
  const base = await tempDir('store-base');
  await writeRecord(base, makeRecord('before'));
  assert.equal((await publish(base, bare)).code, 0);
  const before = git(['rev-parse', 'bench-data'], bare).trim();
  for (const [i, killOn] of ['attempt 1/', 'pushing'].entries()) {
    const store = await tempDir(`store-kill${i}`);
    await writeRecord(store, makeRecord(`killed-${i}`, { version: '10.11.30' }));
    const snap = await snapshot(store);
    const killed = await publish(store, bare, { killOn });
    assert.equal(killed.signal, 'SIGKILL', `the publisher was killed at "${killOn}" (stderr: ${killed.stderr})`);
    const { records } = await branchState(bare);
    const ids = records.map((r) => r.id);
    assert.ok(ids.includes('before'), 'earlier records are still there');
    // Killed before or after the atomic ref update: either the record is absent, or complete with its index.
    assert.ok(ids.length === 1 + i || ids.length === 2 + i, ids.join(','));
    assert.deepEqual(await snapshot(store), snap, 'the local store is byte-for-byte unchanged');
    const rerun = await publish(store, bare);
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.ok((await branchState(bare)).records.some((r) => r.id === `killed-${i}`));
  }
  assert.equal(git(['merge-base', '--is-ancestor', before, 'bench-data'], bare), '', 'the branch only moved forward');
});
