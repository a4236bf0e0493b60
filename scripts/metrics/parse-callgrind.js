/**
 * Parser for callgrind output files (https://valgrind.org/docs/manual/cl-format.html): one file
 * in, the instructions (Ir) of each function out, self and inclusive. Pure: text in, data out.
 *
 * Only what the per-function figures need is kept: positions are skipped, not decoded (a cost
 * line's first `positions:` fields are positions, whatever their compressed form), and source
 * files only feed the name tables. A function is its name within its ELF object; callgrind also
 * keys functions by source file, which in stripped Debian binaries is `???` anyway, so static
 * functions of one name in two files of one object are counted as one.
 *
 * Recursion: callgrind names the deeper levels of a recursive function `name'2` (its default
 * --separate-recs=2). They are merged into `name`, so a function's cost does not split by
 * recursion depth between releases, and the calls between levels are then calls of the function
 * to itself. Those are skipped in inclusive cost: their cost is already counted in the function.
 * Recursion through other functions (a calls b calls a) still counts twice, as in
 * callgrind_annotate --inclusive=yes.
 */

import { baseName, clip, costAt, keyEnd, leadingCount, objectName, resolveName } from './callgrind-fields.js';

/**
 * @typedef {object} CallgrindFunction one function of one ELF object
 * @property {string} name as callgrind prints it: demangled with its arguments for C++, a hex
 *   address (`0x000000000012abcd`) for functions without a symbol, recursion levels merged
 * @property {string} object file name of the ELF object (`mariadbd`, `libc.so.6`), `???` if unknown
 * @property {number} selfIr instructions executed in the function itself
 * @property {number} inclusiveIr selfIr plus the instructions of everything it called (calls of
 *   the function to itself skipped)
 * @property {number} calls how many times it was called (recursive calls included)
 */

/**
 * @typedef {object} ParsedCallgrind
 * @property {string[]} events the event names of the `events:` line (of the last part)
 * @property {number} totalIr instructions in the file: the sum of the parts' `totals:` lines,
 *   equal to the sum of every function's selfIr (checked while parsing)
 * @property {number|null} summaryIr the sum of the parts' `summary:` lines, null without one.
 *   Callgrind computes it from per-thread counters since the last zeroing, not from the costs it
 *   writes; in a dump taken after `callgrind_control -z` of a busy multi-threaded server it can
 *   be lower than totalIr (0.6 % for 200 point selects on MariaDB 10.11.18), so per-function
 *   figures use totalIr, which they add up to
 * @property {number} parts how many parts the file holds
 * @property {CallgrindFunction[]} functions every function with a cost or a call, by selfIr desc
 */

/** Which name table a `key=` line uses: the format shares one per kind of name. */
const NAME_TABLE = /** @type {const} */ ({
  ob: 'ob', cob: 'ob',
  fl: 'fl', fi: 'fl', fe: 'fl', cfi: 'fl', cfl: 'fl', jfi: 'fl',
  fn: 'fn', cfn: 'fn', jfn: 'fn',
});

/**
 * Parse one callgrind output file.
 * @param {string} text the whole file (gunzipped)
 * @returns {ParsedCallgrind}
 * @throws {Error} naming the line and what was expected: no `events:` line or no `Ir` event, a
 *   cost line outside a function, a name reference (`fn=(12)`) never defined, a `calls=` line not
 *   followed by its cost line, a number that is not one, totals that disagree with the costs, or
 *   a truncated file (a callgrind part that does not end with its `totals:` line)
 */
export function parseCallgrind(text) {
  if (text.trim() === '') throw new Error('callgrind output is empty: expected a callgrind profile (a "# callgrind format" file)');
  const reader = newReader();
  // Lines by indexOf rather than split: profiles of a busy server run to hundreds of megabytes.
  let lineNo = 0;
  let pos = 0;
  const len = text.length;
  while (pos < len) {
    let end = text.indexOf('\n', pos);
    if (end === -1) end = len;
    let line = text.slice(pos, end);
    pos = end + 1;
    lineNo++;
    if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
    if (line.length === 0 || line.charCodeAt(0) === 35) continue; // empty, or a '#' comment
    readLine(reader, line, lineNo);
  }
  return finish(reader, lineNo);
}

/** @typedef {{name: string, object: string, selfIr: number, callIr: number, calls: number}} FunctionCost */

/**
 * The state of one pass over a callgrind file: the name tables, the costs per function so far,
 * the function (and the call) the next cost line belongs to, and the current part's totals.
 */
