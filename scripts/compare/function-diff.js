/**
 * Where the instructions went between two releases: the per-function difference of the compact
 * callgrind profiles (scripts/metrics/summarize-profile.js) stored with each measured repeat, and
 * its rendering for a terminal or a GitHub issue. Pure.
 *
 * Each side is the mean over its counted repeats, a function missing from a repeat counting as 0
 * there (it ran below the profile's share, or not at all; its cost is then in that repeat's
 * `(other)` row). Functions are matched by name and ELF object.
 *
 * Two kinds of function stay out of the added/removed rankings (they remain in `functions`):
 * - those without a symbol, named by their address, which moves from one build to the next; they
 *   are summed instead, and the rendering says how much of the difference is in code without a
 *   name;
 * - those whose change the profile's cut could explain: a function missing from a repeat cost
 *   anything from 0 to just under that repeat's cut (its minShare of the total) there. Two dumps
 *   of one MariaDB binary 12 % apart in total (a background thread) put the cut at 31.8 and 35.6
 *   instructions per point select, and a dozen functions of 32–35 looked removed; a function is
 *   ranked only when its change holds with its missing repeats set anywhere in that range.
 */
import { formatCount, formatPercent, MISSING } from '../format-number.js';
import { ADDRESS, describeListedShare, describeUnnamed, unnamedObjects } from './unnamed-code.js';
import { renderUntrustedText } from './markdown-text.js';

/**
 * @typedef {object} CompactProfile one repeat's profile as the metrics stage stores it
 *   (summarizeProfile in scripts/metrics/summarize-profile.js writes it; compare may import only
 *   the foundation, so the shape is restated here; test/compare/function-diff.test.js feeds this
 *   file summarizeProfile's real output, so the two cannot drift unnoticed)
 * @property {number} totalPerOp
 * @property {string|null} dispatchFunction
 * @property {number|null} queryPathPerOp
 * @property {number} unnamedSelfPerOp
 * @property {Record<string, number>} [unnamedByObject] unnamedSelfPerOp per ELF object (profiles
 *   stored before it was kept lack it)
 * @property {number} [minShare] share of the total below which a function has no row of its own
 * @property {{name: string, object: string, selfPerOp: number, inclusivePerOp: number}[]} functions
 *   the row named OTHER sums the functions below the profile's share
 */

/** The row of a compact profile that sums the functions below its share (summarizeProfile's OTHER). */
export const OTHER = '(other)';

/**
 * @typedef {object} SideMean one function's mean over one side's repeats
 * @property {string} name
 * @property {string} object
 * @property {number} selfPerOp missing repeats counted as 0
 * @property {number} inclusivePerOp missing repeats counted as 0
 * @property {number} selfCeilingPerOp missing repeats counted at their cut (the most they can hide)
 * @property {number} missing how many repeats lack the function
 */

/**
 * @typedef {object} SideSummary means over one side's repeats
 * @property {number} repeats how many profiles the side has
 * @property {number} totalPerOp
 * @property {number|null} queryPathPerOp null when no repeat of the side has one
 * @property {number} unnamedSelfPerOp
 */

/**
 * @typedef {object} FunctionDelta one function on both sides
 * @property {string} name
 * @property {string} object
 * @property {{selfPerOp: number, inclusivePerOp: number}} base
 * @property {{selfPerOp: number, inclusivePerOp: number}} candidate
 * @property {number} selfDelta candidate − base self instructions per operation
 * @property {number} inclusiveDelta candidate − base inclusive instructions per operation
 * @property {number} missingRepeats repeats (of both sides) without a row for the function
 * @property {boolean} ranked whether its change is beyond what the profiles' cut can explain
 *   (always true when no repeat misses it), for a function with a symbol
 */

/** How many functions each way `added` and `removed` hold by default. */
const TOP_LISTED = 10;

/**
 * @typedef {object} FunctionDiff
 * @property {SideSummary} base
 * @property {SideSummary} candidate
 * @property {string|null} dispatchFunction the query path's function, as the profiles name it
 * @property {number} totalDelta candidate − base totalPerOp
 * @property {number|null} queryPathDelta null unless both sides have a query path
 * @property {number} unnamedDelta candidate − base self instructions per operation in functions
 *   without a name
 * @property {number|null} unnamedShare unnamedDelta / totalDelta; null when the totals are equal
 * @property {import('./unnamed-code.js').UnnamedObject[]} [unnamedByObject] where the code without a name is: unnamedDelta per
 *   ELF object, largest change first (object '' for what profiles stored without the split hide
 *   below their share); absent in comparisons stored before it was kept
 * @property {number} otherDelta candidate − base of the `(other)` rows (functions below the share)
 * @property {FunctionDelta[]} functions every function of either side, `(other)` included, by
 *   |selfDelta| desc
 * @property {FunctionDelta[]} added ranked functions with selfDelta > 0, largest first, at most `top`
 * @property {FunctionDelta[]} removed ranked functions with selfDelta < 0, most negative first, at most `top`
 * @property {number} addedCount ranked functions with selfDelta > 0 in all
 * @property {number} removedCount ranked functions with selfDelta < 0 in all
 */

