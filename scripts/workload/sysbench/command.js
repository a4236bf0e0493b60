/**
 * How the sysbench plug-in calls sysbench 1.0.x: the command line of one invocation.
 *
 * Options every timed step gets, and why:
 * - `--time = warm-up + duration` with `--report-checkpoints=<warm-up>`: 1.0.20 has no
 *   --warmup-time; a checkpoint resets all counters, so the final summary is the measured part
 *   (parse-sysbench.js drops the warm-up intervals).
 * - `--events=0` (no event limit), `--report-interval=1` (per-second rates that show stalls),
 *   `--percentile=95`, `--histogram=off`.
 * - `--rand-type` comes from the plan's params: `uniform` everywhere (1.0.20's default is
 *   `special`, a skewed distribution that would hide cache misses).
 * - `--db-ps-mode=disable`: every statement goes as text, stock and own scripts alike, so
 *   point-query measures the full parse/optimize path per query as in the seed posts, and a
 *   release's prepared-statement cache behaviour cannot make stock and own tests disagree.
 * - The unix socket when the target has one (no TCP stack in the measurement), else host/port.
 *
 * A counted repeat (`work`: the instructions meter) runs `--events=N --time=0 --rand-seed=S`
 * instead: the same N events on the same rows for every release, no warm-up checkpoint (its
 * warm-up is a run of its own before the meter starts) and no per-second report (under valgrind
 * a rate says nothing).
 */
import { fileURLToPath } from 'node:url';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').BenchTarget} BenchTarget */

/** Folder of the project's own Lua scripts (scripts/workload/lua, beside the plug-ins). */
export const OWN_LUA_DIR = fileURLToPath(new URL('../lua/', import.meta.url));

/**
 * argv (without taskset) for one sysbench invocation of a plan step. Pure.
 * @param {StepPlan} plan
 * @param {BenchTarget} target
 * @param {{command?: 'run'|'prepare'|'cleanup', work?: import('../types.js').FixedWork}} [opts] command default `run`
 * @returns {string[]} argv[0] is `sysbench`
 * @throws {Error} when the plan has no script (a bug: load and postwrite steps are not sysbench runs)
 */
export function buildCommand(plan, target, opts = {}) {
  const command = opts.command ?? 'run';
  if (!plan.script) throw new Error(`step ${plan.name} has no sysbench script`);
  const script = plan.scriptSource === 'own' ? `${OWN_LUA_DIR}${plan.script}` : plan.script;
  /** @type {Record<string, string|number|boolean>} */
  const options = {
    'db-driver': 'mysql',
    ...connectionOptions(target),
    threads: plan.threads,
    tables: plan.tables,
    'table-size': plan.tableSize,
    'db-ps-mode': 'disable',
    'rand-type': 'uniform',
  };
  if (command === 'run' && opts.work) {
    Object.assign(options, { time: 0, events: opts.work.events, 'rand-seed': opts.work.seed, 'report-interval': 0, histogram: 'off' });
  } else if (command === 'run') {
    Object.assign(options, {
      time: plan.warmupS + plan.durationS,
      events: 0,
      'report-interval': 1,
      percentile: 95,
      histogram: 'off',
    });
    if (plan.warmupS > 0) options['report-checkpoints'] = plan.warmupS;
  } else if (command === 'prepare') {
    options['mysql-storage-engine'] = plan.engine;
  }
  Object.assign(options, plan.params);
  const argv = ['sysbench', script];
  for (const [k, v] of Object.entries(options)) argv.push(`--${k}=${formatValue(v)}`);
  argv.push(command);
  return argv;
}

/**
 * @param {BenchTarget} target
 * @returns {Record<string, string|number>}
 */
function connectionOptions(target) {
  /** @type {Record<string, string|number>} */
  const out = target.socket
    ? { 'mysql-socket': target.socket }
    : { 'mysql-host': target.host ?? '127.0.0.1', 'mysql-port': target.port ?? 3306 };
  out['mysql-user'] = target.user;
  // Only when set: an empty --mysql-password= is the default anyway.
  if (target.password) out['mysql-password'] = target.password;
  out['mysql-db'] = target.database;
  return out;
}

/** @param {string|number|boolean} v */
function formatValue(v) {
  if (v === true) return 'on';
  if (v === false) return 'off';
  return String(v);
}
