/**
 * A product-line table as CSV: one row per test, per release its median throughput, the ratio
 * every page shows for it (the verdict's estimate against the release's comparison base, or the
 * medians' ratio marked not judged: scripts/compare/shown-ratio.js), that base, and the verdict
 * or why there is none (RFC 4180 quoting); a test counted by a counting meter gets a row per
 * meter, its metric the meter's unit (e.g. `instructions/op`), with the median count of the
 * meter's first metric and that metric's verdict and ratio likewise. Pure.
 */
import { formatShownRatio } from '../compare/index.js';

/** @import { TableData, ShownRatio } from './types.js' */

/**
 * @param {TableData} table
 * @returns {string} CSV text with a header row, CRLF line ends
 */
export function renderCsv(table) {
  const header = ['test', 'group', 'metric'];
  for (const r of table.releases) header.push(`${r.version} median`, `${r.version} ratio`, `${r.version} ratio to`, `${r.version} verdict`);
  const rows = [header];
  const baseOf = (/** @type {number} */ i) => table.releases[i].comparison?.baseVersion ?? '';
  for (const t of table.tests) {
    const row = [t.name, t.group, t.metric];
    t.values.forEach((v, i) => row.push(v === null ? '' : String(round(v, 3)), ...ratioCells(t.shown[i], t.verdicts[i], baseOf(i))));
    rows.push(row);
    for (const counted of Object.values(t.counted ?? {})) {
      const extra = [t.name, t.group, counted.unit];
      counted.values.forEach((v, i) => extra.push(v === null ? '' : String(round(v, 1)), ...ratioCells(counted.shown[i], counted.verdicts[i], baseOf(i))));
      rows.push(extra);
    }
  }
  return rows.map((r) => r.map(quote).join(',')).join('\r\n') + '\r\n';
}

/**
 * A release's ratio, its base and its verdict (or `not judged: why`).
 * @param {ShownRatio|null|undefined} shown
 * @param {string|null} verdict
 * @param {string} base
 * @returns {[string, string, string]}
 */
function ratioCells(shown, verdict, base) {
  if (!shown) return ['', '', verdict ?? ''];
  return [shown.ratio === null ? '' : formatShownRatio(shown), base, shown.judged ? verdict ?? '' : `not judged: ${shown.why}`];
}

/**
 * @param {number} x
 * @param {number} digits
 */
function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** @param {string} cell */
function quote(cell) {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}
