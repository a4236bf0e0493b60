/**
 * Ratios to a base release and their group summaries, computed in the browser because the
 * reader picks the base. Pure (no DOM), so Node tests check it against the compare stage.
 */
import { ratioClass } from './format.js';
import { computeShownRatio } from '#shown-ratio';

/** @typedef {import('#shown-ratio').ShownRatio} ShownRatio */

/**
 * The ratio a page shows for one release against the base the reader picked: the one the site
 * build stored (the verdict's estimate, or the medians' ratio compare refused to judge) when the
 * release was compared with that base; otherwise the medians' ratio, not judged, saying why (and
 * still refused, with compare's reason, when compare refused the step in its own comparison).
 * @param {object} at
 * @param {ShownRatio|null} at.own the stored shown ratio against the release's comparison base
 * @param {string|null} at.comparedWith that base (null: no comparison)
 * @param {string} at.base the base the reader picked
 * @param {string} at.version the release
 * @param {number|null} at.baseMedian
 * @param {number|null} at.median
 * @returns {ShownRatio|null} null: no figure on either side
 */
export function shownAgainst({ own, comparedWith, base, version, baseMedian, median }) {
  if (version === base) return { ratio: 1, judged: false, refused: false, counted: own?.counted ?? false, why: 'the base release itself' };
  if (own && comparedWith === base) return own;
  if (own?.refused) {
    const ratio = computeShownRatio({ baseMedian, candidateMedian: median }).ratio;
    return ratio === null ? null : { ...own, ratio };
  }
  const noVerdict = comparedWith ? `compared with ${comparedWith}, not ${base}: pick that base for its verdict` : `${version} has no comparison`;
  const shown = computeShownRatio({ baseMedian, candidateMedian: median, noVerdict, counted: own?.counted ?? false });
  return shown.ratio === null ? null : shown;
}

/**
 * Every cell's shown ratio against `base` (shownAgainst), per test, per release.
 * @param {{releases: {version: string, comparison: {baseVersion: string}|null}[], tests: {values: (number|null)[], shown?: (ShownRatio|null)[]}[]}} t table data
 * @param {string} base
 * @returns {(ShownRatio|null)[][]}
 */
export function tableShownRatios(t, base) {
  const bi = t.releases.findIndex((r) => r.version === base);
  return t.tests.map((test) => t.releases.map((r, i) => shownAgainst({
    own: test.shown?.[i] ?? null, comparedWith: r.comparison?.baseVersion ?? null, base, version: r.version,
    baseMedian: bi >= 0 ? test.values[bi] : null, median: test.values[i],
  })));
}

/**
 * The ratios a group mean counts: every shown ratio but those compare refused to judge (a step
 * too short to judge must not move "Writes 1.03").
 * @param {(ShownRatio|null)[][]} shown from tableShownRatios
 * @returns {(number|null)[][]}
 */
export function groupMeanRatios(shown) {
  return shown.map((row) => row.map((s) => (s && !s.refused ? s.ratio : null)));
}

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

/**
 * The verdicts' intervals a chart of ratios to `base` can draw: a comparison's interval is of
 * the ratio to the release it compared with, so only releases compared with that very base
 * have one; the others are listed with the base they were compared with.
 * @param {{releases: {version: string, comparison: {baseVersion: string}|null}[], tests: {intervals?: ([number, number, number]|null)[]}[]}} t table data
 *   (intervals: `[ratio, low, high]`)
 * @param {string} base
 * @returns {{intervals: ({ratio: number, ci: [number, number]}|null)[][], comparedElsewhere: {version: string, baseVersion: string}[]}}
 *   intervals: per test, per release (null where none is drawn)
 */
export function intervalsAgainst(t, base) {
  const against = t.releases.map((r) => r.comparison?.baseVersion === base);
  return {
    intervals: t.tests.map((test) => t.releases.map((_r, i) => {
      const interval = against[i] ? test.intervals?.[i] ?? null : null;
      return interval ? { ratio: interval[0], ci: /** @type {[number, number]} */ ([interval[1], interval[2]]) } : null;
    })),
    comparedElsewhere: t.releases.flatMap((r) => (r.comparison && r.comparison.baseVersion !== base ? [{ version: r.version, baseVersion: r.comparison.baseVersion }] : [])),
  };
}

/**
 * A ratio axis's range: every ratio and every other value to keep in view (interval ends, a
 * threshold band), except that a very wide interval is clipped at 0.5–1.5 unless the ratios
 * themselves go further, so that one noisy test does not flatten every other line.
 * @param {(number|null)[]} ratios
 * @param {(number|null)[]} ends
 * @returns {[number, number]|null} null when there is no ratio
 */
export function ratioAxisRange(ratios, ends) {
  const finite = (/** @type {(number|null)[]} */ xs) => /** @type {number[]} */ (xs.filter((x) => typeof x === 'number' && Number.isFinite(x)));
  const rs = finite(ratios);
  if (rs.length === 0) return null;
  const all = [...rs, ...finite(ends)];
  const min = Math.max(Math.min(...all) - 0.02, Math.min(0.5, Math.min(...rs) - 0.05));
  const max = Math.min(Math.max(...all) + 0.02, Math.max(1.5, Math.max(...rs) + 0.05));
  return [Number(min.toFixed(2)), Number(max.toFixed(2))];
}
