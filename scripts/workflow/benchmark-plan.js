/**
 * A benchmark request's plan (resolve-benchmark-request.js makes it): its base once the accepted
 * baseline is known, whether the host class's reference needs a run of its own, and the plan as
 * the step outputs later jobs of the benchmark workflow read.
 */
import { REFERENCE_LABEL } from '../run-id.js';
import { UserError } from '../errors.js';

/**
 * @typedef {object} BenchmarkPlan
 * @property {string} product
 * @property {string} version
 * @property {string} line
 * @property {string} provider
 * @property {string} suite
 * @property {string} hostClass
 * @property {string[]} runsOn runner labels: self-hosted, the host class's labels and the extra
 *   labels the repository variable TAGBENCH_HOST_LABELS gives the class
 * @property {string} leg what tells this request apart from every other leg of one workflow
 *   run (host class, product, version, suite), safe in an artifact name
 * @property {string} base base release ('' when the line has none and no override was given)
 * @property {string} releases `product@base:provider,product@version:provider` for `tagbench run` (base first)
 * @property {string} mycnf '' = the engine's default
 * @property {string} repeats '' = the host class's
 * @property {string} instances '' = the host class's
 * @property {string} only '' = every test
 * @property {string} resume comma-separated run ids to fetch and resume from, '' = none
 * @property {boolean} dryRun
 * @property {string} commit the candidate's commit for a source build ('' = none given, or a
 *   provider that builds no commit: the deb package is Debian's build)
 * @property {string} movedFrom the commit the candidate's tag pointed at before it moved ('' = not moved)
 * @property {{product: string, version: string}|null} reference the host class's reference
 *   release (configs/hosts/<class>.yml `reference`), rerun every benchmark cycle so the host
 *   series gets a point per cycle; null when the class names none (and for a ref)
 * @property {'release'|'ref'} kind ref: an ad-hoc ref run (`tagbench run --product P --ref REF
 *   [--repo REPO] [--base BASE | --base-ref BASE_REF] [--commit COMMIT]`); releases is '' then,
 *   and the base is resolved with git by that command
 * @property {string} ref the ref ('' for a release)
 * @property {string} repo its repository ('' = the product's gitUrl)
 * @property {string} baseRef '' = the release it branched from, or base when given
 */

/**
 * The plan against the accepted baseline (tagbench baseline promote), which wins over the
 * line's baseVersion, as in `tagbench compare`. An explicit baseline input wins over both: the
 * caller does not read the accepted baseline then.
 * @param {BenchmarkPlan} plan from resolveBenchmarkRequest
 * @param {{version: string}|null} accepted the accepted baseline of the plan's host class,
 *   product, line and suite; null when none was promoted
 * @returns {BenchmarkPlan} plan itself when the base stays, else a copy with base and releases
 */
export function applyAcceptedBaseline(plan, accepted) {
  if (!accepted || accepted.version === plan.base) return plan;
  return {
    ...plan,
    base: accepted.version,
    releases: releaseList(plan.product, [accepted.version, plan.version], plan.provider, { [plan.version]: plan.commit }),
  };
}

/**
 * Whether the reference needs a run of its own in this cycle: not when the host class names
 * none, nor when it is one of the releases the run measures anyway (typically the line's base),
 * since that run already gives the host series its point.
 * @param {BenchmarkPlan} plan after applyAcceptedBaseline (the base may have changed)
 * @returns {boolean}
 */
export function needsReferenceRun(plan) {
  if (!plan.reference) return false;
  // The reference runs from Debian's package (resolveBenchmarkRequest checks it can): a source
  // build of the same version measured here is another build, so it needs its own run.
  return !plan.releases.split(',').includes(`${plan.reference.product}@${plan.reference.version}:deb`);
}

/**
 * The label of the reference's run (`tagbench run --releases P@V#reference:deb`): `#reference`
 * when the leg also measures another build of the reference's version (our source build of the
 * line's base), so the two builds' records stay apart in the one folder of that version (compare
 * refuses a column of two builds; the host series reads the labelled run), else none.
 * @param {BenchmarkPlan} plan
 * @returns {string} `#reference` or ''
 */
export function referenceLabel(plan) {
  if (!plan.reference || !needsReferenceRun(plan)) return '';
  const ofVersion = `${plan.reference.product}@${plan.reference.version}:`;
  return plan.releases.split(',').some((r) => r.startsWith(ofVersion)) ? `#${REFERENCE_LABEL}` : '';
}

/**
 * `tagbench run --releases` of a plan: base first, each from the plan's provider (our build
 * against our build, Debian's against Debian's), named per release so that another build of a
 * version in the install cache (a source build beside the Debian package) is never taken.
 * A version with a commit is the source build of exactly that commit (`:source@<commit>`).
 * @param {string} product
 * @param {string[]} versions
 * @param {string} provider
 * @param {Record<string, string>} [commits] version -> full commit id ('' = none)
 * @returns {string} comma-separated `product@version:provider[@commit]`
 */