/**
 * Per-function difference of two sides' compact profiles.
 * @param {CompactProfile[]} baseProfiles one per counted repeat of the base release
 * @param {CompactProfile[]} candidateProfiles one per counted repeat of the candidate
 * @param {{top?: number}} [options] top: length of `added` and `removed` (default 10)
 * @returns {FunctionDiff}
 * @throws {RangeError} when a side has no profile
 */
export function diffProfiles(baseProfiles, candidateProfiles, options = {}) {
  const top = options.top ?? TOP_LISTED;
  if (baseProfiles.length === 0) throw new RangeError('diffProfiles: the base side has no profile (no counted repeat measured instructions)');
  if (candidateProfiles.length === 0) throw new RangeError('diffProfiles: the candidate side has no profile (no counted repeat measured instructions)');
  const base = meanFunctions(baseProfiles);
  const candidate = meanFunctions(candidateProfiles);
  const baseCeiling = round(mean(baseProfiles.map(cutOf)));
  const candidateCeiling = round(mean(candidateProfiles.map(cutOf)));

  /** @type {FunctionDelta[]} */
  const functions = [];
  for (const key of new Set([...base.keys(), ...candidate.keys()])) {
    const b = base.get(key);
    const c = candidate.get(key);
    const any = /** @type {{name: string, object: string}} */ (b ?? c);
    const bv = { selfPerOp: b?.selfPerOp ?? 0, inclusivePerOp: b?.inclusivePerOp ?? 0 };
    const cv = { selfPerOp: c?.selfPerOp ?? 0, inclusivePerOp: c?.inclusivePerOp ?? 0 };
    const selfDelta = round(cv.selfPerOp - bv.selfPerOp);
    // Missing repeats may hold up to their cut: the change must survive the least favourable value.
    const bCeil = b?.selfCeilingPerOp ?? baseCeiling;
    const cCeil = c?.selfCeilingPerOp ?? candidateCeiling;
    const certain = selfDelta > 0 ? round(cv.selfPerOp - bCeil) > 0 : selfDelta < 0 ? round(cCeil - bv.selfPerOp) < 0 : false;
    functions.push({
      name: any.name, object: any.object, base: bv, candidate: cv,
      selfDelta, inclusiveDelta: round(cv.inclusivePerOp - bv.inclusivePerOp),
      missingRepeats: (b?.missing ?? baseProfiles.length) + (c?.missing ?? candidateProfiles.length),
      ranked: certain && any.name !== OTHER && !ADDRESS.test(any.name),
    });
  }
  functions.sort((x, y) => Math.abs(y.selfDelta) - Math.abs(x.selfDelta) || Math.abs(y.inclusiveDelta) - Math.abs(x.inclusiveDelta) || compareText(x.name, y.name));

  const gained = functions.filter((f) => f.ranked && f.selfDelta > 0);
  const lost = functions.filter((f) => f.ranked && f.selfDelta < 0).sort((x, y) => x.selfDelta - y.selfDelta);
  const bs = sideSummary(baseProfiles);
  const cs = sideSummary(candidateProfiles);
  const totalDelta = round(cs.totalPerOp - bs.totalPerOp);
  const unnamedDelta = round(cs.unnamedSelfPerOp - bs.unnamedSelfPerOp);
  const other = functions.find((f) => f.name === OTHER);
  const added = gained.slice(0, top);
  const removed = lost.slice(0, top);
  return {
    base: bs,
    candidate: cs,
    dispatchFunction: baseProfiles.find((p) => p.dispatchFunction)?.dispatchFunction ?? candidateProfiles.find((p) => p.dispatchFunction)?.dispatchFunction ?? null,
    totalDelta,
    queryPathDelta: bs.queryPathPerOp === null || cs.queryPathPerOp === null ? null : round(cs.queryPathPerOp - bs.queryPathPerOp),
    unnamedDelta,
    unnamedShare: totalDelta === 0 ? null : unnamedDelta / totalDelta,
    unnamedByObject: unnamedObjects(baseProfiles, candidateProfiles, functions, unnamedDelta),
    otherDelta: other ? other.selfDelta : 0,
    functions,
    added,
    removed,
    addedCount: gained.length,
    removedCount: lost.length,
  };
}

