/**
 * The site builder without a browser: the data files' numbers, CSV and feed, failed steps,
 * releases without comparison, the output-folder safety rules, the static server and the
 * `tagbench site` command.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, mkdir, writeFile, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { serveSite } from '../../scripts/site-build/serve-site.js';
import { siteCommand } from '../../scripts/site-build/commands.js';
import { compareVersions } from '../../scripts/version-order.js';
import { writeRecord } from '../../scripts/store/index.js';
import { formatRatio } from '../../scripts/format-number.js';
import { generateHistory } from '../support/generate-history.js';
import { fileSafe, dataPaths } from '../../site/js/paths.js';
import { UserError } from '../../scripts/errors.js';
import { makeFixtureStore, expectedQps, PROJECT_ROOT } from './fixture-store.js';
import { tableRatios, groupSummary } from '../../site/js/ratios.js';
import { computeRelativeTable } from '../../scripts/compare/index.js';

/** @type {string} */
let tmp;
/** @type {Awaited<ReturnType<typeof makeFixtureStore>>} */
let fx;

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tagbench-site-build-'));
  fx = await makeFixtureStore(tmp);
});
after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** @param {string} dir @param {string} path */
async function readJson(dir, path) {
  return JSON.parse(await readFile(join(dir, path), 'utf8'));
}

