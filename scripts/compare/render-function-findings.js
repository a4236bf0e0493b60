/**
 * "Below the threshold, named": the functions judged per test (./function-findings.js) gathered
 * over a comparison's tests, one row per function with the tests it shows in, for the terminal,
 * the Markdown report and the issue of a run; the site reads the same rows
 * (groupFunctionFindings). Function and object names come from the profiled binaries (a pull
 * request's plugin names its own): in Markdown they are code spans (./markdown-text.js). Pure.
 */
import { formatPercent, formatValue } from '../format-number.js';
import { renderUntrustedText } from './markdown-text.js';

/** The section's heading, the same in every place that lists findings. */
export const BELOW_THRESHOLD_TITLE = 'Below the threshold, named';

/** @typedef {import('../types.js').FunctionFinding} FunctionFinding */

/**
 * @typedef {object} NamedFunction one function found in one or more tests of a comparison
 * @property {string} name
 * @property {string} object
 * @property {{test: string, finding: FunctionFinding}[]} tests largest rise first
 */

/**
 * Group the findings of a comparison's instruction verdicts by function.
 * @param {{test: string, metric: string, functionFindings?: import('../types.js').TestFunctionFindings}[]} verdicts
 * @returns {NamedFunction[]} the function with the largest share of a test's total first
 */
export function groupFunctionFindings(verdicts) {
  /** @type {Map<string, NamedFunction>} */
  const byFunction = new Map();
  for (const v of verdicts) {
    if (v.metric !== 'instructionsPerOp') continue;
    for (const finding of v.functionFindings?.findings ?? []) {
      const key = `${finding.object}\t${finding.name}`;
      const entry = byFunction.get(key) ?? { name: finding.name, object: finding.object, tests: [] };
      entry.tests.push({ test: v.test, finding });
      byFunction.set(key, entry);
    }
  }
  const largest = (/** @type {NamedFunction} */ f) => Math.max(...f.tests.map((t) => t.finding.shareOfTotal));
  for (const f of byFunction.values()) f.tests.sort((a, b) => b.finding.shareOfTotal - a.finding.shareOfTotal);
  return [...byFunction.values()].sort((a, b) => largest(b) - largest(a) || (a.name < b.name ? -1 : 1));
}

/**
 * What rose, in words: `appeared`, or `self +5.2 %` (of the function's own count).
 * @param {FunctionFinding} f
 * @returns {string}
 */
export function describeFindingChange(f) {
  if (f.kind === 'appeared') return `appeared (${f.measure})`;
  return `${f.measure} ${f.shareOfFunction === null ? 'rose' : formatPercent(f.shareOfFunction, { signed: true })}`;
}

/**
 * One test's size of a finding: instructions per operation and share of the test's total.
 * @param {{finding: FunctionFinding}} t
 * @returns {string} e.g. `+64.00 /op (+0.101 % of the total)`
 */
export function describeFindingSize(t) {
  return `${formatValue(t.finding.deltaPerOp, { signed: true })} /op (${formatPercent(t.finding.shareOfTotal, { signed: true, digits: 3 })} of the total)`;
}

/**
 * A name from data on one terminal line: control characters (an escape sequence would repaint
 * the terminal) become `?`.
 * @param {string} text
 */
function plain(text) {
  return String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
}

/**
 * The section, or '' when no instruction verdict was judged per function.
 * @param {{test: string, metric: string, functionFindings?: import('../types.js').TestFunctionFindings}[]} verdicts
 * @param {'text'|'markdown'} format
 * @param {{limit?: number, heading?: string}} [options] limit: rows shown (default 15, the rest
 *   counted); heading: Markdown heading prefix (default '###')
 * @returns {string} ends with a newline when not empty
 */
export function renderFunctionFindings(verdicts, format, options = {}) {
  const judged = verdicts.filter((v) => v.metric === 'instructionsPerOp' && v.functionFindings);
  if (judged.length === 0) return '';
  const limit = options.limit ?? 15;
  const named = groupFunctionFindings(judged);
  const rounds = Math.min(...judged.map((v) => /** @type {{rounds: number}} */ (v.functionFindings).rounds));
  const intro = `Functions whose self or inclusive instructions per operation rose beyond their own noise over ${rounds} or more paired rounds, by at least the floor, or that appeared, `
    + `whatever the test's total did (${judged.length} test${judged.length === 1 ? '' : 's'} judged per function). Listed only: a finding never opens an issue by itself.`;
  const md = format === 'markdown';
  const head = md ? `${options.heading ?? '###'} ${BELOW_THRESHOLD_TITLE}` : `${BELOW_THRESHOLD_TITLE}:`;
  if (named.length === 0) return `\n${head}\n\n${md ? '' : '  '}No function rose beyond its noise in the ${judged.length} test${judged.length === 1 ? '' : 's'} judged per function.\n`;
  const shown = named.slice(0, limit);
  const more = named.length - shown.length;
  const tail = more > 0 ? `${more} more function${more === 1 ? '' : 's'} (the smallest shares) in the comparison's JSON.\n` : '';
  if (md) {
    const rows = shown.map((f) => `| ${renderUntrustedText(f.name, { table: true })} | ${renderUntrustedText(f.object, { table: true })} | ${describeFindingChange(f.tests[0].finding)} | ${f.tests.map((t) => `${renderUntrustedText(t.test, { table: true })} ${describeFindingSize(t)}`).join(', ')} |`);
    return [`\n${head}\n`, intro, '', '| function | object | change | tests: instructions per operation (share of the test\'s total) |', '| --- | --- | --- | --- |', ...rows, '', tail].join('\n');
  }
  const lines = shown.map((f) => `  ${plain(f.name)}  [${plain(f.object)}]  ${describeFindingChange(f.tests[0].finding)}: ${f.tests.map((t) => `${plain(t.test)} ${describeFindingSize(t)}`).join(', ')}`);
  return [`\n${head}`, `  ${intro}`, ...lines, tail ? `  ${tail}` : ''].join('\n');
}
