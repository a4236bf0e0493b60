/**
 * The site's output folder: a fresh folder is built beside it and then replaces it in one
 * rename (build-site.js swapIn), so a failed build never leaves a half-written site (and never
 * touches a folder it didn't make). Here: the check that the folder may be replaced, the writer
 * the build writes through, and the site's own sources and vendored charting library.
 */
import { mkdir, writeFile, readFile, rm, stat, cp, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { UserError } from '../errors.js';
import { renderPages, withChartsPolicy } from './render-pages.js';

/** Marker file: only a folder holding it may be replaced by a new build. */
export const MARKER = '.tagbench-site';
const SITE_SRC = fileURLToPath(new URL('../../site/', import.meta.url));
/** The tagbench checkout the site builder runs from. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The installed ECharts package, vendored into every site. */
export const ECHARTS_DIR = dirname(createRequire(import.meta.url).resolve('echarts/package.json'));
const WRITE_CONCURRENCY = 64;

/**
 * @typedef {object} SiteWriter writes files into the site being built
 * @property {string} root the folder being built
 * @property {(writes: [string, string][]) => Promise<void>} write site path -> content; data
 *   files get their download links rewritten when the records are linked, not copied
 * @property {() => number} files files written so far
 */

/**
 * A fresh, empty folder beside outDir for the build, and the writer into it.
 * @param {string} outDir absolute path of the site's folder
 * @param {((text: string) => string)|null} linker storeLinker's rewrite of download links, or null (copies)
 * @returns {Promise<SiteWriter>}
 */
export async function startSiteFolder(outDir, linker) {
  const root = `${outDir}.building-${process.pid}`;
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  let files = 0;
  return {
    root,
    write: async (writes) => {
      files += await writeAll(root, linker ? writes.map(([p, text]) => /** @type {[string, string]} */ ([p, p.endsWith('.json') ? linker(text) : text])) : writes);
    },
    files: () => files,
  };
}

/**
 * The site's own sources, its pages, the charting library's dist file (vendored so the site
 * works offline and on an intranet with no CDN) and, when given, github-action-benchmark's charts.
 * @param {SiteWriter} writer
 * @param {string} title site title
 * @param {string|null} charts the action's chart folder, or none
 * @returns {Promise<number>} files copied beside the writer's (the charts')
 * @throws {UserError} when `charts` is not the action's output
 */
export async function writeSiteSources(writer, title, charts) {
  const tmp = writer.root;
  await cp(join(SITE_SRC, 'css'), join(tmp, 'css'), { recursive: true });
  await cp(join(SITE_SRC, 'js'), join(tmp, 'js'), { recursive: true });
  // The pages show the compare stage's one ratio through its own file (package.json's
  // `#shown-ratio`), which the page template's import map names js/shown-ratio.js.
  await cp(fileURLToPath(import.meta.resolve('#shown-ratio')), join(tmp, 'js', 'shown-ratio.js'));
  await mkdir(join(tmp, 'vendor'), { recursive: true });
  // The "common" build has every chart and component the pages use (line, scatter, legend,
  // dataZoom, markPoint/markLine, tooltip, aria) at two thirds of the full build's size.
  await cp(join(ECHARTS_DIR, 'dist', 'echarts.common.min.js'), join(tmp, 'vendor', 'echarts.common.min.js'));
  await cp(join(ECHARTS_DIR, 'LICENSE'), join(tmp, 'vendor', 'echarts.LICENSE.txt'));
  const template = await readFile(join(SITE_SRC, 'templates', 'page.html'), 'utf8');
  const copied = charts ? await copyCharts(charts, join(tmp, 'benchmarks')) : 0;
  await writer.write(renderPages(template, title, { charts: Boolean(charts) }));
  return copied;
}

/**
 * Copy github-action-benchmark's charts into the site (they are its own pages, not ours).
 * @param {string} from the action's output folder
 * @param {string} to
 * @returns {Promise<number>} files copied
 * @throws {UserError} when the folder is not the action's output
 */
async function copyCharts(from, to) {
  const index = join(from, 'index.html');
  if (!(await stat(index).then((s) => s.isFile(), () => false))) {
    throw new UserError(`--charts ${from}: no index.html there; give github-action-benchmark's output folder (dev/bench on the bench-charts branch)`);
  }
  await cp(from, to, { recursive: true });
  // Its page shows data and commit messages too: the same kind of policy as ours.
  const page = join(to, 'index.html');
  await writeFile(page, withChartsPolicy(await readFile(page, 'utf8')));
  return (await readdir(to, { recursive: true })).length;
}

/**
 * @param {string} root
 * @param {[string, string][]} writes site path -> content
 * @returns {Promise<number>} files written
 */
async function writeAll(root, writes) {
  const dirs = new Set(writes.map(([p]) => dirname(join(root, p))));
  for (const d of [...dirs].sort()) await mkdir(d, { recursive: true });
  for (let i = 0; i < writes.length; i += WRITE_CONCURRENCY) {
    await Promise.all(writes.slice(i, i + WRITE_CONCURRENCY).map(([p, text]) => writeFile(join(root, p), text)));
  }
  return writes.length;
}

/**
 * Refuse to replace a folder that is not empty and not a site this tool built.
 * @param {string} outDir absolute path of the site's folder
 * @returns {Promise<void>}
 * @throws {UserError} when outDir is a file, or a non-empty folder without the marker
 */
export async function checkReplaceable(outDir) {
  const st = await stat(outDir).catch(() => null);
  if (!st) return;
  if (!st.isDirectory()) throw new UserError(`--out ${outDir}: exists and is not a folder; pick another output folder`);
  const entries = await readdir(outDir);
  if (entries.length > 0 && !entries.includes(MARKER)) {
    throw new UserError(`--out ${outDir}: folder exists, is not empty and was not built by \`tagbench site\` (no ${MARKER}); ` +
      'the build replaces the whole folder, so pick an empty or new folder');
  }
}
