/**
 * `tagbench calibrate --meter instructions` (see calibrate-host.js, which hands over here): a
 * reference count of a query, then runs of A, B and injected servers under callgrind, each
 * judged through compare and confirm, added one by one to
 * bench/calibration-instructions-<host-class>.md and .json.
 */
import { resolve, join } from 'node:path';
import { loadavg } from 'node:os';
import { parseList } from '../../command-spec.js';
import { UserError, EXIT } from '../../errors.js';
import { findHostClass, getFlavor } from '../../config/index.js';
import { formatValue } from '../../format-number.js';
import { replaceFileAtomic } from '../../store/index.js';
import { withInterrupt } from '../../with-interrupt.js';
import { cacheDirFrom, workDirFrom } from '../../run-options.js';
import { resolveAdaptiveLimits } from '../adaptive-repeats.js';
import { CALIBRATION_DEFAULTS, log, loadPrevious } from '../calibration-common.js';
import { runCountedReference, runCountedRound } from '../run-calibration-round.js';
import { summarizeCountedRun, summarizeCountedCalibration } from '../summarize-calibration.js';
import { renderCountedCalibration } from '../render-calibration.js';
import { buildInjectCost, injectCostEnv } from './build-inject-cost.js';

/** The real server-side cost among the sizes. */
export const PERFORMANCE_SCHEMA = 'performance_schema';
/** The test whose instructions per query the sizes are shares of. */
const SIZE_REFERENCE_TEST = 'point-query';
const COUNTED_FORMAT = 'tagbench-calibration-instructions/1';
/** The metrics the instructions meter's counts are judged by (compare/metrics.js). */
const COUNTED_METRICS = Object.freeze(['instructionsPerOp', 'processInstructionsPerOp']);

/**
 * @typedef {object} Injection one injected cost of the instructions calibration
 * @property {string} name as given in --sizes: a share ('0.01') or 'performance_schema'
 * @property {string} label the injected server's label (run ids, work folders): S1, S0p5, PFS
 * @property {number|null} share of the reference test's instructions per query; null for performance_schema
 * @property {number} instructions added to each query answer (0 for performance_schema)
 * @property {string|null} mycnf the server's own my.cnf template (performance_schema), else null
 */

/**
 * The instructions meter's calibration (calibrate-host.js's module comment says what it measures).
 * @param {Record<string, any>} options see calibrateHost
 * @param {{root: string, config: Readonly<import('../../types.js').Config>, thresholds: any}} context
 * @returns {Promise<number>} 0, or 130 when interrupted (the report keeps the runs done)
 * @throws {UserError} bad options, gcc missing, a report of other settings in the way
 */
export async function calibrateCounted(options, { root, config, thresholds }) {
  const plan = planCountedCalibration(options, config, root, thresholds);
  const countedConfig = withPerformanceSchemaTemplate(config, plan);
  /** @type {Record<string, any>} */
  let call = {};
  return withInterrupt(async (signal) => {
    call = { startedAt: new Date().toISOString(), loadAverageAtStart: readLoad(), endedAt: null, loadAverageAtEnd: null, runsAdded: 0, ...(options.note ? { note: String(options.note) } : {}) };
    const result = await loadPrevious(plan.reportJson, plan.settings, COUNTED_FORMAT)
      ?? { format: COUNTED_FORMAT, ...plan.settings, measuredAt: call.startedAt, host: null, reference: null, injections: null, calls: [], runs: [] };
    result.calls.push(call);
    const library = await buildInjectCost({ cacheDir: plan.setup.cacheDir });
    const setup = { ...plan.setup, config: countedConfig, thresholds, signal };
    const spec = (/** @type {string} */ label, /** @type {number} */ instructions, /** @type {string|null} */ mycnf = null) => ({
      product: plan.setup.product, version: plan.setup.version, ...(plan.setup.provider ? { provider: plan.setup.provider } : {}),
      label, serverEnv: injectCostEnv(library.path, instructions), ...(mycnf ? { mycnf } : {}),
    });
    if (!result.reference) {
      log(`reference run: ${SIZE_REFERENCE_TEST}'s instructions per query under callgrind, which the injected sizes are shares of`);
      const measured = await runCountedReference(setup, spec('ref', 0), SIZE_REFERENCE_TEST);
      if (!measured) return EXIT.interrupted;
      Object.assign(result, measured);
      result.injections = sizeInjections(plan.sizes, measured.reference.queryPathPerOp, library.instructionsPerIteration, plan.pfsTemplate);
      // Kept at once: a later call reuses the reference, so its sizes stay the same instructions.
      await writeCountedReport(plan, result);
    }
    while (result.runs.length < plan.wantedRuns && !signal.aborted) {
      if (!(await calibrateCountedOnce(result, plan, setup, spec, call))) break;
    }
    Object.assign(call, { endedAt: new Date().toISOString(), loadAverageAtEnd: readLoad() });
    await writeCountedReport(plan, result);
    return signal.aborted ? EXIT.interrupted : EXIT.ok;
  }, (sig) => {
    // Kept in the report: a call that stopped early says why.
    call.interruptedBy = sig;
    log(`interrupted (${sig}): stopping the servers; the report keeps the runs done so far`);
  });
}

