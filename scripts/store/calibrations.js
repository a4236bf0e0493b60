/**
 * Calibrations as data: one file per calibration of one meter on one host class,
 * bench/calibrations/<host-class>/<meter>-<suite>-<started>.json (beside the calibration reports:
 * a report written elsewhere, --report, gets its calibrations/ folder beside it), with the conditions it ran under
 * (host facts, suite, design, load, dates) beside what it caught. A run's "how sure" cites one
 * only when it matches the run (compare/select-calibration.js decides, from these fields), so the
 * conditions must be stored, not guessed from a file name.
 *
 * `tagbench calibrate` keeps its full report (bench/calibration-*.json, every run and verdict) and
 * writes this condensed file beside it after every run (calibrationFromReport), so the two never
 * disagree; the reports committed before this format existed were converted once by the same
 * function. This module is the format's only reader and writer. Schema:
 * schemas/calibration.schema.json.
 */
import { createRequire } from 'node:module';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { registerSchema, validateAgainst } from '../config/index.js';
import { UserError } from '../errors.js';
import { replaceFileAtomic } from './write-file-once.js';

const require = createRequire(import.meta.url);
const SCHEMA = /** @type {{$id: string, properties: {schemaVersion: {const: 1}}}} */ (require('./schemas/calibration.schema.json'));
registerSchema(SCHEMA);

/** Newest schemaVersion of calibrations this tagbench reads and writes. */
export const CALIBRATION_SCHEMA_VERSION = SCHEMA.properties.schemaVersion.const;

/** Where calibrations live, under the folder of the reports (the project's bench/). */
const DIR = 'calibrations';

/** The report formats calibrationFromReport condenses: the timed strategy's and the counted one's. */
const CONDENSED = /^tagbench-calibration(?:\/2|-([\w-]+)\/1)$/;

/**
 * @param {unknown} format a report's `format`
 * @returns {boolean} whether calibrationFromReport reads it (a meter's own strategy may write a
 *   report of its own format: it is then not condensed, and no run cites it)
 */
export function isCondensedFormat(format) {
  return CONDENSED.test(String(format));
}

/** @typedef {import('../types.js').Calibration} Calibration */

/**
 * A calibration report (`tagbench calibrate`'s JSON) condensed to the stored format. Timed
 * reports (`tagbench-calibration/2`: the default meter, detection judged on throughput) and
 * counted ones (`tagbench-calibration-<meter>/1`: detection judged on the meter's first metric,
 * summed over the tests) are both read. Pure.
 * @param {any} report the parsed report
 * @param {string} source its path relative to the project (kept in the calibration)
 * @returns {Calibration}
 * @throws {UserError} a report of another format, or one without a finished run
 */
export function calibrationFromReport(report, source) {
  const format = String(report?.format ?? '');
  const match = CONDENSED.exec(format);
  const counted = match?.[1] ? match : null;
  if (!match) {
    throw new UserError(`${source}: format '${format}' is not a calibration report this tagbench condenses (tagbench-calibration/2, tagbench-calibration-<meter>/1)`);
  }
  const runs = Array.isArray(report.runs) ? report.runs : [];
  if (runs.length === 0) throw new UserError(`${source}: no finished run yet, so nothing to cite; rerun tagbench calibrate`);
  // The timed strategy judges detection on throughput, the default meter's own figure
  // (verify/calibrate/timed.js); a counted one on its meter's first metric.
  const metric = counted ? String(runs[0].aa?.verdicts?.[0]?.metric ?? '') : 'throughput';
  const f = report.falseIssues ?? {};
  return {
    schemaVersion: CALIBRATION_SCHEMA_VERSION,
    hostClass: report.hostClass,
    host: report.host ? { cores: report.host.cores ?? null, cpuModel: report.host.cpuModel ?? null } : null,
    meter: counted ? counted[1] : 'wall',
    kind: counted ? 'counted' : 'timed',
    metric,
    suite: report.suite ?? '',
    tests: report.tests ?? [],
    product: report.product ?? '',
    version: report.version ?? '',
    design: designOf(runs, metric),
    load: loadOf(report, runs),
    startedAt: startOf(report, runs),
    measuredAt: report.measuredAt,
    falseIssues: { runs: f.runs ?? 0, runsWithFalseIssue: f.runsWithFalseIssue ?? 0, upper95: f.upper95 ?? 1 },
    detection: detectionOf(report.detection ?? {}, Boolean(counted)),
    source,
  };
}

/**
 * The design most of the report's A/A verdicts of the metric were made with.
 * @param {any[]} runs
 * @param {string} metric
 * @returns {{paired: boolean, instances: number}}
 * @throws {UserError} when no run has a verdict of the metric
 */
function designOf(runs, metric) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  for (const run of runs) {
    for (const v of run.aa?.verdicts ?? []) {
      if (v.metric !== metric || !Array.isArray(v.instances)) continue;
      const key = JSON.stringify({ paired: Boolean(v.pairedRounds), instances: v.pairedRounds ?? Math.min(...v.instances) });
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  }
  const top = [...seen].sort((a, b) => b[1] - a[1])[0];
  if (!top) throw new UserError(`calibration report: no A/A verdict of ${metric} in its runs, so its design is unknown`);
  return JSON.parse(top[0]);
}

/**
 * @param {any} report
 * @param {any[]} runs
 * @returns {{maxOneMinute: number|null, conditions: string|null}}
 */
