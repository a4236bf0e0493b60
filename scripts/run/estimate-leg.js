/**
 * A benchmark leg of the workflow estimated before its jobs start (scripts/workflow's plan): the
 * installs, the run of the release and its base, the reference run and a confirmation, added up
 * and held against the host class's `legBudgetH`; the leg's step timeouts come from it, and a
 * counted leg split over runners (count shards) is reckoned by its longest shard. What changes
 * with the workflow's jobs lives here; the run's own estimate is estimate.js. Pure.
 */
import { DEFAULT_METERS, getMeter } from '../metrics/index.js';
import { planSuite } from '../workload/index.js';
import { resolveRepeats } from './resolve-run.js';
import { estimateRun, ESTIMATE_DEFAULTS } from './estimate.js';

/** @typedef {import('./estimate.js').RunEstimate} RunEstimate */
/** @typedef {import('./estimate.js').EstimatePart} EstimatePart */

/**
 * @typedef {object} LegEstimate a benchmark leg of the workflow (benchmark.yml's bench job and,
 *   when the leg is split into count shards, its count jobs)
 * @property {RunEstimate} budgeted installs, the run of the release and its base, the
 *   reference run: what every leg does, held against the host class's legBudgetH (with count
 *   shards: the longest shard's counted phase, which the bench job waits for, then the timed run)
 * @property {{installS: number, runS: number, referenceS: number, confirmS: number, countS: number}} steps
 *   each step's own estimate; confirmS: the rerun of every test, the most a confirmation can
 *   take; countS: a count job's run (its loads and the longest shard's counted phase), 0 unsharded
 * @property {import('../types.js').MeterName[]} meters the leg's meters (the suite's, else the host class's)
 */

/**
 * The leg a benchmark request plans (scripts/workflow's plan): parts of the run and of the
 * reference run added up by name, so the advice of checkBudget applies to the whole leg.
 * @param {import('../types.js').Config} config
 * @param {{suite: string, hostClass: string, provider: string, releases: number, reference: boolean,
 *   repeats?: number, instances?: number, only?: string[], countShards?: number}} leg countShards: the
 *   counted phase in this many count jobs (the planner's planCountShards; 1 or absent: the bench job
 *   counts); the bench job's run then times only
 * @returns {LegEstimate}
 * @throws {UserError} unknown test in `only`, bad repeats or instances
 */
export function estimateLeg(config, leg) {
  const host = config.hosts[leg.hostClass];
  const base = config.suites[leg.suite];
  const suite = leg.only?.length ? { ...base, only: leg.only } : base;
  const steps = planSuite(suite, { engine: suite.engine ?? 'innodb' });
  const { repeats, instances } = resolveRepeats(host, { repeats: leg.repeats, instances: leg.instances });
  const meters = suite.meters ?? host.meters ?? [...DEFAULT_METERS];
  const rates = { ...ESTIMATE_DEFAULTS, ...(host.estimate ?? {}) };
  // The runner's cores and memory are not known here: the host class's counting.parallel, else
  // the pair (a core and a server's memory per release, what every shipped class has).
  const shards = leg.countShards ?? 1;
  const count = { parallel: host.counting?.parallel ?? leg.releases, shards };
  const countingMeters = meters.filter((m) => getMeter(m).kind === 'counted');
  const sharded = shards > 1 && countingMeters.length > 0;
  const runMeters = sharded ? meters.filter((m) => getMeter(m).kind !== 'counted') : meters;
  const run = estimateRun({ steps, releases: leg.releases, repeats, instances, meters: runMeters, host, count });
  const counted = sharded ? estimateRun({ steps, releases: leg.releases, repeats, instances, meters: countingMeters, host, count }) : { parts: [], totalS: 0 };
  const reference = leg.reference ? estimateRun({ steps, releases: 1, repeats, instances, meters, host }) : { parts: [], totalS: 0 };
  // The confirmation reruns only the regressed tests; at most every one, base and candidate.
  const confirm = estimateRun({ steps, releases: 2, repeats, instances, meters: runMeters, host });
  const installS = leg.releases * (leg.provider === 'deb' ? rates.debInstallS : rates.sourceBuildS) + (leg.reference ? rates.debInstallS : 0);
  /** @type {Map<string, EstimatePart>} */
  const byName = new Map();
  for (const p of [...counted.parts, ...run.parts, ...reference.parts]) {
    const seen = byName.get(p.name);
    byName.set(p.name, seen ? { ...seen, seconds: seen.seconds + p.seconds } : { ...p });
  }
  const installs = { name: 'installs', seconds: installS, detail: `${leg.releases} release${leg.releases > 1 ? 's' : ''} from ${leg.provider === 'deb' ? 'Debian packages' : `${leg.provider} (a build each)`}${leg.reference ? ' and the reference from Debian packages' : ''}` };
  const parts = [installs, ...byName.values()];
  return {
    budgeted: { parts, totalS: parts.reduce((s, p) => s + p.seconds, 0) },
    steps: { installS, runS: run.totalS, referenceS: reference.totalS, confirmS: confirm.totalS, countS: counted.totalS },
    meters,
  };
}

/**
 * Step timeouts of a leg in minutes: each step's estimate with half again as much and ten
 * minutes more (a slower runner, a longer load), so a timeout means something went wrong, not
 * that the estimate was tight; the bench job's is their sum plus twenty minutes for what is not
 * estimated (checkout, doctor, compare, upload); a count job's (0 when the leg has none) its
 * installs and its run's, plus twenty.
 * @param {LegEstimate['steps']} steps
 * @returns {{install: number, run: number, reference: number, confirm: number, job: number, count: number}}
 */
export function legTimeoutsMinutes(steps) {
  const t = (/** @type {number} */ s) => Math.ceil((1.5 * s) / 60) + 10;
  const out = { install: t(steps.installS), run: t(steps.runS), reference: t(steps.referenceS), confirm: t(steps.confirmS) };
  return { ...out, job: out.install + out.run + out.reference + out.confirm + 20, count: steps.countS > 0 ? out.install + t(steps.countS) + 20 : 0 };
}
