/**
 * The one ordering of release versions every stage uses (watch picks the newest tags, compare
 * orders a series for change points, the site orders table columns), so that a version sorts
 * the same everywhere. Sits at the bottom of the import graph like errors.js: imports nothing.
 *
 * Hand-written rather than a semver library: MySQL-family versions are not semver (`9.7`,
 * `10.11.18`, Percona's `8.0.40-31`, `11.8.6-rc`, `9.7.4-er2`), and semver parsers reject or
 * reorder them. The rule, token by token (a token is a run of digits or a run of letters;
 * anything else separates tokens):
 * - two numbers compare as numbers (10.11.9 < 10.11.18), however many digits;
 * - two words compare as lower-case text (alpha < beta < rc);
 * - a word sorts before a number and before the end of the version: a word there is a
 *   pre-release tag (11.8.6-rc < 11.8.6 < 11.8.6-1);
 * - the end of the version sorts before a number: a longer version is a later one
 *   (9.7 < 9.7.4, 8.0.40 < 8.0.40-31).
 * Versions with equal tokens but different spelling (10.11.018) fall back to plain text order,
 * so the order is total and a sort is deterministic.
 */

const TOKEN = /\d+|[A-Za-z]+/g;

/**
 * Compare two release versions for Array.prototype.sort (oldest first).
 * @param {string} a a version, e.g. `10.11.18`
 * @param {string} b
 * @returns {number} negative when a is older, positive when newer, 0 only when a === b
 */
export function compareVersions(a, b) {
  const ta = String(a).match(TOKEN) ?? [];
  const tb = String(b).match(TOKEN) ?? [];
  for (let i = 0; i < Math.max(ta.length, tb.length); i++) {
    const d = compareTokens(ta[i], tb[i]);
    if (d !== 0) return d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * @param {string|undefined} x a token, undefined past the end
 * @param {string|undefined} y
 * @returns {number}
 */
function compareTokens(x, y) {
  if (x === y) return 0;
  const rank = (/** @type {string|undefined} */ t) => (t === undefined ? 1 : /^\d/.test(t) ? 2 : 0);
  const rx = rank(x);
  const ry = rank(y);
  if (rx !== ry) return rx - ry;
  const sx = /** @type {string} */ (x);
  const sy = /** @type {string} */ (y);
  if (rx === 2) {
    // As digit strings, so that numbers beyond 2^53 still compare exactly.
    const nx = sx.replace(/^0+(?=\d)/, '');
    const ny = sy.replace(/^0+(?=\d)/, '');
    if (nx.length !== ny.length) return nx.length - ny.length;
    return nx < ny ? -1 : nx > ny ? 1 : 0;
  }
  const lx = sx.toLowerCase();
  const ly = sy.toLowerCase();
  return lx < ly ? -1 : lx > ly ? 1 : 0;
}