/**
 * The most a function without a row can cost in a profile: just under its cut.
 * @param {CompactProfile} p
 */
function cutOf(p) {
  return (p.minShare ?? 0) * p.totalPerOp;
}

/**
 * @param {CompactProfile[]} profiles
 * @returns {Map<string, SideMean>}
 */
function meanFunctions(profiles) {
  /** @type {Map<string, SideMean & {seen: number[]}>} */
  const sums = new Map();
  for (const [i, p] of profiles.entries()) {
    for (const f of p.functions) {
      const key = `${f.object}\t${f.name}`;
      const s = sums.get(key) ?? { name: f.name, object: f.object, selfPerOp: 0, inclusivePerOp: 0, selfCeilingPerOp: 0, missing: 0, seen: [] };
      s.selfPerOp += f.selfPerOp;
      s.inclusivePerOp += f.inclusivePerOp;
      s.seen.push(i);
      sums.set(key, s);
    }
  }
  /** @type {Map<string, SideMean>} */
  const out = new Map();
  for (const [key, s] of sums) {
    const seen = new Set(s.seen);
    const hidden = profiles.reduce((sum, p, i) => (seen.has(i) ? sum : sum + cutOf(p)), 0);
    out.set(key, {
      name: s.name, object: s.object,
      selfPerOp: round(s.selfPerOp / profiles.length),
      inclusivePerOp: round(s.inclusivePerOp / profiles.length),
      selfCeilingPerOp: round((s.selfPerOp + hidden) / profiles.length),
      missing: profiles.length - seen.size,
    });
  }
  return out;
}

/**
 * @param {CompactProfile[]} profiles
 * @returns {SideSummary}
 */
function sideSummary(profiles) {
  const paths = profiles.map((p) => p.queryPathPerOp).filter((v) => v !== null);
  return {
    repeats: profiles.length,
    totalPerOp: round(mean(profiles.map((p) => p.totalPerOp))),
    queryPathPerOp: paths.length === 0 ? null : round(mean(/** @type {number[]} */ (paths))),
    unnamedSelfPerOp: round(mean(profiles.map((p) => p.unnamedSelfPerOp))),
  };
}

/** GitHub refuses issue bodies over 65,536 characters; the diff is one section of one. */
export const DEFAULT_MAX_CHARS = 6000;
/** Longer names (C++ signatures run to 200 characters) are cut in tables. */
const NAME_CHARS = 60;

/**
 * The functions that added and removed the most instructions per operation, as a table per
 * direction, with the totals, the query path and the share of the difference in code without a
 * name. Bounded: at most `limit` rows per direction, and rows are dropped (the smallest changes
 * first, never part of a row) until the whole text fits in `maxChars`; a line says how many.
 * @param {FunctionDiff} diff from diffProfiles()
 * @param {{format?: 'text'|'markdown', limit?: number, title?: string, maxChars?: number, baseLabel?: string, candidateLabel?: string, namingCommand?: string|null}} [options]
 *   format default 'text'; limit default 10; maxChars default DEFAULT_MAX_CHARS (a header that
 *   alone is longer is returned whole, with no rows); labels default 'base' and 'candidate';
 *   namingCommand: the command that names every function (namingCommand())
 * @returns {string} ends with a newline
 */
