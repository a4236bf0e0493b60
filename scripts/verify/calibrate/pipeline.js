/**
 * `tagbench calibrate`: measure on this host, through the path that opens issues, how often a
 * run opens an issue for nothing (A/A: two servers of one release side by side) and how often it
 * catches a cost of known size injected into a third server S.
 *
 * One pipeline for every meter: plan the trials (the settings every strategy shares, then the
 * strategy's own), start (installs, the injection's helper, a reference run where the strategy
 * sizes its costs by one), run rounds until the report holds --runs, and after every round
 * summarize and render the report (its JSON and Markdown are rewritten at once, so an
 * interrupted calibration keeps what it measured, and a later call with the same settings adds
 * runs to it).
 *
 * How a cost is injected and how its detection is judged depends on the meter's KIND, one
 * strategy file each, picked by `meter.kind` (pickStrategy):
 *   timed.js    S is slowed by a known fraction (a cgroup CPU quota, or the preload library's
 *               spin on each query answer); detection is judged on the timed comparison
 *               (throughput), through compare --adaptive and confirm.
 *   counted.js  S's server adds a known count to each query answer (the preload library of
 *               inject-cost/) or runs with performance_schema on; every server runs under the
 *               meter; detection is judged on the counted comparison, through compare and confirm.
 *               What it reads is the meter's to say, in its own file: `meter.calibration`, a
 *               description (metrics/types.js CountedCalibration: the test the sizes are shares
 *               of, which of its metrics are the query path and the whole process).
 * Nothing here knows a meter by name: a new timed meter is calibrated with no file here changed,
 * a new counted one with the description in its own file. A meter whose cost needs another
 * injection or judgement brings a whole strategy as `meter.calibration` instead, an object of
 * the CalibrationStrategy shape below (it has `round`): pickStrategy takes it before the kind's.
 *
 * The registry's first meter (wall) is the host's default calibration: its report is
 * bench/calibration-<host-class>.md and .json, which compare and the site read, and its runs use
 * the meters a run of the suite would. Any other meter's report is
 * bench/calibration-<meter>-<host-class>.md, its runs measure with that meter.
 */
import { resolve, join, relative, dirname } from 'node:path';
import { parseList } from '../../command-spec.js';
import { UserError, EXIT } from '../../errors.js';
import { findHostClass } from '../../config/index.js';
import { formatValue } from '../../format-number.js';
import { METERS, getMeter, meterNames } from '../../run/index.js';
import { replaceFileAtomic, calibrationFromReport, isCondensedFormat, writeCalibration } from '../../store/index.js';
import { withInterrupt } from '../../with-interrupt.js';
import { cacheDirFrom, workDirFrom } from '../../run-options.js';
import { resolveAdaptiveLimits } from '../adaptive-repeats.js';
import { loadVerifyContext } from '../load-verify-context.js';
import { CALIBRATION_DEFAULTS, log, loadPrevious } from './settings.js';
import { timedStrategy } from './timed.js';
import { countedStrategy } from './counted.js';

/**
 * @typedef {object} CalibratedMeter the meter calibrated, as the registry (or withMeters) has it
 * @property {string} name
 * @property {string} kind
 * @property {readonly {name: string, figure: string, unit: string}[]} [metrics]
 * @property {CalibrationStrategy|Record<string, any>} [calibration] a whole strategy of its own
 *   (it has `round`), or the description its kind's strategy reads (counted.js)
 */

/**
 * @typedef {object} CommonPlan what every strategy's calibration settles before it starts
 * @property {CalibratedMeter} meter the meter calibrated
 * @property {import('../../types.js').MeterName[]|undefined} meters the runs' meters: none
 *   given for the default meter (a run of the suite's own), else this meter alone
 * @property {Readonly<import('../../types.js').Config>} config
 * @property {any} thresholds compare's resolved thresholds
 * @property {any} host the host class
 * @property {string} product
 * @property {string} version
 * @property {string} hostClass
 * @property {string} suite
 * @property {string[]} tests
 * @property {number} budgetS adaptive repeats per comparison
 * @property {number} maxInstances
 * @property {number} wantedRuns runs the report should hold
 * @property {string} reportMd
 * @property {string} reportJson
 * @property {string} storeDir
 * @property {string} workBase
 * @property {string} cacheDir
 * @property {string} root the project root (the condensed calibration names its report from it)
 */

