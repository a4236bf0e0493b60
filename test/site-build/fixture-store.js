/**
 * A results store for the site's tests, produced the way the pipeline would: schema-valid run
 * records (the generator, since a real run of several releases takes too long for a test)
 * written through the store stage, comparisons made by the compare stage's compareRuns with
 * the project's thresholds, a baseline file and an issue list written by the store stage. For
 * mariadb 10.11 on small-server, `tagbench compare` itself runs (real apache-otava): its
 * comparisons and the series' change-point file are in the store; mariadb 10.11 on local has
 * no change-point file (the site must then mark none).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { serveSite } from '../../scripts/site-build/serve-site.js';
import { launchBrowser, openPage } from '../support/browser.js';
import { generateHistory } from '../support/generate-history.js';
import { writeRecord, writeComparison, readComparisons, readChangePoints, writeBaseline, writeIssueList } from '../../scripts/store/index.js';
import { compareCommand } from '../../scripts/verify/commands.js';
import { compareRuns, resolveThresholds } from '../../scripts/compare/index.js';
import { loadConfig } from '../../scripts/config/index.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The history the tests expect: two product lines, two host classes, injected changes. */
export const SPEC = Object.freeze({
  lines: [
    { product: 'mariadb', line: '10.11', versions: ['10.11.16', '10.11.17', '10.11.18', '10.11.19'] },
    { product: 'mysql', line: '8.4', versions: ['8.4.5', '8.4.6'] },
  ],
  hosts: ['local', 'small-server'],
  repeats: 8, // 8 instances per side: enough for an issue to pass Holm over ~300 gated verdicts (1 / C(16, 8) < 0.05 / 300)
  intervalsS: 12,
  changes: [
    { version: '10.11.19', test: 'update-index', factor: 0.8 },
    { version: '10.11.18', test: 'point-query', factor: 1.15 },
  ],
  mycnfExtra: { '10.11.19': 'innodb_adaptive_hash_index=OFF' },
  seed: 7,
});

/**
 * @param {string} dir empty temp folder
 * @returns {Promise<{store: string, baselines: string, issuesFile: string, records: import('../../scripts/types.js').RunRecord[],
 *   comparisons: (import('../../scripts/types.js').Comparison & {id: string})[], issues: import('../../scripts/types.js').IssueRef[],
 *   changePoints: import('../../scripts/store/index.js').ChangePoints}>}
 */
export async function makeFixtureStore(dir) {
  const config = await loadConfig(PROJECT_ROOT);
  const thresholds = resolveThresholds(/** @type {any} */ (config.thresholds));
  const { records, comparisons } = generateHistory(/** @type {any} */ (SPEC), {
    compare: (input) => compareRuns({ ...input, thresholds }),
  });
  const store = join(dir, 'store');
  for (const r of records) await writeRecord(store, r);
  for (const c of comparisons) await writeComparison(store, c);
  // The accepted baseline of mariadb 10.11 on local: 10.11.17 (so the default base differs
  // from the configured baseVersion 10.11.18 and from the oldest release).
  const baselines = join(dir, 'baselines');
  const base17 = records.filter((r) => r.host.class === 'local' && r.release.version === '10.11.17');
  await writeBaseline(baselines, {
    schemaVersion: 1, hostClass: 'local', product: 'mariadb', line: '10.11', suite: 'smoke', version: '10.11.17',
    runIds: base17.map((r) => r.id), promotedAt: '2025-01-01T00:00:00Z',
  });
  /** @type {import('../../scripts/types.js').IssueRef[]} */
  const issues = [
    { product: 'mariadb', line: '10.11', version: '10.11.19', hostClass: 'local', suite: 'smoke', number: 42, url: 'https://example.invalid/issues/42', state: 'open', title: 'Regression: update-index on local (10.11.19 vs 10.11.16)' },
    { product: 'mariadb', line: '10.11', version: '10.11.19', hostClass: 'small-server', suite: 'smoke', number: 41, url: 'https://example.invalid/issues/41', state: 'closed', title: 'Regression: update-index on small-server' },
    { product: 'mysql', line: '8.0', version: '8.0.40', hostClass: 'local', suite: 'smoke', number: 7, url: 'https://example.invalid/issues/7', state: 'open', title: 'Regression from another store' },
  ];
  const issuesFile = join(dir, 'issues.json');
  await writeIssueList(issuesFile, issues);
  // 2 = an issue-level regression (the injected update-index drop): expected
  const code = await compareCommand({ product: 'mariadb', hostClass: 'small-server', suite: 'smoke', store, baselines, root: PROJECT_ROOT, out: () => {}, color: false });
  if (code !== 2) throw new Error(`tagbench compare exited ${code}; expected 2 (the injected regression)`);
  const [changePoints, ...more] = await readChangePoints(store);
  if (!changePoints || more.length > 0) throw new Error('tagbench compare stored no change points: is apache-otava installed (setup/compare.sh)?');
  return { store, baselines, issuesFile, records, comparisons: await readComparisons(store), issues, changePoints };
}

/**
 * Median as the site's tables define it (mean of the middle two for an even count); written
 * again here so the tests check the pages against an independent computation.
 * @param {number[]} xs
 */
export function expectedMedian(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Median throughput of one test of one release on one host, from the records.
 * @param {import('../../scripts/types.js').RunRecord[]} records
 * @param {{host: string, version: string, test: string}} k
 */
export function expectedQps(records, k) {
  const values = records.filter((r) => r.host.class === k.host && r.release.version === k.version)
    .flatMap((r) => r.steps.filter((s) => s.name === k.test).flatMap((s) => s.repeats.filter((x) => x.status === 'ok').map((x) => /** @type {number} */ (x.throughput))));
  return expectedMedian(values);
}

/**
 * What every browser test of one site view sets up: a store the test fills, the site built from
 * it (project configs, no baselines), served on a free port, and one page in headless Chromium
 * that collects console errors and failed requests.
 * @param {string} prefix temp folder name prefix
 * @param {(store: string) => Promise<void>} fill writes the records (and anything else) the test needs
 * @param {{now: Date, siteDir?: string}} opts build time; the site's folder under the served
 *   root (default `site`: pages are tested from a sub-path, as on GitHub Pages)
 */
export async function startSite(prefix, fill, opts) {
  const tmp = await mkdtemp(join(tmpdir(), prefix));
  const store = join(tmp, 'store');
  await fill(store);
  const out = join(tmp, 'www', opts.siteDir ?? 'site');
  await buildSite({ store, out, baselines: join(tmp, 'baselines'), configRoot: PROJECT_ROOT, now: opts.now });
  const server = await serveSite(join(tmp, 'www'), { port: 0 });
  const browser = await launchBrowser();
  const { page, problems } = await openPage(browser.context);
  return {
    tmp, store, out, server, page, problems,
    close: async () => {
      await browser.close();
      await server.close();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}
