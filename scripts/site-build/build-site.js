/**
 * `tagbench site` builder: read what the site needs (read-site-inputs.js), then slice by slice
 * (one host class × product × suite of the store) read its runs (read-slice.js) and compute
 * every file of it (computeSlice), then the site-wide files from what the slices kept
 * (finishSite). Everything is written into a fresh folder (site-folder.js) that then replaces
 * the output folder in one rename, so a failed build never leaves a half-written site. Which
 * pages there are is page-kinds.js's list.
 */
import { dirname, join, resolve } from 'node:path';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { UserError } from '../errors.js';
import { computeSlice, finishSite } from './compute-site.js';
import { storeLinker } from './store-links.js';
import { readSiteInputs } from './read-site-inputs.js';
import { readSlice } from './read-slice.js';
import { MARKER, PROJECT_ROOT, startSiteFolder, writeSiteSources, checkReplaceable } from './site-folder.js';

/** @import { SliceSummary } from './compute-site.js' */
/** @typedef {{readMs: number, computeMs: number, writeMs: number}} Timings */

/**
 * @typedef {object} BuildOptions
 * @property {string} store results store directory (runs/, verdicts/)
 * @property {string} out output folder for the site (replaced whole)
 * @property {string} [baselines] baselines folder (<host-class>/<product>/<line>/<suite>.yml); default <project>/baselines
 * @property {string|null} [issues] issue list file, as `tagbench issues --out FILE` writes it
 * @property {string|null} [noiseSummary] noise summary file, as `tagbench triage --out FILE` writes it
 * @property {string|null} [deletedTags] deleted-tags file, as `tagbench watch --deleted-tags-out FILE` writes it
 * @property {string} [configRoot] folder holding configs/ (display names, base versions) and bench/
 *   (calibration reports); default the project
 * @property {string} [title] site title
 * @property {string|null} [siteUrl] absolute URL the site is published at, for the feed's links
 * @property {string|null} [recordsUrl] base URL of the results branch's files: run records and
 *   comparisons are linked there instead of copied into the site (store-links.js); null = copies
 * @property {number|null} [detailReleases] per-second series and "where the instructions went"
 *   files for the newest this many releases of each (host class, product, suite) and the lines'
 *   base releases; null = every release (default)
 * @property {string|null} [charts] github-action-benchmark's chart folder (its `dev/bench` on the
 *   bench-charts branch: index.html + data.js), copied to benchmarks/ and linked from the menu
 * @property {Date} [now] build time (tests pin it)
 * @property {(msg: string) => void} [progress] progress lines (stderr in the CLI)
 */

/**
 * @typedef {object} BuildResult
 * @property {string} outDir absolute path of the built site
 * @property {number} files files written
 * @property {{runs: number, comparisons: number, tables: number}} counts
 * @property {Timings} timings summed over the store's slices (bench/site-scale.js prints them);
 *   reading includes writing the downloads and per-second series copied as they are read
 */

/**
 * Build the static site: read what the slices share, build each slice, then the site-wide files.
 * @param {BuildOptions} opts
 * @returns {Promise<BuildResult>}
 * @throws {UserError} on unreadable input or when `out` exists and is not a tagbench site
 */
export async function buildSite(opts) {
  const { store, title = 'tagbench results', recordsUrl = null, detailReleases = null, progress = () => {} } = opts;
  const outDir = resolve(opts.out);
  await checkReplaceable(outDir);
  checkDetailReleases(detailReleases);
  const t0 = performance.now();
  const linked = Boolean(storeLinker(recordsUrl));
  const inputs = await readSiteInputs({ store, configRoot: opts.configRoot ?? PROJECT_ROOT, baselines: opts.baselines ?? join(PROJECT_ROOT, 'baselines'),
    issues: opts.issues ?? null, noiseSummary: opts.noiseSummary ?? null, deletedTags: opts.deletedTags ?? null, linked });
  if (inputs.partitions.length === 0) {
    progress(`site: no run records in the results store ${store}; building an empty site (run \`tagbench run\` first)`);
  }
  const writer = await startSiteFolder(outDir, storeLinker(recordsUrl));
  try {
    const charts = await writeSiteSources(writer, title, opts.charts ?? null);
    /** @type {SliceSummary[]} */
    const summaries = [];
    const timings = { readMs: 0, computeMs: 0, writeMs: 0 };
    for (const [i, slice] of inputs.partitions.entries()) {
      const r0 = performance.now();
      const { input, seriesPaths } = await readSlice(store, slice, inputs, { detailReleases, linked }, writer);
      const c0 = performance.now();
      const { files, summary } = computeSlice(input, seriesPaths, { slice, reference: inputs.references[slice.hostClass] ?? null, thresholds: inputs.thresholds });
      const w0 = performance.now();
      await writer.write(jsonAndText(files));
      timings.readMs += c0 - r0;
      timings.computeMs += w0 - c0;
      timings.writeMs += performance.now() - w0;
      summaries.push(summary);
      progress(`site: ${i + 1}/${inputs.partitions.length} ${slice.hostClass}/${slice.product}/${slice.suite}: ${summary.counts.runs} run records, ${summary.counts.comparisons} comparisons`);
    }
    const generatedAt = (opts.now ?? new Date()).toISOString();
    const last = finishSite({ inputs, title, generatedAt, siteUrl: opts.siteUrl ?? null, recordsUrl, linked }, summaries);
    await writer.write([...jsonAndText(last), [MARKER, `built by tagbench site ${inputs.tools.tagbench}; this folder is replaced whole by the next build\n`]]);
    await swapIn(writer.root, outDir);
    const files = writer.files() + charts;
    progress(`site: wrote ${files} files to ${outDir} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const counts = { runs: 0, comparisons: 0, tables: 0 };
    for (const s of summaries) {
      counts.runs += s.counts.runs;
      counts.comparisons += s.counts.comparisons;
      counts.tables += s.counts.tables;
    }
    return { outDir, files, counts, timings };
  } catch (err) {
    await rm(writer.root, { recursive: true, force: true });
    throw err;
  }
}

/**
 * @param {number|null} detailReleases
 * @throws {UserError} unless null or a whole number of at least 1
 */
function checkDetailReleases(detailReleases) {
  if (detailReleases !== null && !(Number.isInteger(detailReleases) && detailReleases >= 1)) {
    throw new UserError(`--detail-releases ${detailReleases}: expected a whole number of at least 1`);
  }
}

/**
 * @param {{json: Map<string, unknown>, text: Map<string, string>}} files
 * @returns {[string, string][]} site path -> text; JSON compact (it is for programs; the
 *   store keeps the indented originals)
 */
function jsonAndText(files) {
  return [...[...files.json].map(([p, d]) => /** @type {[string, string]} */ ([p, JSON.stringify(d)])), ...files.text];
}

/**
 * Replace outDir by the freshly built tmp folder: rename the old one away, rename the new one
 * in, then delete the old one, so readers see either the old or the new site.
 * @param {string} tmp the folder built (SiteWriter.root)
 * @param {string} outDir absolute path of the site's folder
 * @returns {Promise<void>}
 */
async function swapIn(tmp, outDir) {
  const old = `${outDir}.old-${process.pid}`;
  const hadOld = await stat(outDir).then(() => true, () => false);
  await mkdir(dirname(outDir), { recursive: true });
  if (hadOld) await rename(outDir, old);
  await rename(tmp, outDir);
  if (hadOld) await rm(old, { recursive: true, force: true });
}