function newReader() {
  return {
    /** @type {{ob: Map<string, string>, fl: Map<string, string>, fn: Map<string, string>}} */
    tables: { ob: new Map(), fl: new Map(), fn: new Map() },
    /** @type {Map<string, FunctionCost>} */
    functions: new Map(),
    creator: '',
    events: /** @type {string[]|null} */ (null),
    irIndex: -1,
    positions: 1,
    object: '???',
    current: /** @type {FunctionCost|null} */ (null),
    calledObject: /** @type {string|null} */ (null),
    calledName: /** @type {string|null} */ (null),
    /** Calls announced by the last `calls=` line (-1: none pending): its cost line comes next. */
    callCount: -1,
    callLine: 0,
    parts: 0,
    partSelfIr: 0,
    partHasCosts: false,
    partTotals: /** @type {number|null} */ (null),
    totalIr: 0,
    summaryIr: /** @type {number|null} */ (null),
  };
}

/** @typedef {ReturnType<typeof newReader>} Reader */

/**
 * The costs of a function so far, created at its first mention.
 * @param {Reader} r the pass's state, updated
 * @param {string} object
 * @param {string} name
 * @returns {FunctionCost}
 */
function fnRecord(r, object, name) {
  const key = `${object}\t${name}`;
  let cost = r.functions.get(key);
  if (!cost) {
    cost = { name, object, selfIr: 0, callIr: 0, calls: 0 };
    r.functions.set(key, cost);
  }
  return cost;
}

/**
 * One line that is neither empty nor a comment: a cost line, a `key=value` body line or a
 * `key: value` header.
 * @param {Reader} r the pass's state, updated
 * @param {string} line
 * @param {number} lineNo
 */
function readLine(r, line, lineNo) {
  const c0 = line.charCodeAt(0);
  if ((c0 >= 48 && c0 <= 57) || c0 === 43 || c0 === 45 || c0 === 42) { // digit + - *
    costLine(r, line, lineNo);
    return;
  }
  if (r.callCount >= 0) {
    throw new Error(`line ${lineNo}: expected the cost line of the call announced on line ${r.callLine}, got '${clip(line)}'`);
  }
  const sep = keyEnd(line);
  const key = line.slice(0, sep);
  if (line.charCodeAt(sep) === 61) { // '=': a body specification
    specification(r, key, line.slice(sep + 1), lineNo);
    return;
  }
  if (line.charCodeAt(sep) !== 58) { // ':'
    throw new Error(`line ${lineNo}: expected a cost line, a 'key=value' line or a 'key: value' header, got '${clip(line)}'`);
  }
  header(r, key, line.slice(sep + 1).trim(), lineNo);
}

/**
 * A cost line: the current function's own cost, or the inclusive cost of the call announced
 * just before it.
 * @param {Reader} r the pass's state, updated
 * @param {string} line
 * @param {number} lineNo
 */
function costLine(r, line, lineNo) {
  if (r.irIndex < 0) throw new Error(`line ${lineNo}: cost line '${clip(line)}' before an 'events:' line naming the Ir event`);
  const current = r.current;
  if (current === null) throw new Error(`line ${lineNo}: cost line '${clip(line)}' outside a function: expected an 'fn=' line before it`);
  const ir = costAt(line, r.positions + r.irIndex, lineNo);
  r.partHasCosts = true;
  if (r.callCount >= 0) {
    const callee = fnRecord(r, r.calledObject ?? r.object, /** @type {string} */ (r.calledName));
    callee.calls += r.callCount;
    if (callee !== current) current.callIr += ir;
    r.callCount = -1;
    r.calledObject = null;
  } else {
    current.selfIr += ir;
    r.partSelfIr += ir;
  }
}

/**
 * A `key=value` line: which object, function or call the next cost lines belong to, or a name
 * table entry.
 * @param {Reader} r the pass's state, updated
 * @param {string} key
 * @param {string} value
 * @param {number} lineNo
 */
function specification(r, key, value, lineNo) {
  const tables = r.tables;
  switch (key) {
    case 'fn':
      r.current = fnRecord(r, r.object, baseName(resolveName(tables.fn, value, lineNo, key)));
      break;
    case 'ob':
      r.object = objectName(resolveName(tables.ob, value, lineNo, key));
      break;
    case 'cob':
      r.calledObject = objectName(resolveName(tables.ob, value, lineNo, key));
      break;
    case 'cfn':
      r.calledName = baseName(resolveName(tables.fn, value, lineNo, key));
      break;
    case 'calls': {
      if (r.calledName === null) throw new Error(`line ${lineNo}: 'calls=' without a 'cfn=' line naming the function called`);
      if (r.current === null) throw new Error(`line ${lineNo}: 'calls=' outside a function: expected an 'fn=' line before it`);
      r.callCount = leadingCount(value, lineNo, 'calls=');
      r.callLine = lineNo;
      break;
    }
    case 'jump': case 'jcnd':
      break;
    default: {
      const table = NAME_TABLE[/** @type {keyof typeof NAME_TABLE} */ (key)];
      if (!table) throw new Error(`line ${lineNo}: unknown specification '${key}=': expected one of ${[...Object.keys(NAME_TABLE), 'calls', 'jump', 'jcnd'].join(', ')}`);
      // fl/fi/fe and the jump targets only matter for the name tables they fill.
      resolveName(tables[table], value, lineNo, key);
    }
  }
}

