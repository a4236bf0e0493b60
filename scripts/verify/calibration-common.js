/**
 * What both calibrations (the wall meter's, calibrate-host.js; the instructions meter's,
 * inject-cost/calibrate-counted.js) share: the meters and their defaults (commands.js prints
 * them in --help), the log line and the earlier report a call adds runs to. Its own module so
 * that neither calibration imports the other nor the CLI file.
 */
import { readFile } from 'node:fs/promises';
import { UserError } from '../errors.js';

/**
 * What `tagbench calibrate` can calibrate: the wall meter (throughput; a server slowed in a
 * cgroup) and the instructions meter (counted instructions per operation; a preload library
 * that adds a known count per query). calibrate-host.js has one path per name.
 */
export const CALIBRATION_METERS = Object.freeze(['wall', 'instructions']);

/**
 * How the wall meter's calibration slows S: a cgroup CPU quota on its server (the CPU it may use
 * per period), or the preload library's spin on each query answer (inject-cost/), a real cost in
 * the server's own threads that follows each query's CPU time. calibrate-host.js has one path per name.
 */
export const WALL_INJECTIONS = Object.freeze(['quota', 'preload']);

/**
 * Each meter's calibration defaults, here so that --help prints what the code uses. Wall: the
 * CPU-bound tests of the standard list, one per group but range. Instructions: a read (the
 * sizes' reference) and a write, where periodic work shows; 30 runs bound false issues below
 * 10 % with none seen; the first size in every run, the others in turn.
 */
export const CALIBRATION_DEFAULTS = Object.freeze({
  wall: Object.freeze({ tests: Object.freeze(['point-query', 'read-only.range10', 'update-nonindex']), runs: 10 }),
  instructions: Object.freeze({ tests: Object.freeze(['point-query', 'update-nonindex']), runs: 30, sizes: Object.freeze(['0.01', '0.005', '0.02', 'performance_schema']) }),
});

/**
 * @param {string} message
 * @returns {void}
 */
export function log(message) {
  process.stderr.write(`calibrate: ${message}\n`);
}

/**
 * The earlier report when it was made with the same settings (runs are then added to it).
 * @param {string} file the report's JSON
 * @param {Record<string, any>} settings as planCalibration resolves them
 * @param {string} format the report format of this meter's calibration
 * @param {Record<string, any>} [olderDefaults] settings reports from before they were kept all had
 *   (the wall calibration's inject: quota), compared as if written
 * @returns {Promise<any|null>} null when there is none, or it is unreadable or of an older format
 * @throws {UserError} a report in the current format made with other settings (it would mix)
 */
export async function loadPrevious(file, settings, format, olderDefaults = {}) {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  /** @type {any} */
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (data?.format !== format) return null;
  for (const [k, v] of Object.entries(olderDefaults)) data[k] ??= v;
  // Reports from before repeats and instances were kept do not say: those two are not compared there.
  const unknown = new Set(['repeats', 'instances'].filter((k) => data[k] === undefined));
  const differs = Object.entries(settings).filter(([k, v]) => !unknown.has(k) && JSON.stringify(data[k]) !== JSON.stringify(v))
    .map(([k, v]) => `${k} ${JSON.stringify(data[k])} there, ${JSON.stringify(v)} now`);
  if (differs.length > 0) throw new UserError(`${file} was measured with other settings (${differs.join('; ')}): use the same settings to add runs, or --report for a new file`);
  return data;
}
