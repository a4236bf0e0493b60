/**
 * What compare reads of the records: the reported tests, and of one test the valid repeats of
 * one release with their server instances and rounds, by the road the figures take: the timed
 * repeats (wall's figures, and every timed meter's in `repeat.meters.<meter>`) or a counting
 * meter's counted repeats (`step.meters.<meter>`). Pure.
 */
import { median } from 'simple-statistics';
import { runGroupKey } from '../run-id.js';
import { withoutWarmup } from './warm-up.js';
import { computeQos } from './qos.js';

/**
 * @typedef {object} Side the valid repeats of one test over one release's records
 * @property {import('../types.js').Repeat[]} repeats timed repeats, or a counting meter's counted
 *   repeats standing where timed ones do (their metrics read only their own fields)
 * @property {(import('./warm-up.js').Warmup|null)[]} warmups what was left out of each repeat (null: nothing)
 * @property {string[]} instanceKeys which server instance produced each repeat
 * @property {(string|null)[]} roundKeys the round of each repeat, shared by the releases of that run; null when unknown
 * @property {string[]} failedIn runs whose step failed
 * @property {string} reason the first failure's reason
 * @property {boolean} missing no record has the test
 */

/**
 * The kind of a test's step (sysbench, ibench, ...), from the first record that ran it.
 * @param {import('../types.js').RunRecord[]} records
 * @param {string} test
 * @returns {string}
 */
export function stepKind(records, test) {
  for (const r of records) {
    const step = r.steps.find((s) => s.name === test);
    if (step) return step.kind;
  }
  return '';
}

/**
 * Reported tests in suite order (candidate's order first, then tests only the base ran).
 * @param {import('../types.js').RunRecord[]} a
 * @param {import('../types.js').RunRecord[]} b
 * @returns {{name: string, group: string}[]}
 */
export function listTests(a, b) {
  /** @type {Map<string, string>} */
  const seen = new Map();
  for (const r of [...a, ...b]) {
    for (const s of r.steps) if (s.reported && s.group !== 'setup' && !seen.has(s.name)) seen.set(s.name, s.group);
  }
  return [...seen].map(([name, group]) => ({ name, group }));
}

/**
 * Valid repeats of one test over the records of one release: the timed repeats as compare
 * judges them, without their warm-up (./warm-up.js), or a counting meter's counted repeats.
 * @param {import('../types.js').RunRecord[]} records
 * @param {string} test
 * @param {string|null} [meter] the meter whose figures are wanted (default null: the timed
 *   repeats' own figures, wall's)
 * @param {boolean} [counted] the meter's figures are in counted repeats (`step.meters.<meter>`);
 *   default: so when some step of these records has them
 * @returns {Side}
 */
export function collectSide(records, test, meter = null, counted = meter !== null && hasCounted(records, meter)) {
  if (meter !== null && counted) return collectCounted(records, test, meter);
  const side = emptySide();
  for (const r of records) {
    const step = r.steps.find((s) => s.name === test);
    // A run whose meters had no timed one ran its tests counted only: not timed there.
    if (!step || (step.status === 'skipped' && !timesRepeats(r))) continue;
    side.missing = false;
    if (step.status === 'failed') {
      side.failedIn.push(r.id);
      side.reason ||= step.reason ?? '';
      continue;
    }
    if (step.status !== 'ok') continue;
    for (const rep of step.repeats) {
      if (rep.status !== 'ok') continue;
      const judged = withoutWarmup(rep);
      side.repeats.push(judged.repeat);
      side.warmups.push(judged.warmup);
      // Records made before instances existed: each repeat stands for itself, as it was judged then.
      side.instanceKeys.push(`${r.id}#${rep.instance ?? `repeat-${rep.index}`}`);
      const run = runGroupKey(r);
      side.roundKeys.push(run === null || rep.instance === undefined ? null : `${run}#${rep.instance}`);
    }
  }
  return side;
}

/**
 * A side with nothing collected yet: both roads (timed and counted repeats) fill the same shape.
 * missing stays true until some record has the test.
 * @returns {Side}
 */
function emptySide() {
  return { repeats: [], warmups: [], instanceKeys: [], roundKeys: [], failedIn: [], reason: '', missing: true };
}

/**
 * @param {import('../types.js').RunRecord[]} records
 * @param {string} meter
 * @returns {boolean} some step of these records has the meter's counted repeats
 */
function hasCounted(records, meter) {
  return records.some((r) => r.steps.some((s) => s.meters?.[meter] !== undefined));
}

/**
 * Whether a run timed its steps: every run did before meters existed; a run whose meters are
 * all counting ones (they left counted repeats in its steps) skipped its timed steps.
 * @param {import('../types.js').RunRecord} record
 * @returns {boolean}
 */
export function timesRepeats(record) {
  const meters = record.config.meters;
  return !meters || meters.some((m) => !hasCounted([record], m));
}

/**
 * A counting meter's repeats of one test (instructions): each round is one server process per
 * release, so the round key pairs the releases' processes of that round. A record without the
 * meter's run of the test counts as missing, never as failed: the meter was not asked for there.
 * @param {import('../types.js').RunRecord[]} records
 * @param {string} test
 * @param {string} meter
 */
function collectCounted(records, test, meter) {
  const side = emptySide();
  for (const r of records) {
    const slot = r.steps.find((s) => s.name === test)?.meters?.[meter];
    // A step the meter could not count (a sequence without counted sizes) says why in its slot:
    // not measured there, like a test the meter was not asked for, rather than failed.
    if (!slot || (slot.status === 'skipped' && slot.repeats.length === 0)) continue;
    side.missing = false;
    const ok = slot.repeats.filter((rep) => rep.status === 'ok');
    // Some repeats failing leaves the others valid; none valid is a failure of the test.
    if (ok.length === 0 && slot.status !== 'skipped') {
      side.failedIn.push(r.id);
      side.reason ||= slot.reason ?? '';
      continue;
    }
    const run = runGroupKey(r);
    for (const rep of ok) {
      // Counted repeats stand where timed ones do; their metrics read only their own fields.
      side.repeats.push(/** @type {any} */ (rep));
      side.warmups.push(null);
      side.instanceKeys.push(`${r.id}#${meter}#${rep.instance}`);
      side.roundKeys.push(run === null ? null : `${run}#${meter}#${rep.instance}`);
    }
  }
  return side;
}

/**
 * One value per server instance of a side: the median of that instance's repeats (repeats of one
 * process share its memory layout and warm-up, so they are not independent evidence), with the
 * instance's round key (its run's and its round's, shared with the other releases of that run).
 * @param {Side} side
 * @param {import('./types.js').MetricDef} metric
 * @param {import('./types.js').QosOptions} qosOptions
 * @returns {{key: string|null, value: number}[]|null} null when the metric is not measured on this side
 */
export function instanceValues(side, metric, qosOptions) {
  /** @type {Map<string, {key: string|null, values: number[]}>} */
  const byInstance = new Map();
  for (const [i, r] of side.repeats.entries()) {
    const qos = metric.qos ? computeQos(r.intervals ?? [], qosOptions) : null;
    if (metric.qos && (!qos || qos.seconds < qosOptions.minIntervals)) return null;
    const v = metric.value(r, qos);
    if (v === null) continue;
    const instance = byInstance.get(side.instanceKeys[i]) ?? { key: side.roundKeys[i], values: [] };
    instance.values.push(v);
    byInstance.set(side.instanceKeys[i], instance);
  }
  return [...byInstance.values()].map(({ key, values }) => ({ key, value: median(values) }));
}
