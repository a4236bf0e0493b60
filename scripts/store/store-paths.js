/**
 * Where each file lives in the results store, built from the file's identity so that parallel
 * jobs never write the same path (layout: docs/record-format.md).
 */
import { join } from 'node:path';
import { createHash } from 'node:crypto';

/** Name of the generated index at the store root. */
export const INDEX_FILE = 'index.json';

/**
 * Top folders of the ad-hoc ref runs (`tagbench run --ref`) and their comparisons: apart from
 * `runs/` and `verdicts/`, so that no reader of the release series (baselines, change points,
 * the site's lines, watch) ever sees them.
 */
export const REF_TOPS = /** @type {const} */ ({ runs: 'refs/runs', verdicts: 'refs/verdicts' });

/**
 * Path of a run record relative to the store root.
 * @param {import('../types.js').RunRecord} record a validated record (path parts are path-safe)
 * @returns {string} `runs/<host-class>/<product>/<version>/<suite>/<run-id>.json`; a ref run's
 *   (`release.ref`) under `refs/runs/`
 */
export function recordRelPath(record) {
  return join(record.release.ref ? REF_TOPS.runs : 'runs', record.host.class, record.release.product, record.release.version, record.config.suite, `${record.id}.json`);
}

/**
 * Id of a comparison: the base version, the creation time and a hash of the content, so that
 * the same comparison always lands on the same path and a recomputed one on a new path.
 * @param {import('../types.js').Comparison} comparison
 * @returns {string} e.g. `vs-10.11.18-20250301T101500Z-1a2b3c4d` (`vs-10.11.18_1a2b3c4d5e6f-…` against a ref run's base)
 */
export function comparisonId(comparison) {
  // A ref run's base version holds a '+' (`10.11.18+1a2b3c4d5e6f`), which no file name of the store does.
  return contentId(`vs-${comparison.base.version.replace(/[^A-Za-z0-9._-]/g, '_')}`, comparison.createdAt, comparison);
}

/**
 * Id of a file written once (a comparison, a bisect report, a leg attempt): a prefix, its time
 * and a hash of its content, so the same content always lands on the same path and other
 * content on another.
 * @param {string} prefix
 * @param {string} isoTime ISO 8601
 * @param {unknown} data
 * @returns {string} e.g. `attempt-20261127T040000Z-1a2b3c4d`
 */
export function contentId(prefix, isoTime, data) {
  const stamp = isoTime.replace(/\.\d+/, '').replace(/[-:]/g, '');
  return `${prefix}-${stamp}-${createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 8)}`;
}

/**
 * Path of a comparison relative to the store root.
 * @param {import('../types.js').Comparison} comparison validated
 * @param {string} id from comparisonId() unless given
 * @returns {string} `verdicts/<host-class>/<product>/<candidate-version>/<suite>/<id>.json`; a
 *   ref run's (`ref`) under `refs/verdicts/`
 */
export function comparisonRelPath(comparison, id) {
  return join(comparison.ref ? REF_TOPS.verdicts : 'verdicts', comparison.hostClass, comparison.product, comparison.candidate.version, comparison.suite, `${id}.json`);
}

/**
 * Path of a series' change-point file relative to the store root. One file per series (not per
 * compare): it is derived data that each compare over the whole series regenerates.
 * @param {import('../types.js').ChangePoints} cp validated (path parts are path-safe)
 * @returns {string} `changepoints/<host-class>/<product>/<line>/<suite>.json`
 */
export function changePointsRelPath(cp) {
  return join('changepoints', cp.hostClass, cp.product, cp.line, `${cp.suite}.json`);
}

/**
 * Canonical JSON text of a stored file: two-space indent, trailing newline.
 * @param {unknown} data
 * @returns {string}
 */
export function renderJson(data) {
  return `${JSON.stringify(data, null, 2)}\n`;
}
