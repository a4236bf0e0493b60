/**
 * Every meter by name (STYLE.md section 2): explicit imports into a frozen map, each checked for
 * its shape when registered, so a broken meter fails at load time naming its file and the
 * missing member. `wall`: the timed repeats' wall-clock figures; `counters`: perf stat's
 * hardware counters over the same timed repeats; `instructions`: counted repeats under callgrind;
 * `work`: the server's status counters around counted repeats, per operation.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { wall } from './wall.js';
import { instructions } from './instructions.js';
import { counters } from './counters.js';
import { work } from './work.js';

/** @typedef {import('../types.js').Meter} Meter */

/** Members every meter has (serverWrapper, dependsOn and countedPace are optional). */
const REQUIRED = /** @type {const} */ (['name', 'kind', 'start', 'metrics', 'needs']);
/** Members every metric of a meter has (MeterMetric). */
const METRIC_MEMBERS = ['name', 'figure', 'unit', 'higherIsBetter', 'scale', 'label'];

/** A meter's kinds (Meter.kind). */
const KINDS = ['timed', 'counted'];

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
    if (!KINDS.includes(/** @type {string} */ (m.kind))) throw new Error(`${where}: meter kind '${m.kind}' must be one of ${KINDS.join(', ')}`);
    for (const k of ['start', 'serverWrapper', 'dependsOn', 'countedPace']) {
      if (m[k] !== undefined && typeof m[k] !== 'function') throw new Error(`${where}: meter member ${k} must be a function`);
    }
    if (!Array.isArray(m.metrics)) throw new Error(`${where}: meter member metrics must be an array`);
    for (const [i, metric] of /** @type {Record<string, unknown>[]} */ (m.metrics).entries()) {
      const lacks = METRIC_MEMBERS.filter((k) => metric[k] === undefined);
      if (lacks.length > 0) throw new Error(`${where}: metrics[${i}] lacks ${lacks.join(', ')}`);
    }
    checkCalibration(where, meter);
  }
  return Object.freeze({ ...byFile });
}

/**
 * A calibration description (not a whole strategy: that has `round`) names the meter's own
 * metrics, so a renamed metric fails here rather than in a calibration hours later.
 * @param {string} where the meter's file
 * @param {Meter} meter
 * @throws {Error} naming the file and the member
 */
function checkCalibration(where, meter) {
  const c = /** @type {Record<string, any>|undefined} */ (meter.calibration);
  if (c === undefined || typeof c.round === 'function') return;
  if (typeof c.injects !== 'string' || typeof c.sizeTest !== 'string') throw new Error(`${where}: calibration needs injects and sizeTest (strings), or a whole strategy with round()`);
  const names = meter.metrics.map((m) => m.name);
  for (const role of ['queryPath', 'process']) {
    if (!names.includes(c.judged?.[role])) throw new Error(`${where}: calibration.judged.${role} ${JSON.stringify(c.judged?.[role])} is not one of its metrics (${names.join(', ')})`);
  }
}

/** Every known meter, name -> meter. */
export const METERS = registerMeters({ wall, counters, instructions, work });

/** The meters of a run that names none (a record without `config.meters` was measured by these). */
export const DEFAULT_METERS = Object.freeze([wall.name]);

/** Meters added for the duration of withMeters (tests of the seam); production never sets it. */
const added = new AsyncLocalStorage();

/**
 * Run fn with extra meters known beside the registry's (the frozen map is left as it is): how a
 * test plugs a made-up meter into the real run stage.
 * @template T
 * @param {Record<string, Meter>} byFile file stem -> meter, checked like the registry's
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
export function withMeters(byFile, fn) {
  return added.run(registerMeters(byFile), fn);
}

/**
 * @returns {Readonly<Record<string, Meter>>} every meter known here: the registry's and those withMeters added
 */
function knownMeters() {
  const extra = /** @type {Readonly<Record<string, Meter>>|undefined} */ (added.getStore());
  return extra ? { ...METERS, ...extra } : METERS;
}

/**
 * @returns {string[]} the names of every known meter (for the CLI's and the config's checks)
 */
export function meterNames() {
  return Object.keys(knownMeters());
}

/**
 * @param {string} name a meter's name
 * @returns {Meter}
 * @throws {Error} for an unknown name, listing the known ones
 */
export function getMeter(name) {
  const known = knownMeters();
  const meter = Object.hasOwn(known, name) ? known[name] : undefined;
  if (!meter) throw new Error(`unknown meter '${name}'; known: ${Object.keys(known).join(', ')}`);
  return meter;
}

/**
 * The metric facts a record carries for its meters (config.meterMetrics), so compare and the
 * site read them from the record and never need this registry.
 * @param {string[]} names the run's meters
 * @returns {Record<string, import('../types.js').MeterMetric[]>} meter -> its metrics (meters without any are left out)
 * @throws {Error} for an unknown name
 */
export function recordMeterMetrics(names) {
  /** @type {Record<string, import('../types.js').MeterMetric[]>} */
  const out = {};
  for (const meter of names.map(getMeter)) {
    if (meter.metrics.length > 0) out[meter.name] = meter.metrics.map((m) => ({ ...m }));
  }
  return out;
}

/**
 * The run's meters split by how they measure: the timed ones measure the same timed repeats
 * together (wall, and counters beside it: perf attaches to the server over the same window);
 * the counting ones (instructions) run their own counted repeats after the timed schedule.
 * @param {string[]} names the run's meters
 * @returns {{timed: Meter|null, counting: Meter[]}} timed: one meter standing for all the timed
 *   ones (null when the run has none: only counted repeats, the timed tests are not run)
 * @throws {Error} for an unknown name
 */
export function splitMeters(names) {
  const meters = names.map(getMeter);
  const timed = meters.filter((m) => m.kind === 'timed');
  const counting = meters.filter((m) => m.kind === 'counted');
  // Counters' figures are per operation of the timed repeat: they need the wall meter's count
  // of operations, so a timed run always has wall first.
  const all = timed.length === 0 ? [] : [wall, ...timed.filter((m) => m !== wall)];
  return { timed: all.length === 0 ? null : all.length === 1 ? all[0] : combineTimed(all), counting };
}

/**
 * Several timed meters around one repeat: started in order, stopped in reverse, figures merged
 * (each fills its own fields; the first meter's name stands for the repeat).
 * @param {Meter[]} meters wall first
 * @returns {Meter}
 */
function combineTimed(meters) {
  return {
    name: meters.map((m) => m.name).join('+'),
    kind: 'timed',
    metrics: meters.flatMap((m) => m.metrics),
    needs: { tools: meters.flatMap((m) => m.needs.tools), wrappedServer: false },
    async start(target) {
      /** @type {import('../types.js').MeterSession[]} */
      const sessions = [];
      try {
        for (const m of meters) sessions.push(await m.start(target));
      } catch (err) {
        for (const s of sessions.reverse()) await s.stop(null).catch(() => null);
        throw err;
      }
      return {
        async stop(repeat) {
          /** @type {(import('../types.js').MeterFigures|null)[]} */
          const figures = [];
          for (const s of [...sessions].reverse()) figures.unshift(await s.stop(repeat));
          if (repeat === null || figures[0] === null) return null;
          const own = Object.assign({}, ...figures.map((f) => f?.meters ?? {}));
          return {
            meter: meters[0].name,
            perOp: Object.assign({}, ...figures.map((f) => f?.perOp ?? {})),
            repeat: Object.assign({}, ...figures.map((f) => f?.repeat ?? {})),
            ...(Object.keys(own).length > 0 ? { meters: own } : {}),
          };
        },
      };
    },
  };
}
