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

const SP = 32;
const TAB = 9;

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
  /** @type {{ob: Map<string, string>, fl: Map<string, string>, fn: Map<string, string>}} */
  const tables = { ob: new Map(), fl: new Map(), fn: new Map() };
  /** @type {Map<string, {name: string, object: string, selfIr: number, callIr: number, calls: number}>} */
  const functions = new Map();
  /** @param {string} object @param {string} name */
  const fnRecord = (object, name) => {
    const key = `${object}\t${name}`;
    let r = functions.get(key);
    if (!r) {
      r = { name, object, selfIr: 0, callIr: 0, calls: 0 };
      functions.set(key, r);
    }
    return r;
  };

  let creator = '';
  /** @type {string[]|null} */
  let events = null;
  let irIndex = -1;
  let positions = 1;
  let object = '???';
  /** @type {ReturnType<typeof fnRecord>|null} */
  let current = null;
  /** @type {string|null} */
  let calledObject = null;
  /** @type {string|null} */
  let calledName = null;
  let callCount = -1;
  let callLine = 0;

  let parts = 0;
  let partSelfIr = 0;
  let partHasCosts = false;
  /** @type {number|null} */
  let partTotals = null;
  let totalIr = 0;
  /** @type {number|null} */
  let summaryIr = null;

  const closePart = (/** @type {number} */ lineNo) => {
    if (partTotals === null) {
      if (partHasCosts && creator.startsWith('callgrind')) {
        throw new Error(`callgrind output is truncated: it ends at line ${lineNo} without the 'totals:' line callgrind writes last${parts > 1 ? ` in part ${parts}` : ''}`);
      }
      totalIr += partSelfIr;
    } else {
      totalIr += partTotals;
    }
    partSelfIr = 0;
    partHasCosts = false;
    partTotals = null;
  };

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
    if (line.length === 0) continue;
    const c0 = line.charCodeAt(0);
    if (c0 === 35) continue; // '#'

    if ((c0 >= 48 && c0 <= 57) || c0 === 43 || c0 === 45 || c0 === 42) { // digit + - *
      if (irIndex < 0) throw new Error(`line ${lineNo}: cost line '${clip(line)}' before an 'events:' line naming the Ir event`);
      if (current === null) throw new Error(`line ${lineNo}: cost line '${clip(line)}' outside a function: expected an 'fn=' line before it`);
      const ir = costAt(line, positions + irIndex, lineNo);
      partHasCosts = true;
      if (callCount >= 0) {
        const callee = fnRecord(calledObject ?? object, /** @type {string} */ (calledName));
        callee.calls += callCount;
        if (callee !== current) current.callIr += ir;
        callCount = -1;
        calledObject = null;
      } else {
        current.selfIr += ir;
        partSelfIr += ir;
      }
      continue;
    }

    if (callCount >= 0) {
      throw new Error(`line ${lineNo}: expected the cost line of the call announced on line ${callLine}, got '${clip(line)}'`);
    }
    const sep = keyEnd(line);
    const key = line.slice(0, sep);
    if (line.charCodeAt(sep) === 61) { // '=': a body specification
      const value = line.slice(sep + 1);
      switch (key) {
        case 'fn':
          current = fnRecord(object, baseName(resolveName(tables.fn, value, lineNo, key)));
          break;
        case 'ob':
          object = objectName(resolveName(tables.ob, value, lineNo, key));
          break;
        case 'cob':
          calledObject = objectName(resolveName(tables.ob, value, lineNo, key));
          break;
        case 'cfn':
          calledName = baseName(resolveName(tables.fn, value, lineNo, key));
          break;
        case 'calls': {
          if (calledName === null) throw new Error(`line ${lineNo}: 'calls=' without a 'cfn=' line naming the function called`);
          if (current === null) throw new Error(`line ${lineNo}: 'calls=' outside a function: expected an 'fn=' line before it`);
          callCount = leadingCount(value, lineNo, 'calls=');
          callLine = lineNo;
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
      continue;
    }
    if (line.charCodeAt(sep) !== 58) { // ':'
      throw new Error(`line ${lineNo}: expected a cost line, a 'key=value' line or a 'key: value' header, got '${clip(line)}'`);
    }
    const value = line.slice(sep + 1).trim();
    switch (key) {
      case 'version':
        if (Number.parseInt(value, 10) > 1) throw new Error(`line ${lineNo}: callgrind format version ${value}; this parser reads version 1`);
        break;
      case 'creator':
        creator = value;
        break;
      case 'part':
        if (parts > 0) closePart(lineNo - 1);
        parts++;
        break;
      case 'positions': {
        const names = value.split(/\s+/).filter((s) => s !== '');
        if (names.length === 0) throw new Error(`line ${lineNo}: 'positions:' names no position (expected e.g. 'line' or 'instr line')`);
        positions = names.length;
        break;
      }
      case 'events': {
        events = value.split(/\s+/).filter((s) => s !== '');
        irIndex = events.indexOf('Ir');
        if (irIndex < 0) throw new Error(`line ${lineNo}: 'events:' lists ${events.join(' ') || 'nothing'}, expected the Ir event (instructions)`);
        break;
      }
      case 'summary': case 'totals': {
        if (irIndex < 0) throw new Error(`line ${lineNo}: '${key}:' before an 'events:' line`);
        const ir = costAt(value, irIndex, lineNo);
        if (key === 'summary') {
          summaryIr = (summaryIr ?? 0) + ir;
        } else {
          if (ir !== partSelfIr) {
            throw new Error(`line ${lineNo}: 'totals:' says ${ir} Ir but the cost lines before it add up to ${partSelfIr}: the file is damaged or cut`);
          }
          partTotals = ir;
        }
        break;
      }
      default:
        // desc, cmd, pid, thread, event and other descriptive headers carry no cost.
    }
  }
  if (callCount >= 0) {
    throw new Error(`callgrind output is truncated: the 'calls=' line ${callLine} is not followed by the call's cost line (the file ends at line ${lineNo})`);
  }
  if (events === null) throw new Error(`no 'events:' line in ${lineNo} lines: expected a callgrind profile`);
  if (parts === 0) parts = 1;
  closePart(lineNo);

  const out = [];
  for (const r of functions.values()) {
    const inclusiveIr = r.selfIr + r.callIr;
    if (inclusiveIr === 0 && r.calls === 0) continue;
    out.push({ name: r.name, object: r.object, selfIr: r.selfIr, inclusiveIr, calls: r.calls });
  }
  out.sort((a, b) => b.selfIr - a.selfIr || b.inclusiveIr - a.inclusiveIr || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { events, totalIr, summaryIr, parts, functions: out };
}

/**
 * End of the key of a `key=value` or `key: value` line: the first character that cannot be part
 * of a key.
 * @param {string} line
 */
function keyEnd(line) {
  let i = 0;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    const word = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
    if (!word) break;
  }
  return i;
}

