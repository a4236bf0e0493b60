// The datadir snapshot and restore on real files (cp --reflink=auto -a): what a round starts
// from, byte for byte, and the refusals that keep a live server's datadir from being copied torn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, writeFile, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snapshotDatadir, restoreDatadir } from '../../scripts/server/index.js';

/** A datadir of a few files in a folder, and a stopped-server stand-in whose liveness the test sets. */
async function datadir() {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-snapshot-'));
  const dir = join(base, 'data');
  await mkdir(join(dir, 'sbtest'), { recursive: true });
  await writeFile(join(dir, 'ibdata1'), Buffer.alloc(64 * 1024, 7));
  await writeFile(join(dir, 'sbtest', 'sbtest1.ibd'), 'rows after the load');
  let alive = false;
  return { base, server: { datadir: dir, isAlive: () => alive }, setAlive: (/** @type {boolean} */ a) => { alive = a; } };
}

test('a snapshot copies the stopped datadir; a restore puts it back, undoing what a round wrote', async () => {
  const { base, server } = await datadir();
  const snap = join(base, 'data.after-load');
  const taken = await snapshotDatadir(server, snap);
  assert.equal(taken.bytes, 64 * 1024 + 'rows after the load'.length);
  // A round writes: a table grows, a file appears.
  await writeFile(join(server.datadir, 'sbtest', 'sbtest1.ibd'), 'rows after the load and round 1 inserts');
  await writeFile(join(server.datadir, 'binlog.000002'), 'round 1');
  const back = await restoreDatadir(server, snap);
  assert.equal(back.bytes, taken.bytes);
  assert.equal(await readFile(join(server.datadir, 'sbtest', 'sbtest1.ibd'), 'utf8'), 'rows after the load');
  assert.deepEqual((await readdir(server.datadir)).sort(), ['ibdata1', 'sbtest']);
  // Modes are kept (-a): the server reads its files as before.
  assert.equal((await stat(join(server.datadir, 'ibdata1'))).mode, (await stat(join(snap, 'ibdata1'))).mode);
  // The snapshot stays for the next round, unless this is the last one: then it is moved in.
  await writeFile(join(server.datadir, 'ibdata1'), 'round 2 wrote');
  await restoreDatadir(server, snap, { last: true });
  assert.equal((await readFile(join(server.datadir, 'ibdata1'))).length, 64 * 1024);
  await assert.rejects(stat(snap), /ENOENT/);
});

test('a live server\'s datadir is neither copied nor replaced, and a missing or existing snapshot is named', async () => {
  const { base, server, setAlive } = await datadir();
  const snap = join(base, 'data.after-load');
  setAlive(true);
  await assert.rejects(snapshotDatadir(server, snap), /cannot snapshot .*data while its server runs: stop it first/);
  await assert.rejects(stat(snap), /ENOENT/, 'nothing copied');
  setAlive(false);
  await assert.rejects(restoreDatadir(server, snap), /cannot restore .*data: no snapshot at .*data\.after-load/);
  await snapshotDatadir(server, snap);
  await assert.rejects(snapshotDatadir(server, snap), /data\.after-load already exists/);
  setAlive(true);
  await assert.rejects(restoreDatadir(server, snap), /while its server runs/);
  assert.equal(await readFile(join(server.datadir, 'sbtest', 'sbtest1.ibd'), 'utf8'), 'rows after the load', 'the datadir is untouched');
});
