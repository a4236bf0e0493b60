/**
 * The code without a name in a function diff: which ELF objects it is in, what the named
 * functions explain of the difference (a list that explains under half is labelled so, before
 * its tables, wherever it is shown: terminal, Markdown, issue, site), and the command that names
 * every function. Debian's binaries keep symbols for their exported functions only, and Debian's
 * debug-symbol packages could not be had where tagbench runs (bench/debug-symbols.md), so the
 * sentence gives a source build of the same releases. Pure.
 */
import { formatCount, formatPercent } from '../format-number.js';
import { renderUntrustedText } from './markdown-text.js';

/** @import { FunctionDelta, CompactProfile, FunctionDiff } from './function-diff.js' */

/**
 * @typedef {object} UnnamedObject the code without a name in one ELF object
 * @property {string} object `mariadbd`, `libc.so.6`; '' when the profiles do not say
 * @property {number} delta candidate − base self instructions per operation
 */

/** A named list that explains less than this share of the difference is labelled so. */
export const EXPLAINS_MOST = 0.5;
/** How callgrind names a function without a symbol: its address (summarizeProfile's isUnnamed). */
export const ADDRESS = /^0x[0-9a-fA-F]+$/;

/**
 * The change in code without a name, per ELF object. Profiles that keep the split
 * (`unnamedByObject`) give it whole; older ones only through their address-named rows, and what
 * those leave of unnamedDelta is put under object '' (below the profiles' share: not known where).
 * @param {CompactProfile[]} baseProfiles
 * @param {CompactProfile[]} candidateProfiles
 * @param {FunctionDelta[]} functions
 * @param {number} unnamedDelta
 * @returns {UnnamedObject[]} non-zero changes, largest first
 */
export function unnamedObjects(baseProfiles, candidateProfiles, functions, unnamedDelta) {
  /** @type {Map<string, number>} */
  const deltas = new Map();
  const add = (/** @type {string} */ object, /** @type {number} */ v) => deltas.set(object, (deltas.get(object) ?? 0) + v);
  if ([...baseProfiles, ...candidateProfiles].every((p) => p.unnamedByObject)) {
    for (const [side, profiles] of /** @type {const} */ ([[-1, baseProfiles], [1, candidateProfiles]])) {
      for (const p of profiles) for (const [object, perOp] of Object.entries(p.unnamedByObject ?? {})) add(object, (side * perOp) / profiles.length);
    }
  } else {
    for (const f of functions) if (ADDRESS.test(f.name)) add(f.object, f.selfDelta);
    add('', unnamedDelta - [...deltas.values()].reduce((sum, v) => sum + v, 0));
  }
  return [...deltas].map(([object, delta]) => ({ object, delta: round(delta) })).filter((o) => o.delta !== 0)
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || compareText(x.object, y.object));
}

/**
 * What the named functions of `added` and `removed` explain of the whole difference together.
 * @param {Pick<FunctionDiff, 'totalDelta'|'added'|'removed'>} diff
 * @returns {number|null} null when the totals are equal
 */
export function listedShare(diff) {
  if (diff.totalDelta === 0) return null;
  return round([...diff.added, ...diff.removed].reduce((sum, f) => sum + f.selfDelta, 0)) / diff.totalDelta;
}

/**
 * The label a named list gets when it explains under half of the difference, so that nobody
 * blames the few functions it names for all of it (the demo's range-covered-si: free_root's +25
 * of +600, 96 % in code without a name).
 * @param {Pick<FunctionDiff, 'totalDelta'|'unnamedShare'|'unnamedByObject'|'added'|'removed'>} diff
 * @returns {string|null} null when the listed functions explain half of the difference or more,
 *   or the totals are equal
 */
