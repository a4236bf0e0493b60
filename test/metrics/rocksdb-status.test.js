/**
 * MyRocks parsers and per-step figures on output captured from real MariaDB servers
 * (test/fixtures/metrics/rocksdb/, re-captured by test/metrics/rocksdb-capture-fixtures.js):
 * 10.5.23, 10.11.18 and 11.8.6 with configs/mycnf/rocksdb.cnf; moments after the sysbench load,
 * after a 10 s update-index step, after a memtable flush and after the postwrite step.
 * Where two sources report the same quantity (STATISTICS counters and SHOW GLOBAL STATUS, the
 * compaction table and the SST properties), the test checks that they agree.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseRocksdbEngineStatus, parseCompactionStats, sumSstProps } from '../../scripts/metrics/parse-rocksdb-status.js';
import { computeRocksdbFigures } from '../../scripts/metrics/compute-rocksdb-figures.js';
import { validateRecord } from '../../scripts/store/index.js';

const VERSIONS = ['10.5.23', '10.11.18', '11.8.6'];
const MOMENTS = ['after-load', 'after-write', 'after-flush', 'after-postwrite'];
/** @param {string} version @param {string} moment @param {string} kind */
const fixture = (version, moment, kind) =>
  JSON.parse(readFileSync(new URL(`../fixtures/metrics/rocksdb/${version}-${moment}.${kind}.json`, import.meta.url), 'utf8'));

for (const version of VERSIONS) {
  test(`${version}: engine status parses, and agrees with SHOW GLOBAL STATUS and the SST properties`, () => {
    for (const moment of MOMENTS) {
      const where = `${version} ${moment}`;
      const parsed = parseRocksdbEngineStatus(fixture(version, moment, 'engine-status'));
      const status = fixture(version, moment, 'global-status');
      const sst = sumSstProps(fixture(version, moment, 'sst-props'));
      assert.deepEqual(parsed.columnFamilies.map((c) => c.name).sort(), ['__system__', 'default'], where);
      assert.ok(parsed.dbStats && parsed.dbStats.uptimeS !== null && parsed.dbStats.uptimeS > 0, `${where}: uptime`);
      // A 50k-row load stalls nothing on this template: the stall line reads 0 s, 0 percent.
      assert.equal(parsed.dbStats?.stallS, 0, where);
      assert.equal(parsed.dbStats?.stallPct, 0, where);
      // Two sources of the same counters, read a moment apart with no writes in between.
      assert.equal(parsed.counters['rocksdb.bytes.written'], Number(status.Rocksdb_bytes_written), `${where}: bytes written`);
      assert.equal(parsed.counters['rocksdb.flush.write.bytes'], Number(status.Rocksdb_flush_write_bytes), `${where}: flush bytes`);
      assert.equal(parsed.counters['rocksdb.stall.micros'], Number(status.Rocksdb_stall_micros), `${where}: stall micros`);
      const flushGb = parsed.columnFamilies.reduce((s, c) => s + (c.flushGb ?? 0), 0);
      assert.ok(Math.abs(flushGb - Number(status.Rocksdb_flush_write_bytes) / 2 ** 30) < 0.002, `${where}: Flush(GB) ${flushGb} vs counter ${status.Rocksdb_flush_write_bytes}`);
      for (const cf of parsed.columnFamilies) {
        const sum = cf.levels.find((l) => l.level === 'Sum');
        assert.ok(sum, `${where} ${cf.name}: Sum row`);
        const levels = cf.levels.filter((l) => l.level !== 'Sum');
        // An empty column family prints its Sum row only.
        if (sum.files > 0) assert.equal(levels[0]?.level, 'L0', `${where} ${cf.name}: L0 first`);
        assert.equal(sum.files, levels.reduce((s, l) => s + l.files, 0), `${where} ${cf.name}: Sum files`);
        // Sizes are printed to 2 decimals of their unit: the sum agrees within that rounding.
        assert.ok(Math.abs(sum.bytes - levels.reduce((s, l) => s + l.bytes, 0)) <= 0.01 * sum.bytes + 1024, `${where} ${cf.name}: Sum bytes`);
        assert.ok(sum.writeAmp !== null && sum.writeAmp >= 0, `${where} ${cf.name}: W-Amp column read`);
        assert.deepEqual(Object.keys(cf.stalls), [
          'level0_slowdown', 'level0_slowdown_with_compaction', 'level0_numfiles', 'level0_numfiles_with_compaction',
          'stop_for_pending_compaction_bytes', 'slowdown_for_pending_compaction_bytes', 'memtable_compaction', 'memtable_slowdown',
        ], `${where} ${cf.name}: Stalls(count) causes`);
      }
      // The compaction table and the SST properties count the same files.
      const files = parsed.columnFamilies.reduce((s, c) => s + (c.levels.find((l) => l.level === 'Sum')?.files ?? 0), 0);
      assert.equal(files, sst.files, `${where}: SST files`);
      const tableBytes = parsed.columnFamilies.reduce((s, c) => s + (c.levels.find((l) => l.level === 'Sum')?.bytes ?? 0), 0);
      assert.ok(sst.bytes <= tableBytes * 1.02 && sst.bytes >= tableBytes * 0.9, `${where}: SST blocks ${sst.bytes} vs compaction table ${tableBytes}`);
    }
  });
}