export function renderFunctionDiff(diff, options = {}) {
  const format = options.format ?? 'text';
  const limit = options.limit ?? 10;
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const labels = { base: options.baseLabel ?? 'base', candidate: options.candidateLabel ?? 'candidate' };
  const baseTotal = diff.base.totalPerOp;
  /** @param {FunctionDelta} f */
  const cells = (f) => [
    shorten(f.name), f.object,
    `${formatCount(f.base.selfPerOp)} → ${formatCount(f.candidate.selfPerOp)}`, formatCount(f.selfDelta, { signed: true }),
    baseTotal > 0 ? formatPercent(f.selfDelta / baseTotal, { signed: true }) : MISSING,
    `${formatCount(f.base.inclusivePerOp)} → ${formatCount(f.candidate.inclusivePerOp)}`, formatCount(f.inclusiveDelta, { signed: true }),
  ];
  const added = diff.added.slice(0, limit).map(cells);
  const removed = diff.removed.slice(0, limit).map(cells);
  const shownAdded = added.length;
  const shownRemoved = removed.length;

  const render = (/** @type {number} */ dropped) => {
    const out = [];
    // The title names a test, which is data: escaped like the names in the tables.
    if (options.title) out.push(format === 'markdown' ? `### ${renderUntrustedText(options.title, { span: false })}` : options.title, '');
    out.push(...headerLines(diff, labels, format));
    // Before the tables: a reader must not take a list that explains little for the cause.
    const partial = describeListedShare(diff);
    if (partial) out.push('', format === 'markdown' ? `**${partial}**` : `Note: ${partial}`);
    out.push('', ...section(`Added the most instructions per operation (${added.length} of ${diff.addedCount} functions):`, added, format, shownAdded));
    out.push('', ...section(`Removed the most instructions per operation (${removed.length} of ${diff.removedCount} functions):`, removed, format, shownRemoved));
    out.push('', describeUnnamed(diff, { command: options.namingCommand ?? null, format }));
    if (dropped > 0) out.push('', `${dropped} more row${dropped === 1 ? '' : 's'} left out to keep this under ${maxChars.toLocaleString('en-US')} characters.`);
    return `${out.join('\n')}\n`;
  };

  let text = render(0);
  while (text.length > maxChars && added.length + removed.length > 0) {
    // The smaller of the two last rows goes first: both tables keep their largest changes.
    const a = added.length > 0 ? diff.added[added.length - 1].selfDelta : 0;
    const r = removed.length > 0 ? -diff.removed[removed.length - 1].selfDelta : 0;
    if (added.length > 0 && (removed.length === 0 || a <= r)) added.pop();
    else removed.pop();
    text = render(shownAdded - added.length + shownRemoved - removed.length);
  }
  return text;
}

/**
 * @param {FunctionDiff} diff
 * @param {{base: string, candidate: string}} labels
 * @param {'text'|'markdown'} format
 */
function headerLines(diff, labels, format) {
  const b = diff.base;
  const c = diff.candidate;
  const rel = (/** @type {number} */ delta, /** @type {number} */ of) => (of > 0 ? `, ${formatPercent(delta / of, { signed: true })}` : '');
  const bullet = format === 'markdown' ? '- ' : '';
  const lines = [
    `${bullet}Instructions per operation: ${labels.base} ${formatCount(b.totalPerOp)} → ${labels.candidate} ${formatCount(c.totalPerOp)} (${formatCount(diff.totalDelta, { signed: true })}${rel(diff.totalDelta, b.totalPerOp)}); means over ${b.repeats} and ${c.repeats} repeat${c.repeats === 1 ? '' : 's'}`,
  ];
  if (diff.queryPathDelta !== null && b.queryPathPerOp !== null && c.queryPathPerOp !== null) {
    // The function's name is as the profiled binary names it: data, so a span in Markdown.
    const dispatch = diff.dispatchFunction === null ? 'the query path' : format === 'markdown' ? renderUntrustedText(diff.dispatchFunction) : diff.dispatchFunction;
    lines.push(`${bullet}In ${dispatch} and what it calls: ${formatCount(b.queryPathPerOp)} → ${formatCount(c.queryPathPerOp)} (${formatCount(diff.queryPathDelta, { signed: true })}${rel(diff.queryPathDelta, b.queryPathPerOp)}); the rest ran outside the statements (background threads, connection handling)`);
  }
  if (diff.otherDelta !== 0) lines.push(`${bullet}Functions below the profile's share, together: ${formatCount(diff.otherDelta, { signed: true })}`);
  return lines;
}

/**
 * @param {string} heading
 * @param {string[][]} rows
 * @param {'text'|'markdown'} format
 * @param {number} available rows there were before the size cap
 */
function section(heading, rows, format, available) {
  if (rows.length === 0) return [heading, available > 0 ? '(left out to fit, see below)' : '(none)'];
  const head = ['function', 'object', 'self/op', 'Δ self', 'Δ % of base total', 'inclusive/op', 'Δ inclusive'];
  if (format === 'markdown') {
    return [
      heading, '',
      `| ${head.join(' | ')} |`,
      `|${head.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`,
      // The function's and the object file's names are data (a plugin of a pull request names
      // its own file): code spans, so no link or mention renders; the figures are ours.
      ...rows.map((r) => `| ${r.map((cell, i) => (i < 2 ? renderUntrustedText(cell, { table: true }) : cell)).join(' | ')} |`),
    ];
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (/** @type {string[]} */ r) => r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ').trimEnd();
  return [heading, line(head), ...rows.map(line)];
}

/** @param {string} name */
function shorten(name) {
  return name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS - 1)}…` : name;
}

/** @param {number[]} xs */
function mean(xs) {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** @param {number} v */
function round(v) {
  return Math.round(v * 10) / 10;
}

/** @param {string} a @param {string} b */
function compareText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
