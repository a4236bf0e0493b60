/**
 * One question, one gated verdict. Two meters can answer the same question about a test: the
 * CPU cost of an operation is answered by the timed repeats' CPU µs per op (read from /proc over
 * repeats whose noise is 5-35 %) and, where the test is counted, by its instructions per
 * operation (counted, paired by round, noise in hundredths of a percent). Gating both adds a
 * member to the run's family (a stricter Holm level for every other verdict) and, far more often
 * than not, an inconclusive verdict, for no question the counted one has not settled. So where a
 * counted verdict of the test answering the same question decided (regression, improvement or
 * unchanged), the timed one is kept and shown as context: outside the family, out of the summary
 * counts, never at the issue level. Where the counted verdict is missing, failed or inconclusive,
 * the timed one stays gated. A metric says which question it answers (`answers`, a fact of its
 * definition), so nothing here names a meter or a metric. Pure; docs/method.md, "One question,
 * one verdict".
 */

import { describeVerdict } from './verdict-words.js';

/** @typedef {import('./types.js').FullVerdict} FullVerdict */

/** How readers name a question (a metric's `answers`); an unknown one is shown as it is written. */
const QUESTION_WORDS = Object.freeze(/** @type {Record<string, string>} */ ({ 'cpu-cost-per-op': 'CPU cost per operation' }));

/** Said of a context verdict that would have been an issue. */
const LOWERED = ' (so never an issue)';

/** The verdict classes that settle a question. */
const DECIDED = new Set(['regression', 'improvement', 'unchanged']);

/**
 * Marks the timed verdicts whose question a counted verdict of the same test decided: `context`
 * set, the reason opened with why, an issue level lowered to warn (mutates `tests`).
 * @param {FullVerdict[]} tests every verdict of the comparison
 * @param {(verdict: FullVerdict) => string|undefined} answersOf the question a verdict's metric
 *   answers (its definition's `answers`), undefined for a metric that states none
 * @returns {number} how many verdicts became context
 */
export function markContextVerdicts(tests, answersOf) {
  /** @type {Map<string, FullVerdict>} `test|question` -> the decided counted verdict answering it */
  const decided = new Map();
  for (const v of tests) {
    const question = answersOf(v);
    if (v.counted === true && question && DECIDED.has(v.verdict) && !decided.has(`${v.test}|${question}`)) decided.set(`${v.test}|${question}`, v);
  }
  let marked = 0;
  for (const v of tests) {
    const question = answersOf(v);
    const counted = question && v.counted !== true ? decided.get(`${v.test}|${question}`) : undefined;
    if (!question || !counted) continue;
    v.context = true;
    const lowered = v.level === 'issue';
    if (lowered) v.level = 'warn';
    v.reason = `${explainContext(v, counted, question)}${lowered ? LOWERED : ''}. Its own reading: ${v.reason}`;
    marked += 1;
  }
  return marked;
}

/**
 * The plain words of a context verdict's reason.
 * @param {FullVerdict} timed
 * @param {FullVerdict} counted the decided counted verdict of the same test and question
 * @param {string} question
 * @returns {string}
 */
function explainContext(timed, counted, question) {
  const how = counted.pairedRounds
    ? `paired over ${counted.pairedRounds} rounds`
    : `${counted.base?.n ?? 0} vs ${counted.candidate?.n ?? 0} counted repeats`;
  const exact = counted.noiseCv === 0 ? 'exact, ' : '';
  const countedName = counted.label ?? counted.metric;
  const timedName = timed.label ?? `${timed.metric} (${timed.unit})`;
  return `context: this test's ${QUESTION_WORDS[question] ?? question} is decided by its counted ${countedName} (${counted.verdict}, ${exact}${how}); `
    + `the timed ${timedName}, a noisier second answer to the same question, is shown, not gated`;
}

/**
 * The terminal's lines for the context verdicts (the Markdown lists them with every other reason):
 * what they all share once, in the heading, then one short line each: its words and the counted
 * verdict that decided its question (from its reason, which explainContext wrote; a reason of
 * another form is printed whole). Empty when there are none.
 * @param {FullVerdict[]} tests
 * @returns {string}
 */
export function renderContextLines(tests) {
  const context = tests.filter((t) => t.context);
  if (context.length === 0) return '';
  const line = (/** @type {FullVerdict} */ t) => {
    const decidedBy = /is decided by its counted (.*?); the timed /.exec(t.reason ?? '')?.[1];
    const lowered = (t.reason ?? '').includes(LOWERED) ? LOWERED : '';
    return `  ${t.test} ${t.metric}: ${describeVerdict(t)}; ${decidedBy ? `decided by its counted ${decidedBy}${lowered}` : t.reason}\n`;
  };
  return `\ncontext (shown, not gated: each is a timed second answer to a question its test's counted verdict decided; its full reason is in the Markdown report):\n${context.map(line).join('')}`;
}