test('10.11.18: the template\'s compressions reach the files (ZSTD bulk-loaded, LZ4 flushed), one L0 file after the flush', () => {
  const sst = sumSstProps(fixture('10.11.18', 'after-flush', 'sst-props'));
  assert.deepEqual(Object.keys(sst.bytesByCompression).sort(), ['LZ4', 'ZSTD']);
  const def = parseRocksdbEngineStatus(fixture('10.11.18', 'after-flush', 'engine-status')).columnFamilies.find((c) => c.name === 'default');
  const l0 = def?.levels.find((l) => l.level === 'L0');
  assert.equal(l0?.files, 1);
  assert.ok(l0 && l0.bytes > 15 * 2 ** 20 && l0.bytes < 25 * 2 ** 20, `L0 holds the flushed memtable: ${l0?.bytes}`);
});

test('figures of a step: write amplification from the counters, stalls by cause, LSM tree and SST files at the end', () => {
  for (const version of VERSIONS) {
    const before = fixture(version, 'after-load', 'global-status');
    const write = fixture(version, 'after-write', 'global-status');
    const flush = fixture(version, 'after-flush', 'global-status');
    // The write step itself: rows went to the memtable and the WAL, nothing was flushed yet.
    const step = computeRocksdbFigures({ statusBefore: before, statusAfter: write, engineStatusAfter: fixture(version, 'after-write', 'engine-status'), sstPropsAfter: fixture(version, 'after-write', 'sst-props') });
    assert.ok(step, version);
    assert.equal(step.userBytesWritten, Number(write.Rocksdb_bytes_written) - Number(before.Rocksdb_bytes_written));
    assert.ok(step.userBytesWritten > 100_000, `${version}: 10 s of update-index writes (${step.userBytesWritten} bytes)`);
    assert.ok(step.walBytesWritten > 0);
    assert.equal(step.flushBytesWritten, 0, `${version}: the memtable was not flushed during the step`);
    assert.equal(step.writeAmp, 0);
    assert.ok(step.memtableBytes > 0, `${version}: the step's writes wait in the memtable`);
    assert.deepEqual(Object.keys(step.stallsByCause), [
      'l0_file_count_limit_slowdowns', 'l0_file_count_limit_stops', 'locked_l0_file_count_limit_slowdowns', 'locked_l0_file_count_limit_stops',
      'memtable_limit_slowdowns', 'memtable_limit_stops', 'pending_compaction_limit_slowdowns', 'pending_compaction_limit_stops',
    ]);
    assert.equal(step.stallMicros + step.stallSlowdowns + step.stallStops, 0);
    assert.deepEqual(step.sst, { files: 2, bytes: step.sst?.bytes, rawBytes: step.sst?.rawBytes });
    // Load + write + flush as one window: the flush wrote the rows the load and the step put in the memtable.
    const both = computeRocksdbFigures({ statusBefore: before, statusAfter: flush, engineStatusAfter: fixture(version, 'after-flush', 'engine-status'), sstPropsAfter: null });
    assert.ok(both && both.flushBytesWritten > 10 * 2 ** 20, `${version}: flush bytes ${both?.flushBytesWritten}`);
    assert.equal(both.writeAmp, (both.flushBytesWritten + both.compactionBytesWritten) / both.userBytesWritten);
    assert.equal(both.sst, null);
    assert.equal(both.levels[0].level, 'L0');
    // One file per column family: default holds the rows, __system__ MyRocks' data dictionary.
    assert.equal(both.levels[0].files, 2, `${version}: the flush made one L0 file per column family`);
    assert.ok(both.levels.some((l) => l.level === 'L6' && l.files === 2), `${version}: the two bulk-loaded index files sit at the bottom: ${JSON.stringify(both.levels)}`);
    // A repeat with these figures is a valid run-record repeat.
    assert.deepEqual(validateRecord(recordWith(step)), []);
  }
});

test('not a MyRocks server: no Rocksdb_* counters, no figures; broken input fails with what it got', () => {
  assert.equal(computeRocksdbFigures({ statusBefore: { Questions: '1' }, statusAfter: { Questions: '9' }, engineStatusAfter: null, sstPropsAfter: null }), null);
  const before = fixture('10.11.18', 'after-load', 'global-status');
  const after = { ...fixture('10.11.18', 'after-write', 'global-status') };
  delete after.Rocksdb_compact_write_bytes;
  assert.throws(() => computeRocksdbFigures({ statusBefore: before, statusAfter: after, engineStatusAfter: null, sstPropsAfter: null }), /Rocksdb_compact_write_bytes missing or not a number/);
  assert.throws(() => parseRocksdbEngineStatus([{ Variable_name: 'x', Value: '1' }]), /not a SHOW ENGINE ROCKSDB STATUS row/);
  assert.throws(() => sumSstProps([{ SST_NAME: '1.sst' }]), /not an information_schema.ROCKSDB_SST_PROPS row/);
  // A report whose level table lost its header (a format change) is refused, not read as empty.
  const text = fixture('10.11.18', 'after-flush', 'engine-status').find((/** @type {any} */ r) => r.Name === 'default').Status;
  assert.throws(() => parseCompactionStats('default', text.replace(/^Level\s+Files\s+Size.*$/m, '')), /no "Level Files Size" header/);
});

/**
 * The captured record of the store fixtures with one repeat carrying `rocksdb`.
 * @param {import('../../scripts/types.js').RocksdbFigures} figures
 */
function recordWith(figures) {
  const dir = new URL('../fixtures/github/captured-store/runs/local/mariadb/10.11.18/smoke/', import.meta.url);
  const record = JSON.parse(readFileSync(new URL('20261121T135507Z-local-mariadb-10.11.18-smoke-495fd6.json', dir), 'utf8'));
  const step = record.steps.find((/** @type {any} */ s) => s.repeats.length > 0);
  step.repeats[0].rocksdb = figures;
  return record;
}