/**
 * @typedef {object} CalibrationStrategy how one kind of meter is calibrated
 * @property {'timed'|'counted'} kind
 * @property {(options: Record<string, any>, common: CommonPlan) => any} plan checks the
 *   strategy's options and returns the plan: common, plus settings (what the report records
 *   and a later call must repeat), format, olderDefaults (settings older reports lack) and its own
 * @property {(plan: any) => Promise<void>} check what must hold before anything starts (a
 *   cgroup, gcc, a my.cnf template); throws UserError
 * @property {(plan: any) => Record<string, any>} newReport an empty report of the plan
 * @property {(plan: any, report: Record<string, any>, io: {signal: AbortSignal, write: () => Promise<void>, note?: string}) => Promise<any|null>} start
 *   installs and helpers, the reference run when the report has none; the session the rounds
 *   share, or null when interrupted (note: --note, the conditions of this call's runs)
 * @property {(report: Record<string, any>, session: any) => Promise<boolean>} round one run added
 *   to report.runs (with its `seconds`); false when interrupted (the run is not counted)
 * @property {(report: Record<string, any>, plan: any) => Record<string, any>} summarize the rates
 *   over all runs, merged into the report; `falseIssues` ({runsWithFalseIssue, runs, upper95}),
 *   where the strategy runs an A/A pair, is logged after each run
 * @property {(report: Record<string, any>) => string} render the Markdown report
 * @property {(session: any) => Promise<void>} finish after the last round (also when interrupted)
 * @property {(session: any, sig: string) => void} interrupted what Ctrl-C or SIGTERM leaves in the report and says
 */

/** The strategy of each meter kind. */
const STRATEGIES = Object.freeze({ timed: timedStrategy, counted: countedStrategy });

/**
 * `tagbench calibrate` (see the module comment).
 * @param {Record<string, any>} options meter, product, version, provider, hostClass, suite, only,
 *   runs, note, report, store, workDir, cacheDir, root, adaptiveBudget; timed: slowdowns,
 *   inject, instances; counted: sizes
 * @returns {Promise<number>} 0, or 130 when interrupted (the report keeps the runs done)
 * @throws {UserError} bad options, no cgroup (timed quota), no gcc (counted, timed preload), a
 *   report of other settings in the way
 */
export async function calibrateHost(options) {
  const meter = findMeter(options.meter);
  const strategy = pickStrategy(meter);
  const context = await loadVerifyContext(options);
  if (!options.product || !options.version) throw new UserError('missing --product or --version: tagbench calibrate --product mariadb --version 10.11.18');
  const plan = strategy.plan(options, planCommon(options, context, meter, strategy.kind));
  await strategy.check(plan);
  return calibrate(strategy, plan, options.note);
}

/**
 * The strategy that calibrates a meter: its own (`meter.calibration` with a `round`), else its
 * kind's (which reads a description the meter brings as `meter.calibration`, if any).
 * @param {CalibratedMeter} meter
 * @param {Readonly<Record<string, CalibrationStrategy>>} [strategies] by kind
 * @returns {CalibrationStrategy}
 * @throws {Error} a meter of a kind no strategy calibrates (the registry checks kinds: a bug)
 */
export function pickStrategy(meter, strategies = STRATEGIES) {
  const own = typeof meter.calibration?.round === 'function' ? /** @type {CalibrationStrategy} */ (meter.calibration) : undefined;
  const strategy = own ?? (Object.hasOwn(strategies, meter.kind) ? strategies[/** @type {'timed'|'counted'} */ (meter.kind)] : undefined);
  if (!strategy) throw new Error(`meter ${meter.name}: no calibration strategy for kind '${meter.kind}'; known: ${Object.keys(strategies).join(', ')}`);
  return strategy;
}

/**
 * @param {string|undefined} name --meter
 * @returns {CalibratedMeter} the named meter
 *   (registered, or added by withMeters), or the registry's first (the default)
 * @throws {UserError} an unknown name, listing the registered meters
 */
function findMeter(name) {
  // Every known meter, the registry's and those a test adds (withMeters), so a made-up meter
  // with its own strategy is calibrated with no file here changed.
  const known = meterNames();
  if (name !== undefined && !known.includes(name)) throw new UserError(`--meter ${name}: calibrate knows ${known.join(', ')}`);
  return getMeter(name ?? Object.keys(METERS)[0]);
}

