/**
 * The counted strategy of `tagbench calibrate` (pipeline.js picks it for a meter of kind
 * 'counted'): costs that are real instructions instead of a CPU quota. Every server runs under
 * the meter (callgrind for instructions), and an injected server loads a preload library
 * (inject-cost/) that adds a known count to each query answer, sized as a share of
 * point-query's count per query in a reference run, or runs with performance_schema on (a real
 * server-side cost). Every server, A and B included, loads the library (at 0 for them), so an
 * injected server differs from A by exactly the injected count. The first size is injected in
 * every run, the others take turns as a fourth server: each run is 4 servers x the host class's
 * counting rounds. Detection is judged on the counted comparison, through compare and confirm.
 * Report: bench/calibration-<meter>-<host-class>.md and .json, with the calls that measured it.
 * What it injects is instructions, so it judges the counts of instructions a counted meter
 * stores (figures queryPathPerOp and processPerOp in the meter's slot of each step; metrics
 * COUNTED_METRICS below): a counted meter of other counts brings its own strategy
 * (`meter.calibration`, see pipeline.js).
 */
import { loadavg } from 'node:os';
import { parseList } from '../../command-spec.js';
import { UserError } from '../../errors.js';
import { getFlavor } from '../../config/index.js';
import { CALIBRATION_DEFAULTS, log } from './settings.js';
import { runCountedReference, runCountedRound } from './rounds.js';
import { summarizeCountedRun, summarizeCountedCalibration } from './summarize.js';
import { renderCountedCalibration } from './render.js';
import { buildInjectCost, injectCostEnv } from './inject-cost/build-inject-cost.js';

/** The real server-side cost among the sizes. */
export const PERFORMANCE_SCHEMA = 'performance_schema';
/** The test whose instructions per query the sizes are shares of. */
const SIZE_REFERENCE_TEST = 'point-query';
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

/** @typedef {import('./pipeline.js').CommonPlan} CommonPlan */
/** @typedef {import('./rounds.js').CountedSetup} CountedSetup */

/**
 * @typedef {object} CountedPlanOwn what the counted strategy adds to the common plan
 * @property {Record<string, any>} settings what the report records and a later call must repeat
 * @property {string} format
 * @property {Record<string, any>} olderDefaults none: every report of this format keeps its settings
 * @property {string[]} sizes
 * @property {string} pfsTemplate the performance_schema server's my.cnf template
 * @property {string} [provider] the release's install provider
 * @property {Readonly<import('../../types.js').Config>} countedConfig config with that template
 */
/** @typedef {CommonPlan & CountedPlanOwn} CountedPlan */

/** @type {import('./pipeline.js').CalibrationStrategy} */
export const countedStrategy = {
  kind: 'counted',
  plan: planCounted,
  check: async () => {},
  newReport: (plan) => ({ format: plan.format, ...plan.settings, measuredAt: new Date().toISOString(), host: null, reference: null, injections: null, calls: [], runs: [] }),
  start: startCounted,
  round: countedRound,
  summarize: (report) => summarizeCountedCalibration(report.runs, report.injections ?? []),
  render: renderCountedCalibration,
  finish: async (session) => {
    Object.assign(session.call, { endedAt: new Date().toISOString(), loadAverageAtEnd: readLoad() });
    await session.write();
  },
  interrupted: (session, sig) => {
    // Kept in the report: a call that stopped early says why.
    if (session) session.call.interruptedBy = sig;
    log(`interrupted (${sig}): stopping the servers; the report keeps the runs done so far`);
  },
};

/**
 * The settings of a counted calibration: the sizes, the counting settings and thresholds that
 * decide what a detection is.
 * @param {Record<string, any>} options see calibrateHost
 * @param {CommonPlan} common
 * @returns {CountedPlan}
 * @throws {UserError} a size that is neither a share nor performance_schema, performance_schema
 *   where it injects nothing
 */
function planCounted(options, common) {
  /** @type {string[]} */
  const sizes = (typeof options.sizes === 'string' ? parseList(options.sizes) : options.sizes ?? [...CALIBRATION_DEFAULTS.counted.sizes]).map(String);
  const bad = sizes.filter((s) => s !== PERFORMANCE_SCHEMA && !(Number(s) > 0 && Number(s) < 0.5));
  if (bad.length > 0 || sizes.length === 0) throw new UserError(`--sizes: ${bad.join(', ') || 'empty'}: give shares of ${SIZE_REFERENCE_TEST}'s instructions per query between 0 and 0.5 (0.01 = 1 %), or ${PERFORMANCE_SCHEMA}`);
  if (new Set(sizes.map((s) => (s === PERFORMANCE_SCHEMA ? s : Number(s)))).size !== sizes.length) throw new UserError(`--sizes ${sizes.join(',')} names a size twice`);
  const { product, version, hostClass, suite, tests, host, config, thresholds, meter } = common;
  const pfsTemplate = `${config.suites[suite]?.engine ?? 'innodb'}-performance-schema`;
  const plan = {
    ...common,
    // hostCounting: the host class's own counting settings (null: the defaults); `counting` is
    // what the runs' records say they used. The counted metrics' thresholds decide what a
    // detection is: runs judged at other thresholds must not be added up.
    settings: {
      product, version, meter: meter.name, hostClass, suite, tests, sizes, hostCounting: host.counting ?? null,
      thresholds: Object.fromEntries(COUNTED_METRICS.map((m) => [m, thresholds?.metrics?.[m] ?? null])),
    },
    format: `tagbench-calibration-${meter.name}/1`, olderDefaults: {}, sizes, pfsTemplate, countedConfig: config,
    ...(options.provider ? { provider: options.provider } : {}),
  };
  return { ...plan, countedConfig: withPerformanceSchemaTemplate(config, plan) };
}

