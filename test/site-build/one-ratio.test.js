/**
 * One ratio everywhere (issue 35, Build items 2 and 5), from one real comparison: the insert
 * benchmark's smoke run of MariaDB 10.11.18 against 10.11.19 (test/fixtures/sequence/insert-smoke/,
 * records a real `tagbench run` wrote, the two releases side by side and so paired by round),
 * judged by compareRuns with the project's thresholds. Every test's ratio must be one string in
 * the site's data as the pages print it (line table, test history, release page), the CSV, the
 * Markdown report and the terminal. Its l.x step ran 0.4–0.98 s: its throughput is refused
 * (minDurationS), and so is every other figure of those repeats; it is shown marked not judged,
 * with why, and left out of the Writes group mean.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRecord, writeComparison } from '../../scripts/store/index.js';
import { compareRuns, resolveThresholds, renderComparison, formatShownRatio } from '../../scripts/compare/index.js';
import { loadConfig } from '../../scripts/config/index.js';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { dataPaths } from '../../site/js/paths.js';
import { tableShownRatios, groupMeanRatios, groupSummary, geometricMean, shownAgainst } from '../../site/js/ratios.js';
import { PROJECT_ROOT } from './fixture-store.js';

const DIR = new URL('../fixtures/sequence/insert-smoke/', import.meta.url);
/** @type {import('../../scripts/types.js').RunRecord[]} */
const records = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(new URL(f, DIR), 'utf8')));
const [BASE, CAND] = ['10.11.18', '10.11.19'];
const KEY = { product: 'mariadb', line: '10.11', host: 'local', suite: 'insert-smoke' };

/** @type {string} */
let tmp;
/** @type {string} */
let out;
/** @type {import('../../scripts/compare/index.js').FullComparison} */
let comparison;

before(async () => {
  const config = await loadConfig(PROJECT_ROOT);
  // Paired from two rounds (the project asks for three): the fixture's two server instances per
  // release ran side by side, and a paired estimate differs from the medians' ratio, which is
  // what this test must tell apart.
  const thresholds = resolveThresholds(/** @type {any} */ ({ ...config.thresholds, pairedMinRounds: 2 }));
  const side = (/** @type {string} */ v) => ({ version: v, records: records.filter((r) => r.release.version === v) });
  comparison = compareRuns({ base: side(BASE), candidate: side(CAND), thresholds, createdAt: '2026-11-23T00:00:00Z' });
  tmp = await mkdtemp(join(tmpdir(), 'tagbench-one-ratio-'));
  const store = join(tmp, 'store');
  for (const r of records) await writeRecord(store, r);
  await writeComparison(store, comparison);
  out = join(tmp, 'site');
  await buildSite({ store, out, baselines: join(tmp, 'baselines'), configRoot: PROJECT_ROOT, now: new Date('2026-11-24T00:00:00Z') });
});

after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** @param {string} path */
async function readData(path) {
  return JSON.parse(await readFile(join(out, path), 'utf8'));
}

/**
 * Each test's throughput ratio of 10.11.19 against 10.11.18, per place it is shown.
 * @returns {Promise<Map<string, Record<string, string>>>} test → place → string
 */
async function ratiosEverywhere() {
  /** @type {Map<string, Record<string, string>>} */
  const found = new Map();
  const put = (/** @type {string} */ test, /** @type {string} */ where, /** @type {string} */ text) => found.set(test, { ...found.get(test), [where]: text });
  const table = await readData(dataPaths.table(KEY));
  const ci = table.releases.findIndex((/** @type {any} */ r) => r.version === CAND);
  // The line page: tableShownRatios against the base the reader picked (here the compared one).
  const line = tableShownRatios(table, BASE);
  table.tests.forEach((/** @type {any} */ t, /** @type {number} */ k) => put(t.name, 'line page', formatShownRatio(line[k][ci])));
  for (const t of table.tests) {
    const history = await readData(dataPaths.test({ ...KEY, test: t.name }));
    const h = history.releases.find((/** @type {any} */ r) => r.version === CAND);
    const b = history.releases.find((/** @type {any} */ r) => r.version === BASE);
    // The test page: shownAgainst, as site/js/pages/test.js calls it.
    put(t.name, 'test page', formatShownRatio(shownAgainst({ own: h.shown, comparedWith: h.comparedWith, base: BASE, version: CAND, baseMedian: b.median, median: h.median })));
  }
  const release = await readData(dataPaths.release({ ...KEY, version: CAND }));
  for (const t of release.tests) put(t.name, 'release page', formatShownRatio(t.shown));
  const csv = (await readFile(join(out, table.csv), 'utf8')).trim().split('\r\n').map((l) => l.split(','));
  const col = csv[0].indexOf(`${CAND} ratio`);
  for (const row of csv.slice(1)) if (row[2] !== 'instructions/op') put(row[0], 'CSV', row[col]);
  // The Markdown's "At a glance" rows: | test | ratio | …
  for (const m of renderComparison(comparison, { format: 'markdown' }).matchAll(/^\| ([\w.-]+) \| (\d+\.\d+) \|/gm)) put(m[1], 'Markdown', m[2]);
  // The terminal's verdict lines and its not-judged lines: test, then the ratio.
  for (const m of renderComparison(comparison, { format: 'terminal' }).matchAll(/^([\w.-]+) +(\d+\.\d+) /gm)) put(m[1], 'terminal', m[2]);
  return found;
}