export function releaseList(product, versions, provider, commits = {}) {
  return [...new Set(versions)].map((v) => `${product}@${v}:${provider}${commits[v] ? `@${commits[v]}` : ''}`).join(',');
}

/**
 * @typedef {object} CountShardPlan the count jobs of a leg (benchmark.yml's `count` matrix)
 * @property {number} shards count jobs; 0: none, the bench job counts as well
 * @property {number[]} matrix the count job's matrix, shard indexes 1..n; [0] when there are no
 *   shards (GitHub refuses an empty matrix even for a job that is skipped)
 * @property {string} countMeters each count job's `run --meter`: the leg's counting meters
 * @property {string} timedMeters the bench job's `run --meter` when sharded: the leg's timed
 *   meters ('' unsharded: the run's own meters)
 */

/**
 * Whether a leg's counted phase is split into count jobs, and their matrix: n of them
 * (`plan --count-shards n`, else the host class's `counting.shards`) when n > 1 and the leg has a
 * counting meter. Each job counts both releases of every n-th counted test or sequence (counts
 * compare within one machine only: run --count-shard k/n), needs no bare metal, and uploads its
 * records; the bench job times only and merges them before compare.
 * @param {number} shards
 * @param {{name: string, kind: 'timed'|'counted'}[]} meters the leg's meters with their kinds
 * @param {string} where where the number comes from, for the error (`counting.shards of configs/hosts/x.yml`)
 * @returns {CountShardPlan}
 * @throws {UserError} shards for a leg with counting meters but no timed one (the bench job
 *   would have nothing to run)
 */
export function planCountShards(shards, meters, where) {
  const counting = meters.filter((m) => m.kind === 'counted').map((m) => m.name);
  const timed = meters.filter((m) => m.kind !== 'counted').map((m) => m.name);
  if (shards < 2 || counting.length === 0) return { shards: 0, matrix: [0], countMeters: '', timedMeters: '' };
  if (timed.length === 0) throw new UserError(`${where} = ${shards} splits the counted phase into count jobs, but the leg's meters (${meters.map((m) => m.name).join(', ')}) have no timed one for the bench job: add wall to the suite's meters, or set counting.shards to 1`);
  return { shards, matrix: Array.from({ length: shards }, (_, i) => i + 1), countMeters: counting.join(','), timedMeters: timed.join(',') };
}

/**
 * The plan as GitHub step outputs, the names later jobs of the benchmark workflow read.
 * @param {BenchmarkPlan} plan
 * @param {{estimateMinutes: number, timeouts: {install: number, run: number, reference: number, confirm: number, job: number, count?: number}}} time
 *   the leg's estimate and step timeouts (run/estimate-leg.js): the jobs' timeout-minutes
 * @param {CountShardPlan} [count] the count jobs (planCountShards); default none
 * @returns {string} `key=value` lines
 */
export function renderPlanOutputs(plan, time, count = { shards: 0, matrix: [0], countMeters: '', timedMeters: '' }) {
  /** @type {Record<string, string>} */
  const outputs = {
    product: plan.product,
    version: plan.version,
    line: plan.line,
    provider: plan.provider,
    suite: plan.suite,
    'host-class': plan.hostClass,
    'runs-on': JSON.stringify(plan.runsOn),
    leg: plan.leg,
    base: plan.base,
    releases: plan.releases,
    mycnf: plan.mycnf,
    repeats: plan.repeats,
    instances: plan.instances,
    only: plan.only,
    resume: plan.resume,
    'dry-run': String(plan.dryRun),
    // '' when the source build is of the tag's commit at fetch time, or the provider builds none.
    commit: plan.commit,
    'moved-from': plan.movedFrom,
    // kind=ref: the bench job runs `tagbench run --product P --ref REF [--repo REPO] [--base BASE |
    // --base-ref BASE_REF] [--commit COMMIT]` and `tagbench compare --ref` instead of the releases.
    kind: plan.kind,
    ref: plan.ref,
    repo: plan.repo,
    'base-ref': plan.baseRef,
    // The bench job installs and runs the reference beside the candidate when reference-run is
    // true; reference-product/-version are '' when the host class names no reference.
    'reference-product': plan.reference?.product ?? '',
    'reference-version': plan.reference?.version ?? '',
    'reference-run': String(needsReferenceRun(plan)),
    'reference-label': referenceLabel(plan),
    'estimate-minutes': String(time.estimateMinutes),
    'install-timeout-minutes': String(time.timeouts.install),
    'run-timeout-minutes': String(time.timeouts.run),
    'reference-timeout-minutes': String(time.timeouts.reference),
    'confirm-timeout-minutes': String(time.timeouts.confirm),
    'job-timeout-minutes': String(time.timeouts.job),
    // The count jobs: count-shards 0 = none (the matrix [0] is then skipped by the job's if).
    'count-shards': String(count.shards),
    'count-matrix': JSON.stringify(count.matrix),
    'count-meters': count.countMeters,
    'timed-meters': count.timedMeters,
    'count-timeout-minutes': String(time.timeouts.count ?? 0),
  };
  return Object.entries(outputs).map(([k, v]) => `${k}=${v}\n`).join('');
}