/**
 * The settings of an instructions calibration.
 * @param {Record<string, any>} options see calibrateHost
 * @param {Readonly<import('../../types.js').Config>} config
 * @param {string} root
 * @param {any} thresholds the resolved thresholds (compare's): their counted metrics are settings
 * @returns {{settings: Record<string, any>, wantedRuns: number, sizes: string[], reportMd: string, reportJson: string, pfsTemplate: string,
 *   setup: {product: string, version: string, provider?: string, hostClass: string, suite: string, tests: string[], budgetS: number, maxInstances: number, storeDir: string, workBase: string, cacheDir: string}}}
 * @throws {UserError} an unknown host class, a size that is neither a share nor performance_schema
 */
function planCountedCalibration(options, config, root, thresholds) {
  const hostClass = options.hostClass ?? 'local';
  const host = findHostClass(config, hostClass, '--host-class');
  const suite = options.suite ?? host.scale;
  const tests = typeof options.only === 'string' ? parseList(options.only) : options.only ?? [...CALIBRATION_DEFAULTS.instructions.tests];
  /** @type {string[]} */
  const sizes = (typeof options.sizes === 'string' ? parseList(options.sizes) : options.sizes ?? [...CALIBRATION_DEFAULTS.instructions.sizes]).map(String);
  const bad = sizes.filter((s) => s !== PERFORMANCE_SCHEMA && !(Number(s) > 0 && Number(s) < 0.5));
  if (bad.length > 0 || sizes.length === 0) throw new UserError(`--sizes: ${bad.join(', ') || 'empty'}: give shares of ${SIZE_REFERENCE_TEST}'s instructions per query between 0 and 0.5 (0.01 = 1 %), or ${PERFORMANCE_SCHEMA}`);
  if (new Set(sizes.map((s) => (s === PERFORMANCE_SCHEMA ? s : Number(s)))).size !== sizes.length) throw new UserError(`--sizes ${sizes.join(',')} names a size twice`);
  const { budgetS, maxInstances } = resolveAdaptiveLimits(host, options.adaptiveBudget);
  const reportMd = resolve(options.report ?? join(root, 'bench', `calibration-instructions-${hostClass}.md`));
  const engine = config.suites[suite]?.engine ?? 'innodb';
  return {
    // hostCounting: the host class's own counting settings (null: the defaults); `counting` is
    // what the runs' records say they used. The counted metrics' thresholds decide what a
    // detection is: runs judged at other thresholds must not be added up.
    settings: {
      product: options.product, version: options.version, meter: 'instructions', hostClass, suite, tests, sizes, hostCounting: host.counting ?? null,
      thresholds: Object.fromEntries(COUNTED_METRICS.map((m) => [m, thresholds?.metrics?.[m] ?? null])),
    },
    wantedRuns: Number(options.runs ?? CALIBRATION_DEFAULTS.instructions.runs),
    sizes,
    reportMd,
    reportJson: reportMd.replace(/\.md$/, '.json'),
    pfsTemplate: `${engine}-performance-schema`,
    setup: {
      product: options.product, version: options.version, ...(options.provider ? { provider: options.provider } : {}), hostClass, suite, tests, budgetS, maxInstances,
      storeDir: resolve(options.store ?? '.tagbench/calibration-store'),
      workBase: resolve(workDirFrom(options.workDir, host)),
      cacheDir: resolve(cacheDirFrom(options.cacheDir)),
    },
  };
}

/**
 * The config with one more my.cnf template: the suite's engine's, with performance_schema on.
 * MariaDB leaves it off by default; Oracle MySQL and Percona turn it on, so there the injection
 * would change nothing, and a template that sets it already leaves nothing to turn on.
 * @param {Readonly<import('../../types.js').Config>} config
 * @param {ReturnType<typeof planCountedCalibration>} plan
 * @returns {Readonly<import('../../types.js').Config>} config itself when performance_schema is not among the sizes
 * @throws {UserError} when performance_schema cannot be the injected cost for this product or template
 */
function withPerformanceSchemaTemplate(config, plan) {
  if (!plan.sizes.includes(PERFORMANCE_SCHEMA)) return config;
  const engineTemplate = plan.pfsTemplate.replace(/-performance-schema$/, '');
  const template = config.mycnf[engineTemplate];
  const flavor = config.products[plan.setup.product]?.flavor;
  // An unknown product is refused later, by the run, with the list of known ones.
  if (flavor !== undefined && getFlavor(flavor).performanceSchemaOnByDefault) throw new UserError(`--sizes ${PERFORMANCE_SCHEMA}: ${plan.setup.product} servers run with performance_schema on by default, so turning it on injects nothing; leave it out of --sizes`);
  if (template === undefined || /performance[_-]schema\s*=/i.test(template)) {
    throw new UserError(`--sizes ${PERFORMANCE_SCHEMA}: configs/mycnf/${engineTemplate}.cnf ${template === undefined ? 'does not exist' : 'sets performance_schema already'}; the injected server turns it on over a template that leaves it at MariaDB's default (off)`);
  }
  const text = `${template.trimEnd()}\n\n[mysqld]\n# tagbench calibrate --meter instructions: the injected server's real server-side cost\nperformance_schema=ON\n`;
  return { ...config, mycnf: { ...config.mycnf, [plan.pfsTemplate]: text } };
}