/**
 * A name with compression: `(12) name` defines id 12, `(12)` refers to it, a plain name is used
 * as is.
 * @param {Map<string, string>} table
 * @param {string} value
 * @param {number} lineNo
 * @param {string} key
 */
function resolveName(table, value, lineNo, key) {
  if (value.charCodeAt(0) !== 40) return value; // '('
  const close = value.indexOf(')');
  if (close < 0) throw new Error(`line ${lineNo}: '${key}=${clip(value)}': expected '(id)' or '(id) name'`);
  const id = value.slice(1, close);
  if (close + 1 < value.length) {
    const name = value.slice(close + 1).trimStart();
    table.set(id, name);
    return name;
  }
  const name = table.get(id);
  if (name === undefined) throw new Error(`line ${lineNo}: '${key}=(${id})' refers to name id ${id}, which no earlier line defined`);
  return name;
}

/**
 * Strip callgrind's recursion-level suffix (`fact'2` is fact called from within fact).
 * @param {string} name
 */
function baseName(name) {
  const q = name.lastIndexOf("'");
  if (q <= 0 || q === name.length - 1) return name;
  for (let i = q + 1; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 48 || c > 57) return name;
  }
  return name.slice(0, q);
}

/** @param {string} path */
function objectName(path) {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/**
 * The field at index `field` (0-based, space-separated) of a cost line, as an event count; 0
 * when the line has fewer fields (the format lets trailing zero counts be left out).
 * @param {string} line
 * @param {number} field
 * @param {number} lineNo
 */
function costAt(line, field, lineNo) {
  let i = 0;
  const n = line.length;
  for (let f = 0; ; f++) {
    while (i < n && (line.charCodeAt(i) === SP || line.charCodeAt(i) === TAB)) i++;
    if (i >= n) return 0;
    const start = i;
    while (i < n && line.charCodeAt(i) !== SP && line.charCodeAt(i) !== TAB) i++;
    if (f === field) {
      let v = 0;
      for (let k = start; k < i; k++) {
        const c = line.charCodeAt(k) - 48;
        if (c < 0 || c > 9) throw new Error(`line ${lineNo}: expected an event count, got '${line.slice(start, i)}' in '${clip(line)}'`);
        v = v * 10 + c;
      }
      return v;
    }
  }
}

/**
 * The count of a `calls=<count> <target position>` line.
 * @param {string} value
 * @param {number} lineNo
 * @param {string} what
 */
function leadingCount(value, lineNo, what) {
  let v = 0;
  let i = 0;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    v = v * 10 + c;
  }
  if (i === 0 || (i < value.length && value.charCodeAt(i) !== SP)) {
    throw new Error(`line ${lineNo}: '${what}${clip(value)}': expected '${what}<count> <target position>'`);
  }
  return v;
}

/** @param {string} s */
function clip(s) {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
