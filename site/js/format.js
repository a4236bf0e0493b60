/** Number and verdict formatting for the pages (the data files keep raw numbers). */

const nf0 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const nf1 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const nf2 = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const nf3 = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

/** Ratios below this are marked (like the seed posts' tables), above HI too. */
export const LO = 0.95;
export const HI = 1.05;

/**
 * Throughput as the seed posts print it: whole numbers with separators, one decimal below 100.
 * @param {number|null|undefined} v
 */
export function fmtQps(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return Math.abs(v) >= 100 ? nf0.format(v) : nf1.format(v);
}

/** @param {number|null|undefined} v two decimals, the seed posts' ratio format */
export function fmtRatio(v) {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : nf2.format(v);
}

/** @param {number|null|undefined} v up to three decimals */
export function fmtNum(v) {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : nf3.format(v);
}

/** @param {number|null|undefined} v a relative effect (0.031) as a percentage */
export function fmtPct(v) {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : `${nf1.format(v * 100)} %`;
}

/** @param {number|null|undefined} bytes */
export function fmtBytes(bytes) {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${nf1.format(v)} ${units[i]}`;
}

/** @param {string|null|undefined} iso */
export function fmtDate(iso) {
  if (!iso) return '—';
  return iso.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC');
}

/**
 * CSS class for a ratio: `lo` below 0.95, `hi` above 1.05.
 * @param {number|null|undefined} ratio
 */
export function ratioClass(ratio) {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '';
  return ratio < LO ? 'lo' : ratio > HI ? 'hi' : '';
}

/** Short glyphs for verdicts in dense tables; the full word is in the title and legend. */
export const VERDICT_GLYPH = /** @type {Record<string, string>} */ ({
  regression: '▼', improvement: '▲', inconclusive: '?', failed: '✕', unchanged: '=',
});

/** Verdict classes in the order summaries list them. */
export const VERDICT_ORDER = ['regression', 'improvement', 'inconclusive', 'failed', 'unchanged'];
