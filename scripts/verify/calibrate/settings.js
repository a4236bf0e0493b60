/**
 * What every calibration shares before it starts anything, and what `tagbench calibrate --help`
 * prints: each meter kind's defaults, the timed strategy's ways to inject, the log line, and the
 * earlier report a call adds runs to. Light on purpose: verify/commands.js imports it for --help.
 */
import { readFile } from 'node:fs/promises';
import { UserError } from '../../errors.js';

/**
 * How the timed strategy slows S: a cgroup CPU quota on its server (the CPU it may use per
 * period), or the preload library's spin on each query answer (inject-cost/), a real cost in the
 * server's own threads that follows each query's CPU time. timed.js has one path per name.
 */
export const TIMED_INJECTIONS = Object.freeze(['quota', 'preload']);

/**
 * Each meter kind's calibration defaults, here so that --help prints what the code uses. Timed:
 * the CPU-bound tests of the standard list, one per group but range; slowdowns one per run in
 * turn. Counted: a read (the sizes' reference) and a write, where periodic work shows; 30 runs
 * bound false issues below 10 % with none seen; the first size in every run, the others in turn.
 */
export const CALIBRATION_DEFAULTS = Object.freeze({
  timed: Object.freeze({ tests: Object.freeze(['point-query', 'read-only.range10', 'update-nonindex']), runs: 10, slowdowns: Object.freeze([0.05, 0.1, 0.15]) }),
  counted: Object.freeze({ tests: Object.freeze(['point-query', 'update-nonindex']), runs: 30, sizes: Object.freeze(['0.01', '0.005', '0.02', 'performance_schema']) }),
});

/**
 * One progress line of a calibration, on stderr (stdout stays free for the CLI's output).
 * @param {string} message
 * @returns {void}
 */
export function log(message) {
  process.stderr.write(`calibrate: ${message}\n`);
}

/**
 * The earlier report when it was made with the same settings (runs are then added to it).
 * @param {string} file the report's JSON
 * @param {Record<string, any>} settings as the strategy planned them
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
