/**
 * The words of the time-and-work statements (scripts/compare/time-and-work.js): one sentence per
 * test, the same in the terminal, the Markdown report, the GitHub issue and check run, and on the
 * site. Each names every figure with its change (an undecided one as undecided, never a guess),
 * whether time and work agree, what a disagreement points to, and what cycles and IPC say where
 * the counters meter ran. Pure.
 */
import { describeMeasuredChange, describeVerdict } from './verdict-words.js';
import { formatChange, formatPercent } from '../format-number.js';
import { compareTimeAndWork } from './time-and-work.js';
import { renderUntrustedText } from './markdown-text.js';

/** @typedef {import('./time-and-work.js').TimeAndWork} TimeAndWork */
/** @typedef {import('./time-and-work.js').Figure} Figure */

/** What each reading points to, in words (the statement's data keeps the key). */
const POINTS_TO = Object.freeze({
  waiting: 'time moved and the work did not: this points to waiting (I/O, locks, the host) rather than CPU work',
  'less-waiting': 'time improved and the work did not: this points to less waiting (I/O, locks, the host) rather than less CPU work',
  'cpu-speed': 'time moved and the work did not, but the cycles per operation moved with the time: the same work ran at another speed on the CPU (cache misses, memory layout, the host\'s clock), not waiting',
  'hidden-work': 'the work rose and time did not: CPU work hidden by waiting (the test spends its time waiting, so more work does not show in its time)',
  'hidden-saving': 'the work fell and time did not: CPU work saved but hidden by waiting',
  'cpu-work': 'both moved the same way: the time follows the CPU work',
  'server-work': 'both moved the same way, the server\'s own work with them: the time follows the work it did (rows, pages, redo)',
});

const COUNTERS = Object.freeze({
  'off-cpu': 'cycles per operation did not move, so the time was spent off the CPU, waiting',
  'on-cpu': 'cycles per operation moved with the time: it was spent on the CPU',
  stalls: 'cycles per operation moved while the instructions did not: the CPU ran the same work at another speed (IPC: cache misses, memory layout), on the CPU rather than waiting',
  steady: 'cycles per operation did not move',
  undecided: 'cycles per operation undecided',
});

const ROLE_WORDS = Object.freeze({ time: 'time', 'cpu-work': 'CPU work', 'server-work': 'server work', cycles: 'cycles', ipc: 'IPC' });

/**
 * One figure's change in words: undecided, unchanged, or the change with its interval.
 * @param {Figure} f
 * @returns {string} e.g. `instructionsPerOp +0.25 % [0.22, 0.28], under the warn threshold`
 */
function figureWords(f) {
  const v = f.verdict;
  const words = f.moved === 'undecided' ? 'undecided'
    : v.verdict === 'unchanged' ? describeVerdict(v)
      : `${describeMeasuredChange(v) ?? formatChange(v)} (${v.verdict}${v.level ? `, ${v.level}` : ''})`;
  return `${f.metric} ${words}`;
}

/**
 * @param {Figure[]} figures of one role
 * @returns {string} `CPU work: instructionsPerOp +4.99 % [4.94, 5.05] (regression, issue), …`
 */
function roleWords(figures) {
  return `${ROLE_WORDS[figures[0].role]}: ${figures.map(figureWords).join(', ')}`;
}

/**
 * The statement of one test as one sentence (no Markdown).
 * @param {TimeAndWork} s
 * @returns {string}
 */
export function describeTimeAndWork(s) {
  const against = s.work.length > 0 ? 'work' : 'cycles';
  const head = s.agreement === 'undecided' ? `cannot tell whether time and ${against} agree`
    : `time and ${against} ${s.agreement}`;
  const groups = [[s.time], s.work.filter((f) => f.role === 'cpu-work'), s.work.filter((f) => f.role === 'server-work'), s.work.length === 0 && s.cycles ? [s.cycles] : []]
    .filter((g) => g.length > 0);
  const figures = groups.map(roleWords).join('; ');
  const undecided = [s.time, ...s.work].filter((f) => f.moved === 'undecided').map((f) => f.metric);
  // Without a counted meter the cycles are the work: what they say is the whole reading.
  const why = s.work.length === 0 && s.counters ? COUNTERS[s.counters]
    : s.agreement === 'undecided' ? `only decided verdicts decide, and ${undecided.join(', ')} ${undecided.length === 1 ? 'is' : 'are'} undecided`
    : s.pointsTo === 'below-time-resolution' ? `the work moved by less than the smallest change the timed verdict can detect (${formatPercent(s.time.verdict.mde)}), so time could not have shown it`
      : s.pointsTo ? POINTS_TO[s.pointsTo] + (s.moved === 'both' && s.time.moved === 'none' ? ' (the time by less than its warn threshold)' : '') : 'neither moved';
  const counters = s.counters && s.work.length > 0 ? `; ${countersWords(s)}` : '';
  return `${head}: ${figures}. ${capitalize(why)}${counters}.`;
}

/**
 * @param {TimeAndWork} s with counters
 * @returns {string}
 */
function countersWords(s) {
  const figures = [s.cycles, s.ipc].filter((f) => f !== null).map(figureWords).join(', ');
  return `counters: ${COUNTERS[/** @type {NonNullable<TimeAndWork['counters']>} */ (s.counters)]} (${figures})`;
}

/** @param {string} text */
function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The statements as a report section: a Markdown list, or indented terminal lines.
 * @param {TimeAndWork[]} statements
 * @param {'markdown'|'text'} format
 * @returns {string} empty when no test was judged by more than one meter
 */
export function renderTimeAndWork(statements, format) {
  if (statements.length === 0) return '';
  const disagree = statements.filter((s) => s.agreement === 'disagree').length;
  const intro = `time and work (tests judged by more than one meter: does the time follow the work? ${disagree} of ${statements.length} disagree)`;
  if (format === 'markdown') {
    return `\n**Time and work.** ${capitalize(intro.slice('time and work ('.length, -1))}.\n\n${statements.map((s) => `- **${renderUntrustedText(s.test, { span: false })}**: ${describeTimeAndWork(s)}\n`).join('')}`;
  }
  return `\n${intro}:\n${statements.map((s) => `  ${s.test}: ${describeTimeAndWork(s)}\n`).join('')}`;
}

/**
 * One test's statement as its agreement and sentence, for pages that show one test at a time
 * (the site).
 * @param {{tests: import('../types.js').TestVerdict[]}} cmp
 * @param {string} test
 * @returns {{agreement: TimeAndWork['agreement'], sentence: string}|null} null when the test was
 *   not judged by more than one meter
 */
export function describeTestTimeAndWork(cmp, test) {
  const [statement] = compareTimeAndWork(cmp, test);
  return statement ? { agreement: statement.agreement, sentence: describeTimeAndWork(statement) } : null;
}