describe('site data', () => {
  it('orders versions numerically and makes any name a safe, distinct file name', () => {
    const sorted = ['10.11.9', '10.11.18', '10.5.23', '8.0.40-31', '8.0.40', '11.8.6-rc', '11.8.6'].sort(compareVersions);
    assert.deepEqual(sorted, ['8.0.40', '8.0.40-31', '10.5.23', '10.11.9', '10.11.18', '11.8.6-rc', '11.8.6']);
    const names = ['read-only.range10', '..', '../etc', 'a/b', 'a~2fb', 'ä', ''];
    const safe = names.map(fileSafe);
    assert.equal(new Set(safe).size, names.length, 'distinct names stay distinct');
    for (const s of safe) assert.match(s, /^[A-Za-z0-9_~+-][A-Za-z0-9._~+-]*$/);
    assert.equal(fileSafe('read-only.range10'), 'read-only.range10');
    assert.equal(fileSafe('10.11.18+1a2b3c4d5e6f'), '10.11.18+1a2b3c4d5e6f', 'a ref run\'s version as the store names its folder');
  });

  it('builds tables, histories, CSV and feed from the store; numbers match the records', async () => {
    const out = join(tmp, 'site-a');
    const res = await buildSite({ store: fx.store, out, baselines: fx.baselines, issues: fx.issuesFile, configRoot: PROJECT_ROOT, now: new Date('2025-03-01T00:00:00Z') });
    assert.deepEqual(res.counts, { runs: fx.records.length, comparisons: fx.comparisons.length, tables: 4 });
    const manifest = await readJson(out, dataPaths.manifest());
    assert.equal(manifest.generatedAt, '2025-03-01T00:00:00.000Z');
    assert.deepEqual(manifest.tables.map((/** @type {any} */ t) => `${t.product} ${t.line} ${t.host}`),
      ['mariadb 10.11 local', 'mariadb 10.11 small-server', 'mysql 8.4 local', 'mysql 8.4 small-server']);
    const key = { product: 'mariadb', line: '10.11', host: 'local', suite: 'smoke' };
    const table = await readJson(out, dataPaths.table(key));
    assert.equal(table.defaultBase, '10.11.17');
    assert.equal(table.defaultBaseSource, 'baseline');
    const other = await readJson(out, dataPaths.table({ ...key, host: 'small-server' }));
    assert.equal(other.defaultBase, '10.11.18', 'without a baseline the configured baseVersion is the base');
    assert.deepEqual(other.releases.map((/** @type {any} */ r) => r.version), ['10.11.16', '10.11.17', '10.11.18', '10.11.19']);
    const test = table.tests.find((/** @type {any} */ t) => t.name === 'update-index');
    table.releases.forEach((/** @type {any} */ r, /** @type {number} */ i) => {
      assert.equal(test.values[i], expectedQps(fx.records, { host: 'local', version: r.version, test: 'update-index' }));
    });
    assert.equal(test.verdicts[0], null, 'the oldest release has no comparison');
    assert.equal(test.verdicts[3], 'regression', 'the injected 20 % drop');

    const csv = (await readFile(join(out, table.csv), 'utf8')).trim().split('\r\n');
    assert.equal(csv[0], ['test,group,metric', ...['10.11.16', '10.11.17', '10.11.18', '10.11.19'].map((v) => `${v} median,${v} ratio,${v} ratio to,${v} verdict`)].join(','));
    const row = /** @type {string} */ (csv.find((l) => l.startsWith('update-index,'))).split(',');
    assert.equal(Number(row[15]), Math.round(test.values[3] * 1000) / 1000);
    // The verdict's own estimate against its comparison's base (issue 35), not median ÷ median.
    const verdict = fx.comparisons.find((c) => c.hostClass === 'local' && c.candidate.version === '10.11.19')?.tests.find((v) => v.test === 'update-index' && v.metric === 'throughput');
    assert.equal(row[16], formatRatio(verdict?.ratio));
    assert.match(row[16], /^\d+\.\d{3}$/, 'ratios have three decimals, as in verdicts');
    assert.equal(row[17], table.releases[3].comparison.baseVersion);
    assert.equal(row[18], 'regression');

    const feed = await readFile(join(out, dataPaths.feed()), 'utf8');
    assert.match(feed, /^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/);
    assert.equal((feed.match(/<entry>/g) ?? []).length, fx.comparisons.length);
    assert.equal((feed.match(/<id>urn:uuid:[0-9a-f-]{36}<\/id>/g) ?? []).length, fx.comparisons.length + 1);
    assert.doesNotMatch(feed.split('\n').slice(1).join('\n').replace(/<\/?[a-z][^>]*>/g, ''), /[<>]/, 'text is escaped');

    const history = await readJson(out, dataPaths.test({ ...key, test: 'update-index' }));
    assert.equal(history.changePoints, null, 'no change-point file for local: no change points (verdicts do not stand in)');
    assert.ok(history.releases.some((/** @type {any} */ r) => r.verdict?.verdict === 'regression'), 'while the verdicts are there');
    const run = history.releases[0].runs[0];
    const series = await readJson(out, run.series);
    const record = /** @type {any} */ (fx.records.find((r) => r.id === run.id));
    const step = record.steps.find((/** @type {any} */ s) => s.name === 'update-index');
    assert.deepEqual(series.repeats[0].qps, step.repeats[0].intervals.map((/** @type {any} */ i) => i.qps));
    const copied = await readJson(out, dataPaths.runRecord({ host: 'local', product: 'mariadb', version: record.release.version, suite: 'smoke', id: record.id }));
    assert.deepEqual(copied, record);

    const regressions = await readJson(out, dataPaths.regressions());
    assert.ok(regressions.regressions.some((/** @type {any} */ r) => r.test === 'update-index' && r.issue?.number === 42));
    assert.deepEqual(regressions.otherIssues.map((/** @type {any} */ i) => i.number), [7]);
  });

  it('for a store of years: records and comparisons linked to the results branch, not copied; per-second series for the newest releases only', async () => {
    const out = join(tmp, 'site-linked');
    const url = 'https://github.com/example/results/blob/bench-data';
    await assert.rejects(buildSite({ store: fx.store, out, baselines: fx.baselines, configRoot: PROJECT_ROOT, recordsUrl: 'bench-data/' }), /--records-url "bench-data\/": expected an http\(s\) URL/);
    await buildSite({ store: fx.store, out, baselines: fx.baselines, configRoot: PROJECT_ROOT, recordsUrl: `${url}/`, detailReleases: 1, siteUrl: 'https://example.github.io/results/' });
    await assert.rejects(readdir(join(out, 'downloads', 'runs')), { code: 'ENOENT' }, 'no copy of any record');
    await assert.rejects(readdir(join(out, 'downloads', 'verdicts')), { code: 'ENOENT' }, 'no copy of any comparison');
    const key = { host: 'local', product: 'mariadb', version: '10.11.19', suite: 'smoke' };
    const release = await readJson(out, dataPaths.release(key));
    const text = JSON.stringify(release);
    assert.ok(!text.includes('"downloads/'), 'no link to a copy is left');
    const record = fx.records.find((r) => r.release.version === '10.11.19' && r.host.class === 'local');
    assert.ok(text.includes(`"${url}/runs/local/mariadb/10.11.19/smoke/${record?.id}.json"`), 'the run record is linked at its path on the results branch');
    assert.match(await readFile(join(out, dataPaths.feed()), 'utf8'), new RegExp(`href="${url}/verdicts/`), 'the feed links comparisons there too');
    const history = await readJson(out, dataPaths.test({ product: 'mariadb', line: '10.11', host: 'local', suite: 'smoke', test: 'update-index' }));
    const withDetail = history.releases.filter((/** @type {any} */ r) => r.runs.some((/** @type {any} */ run) => run.series)).map((/** @type {any} */ r) => r.version);
    // The newest release, and the line's configured base release (configs/products/mariadb.yml).
    assert.deepEqual(withDetail, ['10.11.18', '10.11.19']);
    assert.ok(history.releases.length > withDetail.length, 'older releases have no per-second file on the site');
  });

  it('test histories carry the stored change points of their series, and a copy of the file', async () => {
    const out = join(tmp, 'site-a');
    const key = { product: 'mariadb', line: '10.11', host: 'small-server', suite: 'smoke' };
    const file = fx.changePoints;
    assert.deepEqual(await readJson(out, dataPaths.changePoints(key)), file);
    for (const series of file.tests) {
      const history = await readJson(out, dataPaths.test({ ...key, test: series.test }));
      assert.deepEqual(history.changePoints, {
        createdAt: file.createdAt, method: file.method, releases: file.releases.map((r) => r.version), file: dataPaths.changePoints(key),
        analysed: true, higherIsBetter: true, points: series.changePoints,
      });
    }
    const drop = file.tests.find((t) => t.test === 'update-index')?.changePoints.filter((c) => c.atReleaseBoundary);
    assert.deepEqual(drop?.map((c) => [c.previousVersion, c.version, Math.round(c.forwardChangePct)]), [['10.11.18', '10.11.19', -20]], 'otava finds the injected drop');
  });

  it('group summaries are the compare stage\'s geometric means of the same ratios', async () => {
    const out = join(tmp, 'site-a');
    for (const host of ['local', 'small-server']) {
      const key = { product: 'mariadb', line: '10.11', host, suite: 'smoke' };
      const table = await readJson(out, dataPaths.table(key));
      const releases = table.releases.map((/** @type {any} */ r) => ({ version: r.version, records: fx.records.filter((x) => x.host.class === host && x.release.product === 'mariadb' && x.release.version === r.version) }));
      for (const base of [table.defaultBase, table.releases[0].version]) {
        const want = computeRelativeTable({ product: 'mariadb', line: '10.11', base, releases });
        const ratios = tableRatios(table, base);
        assert.deepEqual(table.groups.map((/** @type {any} */ g) => g.name), want.groups.map((g) => g.group));
        for (const g of want.groups) {
          const group = table.groups.find((/** @type {any} */ x) => x.name === g.group);
          table.releases.forEach((/** @type {any} */ r, /** @type {number} */ i) => {
            const got = groupSummary(table, group, ratios, i).geomean;
            const expected = /** @type {number} */ (g.geomean[r.version]);
            assert.equal(got, expected, `${host} ${g.group} ${r.version} vs ${base}: site ${got}, compare ${expected}`);
          });
        }
      }
    }
  });

  it('shows a failed step as no result, never as a zero, and a release without comparison without verdicts', async () => {
    const { records } = generateHistory({ lines: [{ product: 'mariadb', line: '10.11', versions: ['10.11.18', '10.11.19'] }], hosts: ['local'], intervalsS: 3 });
    const broken = structuredClone(records[1]);
    broken.status = 'failed';
    const step = /** @type {any} */ (broken.steps.find((s) => s.name === 'insert'));
    step.status = 'failed';
    step.reason = 'sysbench exited with 1';
    // As the run stage records a failed repeat: no throughput, tps nor latency (never 0).
    for (const r of step.repeats) Object.assign(r, { status: 'failed', throughput: null, tps: null, latencyMs: null });
    const store = join(tmp, 'failed-step-store');
    for (const r of [records[0], broken]) await writeRecord(store, r);
    // No configs/ and no baselines: the oldest release is the base.
    const out = join(tmp, 'site-failed-step');
    await buildSite({ store, out, baselines: join(tmp, 'no-baselines'), configRoot: join(tmp, 'no-configs'), title: 't', now: new Date('2025-01-01T00:00:00Z') });
    const key = { product: 'mariadb', line: '10.11', host: 'local', suite: 'smoke' };
    const table = await readJson(out, dataPaths.table(key));
    const insert = table.tests.find((/** @type {any} */ t) => t.name === 'insert');
    assert.deepEqual([insert.values[1], insert.n[1]], [null, 0]);
    assert.deepEqual(insert.verdicts, [null, null]);
    assert.equal(table.defaultBase, '10.11.18');
    const rel = await readJson(out, dataPaths.release({ ...key, version: '10.11.19' }));
    assert.equal(rel.comparison, null);
    const t = rel.tests.find((/** @type {any} */ x) => x.name === 'insert');
    assert.deepEqual([t.status, t.median, t.reason], ['failed', null, 'sysbench exited with 1']);
    const csv = await readFile(join(out, table.csv), 'utf8');
    // No comparison, no ratio: the CSV shows the comparison's ratio, never one of its own.
    assert.match(csv, /\r\ninsert,write,qps,[0-9.]+,,,,,,,\r\n/);
  });
});

