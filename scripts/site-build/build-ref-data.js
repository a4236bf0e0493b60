/**
 * The site's "Changes under review": the ad-hoc ref runs of the store (`tagbench run --ref`,
 * refs/runs/ and refs/verdicts/), one page per ref run (its candidate's commit on a host class,
 * product and suite: the page a check run links to, store/ref-runs.js refRunPagePath) and a list
 * of them. Built from the ref runs alone: they are never a release of a line page, a table or a
 * series. Pure.
 */
import { dataPaths } from '../../site/js/paths.js';
import { refRunKey, refRunPagePath } from '../store/index.js';
import { slimVerdict } from './build-release-data.js';
import { describeListedShare } from '../compare/index.js';

/** Functions named per instruction verdict on the page (the comparison download has ten). */
const FUNCTIONS_SHOWN = 3;

/**
 * @typedef {object} RefRunSummary one entry of the list (data/refs/index.json)
 * @property {string} host
 * @property {string} product
 * @property {string} productName
 * @property {string} suite
 * @property {string} commit the candidate's
 * @property {string} name the candidate's ref as given
 * @property {string} repository
 * @property {number|null} pullRequest
 * @property {import('../types.js').RefBase} base
 * @property {string} version the candidate's version
 * @property {string} date newest comparison's createdAt, else newest run's startedAt
 * @property {Record<string, number>|null} summary verdict counts of the newest comparison, null before one
 * @property {number} runs candidate records
 * @property {string} page refRunPagePath
 */

/**
 * @param {{records: import('../types.js').RunRecord[], comparisons: {id: string, comparison: import('../types.js').Comparison}[],
 *   products: Record<string, {displayName: string}>, download: {record: (r: import('../types.js').RunRecord) => string, comparison: (c: {id: string, comparison: import('../types.js').Comparison}) => string}}} input
 *   every ref run record and ref comparison of the store; download: the site path of a file's download
 * @returns {{index: {refRuns: RefRunSummary[]}, pages: [string, unknown][]}} the list, and each ref run's page data by site path
 */
export function buildRefData({ records, comparisons, products, download }) {
  /** @type {Map<string, {key: import('../store/index.js').RefRunKey, records: import('../types.js').RunRecord[], comparisons: {id: string, comparison: import('../types.js').Comparison}[]}>} */
  const groups = new Map();
  const groupOf = (/** @type {import('../store/index.js').RefRunKey} */ key) => {
    const id = refRunPagePath(key);
    const g = groups.get(id) ?? { key, records: [], comparisons: [] };
    groups.set(id, g);
    return g;
  };
  for (const r of records) groupOf(refRunKey(r)).records.push(r);
  for (const c of comparisons) groupOf(refRunKey(c.comparison)).comparisons.push(c);
  /** @type {RefRunSummary[]} */
  const list = [];
  /** @type {[string, unknown][]} */
  const pages = [];
  for (const [page, g] of groups) {
    const cmps = [...g.comparisons].sort((a, b) => b.comparison.createdAt.localeCompare(a.comparison.createdAt) || b.id.localeCompare(a.id));
    const runs = [...g.records].sort((a, b) => b.startedAt.localeCompare(a.startedAt) || a.id.localeCompare(b.id));
    const candidates = runs.filter((r) => r.release.ref?.role === 'candidate');
    // What the page says of the ref: its newest comparison's, else its newest candidate record's.
    const about = cmps[0]?.comparison.ref ?? candidates[0]?.release.ref ?? runs[0]?.release.ref;
    if (!about) continue;
    const { key } = g;
    const summary = {
      host: key.hostClass, product: key.product, productName: products[key.product]?.displayName ?? key.product, suite: key.suite, commit: key.commit,
      name: about.name, repository: about.repository, pullRequest: about.pullRequest, base: { ...about.base },
      version: cmps[0]?.comparison.candidate.version ?? candidates[0]?.release.version ?? '',
      date: cmps[0]?.comparison.createdAt ?? runs[0]?.startedAt ?? '',
      summary: cmps[0] ? { ...cmps[0].comparison.summary } : null,
      runs: candidates.length,
      page,
    };
    list.push(summary);
    pages.push([dataPaths.refRun({ host: key.hostClass, product: key.product, suite: key.suite, commit: key.commit }), {
      ...summary,
      comparisons: cmps.map((c) => ({
        id: c.id, createdAt: c.comparison.createdAt, baseVersion: c.comparison.base.version, candidateVersion: c.comparison.candidate.version,
        summary: c.comparison.summary, download: download.comparison(c),
        tests: c.comparison.tests.map((t) => {
          const { functions, ...slim } = /** @type {any} */ (slimVerdict(t));
          // listed: compare's label when the named functions explain under half of the difference.
          return { ...slim, ...(functions ? { functions: { added: functions.added.slice(0, FUNCTIONS_SHOWN).map(nameAndDelta), removed: functions.removed.slice(0, FUNCTIONS_SHOWN).map(nameAndDelta), listed: describeListedShare(functions) } } : {}) };
        }),
      })),
      records: runs.map((r) => ({ id: r.id, role: r.release.ref?.role ?? null, version: r.release.version, commit: r.release.commit, status: r.status, startedAt: r.startedAt, download: download.record(r) })),
    }]);
  }
  list.sort((a, b) => b.date.localeCompare(a.date) || a.page.localeCompare(b.page));
  return { index: { refRuns: list }, pages };
}

/**
 * @param {{name: string, selfDelta: number}} f
 * @returns {{name: string, selfDelta: number}}
 */
function nameAndDelta(f) {
  return { name: f.name, selfDelta: f.selfDelta };
}
