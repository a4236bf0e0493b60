/**
 * github-action-benchmark's chart page, copied into the site under benchmarks/, gets a
 * Content-Security-Policy like the site's own pages (issue 34): the same rules, plus exactly the
 * inline script, the `<style>` and the CDN script the page holds when it is copied, nothing else.
 * The page is the action's real default index.html, from the release tree in
 * ../shared/actions/gab-v1.22.0.tar.gz (checked against its sha256, unpacked into a temp folder,
 * never into the project), as the action writes it to the charts branch.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CONTENT_SECURITY_POLICY, withChartsPolicy } from '../../scripts/site-build/render-pages.js';
import { writeSiteSources } from '../../scripts/site-build/site-folder.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const ARCHIVE = join(ROOT, '..', 'shared', 'actions', 'gab-v1.22.0.tar.gz');
const ARCHIVE_SHA256 = '5a0c20035e8832c5ca2b0cb46260bd538c94a4484092e1310d71eac5c85b7684';

/** @param {string} text */
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The action's own chart page (DEFAULT_INDEX_HTML of its dist), from its release tree.
 * @param {string} dir scratch folder
 * @returns {Promise<string>}
 */
async function actionChartPage(dir) {
  const archive = await readFile(ARCHIVE);
  assert.equal(createHash('sha256').update(archive).digest('hex'), ARCHIVE_SHA256, `${ARCHIVE} is not the release tree its README lists`);
  await promisify(execFile)('tar', ['-xzf', ARCHIVE, '-C', dir]);
  const require = createRequire(join(dir, 'github-action-benchmark', 'package.json'));
  return require('./dist/src/default_index_html.js').DEFAULT_INDEX_HTML;
}

/**
 * @param {string} html
 * @returns {Map<string, string[]>} the page's policy, directive -> sources
 */
function policyOf(html) {
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
  assert.ok(content, 'the page has a policy');
  return new Map(content.split(/;\s*/).map((d) => d.split(' ')).map(([name, ...sources]) => [name, sources]));
}

test('the action\'s chart page: our rules, plus exactly its own inline script, style and Chart.js', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-charts-csp-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const page = await actionChartPage(dir);
  const guarded = withChartsPolicy(page);
  const policy = policyOf(guarded);
  // The meta element comes before anything it governs.
  const meta = guarded.indexOf('http-equiv="Content-Security-Policy"');
  assert.ok(meta < guarded.indexOf('<style') && meta < guarded.indexOf('<script'), 'first in the head');
  assert.equal(guarded.replace(/\n\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, ''), page, 'nothing else of the page changed');
  // Everything of the site's own policy holds here too, but the two lists the page extends.
  for (const [name, sources] of policyOf(`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`)) {
    if (name === 'script-src' || name === 'style-src') continue;
    assert.deepEqual(policy.get(name), sources, name);
  }
  const main = /<script id="main-script">([^]*?)<\/script>/.exec(page)?.[1] ?? '';
  const style = /<style>([^]*?)<\/style>/.exec(page)?.[1] ?? '';
  assert.ok(main.includes('BENCHMARK_DATA') && style.length > 0, 'the action\'s page as the action writes it');
  assert.deepEqual(policy.get('script-src'), ["'self'", 'https://cdn.jsdelivr.net/npm/chart.js@2.9.2/dist/Chart.min.js', sha256(main)]);
  assert.deepEqual(policy.get('style-src'), ["'self'", sha256(style)]);
  // A script injected into the page (or one changed by a byte) is not allowed by the policy.
  assert.ok(!policy.get('script-src')?.includes(sha256(`${main} `)));
  assert.ok(!policy.get('script-src')?.some((s) => s === "'unsafe-inline'" || s === "'unsafe-eval'" || s === 'https:' || s === '*'));
});

test('the site build writes the policy into the copied chart page; a page without a head gets it after its doctype', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-charts-csp-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const charts = join(dir, 'dev-bench');
  await mkdir(charts);
  await writeFile(join(charts, 'index.html'), await actionChartPage(dir));
  await writeFile(join(charts, 'data.js'), 'window.BENCHMARK_DATA = {"entries": {}}');
  const site = join(dir, 'site');
  await mkdir(site);
  /** @type {[string, string][]} */
  const written = [];
  await writeSiteSources({ root: site, write: async (files) => { written.push(...files); }, files: () => written.length }, 'bench', charts);
  const copied = await readFile(join(site, 'benchmarks', 'index.html'), 'utf8');
  assert.deepEqual(policyOf(copied), policyOf(withChartsPolicy(await readFile(join(charts, 'index.html'), 'utf8'))));
  assert.equal(await readFile(join(site, 'benchmarks', 'data.js'), 'utf8'), 'window.BENCHMARK_DATA = {"entries": {}}', 'the data as it was');
  assert.match(withChartsPolicy('<!doctype html><title>Benchmark</title>'), /^<!doctype html>\n {4}<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; /);
});