/**
 * A `key: value` header: the format version, the creator, a new part, the positions and events
 * of the cost lines, a part's summary or totals.
 * @param {Reader} r the pass's state, updated
 * @param {string} key
 * @param {string} value
 * @param {number} lineNo
 */
function header(r, key, value, lineNo) {
  switch (key) {
    case 'version':
      if (Number.parseInt(value, 10) > 1) throw new Error(`line ${lineNo}: callgrind format version ${value}; this parser reads version 1`);
      break;
    case 'creator':
      r.creator = value;
      break;
    case 'part':
      if (r.parts > 0) closePart(r, lineNo - 1);
      r.parts++;
      break;
    case 'positions': {
      const names = value.split(/\s+/).filter((s) => s !== '');
      if (names.length === 0) throw new Error(`line ${lineNo}: 'positions:' names no position (expected e.g. 'line' or 'instr line')`);
      r.positions = names.length;
      break;
    }
    case 'events': {
      const events = value.split(/\s+/).filter((s) => s !== '');
      r.events = events;
      r.irIndex = events.indexOf('Ir');
      if (r.irIndex < 0) throw new Error(`line ${lineNo}: 'events:' lists ${events.join(' ') || 'nothing'}, expected the Ir event (instructions)`);
      break;
    }
    case 'summary': case 'totals':
      summaryOrTotals(r, key, value, lineNo);
      break;
    default:
      // desc, cmd, pid, thread, event and other descriptive headers carry no cost.
  }
}

/**
 * @param {Reader} r the pass's state, updated
 * @param {'summary'|'totals'} key
 * @param {string} value
 * @param {number} lineNo
 */
function summaryOrTotals(r, key, value, lineNo) {
  if (r.irIndex < 0) throw new Error(`line ${lineNo}: '${key}:' before an 'events:' line`);
  const ir = costAt(value, r.irIndex, lineNo);
  if (key === 'summary') {
    r.summaryIr = (r.summaryIr ?? 0) + ir;
    return;
  }
  if (ir !== r.partSelfIr) {
    throw new Error(`line ${lineNo}: 'totals:' says ${ir} Ir but the cost lines before it add up to ${r.partSelfIr}: the file is damaged or cut`);
  }
  r.partTotals = ir;
}

/**
 * The end of a part: its instructions join the file's total.
 * @param {Reader} r the pass's state, updated
 * @param {number} lineNo the part's last line
 */
function closePart(r, lineNo) {
  if (r.partTotals === null) {
    if (r.partHasCosts && r.creator.startsWith('callgrind')) {
      throw new Error(`callgrind output is truncated: it ends at line ${lineNo} without the 'totals:' line callgrind writes last${r.parts > 1 ? ` in part ${r.parts}` : ''}`);
    }
    r.totalIr += r.partSelfIr;
  } else {
    r.totalIr += r.partTotals;
  }
  r.partSelfIr = 0;
  r.partHasCosts = false;
  r.partTotals = null;
}

/**
 * The end of the file: the last part closed, the functions with a cost or a call, by selfIr.
 * @param {Reader} r the pass's state, updated
 * @param {number} lineNo the file's last line
 * @returns {ParsedCallgrind}
 */
function finish(r, lineNo) {
  if (r.callCount >= 0) {
    throw new Error(`callgrind output is truncated: the 'calls=' line ${r.callLine} is not followed by the call's cost line (the file ends at line ${lineNo})`);
  }
  const events = r.events;
  if (events === null) throw new Error(`no 'events:' line in ${lineNo} lines: expected a callgrind profile`);
  if (r.parts === 0) r.parts = 1;
  closePart(r, lineNo);
  const out = [];
  for (const f of r.functions.values()) {
    const inclusiveIr = f.selfIr + f.callIr;
    if (inclusiveIr === 0 && f.calls === 0) continue;
    out.push({ name: f.name, object: f.object, selfIr: f.selfIr, inclusiveIr, calls: f.calls });
  }
  out.sort((a, b) => b.selfIr - a.selfIr || b.inclusiveIr - a.inclusiveIr || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { events, totalIr: r.totalIr, summaryIr: r.summaryIr, parts: r.parts, functions: out };
}