export function describeListedShare(diff) {
  const share = listedShare(diff);
  if (share === null || Math.abs(share) >= EXPLAINS_MOST) return null;
  const named = diff.added.length + diff.removed.length === 0 ? 'No named function moved beyond what the profiles\' cut can explain'
    : `The named functions that moved the most (${diff.added.length + diff.removed.length}, together) explain only ${formatPercent(share)} of the difference (under half)`;
  const unnamed = diff.unnamedShare === null || diff.unnamedShare === undefined ? ''
    : `; ${formatPercent(diff.unnamedShare)} is in code without a name${objectsText(diff.unnamedByObject ?? [])}`;
  return `${named}${unnamed}: the list is not where most of the instructions went.`;
}

/**
 * Where the code without a name is, and how to name it: Debian's binaries keep symbols for
 * exported functions only, and Debian's debug-symbol packages could not be had where this was
 * built (bench/debug-symbols.md), so the sentence gives the command that counts the same releases
 * built from source with symbols (the source provider's profiles are RelWithDebInfo).
 * @param {Pick<FunctionDiff, 'unnamedDelta'|'unnamedShare'|'unnamedByObject'>} diff
 * @param {{command?: string|null, format?: 'text'|'markdown'}} [options] command: the one that
 *   names every function (namingCommand()); markdown puts it in a code span
 * @returns {string}
 */
export function describeUnnamed(diff, options = {}) {
  const share = diff.unnamedShare === null ? '' : ` (${formatPercent(diff.unnamedShare)} of the difference)`;
  const head = `Code without a name: ${formatCount(diff.unnamedDelta, { signed: true })} instructions per operation${share}`;
  if (diff.unnamedDelta === 0) return `${head}.`;
  const command = options.command ? (options.format === 'markdown' ? renderUntrustedText(options.command) : `\`${options.command}\``) : null;
  // A comparison stored before the objects were kept cannot say them; comparing again can.
  const where = diff.unnamedByObject ? objectsText(diff.unnamedByObject) : ' (in which objects: not kept in this comparison, made before tagbench kept them; compare again to see them)';
  return `${head}${where}. `
    + 'Debian\'s binaries carry symbols for their exported functions only, and Debian\'s debug-symbol packages (its debug archive, or debuginfod) are not reachable from tagbench\'s hosts (bench/debug-symbols.md). '
    + (command ? `A source build with symbols names every function: ${command}.` : 'A source build with symbols (the source provider) names every function.');
}

/**
 * The command that counts a comparison's two releases again, built from source with symbols,
 * into a store of its own (a source build's records would otherwise join the packages' ones).
 * @param {{product: string, hostClass: string, suite: string, base: {version: string}, candidate: {version: string}}} cmp
 * @returns {string}
 */
export function namingCommand(cmp) {
  const store = 'results-with-symbols';
  return `tagbench run --releases ${cmp.product}@${cmp.base.version}:source,${cmp.product}@${cmp.candidate.version}:source --meter instructions --suite ${cmp.suite} --host-class ${cmp.hostClass} --store ${store}`
    + ` && tagbench compare --product ${cmp.product} --suite ${cmp.suite} --host-class ${cmp.hostClass} --store ${store} --functions`;
}

/** Objects named one by one in the unnamed sentence; the rest are summed. */
const OBJECTS_NAMED = 3;

/**
 * @param {UnnamedObject[]} objects largest first
 * @returns {string} e.g. `, in mariadbd +570, libc.so.6 +5`; empty without objects
 */
function objectsText(objects) {
  if (objects.length === 0) return '';
  // callgrind's name for code in no known object
  const name = (/** @type {string} */ o) => (o === '' ? 'objects below the profiles\' share' : o === '???' ? 'no known object (???)' : o);
  const parts = objects.slice(0, OBJECTS_NAMED).map((o) => `${name(o.object)} ${formatCount(o.delta, { signed: true })}`);
  const rest = objects.slice(OBJECTS_NAMED);
  if (rest.length > 0) parts.push(`${rest.length} other object${rest.length === 1 ? '' : 's'} ${formatCount(round(rest.reduce((sum, o) => sum + o.delta, 0)), { signed: true })}`);
  return `, in ${parts.join(', ')}`;
}

/** @param {number} v */
function round(v) {
  return Math.round(v * 10) / 10;
}

/** @param {string} a @param {string} b */
function compareText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
