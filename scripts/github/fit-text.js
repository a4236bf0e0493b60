/**
 * Keeping Markdown under GitHub's size limits: how long a text is in the unit GitHub checks, and
 * how many rows of a table (or sections of a page) fit. Pure.
 */

/**
 * The size GitHub measures a check run's summary and text in: bytes of UTF-8 ("summary exceeds
 * a maximum bytesize of 65535", although the documentation says characters). Never smaller than
 * the character count GitHub applies to comment and issue bodies, so it serves for those too.
 * @param {string} text
 * @returns {number}
 */
export function utf8Bytes(text) {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The largest n in 0..max for which fits(n) holds, for a fits that holds for every n below one
 * that holds (fewer rows, shorter text); found by bisection, as a render may be costly.
 * @param {number} max
 * @param {(n: number) => boolean} fits
 * @returns {number} 0 when even no row fits (the caller decides whether that is an error)
 */
export function largestFitting(max, fits) {
  if (fits(max)) return max;
  let lo = 0;
  let hi = max - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
