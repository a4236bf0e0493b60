/**
 * Parser for `vmstat -n N` output (procps-ng). Pure: text in, samples out.
 *
 * Columns are found by their header names, not their positions, because procps versions differ
 * (4.0.4+ adds a `gu` guest column after `st`; very old ones lack `st`).
 */

/** @typedef {import('./types.js').VmstatSample} VmstatSample */

/** vmstat header name -> VmstatSample field; every one but `st` must be present. */
const COLUMNS = /** @type {const} */ ({
  r: 'runnable', b: 'blocked', free: 'freeKb', in: 'inPerS', cs: 'csPerS',
  us: 'usPct', sy: 'syPct', id: 'idPct', wa: 'waPct', st: 'stPct',
});
const OPTIONAL = new Set(['st']);

/**
 * Parse vmstat output into one sample per data line, in order.
 * The first data line vmstat prints holds averages since boot, not the first interval: callers
 * that want per-interval figures drop it (startSampling does).
 * A last line without its newline (vmstat killed mid-write) is ignored.
 * @param {string} text whole stdout of `vmstat -n 1`, run with LC_ALL=C
 * @returns {VmstatSample[]} one per data line; [] for empty text
 * @throws {Error} when data lines come before a header, a required column is missing,
 *   or a complete line has the wrong number of fields
 */
export function parseVmstat(text) {
  const lines = text.split('\n');
  if (!text.endsWith('\n')) lines.pop(); // partial last line, or '' after the final newline
  /** @type {Map<string, number>|null} */
  let index = null;
  /** @type {VmstatSample[]} */
  const out = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('procs')) continue;
    const fields = line.split(/\s+/);
    if (fields[0] === 'r') {
      index = headerIndex(fields, i + 1);
      continue;
    }
    if (!index) throw new Error(`vmstat output line ${i + 1}: data before the column header: "${line}"`);
    if (fields.length !== index.size) {
      throw new Error(`vmstat output line ${i + 1}: ${fields.length} fields, header has ${index.size}: "${line}"`);
    }
    /** @type {Record<string, number>} */
    const sample = {};
    for (const [name, field] of Object.entries(COLUMNS)) {
      const col = index.get(name);
      sample[field] = col === undefined ? 0 : toNumber(fields[col], i + 1, name);
    }
    out.push(/** @type {VmstatSample} */ (/** @type {unknown} */ (sample)));
  }
  return out;
}

/**
 * @param {string[]} names header fields
 * @param {number} lineNo 1-based, for messages
 * @returns {Map<string, number>} column name -> position
 */
function headerIndex(names, lineNo) {
  const index = new Map(names.map((n, i) => [n, i]));
  const missing = Object.keys(COLUMNS).filter((n) => !OPTIONAL.has(n) && !index.has(n));
  if (missing.length > 0) {
    throw new Error(`vmstat output line ${lineNo}: header lacks column(s) ${missing.join(', ')}; got: ${names.join(' ')}`);
  }
  return index;
}

/**
 * @param {string|undefined} s
 * @param {number} lineNo
 * @param {string} column
 */
function toNumber(s, lineNo, column) {
  const n = Number(s);
  if (s === undefined || !Number.isFinite(n)) throw new Error(`vmstat output line ${lineNo}: column ${column} is not a number: "${s}"`);
  return n;
}
