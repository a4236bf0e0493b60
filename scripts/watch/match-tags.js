/**
 * Match upstream tags against a product's lines (tagPattern, group 1 = version) and apply each
 * line's version floor.
 */
import { compareVersions } from '../version-order.js';

/**
 * Lowest version of a line that watch proposes: `minVersion` when the line has one, else its
 * `baseVersion` (the base release of relative tables, which is benchmarked too), else none.
 * @param {import('../types.js').ProductLine & {minVersion?: string}} line
 * @returns {string|null}
 */
export function lineFloor(line) {
  return line.minVersion ?? line.baseVersion ?? null;
}

/**
 * @param {import('../types.js').ProductConfig} product
 * @param {import('./types.js').RemoteTag[]} tags
 * @returns {{candidates: import('./types.js').TagCandidate[], belowFloor: import('./types.js').TagCandidate[]}}
 *   each in config line order, newest version first within a line; a tag matching several lines
 *   goes to the first line only
 */
export function matchTags(product, tags) {
  /** @type {import('./types.js').TagCandidate[]} */
  const candidates = [];
  /** @type {import('./types.js').TagCandidate[]} */
  const belowFloor = [];
  const lines = product.lines.map((line) => ({ line, re: new RegExp(line.tagPattern), floor: lineFloor(line) }));
  /** @type {Set<string>} */
  const seen = new Set();
  for (const tag of tags) {
    for (const { line, re, floor } of lines) {
      const m = re.exec(tag.name);
      if (!m) continue;
      const version = m[1] ?? m[0];
      const key = `${line.name}\0${version}`;
      if (!seen.has(key)) {
        seen.add(key);
        const c = { product: product.name, line: line.name, version, tag: tag.name, commit: tag.commit };
        (floor && compareVersions(version, floor) < 0 ? belowFloor : candidates).push(c);
      }
      break;
    }
  }
  const order = new Map(product.lines.map((l, i) => [l.name, i]));
  const byLineNewestFirst = (/** @type {import('./types.js').TagCandidate} */ a, /** @type {import('./types.js').TagCandidate} */ b) =>
    (order.get(a.line) ?? 0) - (order.get(b.line) ?? 0) || compareVersions(b.version, a.version);
  return { candidates: candidates.sort(byLineNewestFirst), belowFloor: belowFloor.sort(byLineNewestFirst) };
}
