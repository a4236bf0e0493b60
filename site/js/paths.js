/**
 * The site's URL and data-file scheme, shared by the builder (Node, scripts/site-build/) and the
 * pages (browser): both import this one module so the two can never disagree on a path.
 * Every path is relative to the site root, so the site works under any sub-path (Pages
 * project sites) and from `tagbench site --serve`.
 */

/**
 * Make one path segment safe as a file name on every OS and in a URL path without escaping:
 * keeps [A-Za-z0-9._+-] (the characters of the store's own names, so a download path mirrors the
 * store's: `10.11.18+1a2b3c4d5e6f`, a ref run's version), writes anything else (and a leading
 * dot, so `..` can't appear) as `~xx` hex bytes. Injective, so two names never share a file.
 * @param {string} name any string (a version, a test name, a host class)
 * @returns {string}
 */
export function fileSafe(name) {
  const bytes = new TextEncoder().encode(String(name));
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    const c = String.fromCharCode(b);
    const plain = /[A-Za-z0-9_+-]/.test(c) || (c === '.' && i > 0);
    out += plain ? c : `~${b.toString(16).padStart(2, '0')}`;
  }
  return out || '~';
}

/**
 * @typedef {object} TableKey one product line on one host class with one suite: a site table
 * @property {string} product
 * @property {string} line
 * @property {string} host host class
 * @property {string} suite
 */

/**
 * Stable string id of a table (used as a map key and in CSV file names).
 * @param {TableKey} k
 * @returns {string}
 */
export function tableId(k) {
  return [k.product, k.line, k.host, k.suite].map(fileSafe).join('__');
}

export const dataPaths = {
  manifest: () => 'data/manifest.json',
  regressions: () => 'data/regressions.json',
  /** @param {TableKey} k */
  table: (k) => `data/tables/${fileSafe(k.host)}/${fileSafe(k.product)}/${fileSafe(k.line)}/${fileSafe(k.suite)}.json`,
  /** @param {{host: string, product: string, version: string, suite: string}} k */
  release: (k) => `data/releases/${fileSafe(k.host)}/${fileSafe(k.product)}/${fileSafe(k.version)}/${fileSafe(k.suite)}.json`,
  /** @param {{host: string, product: string, version: string, suite: string}} k where the
   *  instructions went in one release's comparison: kept apart from the release's file, which
   *  every visit loads, because its C++ signatures run to kilobytes per test */
  functions: (k) => `data/functions/${fileSafe(k.host)}/${fileSafe(k.product)}/${fileSafe(k.version)}/${fileSafe(k.suite)}.json`,
  /** @param {TableKey & {test: string}} k */
  test: (k) => `data/tests/${fileSafe(k.host)}/${fileSafe(k.product)}/${fileSafe(k.line)}/${fileSafe(k.suite)}/${fileSafe(k.test)}.json`,
  /** @param {{runId: string, test: string}} k per-second series of one step of one run */
  series: (k) => `data/series/${fileSafe(k.runId)}/${fileSafe(k.test)}.json`,
  /** @param {TableKey} k */
  csv: (k) => `downloads/csv/${tableId(k)}.csv`,
  /** @param {{host: string, product: string, version: string, suite: string, id: string}} k */
  runRecord: (k) => `downloads/runs/${fileSafe(k.host)}/${fileSafe(k.product)}/${fileSafe(k.version)}/${fileSafe(k.suite)}/${fileSafe(k.id)}.json`,
  /** @param {TableKey} k the change points of a table's series, as the store holds them */
  changePoints: (k) => `downloads/changepoints/${fileSafe(k.host)}/${fileSafe(k.product)}/${fileSafe(k.line)}/${fileSafe(k.suite)}.json`,
  /** @param {{host: string, product: string, version: string, suite: string, id: string}} k */
  comparison: (k) => `downloads/verdicts/${fileSafe(k.host)}/${fileSafe(k.product)}/${fileSafe(k.version)}/${fileSafe(k.suite)}/${fileSafe(k.id)}.json`,
  /** @param {{host: string, product: string, version: string, suite: string, id: string}} k a ref run's record, as the store keeps it under refs/runs/ */
  refRecord: (k) => `downloads/refs/runs/${fileSafe(k.host)}/${fileSafe(k.product)}/${fileSafe(k.version)}/${fileSafe(k.suite)}/${fileSafe(k.id)}.json`,
  /** @param {{host: string, product: string, version: string, suite: string, id: string}} k a ref run's comparison (refs/verdicts/) */
  refComparison: (k) => `downloads/refs/verdicts/${fileSafe(k.host)}/${fileSafe(k.product)}/${fileSafe(k.version)}/${fileSafe(k.suite)}/${fileSafe(k.id)}.json`,
  /** the ad-hoc ref runs ("Changes under review"), newest first */
  refs: () => 'data/refs/index.json',
  /** @param {{host: string, product: string, suite: string, commit: string}} k one ref run: its candidate's commit on a host class, product and suite */
  refRun: (k) => `data/refs/${fileSafe(k.host)}/${fileSafe(k.product)}/${fileSafe(k.suite)}/${fileSafe(k.commit)}.json`,
  /** @param {string} host host class: its reference release's series and drifts */
  host: (host) => `data/hosts/${fileSafe(host)}.json`,
  /** @param {string} source a stored calibration's source (bench/calibration-<x>.json): the copy of its Markdown report */
  calibrationReport: (source) => `downloads/bench/${fileSafe(source.replace(/^.*\//, '').replace(/\.json$/, '.md'))}`,
  /** every host class with a reference release */
  hosts: () => 'data/hosts/index.json',
  /** @param {{host: string, suite: string}} k every release of every product run on a host class with a suite */
  cross: (k) => `data/cross/${fileSafe(k.host)}/${fileSafe(k.suite)}.json`,
  /** the host classes and suites with a cross table */
  crossIndex: () => 'data/cross/index.json',
  feed: () => 'feed.atom',
};

/**
 * Build a page link with query parameters (relative, so it works under any sub-path).
 * @param {'index'|'line'|'release'|'test'|'regressions'|'downloads'|'host'|'cross'|'refs'|'ref'} page
 * @param {Record<string, string|undefined|null>} [params] empty values are left out
 * @returns {string}
 */
export function pageUrl(page, params = {}) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') q.set(key, value);
  }
  const qs = q.toString();
  return `${page}.html${qs ? `?${qs}` : ''}`;
}

/** Page names, in navigation order, with their titles. */
export const PAGES = /** @type {const} */ ([
  { page: 'index', title: 'Home' },
  { page: 'line', title: 'Product line' },
  { page: 'release', title: 'Release' },
  { page: 'test', title: 'Test' },
  { page: 'regressions', title: 'Regressions' },
  { page: 'downloads', title: 'Downloads' },
  { page: 'host', title: 'Host' },
  { page: 'cross', title: 'Across lines and products' },
  { page: 'refs', title: 'Changes under review' },
  { page: 'ref', title: 'Change under review' },
]);