/**
 * The settings every strategy shares: the options, else the host class's and the kind's defaults.
 * @param {Record<string, any>} options see calibrateHost
 * @param {{root: string, config: Readonly<import('../../types.js').Config>, thresholds: any}} context
 * @param {CalibratedMeter} meter
 * @param {'timed'|'counted'} kind the strategy's kind (its defaults)
 * @returns {CommonPlan}
 * @throws {UserError} an unknown host class
 */
function planCommon(options, { root, config, thresholds }, meter, kind) {
  const hostClass = options.hostClass ?? 'local';
  const host = findHostClass(config, hostClass, '--host-class');
  const isDefault = meter.name === Object.keys(METERS)[0];
  const reportMd = resolve(options.report ?? join(root, 'bench', `calibration-${isDefault ? '' : `${meter.name}-`}${hostClass}.md`));
  return {
    meter, meters: isDefault ? undefined : [/** @type {import('../../types.js').MeterName} */ (meter.name)], config, thresholds, host,
    product: options.product, version: options.version, hostClass,
    suite: options.suite ?? host.scale,
    tests: typeof options.only === 'string' ? parseList(options.only) : options.only ?? [...CALIBRATION_DEFAULTS[kind].tests],
    ...resolveAdaptiveLimits(host, options.adaptiveBudget),
    wantedRuns: Number(options.runs ?? CALIBRATION_DEFAULTS[kind].runs),
    reportMd, reportJson: reportMd.replace(/\.md$/, '.json'),
    storeDir: resolve(options.store ?? '.tagbench/calibration-store'),
    workBase: resolve(workDirFrom(options.workDir, host)),
    cacheDir: resolve(cacheDirFrom(options.cacheDir)),
    root,
  };
}

/**
 * The trials: the report so far (or a new one), the strategy's start, rounds until the report
 * holds the runs wanted, each followed by the report rewritten.
 * @param {CalibrationStrategy} strategy
 * @param {any} plan the strategy's plan (CommonPlan and its own)
 * @param {string|undefined} note --note: the conditions of this call's runs
 * @returns {Promise<number>} 0, or 130 when interrupted
 */
async function calibrate(strategy, plan, note) {
  /** @type {any} */
  let session = null;
  // Ctrl-C / SIGTERM: the run in progress stops its servers; the report keeps the runs done.
  return withInterrupt(async (signal) => {
    const report = await loadPrevious(plan.reportJson, plan.settings, plan.format, plan.olderDefaults) ?? strategy.newReport(plan);
    const write = () => writeReport(strategy, plan, report);
    session = await strategy.start(plan, report, { signal, write, note });
    if (!session) return EXIT.interrupted;
    while (report.runs.length < plan.wantedRuns && !signal.aborted) {
      if (!(await strategy.round(report, session))) break;
      await write();
      // The A/A rate where the strategy's summary has one (a meter's own strategy may judge detection only).
      const f = report.falseIssues;
      const falseIssues = f ? `: false issues so far ${f.runsWithFalseIssue} of ${f.runs} runs (95 % bound ${formatValue(f.upper95 * 100)} %)` : '';
      log(`run ${report.runs.length} done in ${report.runs.at(-1).seconds} s${falseIssues}; report ${plan.reportMd}`);
    }
    await strategy.finish(session);
    return signal.aborted ? EXIT.interrupted : EXIT.ok;
  }, (sig) => strategy.interrupted(session, sig));
}

/**
 * The summaries over all runs, then both files of the report, then the calibration a run's "how
 * sure" cites (store/calibrations.js), condensed from the same report so the two never disagree.
 * @param {CalibrationStrategy} strategy
 * @param {{reportJson: string, reportMd: string, root: string}} plan
 * @param {Record<string, any>} report updated in place
 * @returns {Promise<void>}
 */
async function writeReport(strategy, plan, report) {
  report.measuredAt = new Date().toISOString();
  Object.assign(report, strategy.summarize(report, plan));
  await replaceFileAtomic(plan.reportJson, `${JSON.stringify(report, null, 2)}\n`);
  await replaceFileAtomic(plan.reportMd, strategy.render(report));
  if (report.runs.length === 0 || !isCondensedFormat(report.format)) return;
  try {
    await writeCalibration(dirname(plan.reportJson), calibrationFromReport(report, relative(plan.root, plan.reportJson)));
  } catch (err) {
    // A report whose runs judged no verdict of the meter's metric yet has no design to cite:
    // the report stands, and no run cites it until one does.
    if (!(err instanceof UserError)) throw err;
    log(`no calibration to cite yet: ${err.message}`);
  }
}