describe('output folder and command', () => {
  it('refuses to replace a folder it did not build, and keeps the old site when a build fails', async () => {
    const foreign = join(tmp, 'foreign');
    await mkdir(foreign);
    await writeFile(join(foreign, 'notes.txt'), 'mine');
    await assert.rejects(buildSite({ store: fx.store, out: foreign, baselines: fx.baselines }), (err) =>
      err instanceof UserError && /not built by `tagbench site`/.test(err.message));
    assert.equal(await readFile(join(foreign, 'notes.txt'), 'utf8'), 'mine');

    const out = join(tmp, 'site-b');
    await buildSite({ store: fx.store, out, baselines: fx.baselines, configRoot: PROJECT_ROOT });
    const before = await readFile(join(out, dataPaths.manifest()), 'utf8');
    const bad = join(tmp, 'bad-issues.json');
    await writeFile(bad, JSON.stringify([{ product: 'mariadb', line: '10.11', version: '10.11.19', hostClass: 'local', suite: 'smoke', number: 'x', url: 'u', state: 'open', title: 't' }]));
    await assert.rejects(buildSite({ store: fx.store, out, baselines: fx.baselines, issues: bad }), /\[0\]\.number must be an integer/);
    assert.equal(await readFile(join(out, dataPaths.manifest()), 'utf8'), before);
    assert.deepEqual((await readdir(tmp)).filter((n) => n.includes('.building-') || n.includes('.old-')), []);
  });

  it('links github-action-benchmark\'s charts from the menu only when the build holds them', async () => {
    const charts = join(tmp, 'charts-dev-bench');
    await mkdir(charts, { recursive: true });
    await writeFile(join(charts, 'index.html'), '<!doctype html><title>Benchmark</title>');
    await writeFile(join(charts, 'data.js'), 'window.BENCHMARK_DATA = {"entries": {}}');
    const withCharts = join(tmp, 'site-charts');
    await buildSite({ store: fx.store, out: withCharts, baselines: fx.baselines, configRoot: PROJECT_ROOT, charts });
    assert.equal(await readFile(join(withCharts, 'benchmarks', 'data.js'), 'utf8'), 'window.BENCHMARK_DATA = {"entries": {}}');
    assert.match(await readFile(join(withCharts, 'index.html'), 'utf8'), /<a href="benchmarks\/" data-nav="charts">Charts<\/a>/);
    const without = join(tmp, 'site-no-charts');
    await buildSite({ store: fx.store, out: without, baselines: fx.baselines, configRoot: PROJECT_ROOT });
    const html = await readFile(join(without, 'index.html'), 'utf8');
    assert.doesNotMatch(html, /benchmarks\//);
    assert.doesNotMatch(html, /\{\{chartsNav\}\}/);
    await assert.rejects(buildSite({ store: fx.store, out: join(tmp, 'site-bad-charts'), baselines: fx.baselines, charts: join(tmp, 'empty-store') }),
      (err) => err instanceof UserError && /--charts .*empty-store: no index\.html there/.test(err.message));
  });

  it('checks the issues file field by field', async () => {
    const f = join(tmp, 'issues-state.json');
    await writeFile(f, JSON.stringify([{ product: 'p', line: 'l', version: 'v', hostClass: 'h', suite: 's', number: 1, url: 'u', state: 'merged', title: 't' }]));
    const store = join(tmp, 'empty-store');
    await assert.rejects(buildSite({ store, out: join(tmp, 'site-issues'), issues: f }), /\[0\]\.state must be one of open, closed \(found "merged"\)/);
    await assert.rejects(buildSite({ store, out: join(tmp, 'site-issues'), issues: join(tmp, 'missing.json') }), /cannot read/);
  });

  it('serves the site on 127.0.0.1 with content types, 404 and no escape from the folder', async () => {
    const out = join(tmp, 'site-c');
    const code = await siteCommand({ store: join(tmp, 'empty-store'), out, title: 'Empty', port: 0 });
    assert.equal(code, 0);
    const server = await serveSite(out, { port: 0 });
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
      const home = await fetch(server.url);
      assert.equal(home.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.match(await home.text(), /<title>Empty<\/title>/);
      const manifest = await fetch(`${server.url}data/manifest.json`);
      assert.equal(manifest.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.deepEqual((await manifest.json()).tables, []);
      assert.equal((await fetch(`${server.url}feed.atom`)).headers.get('content-type'), 'application/atom+xml; charset=utf-8');
      assert.equal((await fetch(`${server.url}nope.json`)).status, 404);
      assert.equal((await fetch(`${server.url}..%2f..%2f..%2fetc%2fpasswd`)).status, 403);
      await assert.rejects(serveSite(out, { port: server.port }), (err) => err instanceof UserError && /is in use/.test(err.message));
    } finally {
      await server.close();
    }
  });
});
