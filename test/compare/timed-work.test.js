// The work counters of the timed repeats in compare (scripts/compare/timed-work.js), on real
// records: MariaDB 10.11.18 and 10.11.19 side by side on this 2-core VM at 19:36 on 2026-11-28
// (runReleases with the wall meter alone, as made-up-meters.test.js runs: point-query, 2 repeats of 2 s, 2,000
// rows, load about 17: figures of work per operation, not of time), each timed repeat with its
// meters.work. Medians per side, the most moved first, never a verdict, even in a run that
// names the work meter but stopped before its counted phase.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { compareRuns, resolveThresholds } from '../../scripts/compare/index.js';
import { summarizeTimedWork, renderTimedWork, counterWords } from '../../scripts/compare/timed-work.js';
import { loadConfig } from '../../scripts/config/index.js';
import { recordMeterMetrics } from '../../scripts/metrics/index.js';
import { validateRecord } from '../../scripts/store/index.js';

const dir = new URL('../fixtures/compare/timed-work/', import.meta.url);
/** @type {import('../../scripts/types.js').RunRecord[]} */
const records = readdirSync(dir).map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')));
const side = (/** @type {string} */ v) => records.filter((r) => r.release.version === v);

test('medians per side of the real repeats, the most moved first, a missing counter with its reason', () => {
  for (const r of records) assert.deepEqual(validateRecord(r), [], `${r.id}: a valid record, meters.work and all`);
  const [row, ...others] = summarizeTimedWork(side('10.11.18'), side('10.11.19'), ['point-query']);
  assert.equal(others.length, 0);
  assert.deepEqual(row.repeats, { base: 2, candidate: 2 });
  const rows = Object.fromEntries(row.counters.map((x) => [x.counter, x]));
  // One row by primary key per point select, on both releases.
  assert.ok(Math.abs(/** @type {number} */ (rows.rowsRead.base) - 1) < 0.001 && Math.abs(/** @type {number} */ (rows.rowsRead.candidate) - 1) < 0.001, JSON.stringify(rows.rowsRead));
  assert.equal(rows.tableScanRows.base, 0, 'the status reads\' own scans were taken off');
  assert.deepEqual(rows.logFsyncs, { counter: 'logFsyncs', base: null, candidate: null, missing: 'MariaDB reports no Innodb_os_log_fsyncs (10.5.23, 10.11.18, 11.8.9 checked)' });
  const score = (/** @type {{base: number|null, candidate: number|null}} */ x) => (x.base === null || x.candidate === null ? -1 : Math.abs(Math.log((x.candidate + 0.01) / (x.base + 0.01))));
  for (let i = 1; i < row.counters.length; i += 1) assert.ok(score(row.counters[i - 1]) >= score(row.counters[i]), 'most moved first');
  assert.equal(row.counters.at(-1)?.base, null, 'counters without figures last');
});

test('shown beside the timed verdicts, as context with the reason, three counters', () => {
  const cmp = { timedWork: summarizeTimedWork(side('10.11.18'), side('10.11.19'), ['point-query']) };
  const md = renderTimedWork(cmp, 'markdown');
  assert.match(md, /\n\*\*Server work on the timed repeats\*\* \(.*context, not gated: each release did as much work as it managed.*\):\n\n- point-query: /);
  const line = md.split('\n').find((l) => l.startsWith('- point-query: ')) ?? '';
  assert.equal(line.split(', ').length, 3, line);
  assert.match(line, /rows read\/op 1\.00 → 1\.00/);
  // The terminal names a test only when a counter moved by 5 % or more: here none did.
  const text = renderTimedWork(cmp, 'text');
  assert.match(text, /server work per operation on the timed repeats, base → candidate \(.*context, not gated.*\):\n  1 test: no counter moved by 5 % or more \(every test in --markdown \/ --json\)\n$/);
  // As if the candidate wrote a page every 3 operations more: named, first.
  const moved = structuredClone(cmp);
  moved.timedWork[0].counters.unshift({ counter: 'pagesWritten', base: 0.21, candidate: 0.34 });
  assert.match(renderTimedWork(moved, 'text'), /\n  point-query: pages written\/op 0\.210 → 0\.340, /);
  assert.equal(renderTimedWork({}, 'text'), '');
  assert.equal(counterWords('rocksdbCompactBytesWritten'), 'rocksdb compact bytes written');
});

test('a run naming the work meter that stopped before its counted phase: the timed figures are still not judged', async () => {
  const config = await loadConfig(new URL('../..', import.meta.url).pathname);
  const withWork = (/** @type {string} */ v) => side(v).map((r) => ({ ...r, config: {
    ...r.config, meters: ['wall', 'work'], meterMetrics: recordMeterMetrics(['wall', 'work']),
    meterSetup: { work: { wrapper: [], mycnf: {}, counting: { rounds: 3, repeats: 1, warmupShare: 0.3 }, dependsOn: {} } },
  } }));
  const cmp = compareRuns({ base: { version: '10.11.18', records: withWork('10.11.18') }, candidate: { version: '10.11.19', records: withWork('10.11.19') }, thresholds: resolveThresholds(config.thresholds), createdAt: '2026-11-28T19:40:00Z' });
  assert.deepEqual(cmp.tests.filter((t) => /** @type {any} */ (t).meter === 'work'), [], 'no verdict of the work meter from timed repeats');
  assert.equal(cmp.timedWork?.length, 1, 'but shown as context');
});
