// The site's insert-benchmark and LinkBench views (build-sequence-data.js) on the real
// insert-smoke records of test/fixtures/sequence/, through groupTables as the builder calls it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildSequenceData, splitEngines } from '../../scripts/site-build/build-sequence-data.js';
import { buildSeries } from '../../scripts/site-build/build-series.js';
import { dataPaths } from '../../site/js/paths.js';

const DIR = new URL('../fixtures/sequence/insert-smoke/', import.meta.url).pathname;
/** @type {import('../../scripts/types.js').RunRecord[]} */
const records = readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(DIR, f), 'utf8')));
const releases = ['10.11.18', '10.11.19'].map((version) => ({ version, records: records.filter((r) => r.release.version === version), comparison: null }));
/** A table group as groupTables gives it; only `releases` is read by the code under test. */
const group = /** @type {any} */ ({ releases });
const allSeries = new Set(records.flatMap((r) => [...buildSeries(r).keys()]));

describe('buildSequenceData', () => {
  it('links each insert step\'s charted repeat to its series file, when that file exists', () => {
    const view = /** @type {NonNullable<ReturnType<typeof buildSequenceData>>} */ (buildSequenceData(group, allSeries));
    const li0 = /** @type {any} */ (view.insert.find((s) => s.test === 'l.i0'));
    for (const r of li0.releases) {
      const rec = records.find((x) => x.release.version === r.version);
      assert.equal(r.series, dataPaths.series({ runId: /** @type {any} */ (rec).id, test: 'l.i0' }));
      assert.ok(r.repeat === 0 || r.repeat === 1);
    }
    const none = /** @type {NonNullable<ReturnType<typeof buildSequenceData>>} */ (buildSequenceData(group, new Set()));
    assert.ok(none.insert.every((s) => s.releases.every((r) => r.series === null && r.repeat === null)), 'no file, no link');
    assert.equal(view.linkbench, null);
  });

  it('is null for a table of neither benchmark', () => {
    const sysbench = records.map((r) => ({ ...r, steps: r.steps.map((s) => ({ ...s, kind: /** @type {const} */ ('sysbench') })) }));
    assert.equal(buildSequenceData(/** @type {any} */ ({ releases: [{ version: '10.11.18', records: sysbench, comparison: null }] }), allSeries), null);
  });
});

describe('splitEngines', () => {
  it('one engine: the releases as they are; several: a line per release and engine, named as compare names them', () => {
    assert.equal(splitEngines(/** @type {any} */ (releases)), releases);
    // A stand-in for a MyRocks run: the real 10.11.19 record relabelled; only config.engine is
    // read here, and it is one of the run record's engines.
    const rocks = { ...records[1], config: { ...records[1].config, engine: /** @type {const} */ ('rocksdb') } };
    const mixed = [{ version: '10.11.19', records: [records.find((r) => r.release.version === '10.11.19'), rocks] }];
    assert.deepEqual(splitEngines(/** @type {any} */ (mixed)).map((r) => [r.version, r.records.map((x) => x.config.engine)]),
      [['10.11.19#innodb', ['innodb']], ['10.11.19#rocksdb', ['rocksdb']]]);
  });
});