/**
 * The injected costs in instructions, from the reference test's count per query. A share is
 * rounded up to the library loop's step, so a size is never below its share.
 * @param {string[]} sizes as planned
 * @param {number} perQuery the reference test's query-path instructions per query
 * @param {number} step instructions per iteration of the library's loop
 * @param {string} pfsTemplate the performance_schema server's template name
 * @returns {Injection[]}
 */
function sizeInjections(sizes, perQuery, step, pfsTemplate) {
  return sizes.map((name) => {
    if (name === PERFORMANCE_SCHEMA) return { name, label: 'PFS', share: null, instructions: 0, mycnf: pfsTemplate };
    const share = Number(name);
    // Labels are letters, digits, '_' and '-': 0.5 % is S0p5.
    return { name, label: `S${String(Number((share * 100).toFixed(3))).replace('.', 'p')}`, share, instructions: Math.ceil((share * perQuery) / step) * step, mycnf: null };
  });
}

/**
 * One instructions calibration run, added to the report, which is rewritten at once.
 * @param {Record<string, any>} result the report so far (updated in place)
 * @param {ReturnType<typeof planCountedCalibration>} plan
 * @param {import('../run-calibration-round.js').CountedSetup} setup
 * @param {(label: string, instructions: number, mycnf?: string|null) => import('../run-calibration-round.js').ServerSpec} spec
 * @param {Record<string, any>} call this call's entry of result.calls
 * @returns {Promise<boolean>} false when interrupted (the run is not counted)
 * @throws {UserError} when a run cannot start
 */
async function calibrateCountedOnce(result, plan, setup, spec, call) {
  const index = result.runs.length + 1;
  /** @type {Injection[]} */
  const [every, ...turns] = result.injections;
  const injected = turns.length > 0 ? [every, turns[(index - 1) % turns.length]] : [every];
  const started = Date.now();
  const startedAt = new Date().toISOString();
  const loadAverageAtStart = readLoad();
  const describe = (/** @type {Injection} */ i) => `${i.label} (${i.share === null ? 'performance_schema on' : `+${i.instructions} instructions per query`})`;
  log(`run ${index}/${plan.wantedRuns}: A, B (A/A) and ${injected.map(describe).join(', ')} under callgrind; ${setup.tests.join(', ')}`);
  const run = await runCountedRound(setup, {
    A: spec('A', 0), B: spec('B', 0),
    injected: injected.map((i) => ({ key: i.label, spec: spec(i.label, i.instructions, i.mycnf) })),
  });
  if (!run || setup.signal.aborted) return false;
  result.runs.push({
    ...summarizeCountedRun(index, injected.map((i) => i.name), run, Math.round((Date.now() - started) / 1000), new Date().toISOString()),
    startedAt, loadAverageAtStart, loadAverage: readLoad(),
    ...(call.note ? { conditions: call.note } : {}),
  });
  // How the counting servers ran, from the newest run (the CPU flags line is long; the model names the CPU).
  if (run.meterSetup) {
    const { cpuFlags, ...dependsOn } = run.meterSetup.dependsOn ?? {};
    Object.assign(result, { meterSetup: { ...run.meterSetup, dependsOn }, counting: run.meterSetup.counting });
  }
  call.runsAdded += 1;
  Object.assign(call, { endedAt: new Date().toISOString(), loadAverageAtEnd: readLoad() });
  await writeCountedReport(plan, result);
  const f = result.falseIssues;
  log(`run ${index} done in ${result.runs.at(-1).seconds} s: false issues so far ${f.runsWithFalseIssue} of ${f.runs} runs (95 % bound ${formatValue(f.upper95 * 100)} %); report ${plan.reportMd}`);
  return true;
}

/**
 * Summaries over all runs, then both files.
 * @param {{reportJson: string, reportMd: string}} plan
 * @param {Record<string, any>} result
 * @returns {Promise<void>}
 */
async function writeCountedReport(plan, result) {
  result.measuredAt = new Date().toISOString();
  Object.assign(result, summarizeCountedCalibration(result.runs, result.injections ?? []));
  await replaceFileAtomic(plan.reportJson, `${JSON.stringify(result, null, 2)}\n`);
  await replaceFileAtomic(plan.reportMd, renderCountedCalibration(result));
}

/** @returns {{one: number, five: number, fifteen: number}} the host's load averages now */
function readLoad() {
  const [one, five, fifteen] = loadavg().map((v) => Number(v.toFixed(2)));
  return { one, five, fifteen };
}