describe('one ratio from one real comparison', () => {
  it('every test\'s ratio is the same string on the line, test and release pages, in the CSV, the Markdown and the terminal', async () => {
    const found = await ratiosEverywhere();
    // A failed step has no ratio anywhere (qr1000 and qp1000: the candidate's writers fell behind).
    const throughput = comparison.tests.filter((t) => t.metric === 'throughput' && t.ratio !== null);
    assert.ok(throughput.every((t) => t.pairedRounds === 2), 'paired by round');
    const refused = (comparison.notJudged ?? []).filter((n) => n.metric === 'throughput');
    assert.ok(throughput.length >= 5 && refused.length >= 1, `the fixture has judged and refused tests (${throughput.length}, ${refused.length})`);
    for (const name of [...throughput.map((t) => t.test), ...refused.map((n) => n.test)]) {
      const places = found.get(name) ?? {};
      assert.deepEqual(Object.keys(places).sort(), ['CSV', 'Markdown', 'line page', 'release page', 'terminal', 'test page'], `${name}: shown in every place`);
      assert.equal(new Set(Object.values(places)).size, 1, `${name}: ${JSON.stringify(places)}`);
    }
    // The string is the verdict's own estimate, not median ÷ median: paired by round, they differ.
    const differs = throughput.filter((t) => formatShownRatio({ ratio: t.ratio, counted: false }) !== formatShownRatio({ ratio: /** @type {number} */ (t.candidate?.median) / /** @type {number} */ (t.base?.median), counted: false }));
    assert.ok(differs.length > 0, 'some paired estimate differs from the medians\' ratio, so the check can tell them apart');
    for (const t of differs) assert.equal(found.get(t.test)?.CSV, formatShownRatio({ ratio: t.ratio, counted: false }), `${t.test}: the CSV has the verdict's estimate`);
  });

  it('a step too short to judge is marked not judged with why, on every figure, and left out of the group mean', async () => {
    const lx = comparison.notJudged?.filter((n) => n.test === 'l.x') ?? [];
    assert.ok(lx.some((n) => n.metric === 'throughput' && /shorter than the 1 s this metric needs/.test(n.reason)), JSON.stringify(lx));
    assert.ok(lx.some((n) => n.metric === 'latencyP95Ms' && /throughput is refused/.test(n.reason)), 'its p95 (one ALTER\'s duration) is refused with it');
    assert.equal(comparison.tests.some((t) => t.test === 'l.x' && t.metric !== 'instructionsPerOp'), false, 'no timed verdict of l.x at all');

    const table = await readData(dataPaths.table(KEY));
    const k = table.tests.findIndex((/** @type {any} */ t) => t.name === 'l.x');
    const ci = table.releases.findIndex((/** @type {any} */ r) => r.version === CAND);
    const shown = tableShownRatios(table, BASE);
    assert.deepEqual([shown[k][ci]?.judged, shown[k][ci]?.refused], [false, true]);
    assert.match(shown[k][ci]?.why ?? '', /repeats of 0\.4 s are shorter than the 1 s/);
    const history = await readData(dataPaths.test({ ...KEY, test: 'l.x' }));
    assert.match(history.releases.find((/** @type {any} */ r) => r.version === CAND).shown.why, /shorter than the 1 s/);
    const csv = (await readFile(join(out, table.csv), 'utf8')).split('\r\n').find((l) => l.startsWith('l.x,')) ?? '';
    assert.match(csv, /not judged: repeats of 0\.4 s are shorter/);
    assert.match(renderComparison(comparison, { format: 'terminal' }), /throughput not judged \(ratio shown, not a verdict\):\nl\.x +\d\.\d{3} +repeats of 0\.4 s/);

    // Writes: the geometric mean of the judged tests' estimates only.
    const writes = table.groups.find((/** @type {any} */ g) => g.name === 'write');
    const mean = groupSummary(table, writes, groupMeanRatios(shown), ci).geomean;
    const judged = writes.tests.filter((/** @type {string} */ n) => n !== 'l.x').map((/** @type {string} */ n) => comparison.tests.find((t) => t.test === n && t.metric === 'throughput')?.ratio ?? null);
    assert.ok(judged.every((/** @type {number|null} */ r) => typeof r === 'number'), 'every other write step is judged');
    assert.equal(mean, geometricMean(judged));
    const withLx = geometricMean([...judged, shown[k][ci]?.ratio ?? null]);
    assert.notEqual(mean, withLx, 'l.x would have moved the mean');
  });
});
