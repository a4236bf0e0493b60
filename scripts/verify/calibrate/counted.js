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
 *
 * Meter-blind: what it injects (a count on each query answer) must be what the meter counts, so
 * the meter says it does, in its own file (`meter.calibration`, metrics/types.js
 * CountedCalibration): which test the sizes are shares of, and which of its metrics play the
 * query path (what the count adds to, the detection's metric) and the whole process. Their
 * figures are read where the meter's metrics list says. A counted meter that does not say so is
 * refused; one whose cost needs another injection brings a whole strategy (see pipeline.js).
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
/** The injection this strategy makes (CountedCalibration.injects): the preload library's count. */
const PRELOAD_COUNT = 'preload-count';

/**
 * @typedef {object} InjectionOwn one injected cost of a counted calibration
 * @property {string} name as given in --sizes: a share ('0.01') or 'performance_schema'
 * @property {string} label the injected server's label (run ids, work folders): S1, S0p5, PFS
 * @property {number|null} share of the reference test's figure per query; null for performance_schema
 * @property {string|null} mycnf the server's own my.cnf template (performance_schema), else null
 */
/**
 * @typedef {InjectionOwn & Record<string, any>} Injection and, under the meter's name (the report
 *   format tagbench-calibration-<meter>/1 keeps it so), the count added to each query answer in
 *   the meter's unit (0 for performance_schema): addedCount reads it
 */

/**
 * @typedef {object} CountedMeter the meter calibrated, as pipeline.js hands it over
 * @property {string} name
 * @property {string} kind
 * @property {readonly {name: string, figure: string, unit: string}[]} [metrics]
 * @property {{injects?: string, sizeTest?: string, judged?: {queryPath?: string, process?: string}}} [calibration]
 *   the meter's own description (metrics/types.js CountedCalibration)
 */

/**
 * @typedef {object} JudgedFigures the meter's metrics in the report's two roles, from its description
 * @property {{metric: string, figure: string}} queryPath what the injected count adds to: detection is judged on it
 * @property {{metric: string, figure: string}} process the whole server process
 * @property {string} unit what the meter counts, for messages (`instructions` of `instructions/op`)
 */

/** @typedef {import('./pipeline.js').CommonPlan} CommonPlan */

/**
 * The count an injection adds to each query answer.
 * @param {Injection} injection
 * @param {string} meter the calibrated meter's name, the key of the count
 * @returns {number}
 */
export function addedCount(injection, meter) {
  return Number(injection[meter] ?? 0);
}
/** @typedef {import('./rounds.js').CountedSetup} CountedSetup */

/**
 * @typedef {object} CountedPlanOwn what the counted strategy adds to the common plan
 * @property {Record<string, any>} settings what the report records and a later call must repeat
 * @property {string} format
 * @property {Record<string, any>} olderDefaults none: every report of this format keeps its settings
 * @property {string[]} sizes
 * @property {string} sizeTest the test whose figure per query the sizes are shares of
 * @property {JudgedFigures} judged
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
  summarize: (report, plan) => summarizeCountedCalibration(report.runs, report.injections ?? [], plan.judged, plan.meter.name),
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
 * @throws {UserError} a meter that does not say how it is calibrated, a size that is neither a
 *   share nor performance_schema, performance_schema where it injects nothing
 */
function planCounted(options, common) {
  const { sizeTest, judged } = readDescription(/** @type {CountedMeter} */ (common.meter));
  /** @type {string[]} */
  const sizes = (typeof options.sizes === 'string' ? parseList(options.sizes) : options.sizes ?? [...CALIBRATION_DEFAULTS.counted.sizes]).map(String);
  const bad = sizes.filter((s) => s !== PERFORMANCE_SCHEMA && !(Number(s) > 0 && Number(s) < 0.5));
  if (bad.length > 0 || sizes.length === 0) throw new UserError(`--sizes: ${bad.join(', ') || 'empty'}: give shares of ${sizeTest}'s ${judged.unit} per query between 0 and 0.5 (0.01 = 1 %), or ${PERFORMANCE_SCHEMA}`);
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
      // Keyed by the judged metrics, the query path's first: the report's renderer reads them so.
      thresholds: Object.fromEntries([judged.queryPath.metric, judged.process.metric].map((m) => [m, thresholds?.metrics?.[m] ?? null])),
    },
    format: `tagbench-calibration-${meter.name}/1`, olderDefaults: {}, sizes, sizeTest, judged, pfsTemplate, countedConfig: config,
    ...(options.provider ? { provider: options.provider } : {}),
  };
  return { ...plan, countedConfig: withPerformanceSchemaTemplate(config, plan) };
}

/**
 * What the meter says of its calibration, checked against its metrics.
 * @param {CountedMeter} meter
 * @returns {{sizeTest: string, judged: JudgedFigures}}
 * @throws {UserError} no description, another injection, or a judged metric the meter does not have
 */
