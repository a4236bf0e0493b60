// The release page's per-operation response times (build-latency-data.js) from real records:
// LinkBench's and the insert benchmark's runs of test/fixtures/sequence/ (10.11.18 and 10.11.19,
// two runs each) and the demo's record of all three benchmarks (bench/store-scale/).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildLatencyData } from '../../scripts/site-build/build-latency-data.js';
import { buildReleaseData } from '../../scripts/site-build/build-release-data.js';

const FIXTURES = new URL('../fixtures/sequence/', import.meta.url).pathname;
/** @param {string} suite @returns {import('../../scripts/types.js').RunRecord[]} */
const recordsOf = (suite) => readdirSync(join(FIXTURES, suite)).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(FIXTURES, suite, f), 'utf8')));
const DEMO = JSON.parse(readFileSync(new URL('../../bench/store-scale/template-record.json', import.meta.url), 'utf8'));

/**
 * A table group as groupTables gives it (only releases and defaultBase are read for the latencies).
 * @param {import('../../scripts/types.js').RunRecord[]} records
 * @param {string|null} defaultBase
 */
function tableOf(records, defaultBase) {
  const versions = [...new Set(records.map((r) => r.release.version))].sort();
  return /** @type {any} */ ({
    defaultBase,
    releases: versions.map((version) => ({ version, records: records.filter((r) => r.release.version === version), superseded: [], comparison: null })),
  });
}

