/** Number and verdict formatting for the pages (the data files keep raw numbers). */
import { SHOWN_RATIO_DIGITS } from '#shown-ratio';

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

/** @type {Map<number, Intl.NumberFormat>} */
const ratioFormats = new Map([[2, nf2]]);

/**
 * @param {number|null|undefined} v
 * @param {number} [digits] default two, the seed posts' ratio format
 */
export function fmtRatio(v, digits = 2) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  let nf = ratioFormats.get(digits);
  if (!nf) ratioFormats.set(digits, (nf = new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return nf.format(v);
}

/**
 * Decimals of a verdict's ratio, the one ratio's (compare/shown-ratio.js): counted instructions
 * move by hundredths of a percent (A/A spread 0.002 % on point selects), so they get five; timed
 * figures three, as every report prints them (two gave "1.07" here beside "1.074" there).
 * @param {{counted?: boolean}|null|undefined} verdict a verdict of a data file (the builder
 *   stamps whether its metric is counted)
 */
export function ratioDigits(verdict) {
  return verdict?.counted ? SHOWN_RATIO_DIGITS.counted : SHOWN_RATIO_DIGITS.timed;
}

const nfCount = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const nfDelta = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/**
 * An instruction count per operation, with separators and one decimal at most (the compare
 * stage rounds them so; a whole count would hide a 0.4 instruction difference).
 * @param {number|null|undefined} v
 * @param {{signed?: boolean}} [opts] signed: a + before a positive change
 */
export function fmtCount(v, opts = {}) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return (opts.signed ? nfDelta : nfCount).format(v);
}

/**
 * A small relative figure (a spread of counted repeats, 0.00002) as a percentage with two
 * significant digits: fmtPct's one decimal would print it as 0.0 %.
 * @param {number|null|undefined} v
 */
export function fmtSmallPct(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return v === 0 ? '0 %' : `${Number((v * 100).toPrecision(2))} %`;
}

/**
 * A C++ function name short enough for a chart label: template arguments and parameter lists
 * collapsed to `<…>` and `(…)`, the return type (demangled template functions carry it) and a
 * trailing `const` dropped, and the head cut when still too long (the method name is at the
 * end). Names callgrind gives by address (`0x…`) and C names pass through.
 * @param {string} name
 * @param {number} [max] characters at most
 */
export function shortFunctionName(name, max = 48) {
  const s = name.replace(/\(anonymous namespace\)/g, '{anon}');
  let out = '';
  let paramsAt = -1;
  for (let i = 0; i < s.length;) {
    const c = s[i];
    if (s.startsWith('operator', i) && !/[\w]/.test(s[i - 1] ?? '')) {
      // `operator<<`, `operator()`, `operator new`: the symbols are the name, not brackets.
      const m = /^operator(\(\)|\[\]|[<>=!+\-*/%^&|~,]+| \w+)?/.exec(s.slice(i));
      const token = m ? m[0] : 'operator';
      out += token;
      i += token.length;
      continue;
    }
    if (c === '<' || c === '(') {
      const end = closing(s, i);
      if (c === '(' && paramsAt === -1) paramsAt = out.length;
      out += c === '<' ? '<…>' : end > i + 1 ? '(…)' : '()';
      i = end + 1;
      continue;
    }
    out += c;
    i += 1;
  }
  if (paramsAt > 0) {
    // A space before the name at the top level ends a return type (`void`, `unsigned long`).
    // Not the space of `operator new`, nor the one before an operator's template arguments
    // (`operator<< <char>`).
    const head = out.slice(0, paramsAt);
    let cut = head.lastIndexOf(' ');
    while (cut > 0 && (head[cut + 1] === '<' || head.slice(0, cut).endsWith('operator'))) cut = head.lastIndexOf(' ', cut - 1);
    if (cut > 0) out = out.slice(cut + 1);
  }
  out = out.replace(/\s+const$/, '');
  return out.length > max ? `…${out.slice(out.length - (max - 1))}` : out;
}

/**
 * Index of the bracket closing the one at `open` (either kind counts, as template arguments
 * hold function types), or the last index when it never closes (a name cut short).
 * @param {string} s
 * @param {number} open
 */
function closing(s, open) {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '<' || c === '(') depth += 1;
    else if (c === '>' || c === ')') {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return s.length - 1;
}

/** @param {number|null|undefined} v up to three decimals */
export function fmtNum(v) {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : nf3.format(v);
}

/**
 * A whole-millisecond reading (the insert benchmark's percentiles and max: compare's
 * latency-tables.js wholeMsColumns) as the reports print it: "< 1" for a reading under one tick
 * of the clock, else its whole ms (a median of two repeats can fall half-way).
 * @param {number|null|undefined} v
 */
export function fmtWholeMs(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return v === 0 ? '< 1' : Number.isInteger(v) ? String(v) : v.toFixed(1);
}

/** @param {number|null|undefined} v a relative effect (0.031) as a percentage */
export function fmtPct(v) {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : `${nf1.format(v * 100)} %`;
}

/**
 * A smallest detectable change (MDE): past 100 % it says only that the figure is noise (a drop
 * can never exceed 100 %; rises of thousands of per cent come from two noisy instances), so the
 * page says that in words, as the reports do (scripts/format-number.js formatDetectable).
 * @param {number|null|undefined} v
 */
export function fmtDetectable(v) {
  if (typeof v === 'number' && v > 0 && v < 0.001) return '< 0.1 %'; // a counted MDE below one decimal's reach, never "0 %"
  return typeof v === 'number' && v >= 1 ? 'not detectable at this noise' : fmtPct(v);
}

/**
 * A measured length: 3.0 s, 0.071 s (two significant digits below a second).
 * @param {number|null|undefined} s seconds
 */
export function fmtSeconds(s) {
  if (s === null || s === undefined || !Number.isFinite(s)) return '—';
  return s >= 1 ? `${nf1.format(s)} s` : `${Number(s.toPrecision(2))} s`;
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
 * CSS class for a ratio: `lo` below 0.95, `hi` above 1.05, judged on the value as printed
 * (rounded to `digits` decimals), so that a cell reading 1.05 is never marked above 1.05 and
 * two cells reading 0.95 are marked alike.
 * @param {number|null|undefined} ratio
 * @param {number} [digits] decimals it is printed with (fmtRatio's default 2)
 */
export function ratioClass(ratio, digits = 2) {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '';
  const printed = Number(ratio.toFixed(digits));
  return printed < LO ? 'lo' : printed > HI ? 'hi' : '';
}

/** Short glyphs for verdicts in dense tables; the full word is in the title and legend. */
export const VERDICT_GLYPH = /** @type {Record<string, string>} */ ({
  regression: '▼', improvement: '▲', inconclusive: '?', failed: '✕', unchanged: '=',
});

/** Verdict classes in the order summaries list them. */
export const VERDICT_ORDER = ['regression', 'improvement', 'inconclusive', 'failed', 'unchanged'];
