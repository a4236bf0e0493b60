/**
 * Parser for `iostat -dxk N` output (sysstat). Pure: text in, reports out.
 *
 * Columns are found by header name because sysstat 11 and 12 order and name them differently
 * (12 adds d/s, f/s and the *areq-sz columns; 11 prints `Device:` with a colon). Numbers may use a
 * decimal comma when iostat ran under such a locale; the sampler runs it with LC_ALL=C anyway.
 */

/** @typedef {import('./types.js').IostatReport} IostatReport */
/** @typedef {import('./types.js').IostatDevice} IostatDevice */

/** iostat header name -> IostatDevice field. */
const COLUMNS = /** @type {const} */ ({
  'r/s': 'readsPerS', 'w/s': 'writesPerS', 'rkB/s': 'kbReadPerS', 'wkB/s': 'kbWrittenPerS', '%util': 'utilPct',
});
const OPTIONAL = new Set(['%util']);

/**
 * Parse iostat extended device reports, one per interval, in order. iostat's first report
 * holds averages since boot (unless it ran with -y): callers that want per-interval figures drop
 * it (startSampling does). A report cut short (iostat killed mid-write) keeps its complete lines.
 * @param {string} text whole stdout of `iostat -dxk 1`
 * @returns {IostatReport[]} [] for empty text
 * @throws {Error} when a header lacks r/s, w/s, rkB/s or wkB/s (e.g. iostat ran without -x or -k)
 *   or a complete device line has the wrong number of fields
 */
export function parseIostat(text) {
  const lines = text.split('\n');
  if (!text.endsWith('\n')) lines.pop();
  /** @type {IostatReport[]} */
  const reports = [];
  /** @type {Map<string, number>|null} */
  let index = null;
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') { index = null; continue; }
    const fields = line.split(/\s+/);
    if (/^Device:?$/.test(fields[0])) {
      index = headerIndex(fields, i + 1);
      reports.push({ devices: [] });
      continue;
    }
    if (!index) continue; // banner ("Linux 6.1 (host) ...") or text between reports
    if (fields.length !== index.size) {
      throw new Error(`iostat output line ${i + 1}: ${fields.length} fields, header has ${index.size}: "${line}"`);
    }
    /** @type {Record<string, string|number|null>} */
    const dev = { device: fields[0] };
    for (const [name, field] of Object.entries(COLUMNS)) {
      const col = index.get(name);
      dev[field] = col === undefined ? null : toNumber(fields[col], i + 1, name);
    }
    reports[reports.length - 1].devices.push(/** @type {IostatDevice} */ (/** @type {unknown} */ (dev)));
  }
  return reports;
}

/**
 * @param {string[]} names
 * @param {number} lineNo
 * @returns {Map<string, number>}
 */
function headerIndex(names, lineNo) {
  const index = new Map(names.map((n, i) => [n, i]));
  const missing = Object.keys(COLUMNS).filter((n) => !OPTIONAL.has(n) && !index.has(n));
  if (missing.length > 0) {
    throw new Error(`iostat output line ${lineNo}: header lacks column(s) ${missing.join(', ')} (run iostat with -d -x -k); got: ${names.join(' ')}`);
  }
  return index;
}

/**
 * @param {string|undefined} s
 * @param {number} lineNo
 * @param {string} column
 */
function toNumber(s, lineNo, column) {
  const n = Number(s?.replace(',', '.'));
  if (s === undefined || !Number.isFinite(n)) throw new Error(`iostat output line ${lineNo}: column ${column} is not a number: "${s}"`);
  return n;
}
