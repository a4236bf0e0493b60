// Every round reads the data the load left (issue 35), through `tagbench run` on real MariaDB
// servers of two releases (deb provider, from the install cache): a small sysbench suite of a
// scan and the insert test, two rounds. The insert test of round 1 adds rows; round 2 must not
// see them. At the start of each round (the first step of the release after its snapshot or
// restore, a read-only warm-up) the test reads the table's row count and CHECKSUM TABLE over the
// server's own socket; the scan's rows/s must be events/s times the rows it read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { loadConfig } from '../../scripts/config/index.js';
import { runReleases } from '../../scripts/run/index.js';
import { restoreForRound } from '../../scripts/run/same-data-rounds.js';
import { validateRecord } from '../../scripts/store/index.js';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);
/** The local host class on CPU 0: off the CPU that timing runs of this machine use. */
const hosts = { ...loaded.hosts, 'test-cpu0': { ...loaded.hosts.local, name: 'test-cpu0', pinning: { serverCpus: '0', clientCpus: '0' } } };
const TABLE_SIZE = 5000;

/**
 * Row count and checksum of sbtest1, read over the server's socket.
 * @param {string} socketPath
 * @returns {Promise<{rows: number, checksum: string}>}
 */
async function fingerprint(socketPath) {
  const conn = await createConnection({ socketPath, user: 'root', password: '', database: 'sbtest' });
  try {
    const [count] = /** @type {any} */ (await conn.query('SELECT COUNT(*) AS n FROM sbtest1'));
    const [sum] = /** @type {any} */ (await conn.query('CHECKSUM TABLE sbtest1'));
    return { rows: Number(count[0].n), checksum: String(sum[0].Checksum) };
  } finally {
    await conn.end();
  }
}

/**
 * A `write` for runReleases that reads each release's fingerprint when its round starts: on
 * the release's first progress line after "snapshot <key>" (round 1) or "restore <key> for
 * round N", whose server is by then up on the copy.
 */
function roundWatcher() {
  /** @type {string[]} */
  const lines = [];
  /** @type {Map<string, string>} release key -> socket */
  const sockets = new Map();
  /** @type {Map<string, number>} release key -> round waiting for its first step */
  const pending = new Map();
  /** @type {{key: string, round: number, at: Promise<{rows: number, checksum: string}>}[]} */
  const seen = [];
  const write = (/** @type {string} */ text) => {
    lines.push(text);
    const ready = /socket (\S+\/mariadb-([\d.]+)\/mysqld\.sock)/.exec(text);
    if (ready) sockets.set(`mariadb@${ready[2]}`, ready[1]);
    const snap = /^snapshot (\S+) after the load/.exec(text);
    if (snap) pending.set(snap[1], 1);
    const restore = /^restore (\S+) for round (\d+)/.exec(text);
    if (restore) pending.set(restore[1], Number(restore[2]));
    const begin = /^\[\d+\/\d+\] (\S+) (\S+)/.exec(text);
    if (begin && pending.has(begin[1])) {
      const round = /** @type {number} */ (pending.get(begin[1]));
      pending.delete(begin[1]);
      // The round's first step is a read-only warm-up: it changes no row while this reads.
      assert.match(begin[2], /^point-query\.warm$/, `round ${round} of ${begin[1]} starts with a read-only warm-up`);
      seen.push({ key: begin[1], round, at: fingerprint(/** @type {string} */ (sockets.get(begin[1]))) });
    }
  };
  return { write, lines, seen };
}

