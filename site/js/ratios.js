/**
 * Ratios to a base release and their group summaries, computed in the browser because the
 * reader picks the base. Pure (no DOM), so Node tests check it against the compare stage.
 */
import { ratioClass } from './format.js';

/**
 * @param {{releases: {version: string}[], tests: {values: (number|null)[]}[]}} t table data
 * @param {string} base version of the base release
 * @returns {(number|null)[][]} per test, per release: median / base median (null = no result
 *   on either side)
 */
export function tableRatios(t, base) {
  const bi = t.releases.findIndex((r) => r.version === base);
  return t.tests.map((test) => test.values.map((v) => {
    const b = bi >= 0 ? test.values[bi] : null;
    return v !== null && b ? v / b : null;
  }));
}

/**
 * Geometric mean of the ratios that exist, defined as the compare stage's relative table
 * defines it (scripts/compare/relative-table.js, through simple-statistics' geometricMean:
 * the n-th root of the product, in list order), so that the site's group summary and the
 * terminal's agree to the last digit. Written again here because the pages run in the browser
 * without a bundler; test/site-build/build-site.test.js checks the two against each other.
 * @param {(number|null)[]} ratios
 * @returns {number|null} null when no ratio exists
 */
export function geometricMean(ratios) {
  const xs = /** @type {number[]} */ (ratios.filter((x) => typeof x === 'number' && Number.isFinite(x)));
  if (xs.length === 0) return null;
  let product = 1;
  for (const x of xs) product *= x;
  return Math.pow(product, 1 / xs.length);
}

/**
 * Summary of one test group for one release: geometric mean of its tests' ratios and how many
 * are marked below / above the thresholds.
 * @param {{tests: {name: string}[]}} t table data
 * @param {{tests: string[]}} group
 * @param {(number|null)[][]} ratios from tableRatios
 * @param {number} i release index
 * @returns {{geomean: number|null, n: number, lo: number, hi: number}}
 */
export function groupSummary(t, group, ratios, i) {
  const rs = group.tests.map((name) => ratios[t.tests.findIndex((x) => x.name === name)]?.[i] ?? null);
  const present = rs.filter((x) => x !== null);
  return {
    geomean: geometricMean(rs),
    n: present.length,
    lo: present.filter((x) => ratioClass(x) === 'lo').length,
    hi: present.filter((x) => ratioClass(x) === 'hi').length,
  };
}
