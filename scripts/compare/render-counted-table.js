/**
 * The counted verdicts of a comparison, test by test: for each test every gated figure a counted
 * meter measured on a fixed amount of work (the server's work per operation: rows, lookups,
 * temporary tables, pages, redo, fsyncs; instructions), base and candidate side by side. Where a
 * timed verdict says only that a test got slower, these say what the server did differently for
 * the same work: more rows read is a plan change, more pages read a cache that no longer holds
 * the data, more redo a heavier write. Pure.
 */
import { formatValue } from '../format-number.js';
import { computeShownRatio, formatShownRatio } from './shown-ratio.js';
import { renderUntrustedText } from './markdown-text.js';

/** @typedef {import('./types.js').FullComparison} FullComparison */
/** @typedef {FullComparison['tests'][number]} TestVerdict */

/**
 * @param {FullComparison} cmp
 * @param {{format: 'markdown'|'terminal'}} options
 * @returns {string} empty when the comparison has no counted verdicts; else text ending with a
 *   newline: Markdown, a heading and one table per test; terminal, one line per test naming the
 *   figures whose verdict is not "unchanged" (every figure is in the Markdown)
 */
export function renderCountedTable(cmp, options) {
  /** @type {Map<string, TestVerdict[]>} */
  const byTest = new Map();
  for (const t of cmp.tests) if (t.counted) byTest.set(t.test, [...(byTest.get(t.test) ?? []), t]);
  if (byTest.size === 0) return '';
  if (options.format === 'markdown') {
    const out = ['\n**Counted figures per test** (per operation of the same fixed work on both releases, lower is better)\n'];
    for (const [test, verdicts] of byTest) {
      out.push(`\n${renderUntrustedText(test, { span: false })}:\n\n| figure | unit | base | candidate | ratio | verdict |\n| --- | --- | ---: | ---: | ---: | --- |\n`);
      for (const t of verdicts) out.push(`| ${renderUntrustedText(t.metric, { span: false })} | ${renderUntrustedText(t.unit, { span: false })} | ${median(t.base)} | ${median(t.candidate)} | ${countedRatio(t)} | ${t.verdict} |\n`);
    }
    return out.join('');
  }
  const lines = [...byTest].map(([test, verdicts]) => {
    const moved = verdicts.filter((t) => t.verdict !== 'unchanged');
    const same = verdicts.length - moved.length;
    const parts = moved.map((t) => `${t.metric} ${median(t.base)} -> ${median(t.candidate)} (${countedRatio(t)}, ${t.verdict})`);
    return `  ${test}: ${[...(same > 0 ? [`${same} unchanged`] : []), ...parts].join('; ')}\n`;
  });
  return `\ncounted figures per test (per operation of the same fixed work):\n${lines.join('')}`;
}

/**
 * A counted verdict's ratio at the digits every page and file gives it (./shown-ratio.js: was
 * "1.003" here beside "1.00303" in the verdicts).
 * @param {TestVerdict} t
 * @returns {string}
 */
function countedRatio(t) {
  return formatShownRatio(computeShownRatio({ verdict: t, counted: true }));
}

/**
 * @param {TestVerdict['base']} side
 * @returns {string}
 */
function median(side) {
  return side ? formatValue(side.median) : 'n/a';
}
