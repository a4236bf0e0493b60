/**
 * The hidden marker that makes reports idempotent. Every tagbench issue body starts with an
 * HTML comment (invisible on GitHub) holding JSON: the fingerprint of the key, the
 * tests it lists and a digest of its numbers. A later report finds the issue by fingerprint
 * instead of trusting titles, which people edit.
 */
import { createHash } from 'node:crypto';

/** @typedef {import('./types.js').IssueKey} IssueKey */
/** @typedef {import('./types.js').IssueMarker} IssueMarker */

const PREFIX = '<!-- tagbench-issue ';
const RECOVERY_PREFIX = '<!-- tagbench-recovery ';
const SUFFIX = ' -->';

/**
 * Stable id of an issue key. Version 1 of the format: changing it would orphan open issues.
 * @param {IssueKey} key
 * @returns {string} e.g. `tagbench-regression/v1/mariadb/10.11/10.11.19/small-server/standard`, and for an
 *   ad-hoc run `…/standard/ad-hoc/base=10.11.17/mycnf=small/only=point-query+scan`
 */
export function computeFingerprint(key) {
  const official = ['tagbench-regression', 'v1', key.product, key.line, key.version, key.hostClass, key.suite];
  if (!key.adHoc) return official.join('/');
  // An ad-hoc run (overrides) gets an issue of its own: two dispatches with different overrides
  // must not share one, and none may rewrite the release's official issue.
  const { base, mycnf, only } = key.adHoc;
  const e = encodeURIComponent;
  return [...official, 'ad-hoc', `base=${e(base ?? '')}`, `mycnf=${e(mycnf ?? '')}`, `only=${only.map(e).join('+')}`].join('/');
}

/**
 * Short digest of the parts of an issue that matter (not links, not dates): two reports of the
 * same numbers produce the same digest, so a rerun of the report changes nothing.
 * @param {unknown} substance any JSON-serialisable value
 * @returns {string} 16 hex characters
 */
export function computeDigest(substance) {
  return createHash('sha256').update(JSON.stringify(substance)).digest('hex').slice(0, 16);
}

/**
 * @param {IssueMarker} marker
 * @returns {string} one-line HTML comment
 */
export function renderMarker(marker) {
  return PREFIX + safeJson(marker) + SUFFIX;
}

/**
 * Find and read the marker in an issue body.
 * @param {string|null|undefined} body
 * @returns {IssueMarker|null} null when there is none or it does not parse (a hand-edited body)
 */
export function parseMarker(body) {
  const json = extract(body, PREFIX);
  if (json === null) return null;
  try {
    const m = JSON.parse(json);
    if (m && m.v === 1 && typeof m.fingerprint === 'string' && Array.isArray(m.tests) && m.key && typeof m.digest === 'string') {
      return /** @type {IssueMarker} */ (m);
    }
  } catch {
    // A marker someone edited by hand is treated as absent: the issue is then not ours to update.
  }
  return null;
}

/**
 * Marker of a recovery comment: which release recovered, so the same recovery is commented once.
 * @param {string} version
 * @returns {string}
 */
export function renderRecoveryMarker(version) {
  return RECOVERY_PREFIX + safeJson({ v: 1, version }) + SUFFIX;
}

/**
 * @param {string|null|undefined} body comment body
 * @returns {string|null} the recovering version named by the comment's marker, if any
 */
export function parseRecoveryMarker(body) {
  const json = extract(body, RECOVERY_PREFIX);
  if (json === null) return null;
  try {
    const m = JSON.parse(json);
    return m && m.v === 1 && typeof m.version === 'string' ? m.version : null;
  } catch {
    return null;
  }
}

/**
 * A marker of another kind of text tagbench keeps up to date (a pull request's verdict comment):
 * `<!-- <name> {json} -->`, on one line, invisible on GitHub.
 * @param {string} name e.g. `tagbench-verdict`
 * @param {unknown} value any JSON-serialisable value
 * @returns {string}
 */
export function renderNamedMarker(name, value) {
  return `<!-- ${name} ${safeJson(value)}${SUFFIX}`;
}

/**
 * @param {string|null|undefined} body
 * @param {string} name as given to renderNamedMarker
 * @returns {unknown} the marker's value, null when there is none or it does not parse
 */
export function parseNamedMarker(body, name) {
  const json = extract(body, `<!-- ${name} `);
  if (json === null) return null;
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}

/**
 * JSON that cannot end the HTML comment early: `>` is written as its \u escape.
 * @param {unknown} value
 */
function safeJson(value) {
  return JSON.stringify(value).replace(/>/g, '\\u003e');
}

/**
 * @param {string|null|undefined} body
 * @param {string} prefix
 * @returns {string|null}
 */
function extract(body, prefix) {
  if (!body) return null;
  const start = body.indexOf(prefix);
  if (start < 0) return null;
  const end = body.indexOf(SUFFIX, start + prefix.length);
  if (end < 0) return null;
  return body.slice(start + prefix.length, end);
}
