/**
 * A product-line table as CSV: one row per test, per release its median throughput and the
 * median ratio (median / median; a verdict's own ratio is in the comparison files) to the table's default base release (RFC 4180 quoting); a test whose runs counted
 * instructions gets a second row, metric `instructions/op`, with the median query-path count,
 * its ratio and the instruction verdict. Pure.
 */
import { formatRatio } from '../format-number.js';

/** Counted figures move by hundredths of a percent (the terminal's instruction lines print five decimals too). */
const COUNTED_RATIO_DIGITS = 5;

/** @import { TableData } from './types.js' */

/**
 * @param {TableData} table
 * @returns {string} CSV text with a header row, CRLF line ends
 */
export function renderCsv(table) {
  const baseAt = table.releases.findIndex((r) => r.version === table.defaultBase);
  const header = ['test', 'group', 'metric'];
  for (const r of table.releases) header.push(`${r.version} median`, `${r.version} median ratio to ${table.defaultBase ?? 'base'}`, `${r.version} verdict`);
  const rows = [header];
  for (const t of table.tests) {
    const base = baseAt >= 0 ? t.values[baseAt] : null;
    const row = [t.name, t.group, t.metric];
    t.values.forEach((v, i) => {
      row.push(v === null ? '' : String(round(v, 3)));
      row.push(v !== null && base ? formatRatio(v / base) : '');
      row.push(t.verdicts[i] ?? '');
    });
    rows.push(row);
    if (!t.instructions) continue;
    const counted = t.instructions;
    const countedBase = baseAt >= 0 ? counted.values[baseAt] : null;
    const extra = [t.name, t.group, 'instructions/op'];
    counted.values.forEach((v, i) => {
      extra.push(v === null ? '' : String(round(v, 1)));
      extra.push(v !== null && countedBase ? formatRatio(v / countedBase, { digits: COUNTED_RATIO_DIGITS }) : '');
      extra.push(counted.verdicts[i] ?? '');
    });
    rows.push(extra);
  }
  return rows.map((r) => r.map(quote).join(',')).join('\r\n') + '\r\n';
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