function loadOf(report, runs) {
  // A plain number is a timed report's five-minute average after a run (all it keeps); an object
  // is a counted report's {one, five, fifteen}: its one-minute figure is taken.
  const one = (/** @type {any} */ l) => (typeof l === 'number' ? l : typeof l?.one === 'number' ? l.one : null);
  const loads = [
    ...runs.flatMap((r) => [one(r.loadAverage), one(r.loadAverageAtStart)]),
    ...(report.calls ?? []).flatMap((/** @type {any} */ c) => [one(c.loadAverageAtStart), one(c.loadAverageAtEnd)]),
  ].filter((l) => l !== null);
  const notes = [...new Set([report.conditions, ...runs.map((r) => r.conditions), ...(report.calls ?? []).map((/** @type {any} */ c) => c.note)].filter((n) => typeof n === 'string' && n !== ''))];
  return { maxOneMinute: loads.length > 0 ? Math.max(...loads) : null, conditions: notes.length > 0 ? notes.join(' | ') : null };
}

/**
 * When the first run started: its own start, else its end less its seconds.
 * @param {any} report
 * @param {any[]} runs
 * @returns {string} ISO 8601
 */
function startOf(report, runs) {
  const first = runs[0];
  const starts = [first.startedAt, report.calls?.[0]?.startedAt].filter((s) => typeof s === 'string');
  if (starts.length > 0) return starts.sort()[0];
  return new Date(Date.parse(first.finishedAt) - 1000 * Number(first.seconds ?? 0)).toISOString();
}

/**
 * Detection by injected size, smallest first. A counted report keeps it per test: summed here, as
 * the run's sentence speaks of the meter's verdicts together; an injection without a size
 * (performance_schema on) is left out, as it has no size to compare with.
 * @param {Record<string, any>} detection
 * @param {boolean} counted
 * @returns {{size: number, trials: number, detected: number}[]}
 */
function detectionOf(detection, counted) {
  const rows = Object.entries(detection).map(([key, d]) => {
    if (!counted) return { size: Number(key), trials: d.trials, detected: d.detected };
    const tests = Object.values(d.byTest ?? {});
    return { size: d.share, trials: tests.reduce((s, t) => s + t.trials, 0), detected: tests.reduce((s, t) => s + t.detected, 0) };
  });
  return rows.filter((r) => typeof r.size === 'number' && r.size > 0).sort((a, b) => a.size - b.size);
}

/**
 * The calibration's file, from its identity: one per meter, suite and start, so a calibration
 * that grows by runs rewrites its own file and a new one never overwrites an older.
 * @param {Calibration} calibration
 * @returns {string} relative to the folder of the reports
 */
export function calibrationPath(calibration) {
  const started = calibration.startedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `${DIR}/${calibration.hostClass}/${calibration.meter}-${calibration.suite || 'suite'}-${started}.json`;
}

/**
 * Write a calibration (replacing its own earlier state, atomically).
 * @param {string} benchDir the folder of the calibration reports (the project's bench/)
 * @param {Calibration} calibration
 * @returns {Promise<string>} the file written, relative to benchDir
 * @throws {UserError} when it does not match the schema (a bug in what condensed it)
 */
export async function writeCalibration(benchDir, calibration) {
  const problems = validateAgainst(SCHEMA.$id, calibration);
  const file = calibrationPath(calibration);
  if (problems.length > 0) throw new UserError(`${file}: not a calibration: ${problems.join('; ')}`);
  await replaceFileAtomic(join(benchDir, file), `${JSON.stringify(calibration, null, 2)}\n`);
  return file;
}

/**
 * Every calibration of a host class, oldest first.
 * @param {string} benchDir the folder of the calibration reports (the project's bench/)
 * @param {string} hostClass
 * @returns {Promise<Calibration[]>} empty when the host class has none
 * @throws {UserError} a file that is not JSON, is of a newer schemaVersion, or has a wrong field
 *   (a broken calibration must not pass silently: it would be cited)
 */
export async function readCalibrations(benchDir, hostClass) {
  const dir = join(benchDir, DIR, hostClass);
  let names;
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const out = [];
  for (const name of names) {
    const path = join(dir, name);
    /** @type {any} */
    let data;
    try {
      data = JSON.parse(await readFile(path, 'utf8'));
    } catch (err) {
      throw new UserError(`${path}: not valid JSON (${err instanceof Error ? err.message : err}); rerun tagbench calibrate --host-class ${hostClass}`, { cause: err });
    }
    if (typeof data?.schemaVersion === 'number' && data.schemaVersion > CALIBRATION_SCHEMA_VERSION) {
      throw new UserError(`${path}: schemaVersion ${data.schemaVersion} is newer than this tagbench reads (${CALIBRATION_SCHEMA_VERSION}); update tagbench`);
    }
    const problems = validateAgainst(SCHEMA.$id, data);
    if (data?.hostClass !== hostClass) problems.push(`hostClass is '${data?.hostClass}', but the file is in ${DIR}/${hostClass}/`);
    if (problems.length > 0) throw new UserError(`${path}: not a calibration: ${problems.join('; ')}; rerun tagbench calibrate --host-class ${hostClass}`);
    out.push(/** @type {Calibration} */ (data));
  }
  return out.sort((a, b) => (a.measuredAt < b.measuredAt ? -1 : a.measuredAt > b.measuredAt ? 1 : 0));
}