/** Median, computed here apart from the site build. */
function median(/** @type {number[]} */ xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * One figure of one operation over a release's repeats, read from the records as written.
 * @param {import('../../scripts/types.js').RunRecord[]} records
 * @param {string} version @param {string} step
 * @param {(rep: any) => number|undefined} pick
 */
function recorded(records, version, step, pick) {
  return records.filter((r) => r.release.version === version)
    .flatMap((r) => r.steps.filter((s) => s.name === step).flatMap((s) => s.repeats))
    .map(pick).filter((v) => typeof v === 'number');
}

describe('buildLatencyData', () => {
  const linkbench = recordsOf('linkbench-smoke');
  const insert = recordsOf('insert-smoke');

  it('LinkBench: every timed operation of every phase, the release\'s medians beside its base\'s; row counts left out', () => {
    const table = tableOf(linkbench, '10.11.18');
    const data = /** @type {NonNullable<ReturnType<typeof buildLatencyData>>} */ (buildLatencyData(table, table.releases[1]));
    assert.deepEqual(data.base, { version: '10.11.18', source: 'default base' });
    assert.equal(data.ibench, null);
    const lb = /** @type {NonNullable<typeof data.linkbench>} */ (data.linkbench);
    assert.deepEqual(lb.formats, ['hdr']);
    assert.deepEqual([...new Set(lb.rows.map((r) => r.step))], ['linkbench.load', 'linkbench.request.1'], 'the index step times nothing');
    const ops = lb.rows.filter((r) => r.step === 'linkbench.request.1').map((r) => r.op);
    for (const op of ['ADD_NODE', 'GET_NODE', 'ADD_LINK', 'DELETE_LINK', 'UPDATE_LINK', 'COUNT_LINK', 'GET_LINKS_LIST']) assert.ok(ops.includes(op), `${op} is shown`);
    assert.ok(!ops.includes('RANGE_SIZE'), 'a row count is not a latency');
    const addLink = /** @type {any} */ (lb.rows.find((r) => r.step === 'linkbench.request.1' && r.op === 'ADD_LINK'));
    const opOf = (/** @type {any} */ rep) => rep.details.linkbench.operations.find((/** @type {any} */ o) => o.op === 'ADD_LINK');
    for (const [side, version] of /** @type {const} */ ([['release', '10.11.19'], ['base', '10.11.18']])) {
      const p99 = recorded(linkbench, version, 'linkbench.request.1', (rep) => opOf(rep)?.percentiles.p99.ms);
      assert.equal(p99.length, 2, 'a run of two repeats');
      assert.equal(addLink[side].repeats, 2);
      assert.equal(addLink[side].failedRepeats, 0);
      assert.equal(addLink[side].ms.p99, median(p99), `${version} p99`);
      assert.equal(addLink[side].ms.mean, median(recorded(linkbench, version, 'linkbench.request.1', (rep) => opOf(rep)?.meanMs)));
      assert.equal(addLink[side].count, median(recorded(linkbench, version, 'linkbench.request.1', (rep) => opOf(rep)?.count)));
    }
    assert.notEqual(addLink.release.ms.p99, addLink.base.ms.p99, 'the two sides are read from their own records');
  });

  it('the insert benchmark: insert, delete and query per step as recorded, failed keep-up repeats counted as such; l.x, which times no statement, has no row', () => {
    const table = tableOf(insert, '10.11.18');
    const data = /** @type {NonNullable<ReturnType<typeof buildLatencyData>>} */ (buildLatencyData(table, table.releases[1]));
    const ib = /** @type {NonNullable<typeof data.ibench>} */ (data.ibench);
    assert.deepEqual(ib.columns, ['avg', 'p50', 'p95', 'p99', 'max']);
    assert.deepEqual(ib.formats, ['fine-2pct']);
    assert.ok(!ib.rows.some((r) => r.step === 'l.x'));
    assert.deepEqual(ib.rows.filter((r) => r.step === 'l.i0').map((r) => r.op), ['insert'], 'l.i0 only inserts');
    assert.deepEqual(ib.rows.filter((r) => r.step === 'qr100').map((r) => r.op), ['insert', 'delete', 'query']);
    // Both releases' writers missed their target at 1000 inserts/s: the repeats failed, and their
    // times are what the reader needs to see why.
    const query = /** @type {any} */ (ib.rows.find((r) => r.step === 'qr1000' && r.op === 'query'));
    assert.deepEqual([query.release.repeats, query.release.failedRepeats], [2, 2]);
    assert.equal(/** @type {any} */ (ib.rows.find((r) => r.step === 'qr100' && r.op === 'query')).release.failedRepeats, 0);
    // A percentile as the whole ms the clock read (recorded: its 2 % bucket's edge, e.g. 87.373).
    assert.equal(query.release.ms.p99, median(recorded(insert, '10.11.19', 'qr1000', (rep) => Math.floor(rep.details.ibench.responseMs.query?.p99Ms))));
    assert.equal(query.base.ms.max, median(recorded(insert, '10.11.18', 'qr1000', (rep) => rep.details.ibench.responseMs.query?.maxMs)));
  });

  it('the base itself has no base; a release with a comparison is shown beside that comparison\'s base', () => {
    const table = tableOf(insert, '10.11.18');
    const own = /** @type {NonNullable<ReturnType<typeof buildLatencyData>>} */ (buildLatencyData(table, table.releases[0]));
    assert.equal(own.base, null);
    assert.ok(own.ibench?.rows.every((r) => r.base === null && r.release !== null));
    // 10.11.18 compared with 10.11.19 (the line's default base being 10.11.18 itself).
    const compared = { ...table.releases[0], comparison: { comparison: { base: { version: '10.11.19', runIds: [] } } } };
    assert.deepEqual(buildLatencyData(table, compared)?.base, { version: '10.11.19', source: 'comparison' });
  });

  it('runs of two engines are told apart, not mixed into one median', () => {
    // A stand-in for a MyRocks run of 10.11.19: its real record relabelled (only config.engine is read for this).
    const real = /** @type {import('../../scripts/types.js').RunRecord} */ (linkbench.find((r) => r.release.version === '10.11.19'));
    const rocks = { ...real, id: `${real.id}-rocks`, config: { ...real.config, engine: /** @type {const} */ ('rocksdb') } };
    const table = tableOf([...linkbench, rocks], '10.11.18');
    const rows = /** @type {any} */ (buildLatencyData(table, table.releases[1])).linkbench.rows.filter((/** @type {any} */ r) => r.step === 'linkbench.request.1' && r.op === 'ADD_LINK');
    assert.deepEqual(rows.map((/** @type {any} */ r) => [r.engine, r.release?.repeats ?? 0, r.base?.repeats ?? 0]), [['innodb', 2, 2], ['rocksdb', 2, 0]]);
    const one = /** @type {any} */ (buildLatencyData(tableOf(linkbench, '10.11.18'), tableOf(linkbench, '10.11.18').releases[1])).linkbench.rows;
    assert.ok(one.every((/** @type {any} */ r) => r.engine === null), 'one engine: not named');
  });

  it('the demo\'s record of all three benchmarks: both tables, in the release file; a sysbench-only release has none', () => {
    const table = tableOf([DEMO], null);
    const rel = table.releases[0];
    const data = /** @type {any} */ (buildReleaseData({ ...table, key: { host: 'local', product: 'mariadb', line: '10.11', suite: 'demo' }, tests: [], baseline: null, productName: 'MariaDB' }, rel).data);
    assert.equal(data.latencies.base, null);
    assert.ok(data.latencies.linkbench.rows.some((/** @type {any} */ r) => r.step === 'linkbench.request.1' && r.op === 'GET_LINKS_LIST' && r.release.repeats === 3));
    assert.ok(data.latencies.ibench.rows.some((/** @type {any} */ r) => r.step === 'qp1000' && r.op === 'query' && r.release.ms.p95 > 0));
    const sysbenchOnly = { ...DEMO, steps: DEMO.steps.filter((/** @type {any} */ s) => s.kind === 'sysbench') };
    assert.equal(buildLatencyData(tableOf([sysbenchOnly], null), tableOf([sysbenchOnly], null).releases[0]), null);
  });
});
