/**
 * The server's work per operation on the timed repeats, beside the timed verdict: per test and
 * side, the medians of the work counters the wall meter kept for each valid timed repeat
 * (`repeat.meters.work`, scripts/metrics/meters/work.js computeTimedWorkFigures), and which
 * counters moved most. Context only, never gated and never in the family of verdicts: each
 * release did as much work as it managed in the repeats' seconds, on data it had changed its own
 * way, with the page cleaner writing when it liked, so the counters say what the server did, not
 * whether it did the same work worse. The counted work meter judges the same counters on fixed
 * work. Pure.
 */
import { median } from 'simple-statistics';
import { formatValue } from '../format-number.js';
import { collectSide } from './collect-side.js';
import { renderUntrustedText } from './markdown-text.js';

/** @typedef {import('../types.js').TimedWorkComparison} TimedWorkComparison */

/**
 * Per operation, a counter below this on both sides is left out of "moved": a status read's own
 * temporary table over a few thousand operations is about this size, and it says nothing.
 */
export const TIMED_WORK_FLOOR = 0.01;

/** The counters a line names: the ones that moved most. */
export const TIMED_WORK_SHOWN = 3;

/**
 * The terminal names a test only when one of its counters moved by this share or more (the
 * Markdown names every test): on a suite of 25 tests most lines would say the same work.
 */
export const TIMED_WORK_TERMINAL_MOVE = 0.05;

/**
 * @param {import('../types.js').RunRecord[]} base
 * @param {import('../types.js').RunRecord[]} candidate
 * @param {string[]} tests reported tests, in the comparison's order
 * @returns {TimedWorkComparison[]} one row per test where both sides kept work figures; the
 *   counters ordered by how far they moved (|ln| of the ratio, each side plus TIMED_WORK_FLOOR),
 *   the most first; counters without a figure on some side last, with the reason
 */
export function summarizeTimedWork(base, candidate, tests) {
  /** @type {TimedWorkComparison[]} */
  const rows = [];
  for (const test of tests) {
    const [b, c] = [base, candidate].map((records) => collectSide(records, test).repeats.flatMap((r) => {
      const work = /** @type {import('../types.js').TimedWorkFigures|undefined} */ (r.meters?.work);
      return work ? [work] : [];
    }));
    if (b.length === 0 || c.length === 0) continue;
    const keys = [...new Set([...b, ...c].flatMap((w) => Object.keys(w.perOp)))];
    const counters = keys.map((counter) => {
      const [mb, mc] = [sideMedian(b, counter), sideMedian(c, counter)];
      const missing = mb === null || mc === null ? [...b, ...c].map((w) => w.missing[counter]).find(Boolean) ?? 'no figure' : null;
      return { counter, base: mb, candidate: mc, ...(missing ? { missing } : {}) };
    });
    const moved = (/** @type {{base: number|null, candidate: number|null}} */ x) => (x.base === null || x.candidate === null ? -1
      : Math.abs(Math.log((x.candidate + TIMED_WORK_FLOOR) / (x.base + TIMED_WORK_FLOOR))));
    // A stable sort: counters that did not move keep the meter's order (rows read first).
    counters.sort((x, y) => moved(y) - moved(x));
    rows.push({ test, repeats: { base: b.length, candidate: c.length }, counters });
  }
  return rows;
}

/**
 * @param {import('../types.js').TimedWorkFigures[]} figures one side's repeats
 * @param {string} counter
 * @returns {number|null} the median of the repeats that have a figure, null when none has
 */
function sideMedian(figures, counter) {
  const values = figures.map((w) => w.perOp[counter]).filter((v) => typeof v === 'number' && Number.isFinite(v));
  return values.length > 0 ? median(/** @type {number[]} */ (values)) : null;
}

const WHY = 'context, not gated: each release did as much work as it managed in the repeats\' seconds, with the page cleaner writing when it liked; the counted work meter judges the same counters on fixed work';

/**
 * The timed work figures as the comparison shows them beside the timed verdicts.
 * @param {{timedWork?: TimedWorkComparison[]}} cmp
 * @param {'markdown'|'text'} format
 * @returns {string} empty when no test has them; else a heading and one line per test naming
 *   the counters that moved most, base → candidate (medians per operation)
 */
export function renderTimedWork(cmp, format) {
  const all = cmp.timedWork ?? [];
  if (all.length === 0) return '';
  const md = format === 'markdown';
  const visible = (/** @type {TimedWorkComparison} */ r) => r.counters.filter((x) => x.base !== null && x.candidate !== null && Math.max(x.base, x.candidate) >= TIMED_WORK_FLOOR);
  const moved = (/** @type {TimedWorkComparison} */ r) => visible(r).some((x) => Math.abs(Math.log((/** @type {number} */ (x.candidate) + TIMED_WORK_FLOOR) / (/** @type {number} */ (x.base) + TIMED_WORK_FLOOR))) >= Math.log(1 + TIMED_WORK_TERMINAL_MOVE));
  const rows = md ? all : all.filter(moved);
  const lines = rows.map((r) => {
    const shown = visible(r).slice(0, TIMED_WORK_SHOWN);
    const text = shown.map((x) => `${counterWords(x.counter)}/op ${formatValue(/** @type {number} */ (x.base))} → ${formatValue(/** @type {number} */ (x.candidate))}`).join(', ');
    const name = md ? renderUntrustedText(r.test, { span: false }) : r.test;
    return `${md ? '- ' : '  '}${name}: ${text || `no counter at ${TIMED_WORK_FLOOR} per op or more`}\n`;
  });
  const title = `server work per operation on the timed repeats, base → candidate (medians over ${md ? 'the valid timed repeats' : 'the timed repeats'}; the ${TIMED_WORK_SHOWN} counters that moved most; ${WHY})`;
  if (md) return `\n**Server work on the timed repeats** (${title.slice(title.indexOf('(') + 1, -1)}):\n\n${lines.join('')}`;
  const quiet = all.length - rows.length;
  const rest = quiet > 0 ? `  ${rows.length > 0 ? 'other tests' : `${quiet} test${quiet === 1 ? '' : 's'}`}: no counter moved by ${Math.round(TIMED_WORK_TERMINAL_MOVE * 100)} % or more${rows.length > 0 ? ` (${quiet})` : ''} (every test in --markdown / --json)\n` : '';
  return `\n${title}:\n${lines.join('')}${rest}`;
}

/**
 * A counter key in words: `pagesWritten` → `pages written` (the keys of the products config's
 * workCounters; compare reads no meter registry for their labels).
 * @param {string} key
 * @returns {string}
 */
export function counterWords(key) {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}