/**
 * This call's entry in the report, the library, and the reference count when the report has
 * none (the sizes are shares of it, kept at once so that a later call injects the same counts).
 * @param {CountedPlan} plan
 * @param {Record<string, any>} report updated in place
 * @param {{signal: AbortSignal, write: () => Promise<void>, note?: string}} io
 * @returns {Promise<{setup: CountedSetup, spec: ServerSpecOf, call: Record<string, any>, plan: CountedPlan, write: () => Promise<void>}|null>}
 *   null when interrupted
 * @throws {UserError} gcc missing, the reference counted nothing
 */
async function startCounted(plan, report, { signal, write, note }) {
  const call = { startedAt: new Date().toISOString(), loadAverageAtStart: readLoad(), endedAt: null, loadAverageAtEnd: null, runsAdded: 0, ...(note ? { note: String(note) } : {}) };
  report.calls.push(call);
  const library = await buildInjectCost({ cacheDir: plan.cacheDir });
  const { countedConfig, thresholds, product, hostClass, suite, tests, budgetS, maxInstances, storeDir, workBase, cacheDir, meter } = plan;
  /** @type {CountedSetup} */
  const setup = { config: countedConfig, thresholds, product, hostClass, suite, tests, budgetS, maxInstances, storeDir, workBase, cacheDir, signal, meter: /** @type {import('../../types.js').MeterName} */ (meter.name) };
  /** @type {ServerSpecOf} */
  const spec = (label, instructions, mycnf = null) => ({
    product, version: plan.version, ...(plan.provider ? { provider: plan.provider } : {}),
    label, serverEnv: injectCostEnv(library.path, instructions), ...(mycnf ? { mycnf } : {}),
  });
  if (!report.reference) {
    log(`reference run: ${SIZE_REFERENCE_TEST}'s instructions per query under callgrind, which the injected sizes are shares of`);
    const measured = await runCountedReference(setup, spec('ref', 0), SIZE_REFERENCE_TEST);
    if (!measured) return null;
    Object.assign(report, measured);
    report.injections = sizeInjections(plan.sizes, measured.reference.queryPathPerOp, library.instructionsPerIteration, plan.pfsTemplate);
    // Kept at once: a later call reuses the reference, so its sizes stay the same instructions.
    await write();
  }
  return { setup, spec, call, plan, write };
}

/** @typedef {(label: string, instructions: number, mycnf?: string|null) => import('./rounds.js').ServerSpec} ServerSpecOf */

/**
 * The config with one more my.cnf template: the suite's engine's, with performance_schema on.
 * MariaDB leaves it off by default; Oracle MySQL and Percona turn it on, so there the injection
 * would change nothing, and a template that sets it already leaves nothing to turn on.
 * @param {Readonly<import('../../types.js').Config>} config
 * @param {{sizes: string[], pfsTemplate: string, product: string}} plan
 * @returns {Readonly<import('../../types.js').Config>} config itself when performance_schema is not among the sizes
 * @throws {UserError} when performance_schema cannot be the injected cost for this product or template
 */
function withPerformanceSchemaTemplate(config, plan) {
  if (!plan.sizes.includes(PERFORMANCE_SCHEMA)) return config;
  const engineTemplate = plan.pfsTemplate.replace(/-performance-schema$/, '');
  const template = config.mycnf[engineTemplate];
  const flavor = config.products[plan.product]?.flavor;
  // An unknown product is refused later, by the run, with the list of known ones.
  if (flavor !== undefined && getFlavor(flavor).performanceSchemaOnByDefault) throw new UserError(`--sizes ${PERFORMANCE_SCHEMA}: ${plan.product} servers run with performance_schema on by default, so turning it on injects nothing; leave it out of --sizes`);
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
 * One counted calibration run: A, B and the run's injected servers, added to the report's runs.
 * @param {Record<string, any>} report the report so far (updated in place)
 * @param {{setup: CountedSetup, spec: ServerSpecOf, call: Record<string, any>, plan: CountedPlan}} session
 * @returns {Promise<boolean>} false when interrupted (the run is not counted)
 * @throws {UserError} when a run cannot start
 */
async function countedRound(report, { setup, spec, call, plan }) {
  const index = report.runs.length + 1;
  /** @type {Injection[]} */
  const [every, ...turns] = report.injections;
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
  report.runs.push({
    ...summarizeCountedRun(index, injected.map((i) => i.name), run, Math.round((Date.now() - started) / 1000), new Date().toISOString()),
    startedAt, loadAverageAtStart, loadAverage: readLoad(),
    ...(call.note ? { conditions: call.note } : {}),
  });
  // How the counting servers ran, from the newest run (the CPU flags line is long; the model names the CPU).
  if (run.meterSetup) {
    const { cpuFlags, ...dependsOn } = run.meterSetup.dependsOn ?? {};
    Object.assign(report, { meterSetup: { ...run.meterSetup, dependsOn }, counting: run.meterSetup.counting });
  }
  call.runsAdded += 1;
  Object.assign(call, { endedAt: new Date().toISOString(), loadAverageAtEnd: readLoad() });
  return true;
}

/** @returns {{one: number, five: number, fifteen: number}} the host's load averages now */
function readLoad() {
  const [one, five, fifteen] = loadavg().map((v) => Number(v.toFixed(2)));
  return { one, five, fifteen };
}
