/**
 * Parse `perf stat`'s machine-readable summary (pure): CSV (`-x SEP`) or JSON (`-j`), in the
 * plain layout of a counting run (no -I, -r, -A or --per-* columns).
 *
 * CSV, as `man perf-stat` "CSV FORMAT" lists the fields: counter value, unit, event, run time
 * (ns), % of the time the event was counted, metric value, metric unit. perf's own CSV linter
 * (tools/perf/tests/shell/stat+csv_output.sh) expects 7 fields in this layout; older perf
 * versions leave the two metric fields off, so 5 to 7 are read. The value is `<not supported>`
 * (no such counter here) or `<not counted>` (the event never ran, e.g. the task never got a CPU
 * while it was enabled). perf refuses -B (thousands separators) together with -x, so a CSV value
 * is digits with a decimal point, under LC_ALL=C; perf does not quote fields, so a separator that
 * also occurs in an event name (`cpu/event=0x3c,umask=0x0/` with -x,) or a decimal comma from
 * the locale shifts the columns: such a line is refused, never read as other columns.
 *
 * JSON: one object per line. perf 6.1 prints "counter-value" as a string, "event-runtime" and
 * "pcnt-running" (its man page still lists a "runtime" key); lines with only "metric-value" /
 * "metric-unit" are extra metrics of the event before them and are skipped, as are the CSV
 * lines whose value, unit and event are all empty ("Additional metrics may be printed with all
 * earlier fields being empty").
 *
 * Both formats: blank lines and perf's `#` comment lines (`# started on ...` with -o) are skipped.
 * A count perf scaled because the event was multiplexed (% running < 100) is printed already
 * scaled (value × enabled / running); runningPct says how much of it was measured.
 */

/**
 * @typedef {object} PerfStatEvent one event line of `perf stat`
 * @property {string} name as perf printed it (`instructions`, `cycles:u` when perf fell back to
 *   user space only, `cpu_core/instructions/` on hybrid CPUs)
 * @property {number|null} value the count (scaled by perf when runningPct < 100); msec for
 *   task-clock and cpu-clock (see unit); null when not supported or not counted
 * @property {string} unit perf's unit of the value (`msec`, or '' for a plain count)
 * @property {number|null} runningPct % of the enabled time the event was on a counter (100 = not
 *   multiplexed); null when perf printed none
 * @property {boolean} notSupported perf printed `<not supported>`
 * @property {boolean} notCounted perf printed `<not counted>`
 */

const NOT_SUPPORTED = '<not supported>';
const NOT_COUNTED = '<not counted>';
/** A count or percentage as perf prints it under LC_ALL=C with -x or -j (no thousands separators). */
const PLAIN_NUMBER = /^\d+(\.\d+)?$/;

/**
 * @param {string} text perf stat's output (what it wrote to -o / --log-fd / stderr)
 * @param {{format: 'csv'|'json', separator?: string}} options format: `csv` for -x, `json` for -j;
 *   separator: the string given to -x (default `,`)
 * @returns {{events: PerfStatEvent[]}} in perf's order
 * @throws {Error} naming the line (1-based) and its text when a line is not in the format
 */
export function parsePerfStat(text, { format, separator = ',' }) {
  if (format !== 'csv' && format !== 'json') throw new Error(`parsePerfStat: format must be 'csv' or 'json'; got ${String(format)}`);
  if (format === 'csv' && separator === '') throw new Error('parsePerfStat: the CSV separator is empty');
  /** @type {PerfStatEvent[]} */
  const events = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const where = `perf stat ${format === 'csv' ? `-x'${separator}'` : '-j'} output line ${i + 1}`;
    const event = format === 'csv' ? csvEvent(line, separator, where) : jsonEvent(line, where);
    if (event) events.push(event);
  }
  return { events };
}

/**
 * @param {string} line
 * @param {string} sep
 * @param {string} where
 * @returns {PerfStatEvent|null} null for an extra-metric line
 */
function csvEvent(line, sep, where) {
  const fields = line.split(sep);
  if (fields.length < 5 || fields.length > 7) {
    const why = fields.length > 7
      ? `: a decimal comma (run perf under LC_ALL=C), the separator inside an event name (choose another -x), or -I/-r/-A/--per-* columns, which are not read here`
      : '';
    throw new Error(`${where}: expected 5 to 7 '${sep}'-separated fields (counter value, unit, event, run time, % running, metric value, metric unit), got ${fields.length}${why}: ${JSON.stringify(line)}`);
  }
  const [value, unit, name, , running] = fields.map((f) => f.trim());
  if (value === '' && unit === '' && name === '') return null;
  if (name === '') throw new Error(`${where}: no event name in the third field: ${JSON.stringify(line)}`);
  return makeEvent(name, value, unit, running === '' ? null : running, where, line);
}

/**
 * @param {string} line
 * @param {string} where
 * @returns {PerfStatEvent|null} null for an extra-metric line
 */
function jsonEvent(line, where) {
  /** @type {unknown} */
  let row;
  try {
    row = JSON.parse(line);
  } catch (err) {
    throw new Error(`${where}: not a JSON object (${err instanceof Error ? err.message : String(err)}): ${JSON.stringify(line)}`, { cause: err });
  }
  if (row === null || typeof row !== 'object' || Array.isArray(row)) throw new Error(`${where}: not a JSON object: ${JSON.stringify(line)}`);
  const r = /** @type {Record<string, unknown>} */ (row);
  if (!('event' in r) && !('counter-value' in r)) {
    if ('metric-value' in r) return null;
    throw new Error(`${where}: neither "event" nor "counter-value" (nor an extra "metric-value"): ${JSON.stringify(line)}`);
  }
  if (typeof r.event !== 'string' || r.event === '') throw new Error(`${where}: "event" must be a non-empty string: ${JSON.stringify(line)}`);
  const value = r['counter-value'];
  if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`${where}: "counter-value" must be a string or a number: ${JSON.stringify(line)}`);
  const unit = r.unit ?? '';
  if (typeof unit !== 'string') throw new Error(`${where}: "unit" must be a string: ${JSON.stringify(line)}`);
  const running = r['pcnt-running'];
  if (running !== undefined && typeof running !== 'number') throw new Error(`${where}: "pcnt-running" must be a number: ${JSON.stringify(line)}`);
  return makeEvent(r.event, String(value), unit, running === undefined ? null : String(running), where, line);
}

/**
 * @param {string} name
 * @param {string} value
 * @param {string} unit
 * @param {string|null} running
 * @param {string} where
 * @param {string} line
 * @returns {PerfStatEvent}
 */
function makeEvent(name, value, unit, running, where, line) {
  const notSupported = value === NOT_SUPPORTED;
  const notCounted = value === NOT_COUNTED;
  if (!notSupported && !notCounted && !PLAIN_NUMBER.test(value)) {
    throw new Error(`${where}: the counter value of ${name} is neither a plain number nor ${NOT_SUPPORTED} / ${NOT_COUNTED}: ${JSON.stringify(value)} in ${JSON.stringify(line)}`);
  }
  if (running !== null && !PLAIN_NUMBER.test(running)) {
    throw new Error(`${where}: the % running of ${name} is not a plain number: ${JSON.stringify(running)} in ${JSON.stringify(line)}`);
  }
  return {
    name,
    value: notSupported || notCounted ? null : Number(value),
    unit,
    runningPct: running === null ? null : Number(running),
    notSupported,
    notCounted,
  };
}
