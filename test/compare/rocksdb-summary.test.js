/**
 * RocksDB's figures in a comparison: per test and side, medians of write amplification, stall
 * seconds and SST bytes per raw byte, from the repeats that carry Repeat.rocksdb; informational
 * rows that change no verdict and leave the Holm family as it was; schema-valid; rendered in the
 * terminal and in Markdown.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, resolveThresholds, renderComparison } from '../../scripts/compare/index.js';
import { summarizeRocksdb } from '../../scripts/compare/rocksdb-summary.js';
import { validateComparison } from '../../scripts/store/index.js';
import { makeRecord } from './make-record.js';

const thresholds = resolveThresholds({ groups: { point: { warn: 0.03, issue: 0.05 }, write: { warn: 0.03, issue: 0.05 } } });

/**
 * @param {number} writeAmp
 * @param {number} stallMicros
 * @param {{bytes: number, rawBytes: number}|null} sst
 * @returns {import('../../scripts/types.js').RocksdbFigures}
 */
function figures(writeAmp, stallMicros, sst) {
  return {
    userBytesWritten: 1000, walBytesWritten: 1100, flushBytesWritten: writeAmp * 1000, compactionBytesWritten: 0, compactionBytesRead: 0,
    writeAmp, stallMicros, stallSlowdowns: stallMicros > 0 ? 1 : 0, stallStops: 0, stallsByCause: {}, memtableBytes: 0,
    levels: [{ level: 'L0', files: 1, bytes: 10 }], sst: sst ? { files: 2, ...sst } : null,
  };
}

/**
 * A record whose update-index repeats carry the given figures (a MyRocks server) or none (InnoDB).
 * @param {string} id
 * @param {import('../../scripts/types.js').RocksdbFigures[]|null} perRepeat
 */
function record(id, perRepeat) {
  const r = makeRecord({ id, version: id, steps: [{ name: 'point-query', group: 'point', throughput: [1000, 1010, 990] }, { name: 'update-index', group: 'write', throughput: [500, 505, 495] }] });
  if (perRepeat) {
    r.config = { ...r.config, engine: 'rocksdb' };
    const step = r.steps[1];
    step.repeats = step.repeats.map((rep, i) => ({ ...rep, rocksdb: perRepeat[i] }));
  }
  return r;
}

const INNODB = record('innodb', null);
const ROCKSDB = record('rocksdb', [figures(3, 0, { bytes: 400, rawBytes: 1000 }), figures(5, 2_000_000, { bytes: 500, rawBytes: 1000 }), figures(4, 500_000, null)]);

test('medians per side; null for a side without figures; tests without any are left out', () => {
  const rows = summarizeRocksdb([INNODB], [ROCKSDB], ['point-query', 'update-index']);
  assert.deepEqual(rows, [{ test: 'update-index', base: null, candidate: { repeats: 3, writeAmp: 4, stallS: 0.5, spaceAmp: 0.45 } }]);
  // A repeat that wrote nothing has no write amplification: the median is over the others; none at all gives null.
  const idle = record('idle', [{ ...figures(0, 0, null), writeAmp: null }, figures(2, 0, null), { ...figures(0, 0, null), writeAmp: null }]);
  assert.deepEqual(summarizeRocksdb([idle], [idle], ['update-index'])[0].base, { repeats: 3, writeAmp: 2, stallS: 0, spaceAmp: null });
  // Failed repeats and repeats whose figures could not be read (null) count for nothing.
  const failed = record('failed', [figures(9, 0, null), null, figures(1, 0, null)].map((f) => /** @type {any} */ (f)));
  failed.steps[1].repeats[0] = { ...failed.steps[1].repeats[0], status: /** @type {any} */ ('failed') };
  assert.deepEqual(summarizeRocksdb([failed], [], ['update-index'])[0].base, { repeats: 1, writeAmp: 1, stallS: 0, spaceAmp: null });
  assert.deepEqual(summarizeRocksdb([INNODB], [INNODB], ['point-query', 'update-index']), []);
});

test('a comparison carries the rows beside its verdicts: same verdicts, same Holm family, schema-valid', () => {
  const withFigures = compareRuns({ base: { version: '10.11.18-innodb', records: [INNODB] }, candidate: { version: '10.11.18-rocksdb', records: [ROCKSDB] }, thresholds, createdAt: '2026-11-22T00:00:00Z' });
  const withoutFigures = compareRuns({ base: { version: '10.11.18-innodb', records: [INNODB] }, candidate: { version: '10.11.18-rocksdb', records: [record('rocksdb', null)] }, thresholds, createdAt: '2026-11-22T00:00:00Z' });
  assert.deepEqual(withFigures.rocksdb, [{ test: 'update-index', base: null, candidate: { repeats: 3, writeAmp: 4, stallS: 0.5, spaceAmp: 0.45 } }]);
  assert.equal('rocksdb' in withoutFigures, false, 'no RocksDB figures, no key');
  const { rocksdb: _rows, ...rest } = withFigures;
  assert.deepEqual(rest, withoutFigures, 'verdicts, summary and family are those of the same records without figures');
  assert.ok(withFigures.family, 'the family is there to compare');
  assert.deepEqual(validateComparison(withFigures), []);
  // The schema checks the rows too.
  const bad = { ...withFigures, rocksdb: [{ test: 'update-index', base: null, candidate: { repeats: 0, writeAmp: 'x', stallS: -1, spaceAmp: null } }] };
  assert.ok(validateComparison(bad).length >= 3, validateComparison(bad).join('\n'));
});

test('rendered as an informational table in the terminal and in Markdown', () => {
  const cmp = compareRuns({ base: { version: '10.11.18-innodb', records: [INNODB] }, candidate: { version: '10.11.18-rocksdb', records: [ROCKSDB] }, thresholds, createdAt: 'x' });
  const term = renderComparison(cmp, { format: 'terminal' });
  assert.match(term, /RocksDB figures, base → candidate \(informational, never judged/);
  assert.match(term, /^ {2}test +repeats +write amp +stalls \(s\) +SST bytes \/ raw$/m);
  assert.match(term, /^ {2}update-index +0 vs 3 +– → 4\.00 +– → 0\.500 +– → 0\.450$/m);
  const md = renderComparison(cmp, { format: 'markdown' });
  assert.match(md, /\| test \| repeats \| write amp \| stalls \(s\) \| SST bytes \/ raw \|\n\| --- \| ---: \| ---: \| ---: \| ---: \|\n\| update-index \| 0 vs 3 \| – → 4\.00 \| – → 0\.500 \| – → 0\.450 \|\n/);
  // Without figures, no such section.
  const plain = compareRuns({ base: { version: 'a', records: [INNODB] }, candidate: { version: 'b', records: [INNODB] }, thresholds, createdAt: 'x' });
  assert.doesNotMatch(renderComparison(plain, { format: 'terminal' }) + renderComparison(plain, { format: 'markdown' }), /RocksDB/);
});
