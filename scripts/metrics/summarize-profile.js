/**
 * The compact per-operation profile stored with a measured repeat: a parsed callgrind dump
 * (./parse-callgrind.js) divided by the operations it covers, cut down to the functions that
 * matter. Pure.
 *
 * A dump of 200 point selects on MariaDB 10.11.18 names about a thousand functions; most run a
 * few instructions per query. Keeping those at or above 0.05 % of the total (self or inclusive)
 * leaves about 150 rows, and what is cut goes into one `(other)` row, so the stored self costs
 * still add up to the total and a comparison can say how much moved below the cut.
 */

/** @typedef {import('./parse-callgrind.js').ParsedCallgrind} ParsedCallgrind */

/**
 * @typedef {object} ProfileFunction one row of a compact profile
 * @property {string} name callgrind's name (demangled, with arguments for C++); `(other)` for
 *   the row that sums the functions below the share
 * @property {string} object ELF object file name (`mariadbd`, `libc.so.6`); '' for `(other)`
 * @property {number} selfPerOp instructions per operation in the function itself
 * @property {number} inclusivePerOp self plus callees, per operation; for `(other)` the same as
 *   its selfPerOp (a sum of functions' own costs, whose callees are rows of their own)
 */

/**
 * @typedef {object} CompactProfile
 * @property {number} ops operations the dump covers (sysbench events)
 * @property {number} totalPerOp every instruction in the dump, per operation
 * @property {string|null} dispatchFunction the function whose inclusive cost is the query path
 * @property {number|null} queryPathPerOp inclusive instructions per operation of the dispatch
 *   function (all functions of that bare name, summed); null when none is given or none matched
 * @property {number} unnamedSelfPerOp self instructions per operation of functions without a
 *   symbol (callgrind names them by address), all of them, kept rows or not
 * @property {Record<string, number>} unnamedByObject unnamedSelfPerOp per ELF object (`mariadbd`,
 *   `libc.so.6`): which binary lacks the symbols, so a reader knows what would name them
 * @property {number} minShare the share of the total a function needed to get a row of its own
 * @property {ProfileFunction[]} functions by inclusivePerOp desc, `(other)` last
 */

/** Rows below this share of the total (self and inclusive) go into `(other)`. */
export const DEFAULT_MIN_SHARE = 0.0005;

/**
 * Compact per-operation profile of one dump.
 * @param {ParsedCallgrind} parsed from parseCallgrind()
 * @param {{ops: number, dispatchFunction?: string|null, minShare?: number}} options
 *   ops: operations the dump covers (> 0); dispatchFunction: bare name of the function each
 *   statement goes through (MariaDB and MySQL: `dispatch_command`), matched against the name
 *   without namespace, class and arguments; minShare: default DEFAULT_MIN_SHARE
 * @returns {CompactProfile} per-operation values rounded to 0.1
 * @throws {RangeError} when ops is not a positive number or minShare is not in [0, 1)
 */
export function summarizeProfile(parsed, options) {
  const { ops, dispatchFunction = null, minShare = DEFAULT_MIN_SHARE } = options;
  if (!(typeof ops === 'number' && Number.isFinite(ops) && ops > 0)) throw new RangeError(`ops must be a positive number of operations, got ${ops}`);
  if (!(typeof minShare === 'number' && minShare >= 0 && minShare < 1)) throw new RangeError(`minShare must be a share in [0, 1), got ${minShare}`);
  const total = parsed.totalIr;
  const cut = minShare * total;

  let unnamed = 0;
  /** @type {Map<string, number>} */
  const unnamedIn = new Map();
  /** @type {number|null} */
  let queryPath = null;
  /** @type {ProfileFunction[]} */
  const kept = [];
  for (const f of parsed.functions) {
    if (isUnnamed(f.name)) {
      unnamed += f.selfIr;
      unnamedIn.set(f.object, (unnamedIn.get(f.object) ?? 0) + f.selfIr);
    }
    if (dispatchFunction !== null && bareFunctionName(f.name) === dispatchFunction) queryPath = (queryPath ?? 0) + f.inclusiveIr;
    if ((f.selfIr >= cut || f.inclusiveIr >= cut) && f.inclusiveIr > 0) {
      kept.push({ name: f.name, object: f.object, selfPerOp: round(f.selfIr / ops), inclusivePerOp: round(f.inclusiveIr / ops) });
    }
  }
  kept.sort((a, b) => b.inclusivePerOp - a.inclusivePerOp || b.selfPerOp - a.selfPerOp || compareText(a.name, b.name));
  const totalPerOp = round(total / ops);
  // From the rounded rows, so the stored self costs add up to the stored total.
  const keptSelf = kept.reduce((s, f) => s + f.selfPerOp, 0);
  const other = round(totalPerOp - keptSelf);
  if (other !== 0) kept.push({ name: OTHER, object: '', selfPerOp: other, inclusivePerOp: other });
  return {
    ops,
    totalPerOp,
    dispatchFunction,
    queryPathPerOp: queryPath === null ? null : round(queryPath / ops),
    unnamedSelfPerOp: round(unnamed / ops),
    unnamedByObject: Object.fromEntries([...unnamedIn].map(([object, ir]) => [object, round(ir / ops)]).filter(([, perOp]) => perOp !== 0)),
    minShare,
    functions: kept,
  };
}

/** Name of the row that sums the functions below the share. */
export const OTHER = '(other)';

/**
 * Callgrind names a function without a symbol by its address, `0x000000000012abcd` (stripped
 * Debian binaries keep symbols for exported functions only).
 * @param {string} name
 * @returns {boolean}
 */
export function isUnnamed(name) {
  if (name.length < 3 || name.charCodeAt(0) !== 48 || name.charCodeAt(1) !== 120) return false; // '0x'
  for (let i = 2; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return false;
  }
  return true;
}

const ANONYMOUS = '(anonymous namespace)';

/**
 * A function's bare name: without its argument list, its return type (template functions'
 * demangled names carry one) and its namespaces and classes. `dispatch_command(enum_server_command,
 * THD*, char*, unsigned int, bool)` and `dispatch_command` both give `dispatch_command`;
 * `Sql_cmd_dml::execute(THD*)` gives `execute`. Template arguments stay (`get<int>`).
 * @param {string} name
 * @returns {string}
 */
export function bareFunctionName(name) {
  let angle = 0;
  let start = 0;
  let end = name.length;
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '(' && name.startsWith(ANONYMOUS, i)) {
      i += ANONYMOUS.length - 1;
    } else if (c === '<') {
      angle++;
    } else if (c === '>') {
      if (angle > 0) angle--;
    } else if (angle === 0) {
      if (c === '(') {
        end = i;
        break;
      }
      if (c === ':' && name[i + 1] === ':') {
        start = i + 2;
        i++;
      } else if (c === ' ') {
        start = i + 1;
      }
    }
  }
  return name.slice(start, end).trim();
}

/** @param {number} v */
function round(v) {
  return Math.round(v * 10) / 10;
}

/** @param {string} a @param {string} b */
function compareText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
