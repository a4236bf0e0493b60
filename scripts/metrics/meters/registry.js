/**
 * Every meter by name (STYLE.md section 2): explicit imports into a frozen map, each checked for
 * its shape when registered, so a broken meter fails at load time naming its file and the
 * missing member. `wall` is today's wall-clock path; `instructions` (callgrind) and `counters`
 * (perf stat) plug in here the same way.
 */
import { wall } from './wall.js';

/** @typedef {import('../types.js').Meter} Meter */

/** Members every meter has (serverWrapper is optional). */
const REQUIRED = /** @type {const} */ (['name', 'start']);

/**
 * @param {Record<string, Meter>} byFile file stem -> meter
 * @returns {Readonly<Record<string, Meter>>}
 * @throws {Error} naming the file and what is missing or wrong
 */
export function registerMeters(byFile) {
  for (const [file, meter] of Object.entries(byFile)) {
    const where = `scripts/metrics/meters/${file}.js`;
    const m = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (meter));
    const missing = REQUIRED.filter((k) => m[k] === undefined);
    if (missing.length > 0) throw new Error(`${where}: meter lacks ${missing.join(', ')}`);
    if (m.name !== file) throw new Error(`${where}: meter name '${m.name}' must equal the file name`);
    for (const k of ['start', 'serverWrapper']) {
      if (m[k] !== undefined && typeof m[k] !== 'function') throw new Error(`${where}: meter member ${k} must be a function`);
    }
  }
  return Object.freeze({ ...byFile });
}

/** Every known meter, name -> meter. */
export const METERS = registerMeters({ wall });

/**
 * @param {string} name a meter's name
 * @returns {Meter}
 * @throws {Error} for an unknown name, listing the known ones
 */
export function getMeter(name) {
  const meter = Object.hasOwn(METERS, name) ? METERS[name] : undefined;
  if (!meter) throw new Error(`unknown meter '${name}'; known: ${Object.keys(METERS).join(', ')}`);
  return meter;
}
