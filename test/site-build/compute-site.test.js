/**
 * computeSlice (scripts/site-build/compute-site.js), the seam the site is built through: one
 * slice of the store in, every file of that slice and its summaries out, from one grouping of
 * its runs. Checked without a browser or a store: the files it returns are those the table,
 * release, test and views builders make of the same grouping; the summary carries the views,
 * the cross page's slice, the host reference's suite and what the slice ended of failed legs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeSlice, finishSite } from '../../scripts/site-build/compute-site.js';
import { SLICE_PAGES, SITE_PAGES } from '../../scripts/site-build/page-kinds.js';
import { groupTables } from '../../scripts/site-build/group-tables.js';
import { buildSliceViews } from '../../scripts/site-build/build-views-data.js';
import { resolveThresholds } from '../../scripts/compare/index.js';
import { loadConfig } from '../../scripts/config/index.js';
import { dataPaths } from '../../site/js/paths.js';
import { viewPaths } from '../../site/js/pages/view-paths.js';
import { generateHistory } from '../support/generate-history.js';
import { PROJECT_ROOT } from './fixture-store.js';

const slice = { hostClass: 'local', product: 'mariadb', suite: 'smoke' };

/** Three releases of one line, one run each; 10.11.19's run stopped part-way (partial). */
function sliceInput() {
  const { records } = generateHistory({
    lines: [{ product: 'mariadb', line: '10.11', versions: ['10.11.18', '10.11.19', '10.11.20'] }],
    hosts: ['local'], tests: 3, repeats: 3, intervalsS: 6, changes: [], seed: 5,
  });
  for (const r of records) if (r.release.version === '10.11.19') r.status = 'partial';
  const stored = { id: 'vs-10.11.18-x', suspects: [], comparison: /** @type {any} */ ({
    hostClass: 'local', product: 'mariadb', line: '10.11', suite: 'smoke', createdAt: '2025-02-01T00:00:00Z',
    base: { version: '10.11.18', runIds: [] }, candidate: { version: '10.11.20', runIds: [] }, summary: {}, tests: [],
  }) };
  return /** @type {import('../../scripts/site-build/types.js').SiteInput} */ ({
    records, comparisons: [stored], baselines: [], issues: [], products: { mariadb: { displayName: 'MariaDB', baseVersions: {} } },
  });
}

test('a slice\'s files come from one grouping: its table, every release page, every test history, its CSV and views', () => {
  const input = sliceInput();
  const { files, summary } = computeSlice(input, new Set(), { slice, reference: null, thresholds: null });
  const [group, ...more] = groupTables(input);
  assert.equal(more.length, 0, 'one product line in the slice');
  const table = /** @type {any} */ (files.json.get(dataPaths.table(group.key)));
  assert.deepEqual(table.releases.map((/** @type {any} */ r) => r.version), ['10.11.18', '10.11.19', '10.11.20']);
  for (const version of ['10.11.18', '10.11.19', '10.11.20']) {
    assert.ok(files.json.has(dataPaths.release({ host: 'local', product: 'mariadb', version, suite: 'smoke' })), `release page of ${version}`);
  }
  for (const t of group.tests) assert.ok(files.json.has(dataPaths.test({ ...group.key, test: t.name })), `history of ${t.name}`);
  assert.ok(files.text.has(table.csv));
  const parts = /** @type {any} */ (summary.parts);
  assert.deepEqual(parts.viewsIndex.views, buildSliceViews([group]));
  for (const v of parts.viewsIndex.views) assert.deepEqual(files.json.get(viewPaths.table(v)), v);
  assert.deepEqual(summary.counts, { runs: 3, comparisons: 1, tables: 1 });
  assert.deepEqual(parts.manifest.counts, { runs: 3, comparisons: 1, releases: 3 });
  assert.equal(parts.manifest.entries.length, 1);
  assert.deepEqual([parts.cross.host, parts.cross.suite], ['local', 'smoke']);
  assert.equal(parts.hosts.suite, null, 'no reference configured');
});

test('a slice tells which legs it ended: compared releases, and finished runs (a partial run ends nothing)', () => {
  const input = sliceInput();
  const { legs } = /** @type {any} */ (computeSlice(input, new Set(), { slice, reference: null, thresholds: null }).summary.parts).manifest;
  assert.deepEqual(legs.compared, ['local/mariadb/10.11.20/smoke']);
  const finished = new Map(legs.finished);
  assert.deepEqual([...finished.keys()].sort(), ['local/mariadb/10.11.18/smoke', 'local/mariadb/10.11.20/smoke']);
  const run18 = input.records.find((r) => r.release.version === '10.11.18');
  assert.equal(finished.get('local/mariadb/10.11.18/smoke'), run18?.startedAt);
});

test('the host class\'s reference release in the slice gives its suite of the host page; another product\'s slice none', async () => {
  const config = await loadConfig(PROJECT_ROOT);
  const thresholds = resolveThresholds(/** @type {any} */ (config.thresholds));
  const input = sliceInput();
  const reference = { product: 'mariadb', version: '10.11.18' };
  const withRef = /** @type {any} */ (computeSlice(input, new Set(), { slice, reference, thresholds }).summary.parts).hosts.suite;
  assert.ok(withRef, 'the reference ran in this slice');
  assert.equal(withRef.suite, 'smoke');
  const other = /** @type {any} */ (computeSlice(input, new Set(), { slice, reference: { product: 'mysql', version: '8.4.5' }, thresholds }).summary.parts).hosts.suite;
  assert.equal(other, null);
});

test('the site pages are made from what every slice gathered: manifest counts, failed legs the store keeps open, each listed once', () => {
  const input = sliceInput();
  const { summary } = computeSlice(input, new Set(), { slice, reference: null, thresholds: null });
  const leg = { hostClass: 'local', product: 'mariadb', version: '10.11.19', suite: 'smoke' };
  // 10.11.19's only run is partial and it has no comparison: its failed leg stays open; one on
  // 10.11.20 (compared) is closed by the slice.
  const attempt = (/** @type {string} */ version) => ({ ...leg, version, count: 1, firstAt: '2025-03-01T00:00:00Z', lastAt: '2025-03-01T00:00:00Z', lastOutcome: 'failure', lastReason: 'bench job failed', lastRunUrl: null });
  const inputs = /** @type {any} */ ({
    tools: { tagbench: '0', echarts: '0' }, issues: [], references: {}, calibrations: new Map(), storedCalibrations: new Map(), calibrationReports: new Map(), noise: null, products: input.products,
    legAttempts: [attempt('10.11.19'), attempt('10.11.20')], refs: { records: [], comparisons: [], copies: [] },
  });
  const files = finishSite({ inputs, title: 't', generatedAt: '2025-02-02T00:00:00Z', siteUrl: null, recordsUrl: null, linked: false }, [summary, summary]);
  const manifest = /** @type {any} */ (files.json.get(dataPaths.manifest()));
  assert.deepEqual(manifest.counts, { runs: 6, comparisons: 2, releases: 6, tables: 2 }, 'two slices summed');
  assert.deepEqual(manifest.failedLegs.map((/** @type {any} */ l) => l.version), ['10.11.19']);
  for (const path of [dataPaths.regressions(), dataPaths.hosts(), dataPaths.crossIndex(), viewPaths.index(), dataPaths.refs()]) assert.ok(files.json.has(path), path);
  assert.ok(files.text.has(dataPaths.feed()), 'the feed is text');
  const kinds = [...SLICE_PAGES, ...SITE_PAGES].map((p) => p.name);
  assert.equal(new Set(kinds).size, kinds.length, `each page kind once: ${kinds.join(', ')}`);
});