function readDescription(meter) {
  const where = `scripts/metrics/meters/${meter.name}.js`;
  const d = meter.calibration;
  if (!d || d.injects !== PRELOAD_COUNT || !d.sizeTest) {
    throw new UserError(`--meter ${meter.name}: a counted meter is calibrated by an injected count only when it says so (calibration: {injects: '${PRELOAD_COUNT}', sizeTest, judged} in ${where}); ${meter.name} ${d ? `says injects ${JSON.stringify(d.injects)}, sizeTest ${JSON.stringify(d.sizeTest)}` : 'says nothing'}`);
  }
  /** @param {'queryPath'|'process'} role */
  const metricOf = (role) => {
    const name = d.judged?.[role];
    const metric = meter.metrics?.find((m) => m.name === name);
    if (!metric) throw new UserError(`${where}: calibration.judged.${role} ${JSON.stringify(name)} is not one of the meter's metrics (${(meter.metrics ?? []).map((m) => m.name).join(', ')})`);
    return metric;
  };
  const [queryPath, process] = [metricOf('queryPath'), metricOf('process')];
  return {
    sizeTest: d.sizeTest,
    judged: { queryPath: { metric: queryPath.name, figure: queryPath.figure }, process: { metric: process.name, figure: process.figure }, unit: queryPath.unit.replace(/\/op$/, '') },
  };
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
  const { countedConfig, thresholds, product, hostClass, suite, tests, budgetS, maxInstances, storeDir, workBase, cacheDir, meter, judged, sizeTest } = plan;
  /** @type {CountedSetup} */
  const setup = {
    config: countedConfig, thresholds, product, hostClass, suite, tests, budgetS, maxInstances, storeDir, workBase, cacheDir, signal,
    meter: /** @type {import('../../types.js').MeterName} */ (meter.name), figures: { queryPath: judged.queryPath.figure, process: judged.process.figure },
  };
  /** @type {ServerSpecOf} */
  const spec = (label, added, mycnf = null) => ({
    product, version: plan.version, ...(plan.provider ? { provider: plan.provider } : {}),
    label, serverEnv: injectCostEnv(library.path, added), ...(mycnf ? { mycnf } : {}),
  });
  if (!report.reference) {
    log(`reference run: ${sizeTest}'s ${judged.unit} per query under the ${meter.name} meter, which the injected sizes are shares of`);
    const measured = await runCountedReference(setup, spec('ref', 0), sizeTest);
    if (!measured) return null;
    Object.assign(report, measured);
    report.injections = sizeInjections(plan.sizes, measured.reference.queryPathPerOp, library.instructionsPerIteration, plan.pfsTemplate, meter.name);
    // Kept at once: a later call reuses the reference, so its sizes stay the same instructions.
    await write();
  }
  return { setup, spec, call, plan, write };
}

/** @typedef {(label: string, added: number, mycnf?: string|null) => import('./rounds.js').ServerSpec} ServerSpecOf */

/**
 * The config with one more my.cnf template: the suite's engine's, with performance_schema on.
 * MariaDB leaves it off by default; Oracle MySQL and Percona turn it on, so there the injection
 * would change nothing, and a template that sets it already leaves nothing to turn on.
 * @param {Readonly<import('../../types.js').Config>} config
 * @param {{sizes: string[], pfsTemplate: string, product: string, meter: {name: string}}} plan
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
  const text = `${template.trimEnd()}\n\n[mysqld]\n# tagbench calibrate --meter ${plan.meter.name}: the injected server's real server-side cost\nperformance_schema=ON\n`;
  return { ...config, mycnf: { ...config.mycnf, [plan.pfsTemplate]: text } };
}

/**
 * The injected costs in the meter's unit, from the reference test's count per query. A share is
 * rounded up to the library loop's step, so a size is never below its share.
 * @param {string[]} sizes as planned
 * @param {number} perQuery the reference test's query-path figure per query
 * @param {number} step the count one iteration of the library's loop adds
 * @param {string} pfsTemplate the performance_schema server's template name
 * @param {string} meter the meter's name: the key of the added count (see Injection)
 * @returns {Injection[]}
 */
function sizeInjections(sizes, perQuery, step, pfsTemplate, meter) {
  return sizes.map((name) => {
    if (name === PERFORMANCE_SCHEMA) return { name, label: 'PFS', share: null, [meter]: 0, mycnf: pfsTemplate };
    const share = Number(name);
    // Labels are letters, digits, '_' and '-': 0.5 % is S0p5.
    return { name, label: `S${String(Number((share * 100).toFixed(3))).replace('.', 'p')}`, share, [meter]: Math.ceil((share * perQuery) / step) * step, mycnf: null };
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
  const meter = plan.meter.name;
  const describe = (/** @type {Injection} */ i) => `${i.label} (${i.share === null ? 'performance_schema on' : `+${addedCount(i, meter)} ${plan.judged.unit} per query`})`;
  log(`run ${index}/${plan.wantedRuns}: A, B (A/A) and ${injected.map(describe).join(', ')} under the ${meter} meter; ${setup.tests.join(', ')}`);
  const run = await runCountedRound(setup, {
    A: spec('A', 0), B: spec('B', 0),
    injected: injected.map((i) => ({ key: i.label, spec: spec(i.label, addedCount(i, meter), i.mycnf) })),
  });
  if (!run || setup.signal.aborted) return false;
  report.runs.push({
    ...summarizeCountedRun(index, injected.map((i) => i.name), run, Math.round((Date.now() - started) / 1000), new Date().toISOString(), plan.judged),
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