test('two rounds of two releases start from the same rows and checksum, and scan counts the rows it read', { timeout: 900_000 }, async () => {
  const suite = {
    ...loaded.suites.smoke, name: 'test-same-data', benchmarks: ['sysbench'], meters: ['wall'], only: ['scan', 'insert'],
    tableSize: TABLE_SIZE, readDurationS: 1, writeDurationS: 2, warmupS: 0, scanWarmDurationS: 1, restS: 0,
  };
  const config = { ...loaded, hosts, suites: { ...loaded.suites, [suite.name]: suite } };
  const base = await mkdtemp(join(tmpdir(), 'tagbench-rounds-'));
  const watch = roundWatcher();
  const outcome = await runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: suite.name, hostClass: 'test-cpu0', repeats: 2, instances: 2,
    storeDir: join(base, 'results'), workDir: join(base, 'work'), cacheDir, portBase: 23760, write: watch.write,
  });
  const log = watch.lines.join('');
  assert.equal(outcome.records.length, 2);
  for (const record of outcome.records) {
    assert.deepEqual(validateRecord(record), [], 'schema-valid record');
    assert.equal(record.status, 'ok', log.slice(-3000));
  }
  const prints = await Promise.all(watch.seen.map(async (s) => ({ ...s, at: await s.at })));
  for (const key of ['mariadb@10.11.18', 'mariadb@10.11.19']) {
    const mine = prints.filter((p) => p.key === key);
    assert.deepEqual(mine.map((p) => p.round), [1, 2], `${key}: one fingerprint at the start of each round`);
    assert.equal(mine[0].at.rows, TABLE_SIZE, `${key}: round 1 starts from the load`);
    assert.deepEqual(mine[1].at, mine[0].at, `${key}: round 2 starts with round 1's rows and checksum`);
  }
  for (const record of outcome.records) {
    const by = Object.fromEntries(record.steps.map((s) => [s.name, s]));
    // Round 1's insert added rows: without the restore, round 2 would have read them.
    assert.ok(by.insert.repeats.every((/** @type {any} */ r) => r.status === 'ok' && r.throughput * r.durationS > 100), 'each insert repeat added rows');
    assert.equal(by.scan.repeats.length, 2);
    for (const rep of by.scan.repeats) {
      assert.equal(rep.status, 'ok', rep.reason ?? '');
      const raw = await readFile(join(base, 'results', 'logs', record.id, `scan.r${rep.index}.txt`), 'utf8');
      assert.ok(raw.includes(`x ${TABLE_SIZE} rows per event`), 'the raw log names the counted rows');
      // rows/s = events/s x rows read per event: the counted rows, the same in both rounds.
      assert.ok(Math.abs(/** @type {number} */ (rep.throughput) / /** @type {number} */ (rep.tps) - TABLE_SIZE) < 1e-3 * TABLE_SIZE,
        `${record.release.version} scan round ${(rep.instance ?? 0) + 1}: ${rep.throughput} rows/s over ${rep.tps} scans/s`);
    }
  }
  // The snapshot was a copy; the last round takes the snapshot itself, moved into place.
  assert.match(log, /snapshot mariadb@10\.11\.18 after the load: [\d.]+ MB copied in [\d.]+ s/);
  assert.match(log, /restore mariadb@10\.11\.18 for round 2: the snapshot moved into place/);
});

test('a round whose snapshot cannot be put back fails with the reason, and no server is started on a partial datadir', async () => {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-rounds-fail-'));
  let stops = 0;
  const server = { datadir: join(base, 'data'), isAlive: () => false, stop: async () => { stops += 1; return { code: 0, signal: null, expected: true }; } };
  const state = /** @type {any} */ ({ server, serverOptions: { workDir: base }, install: {}, snapshotDir: join(base, 'data.after-load') });
  const lines = /** @type {string[]} */ ([]);
  const missing = await restoreForRound(state, 'mariadb@10.11.18', { round: 2, last: false }, (t) => lines.push(t));
  assert.equal(missing.ok, false);
  assert.match(missing.ok ? '' : missing.reason, /cannot restore the datadir for round 2 .*no snapshot at .*data\.after-load/);
  assert.equal(stops, 1, 'the server was stopped cleanly first');
  assert.equal(state.server, server, 'no new server was started');
  delete state.snapshotDir;
  const none = await restoreForRound(state, 'mariadb@10.11.18', { round: 3, last: true }, (t) => lines.push(t));
  assert.match(none.ok ? '' : none.reason, /round 3: no snapshot of the datadir to restore/);
  assert.deepEqual(lines, [], 'nothing reported as restored');
});
