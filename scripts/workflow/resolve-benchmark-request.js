/**
 * Validate a benchmark request (the inputs of a workflow dispatch or call) against the loaded
 * configuration and resolve it into what the benchmark workflow's jobs need: the runner labels
 * of the host class, the product line, the base release, the release list. Pure: every input
 * is checked here once, so the workflow passes only validated values on (through env, never
 * interpolated into scripts). Collects every problem before failing. The plan itself, its
 * base against the accepted baseline and its step outputs: benchmark-plan.js.
 */
import { createHash } from 'node:crypto';
import { lineOf, COMMIT_RE, parseGitRef, redactRepository } from '../run/index.js';
import { parseList } from '../command-spec.js';
import { releaseList } from './benchmark-plan.js';
import { runnerLabels } from './runner-labels.js';

/** @typedef {Awaited<ReturnType<typeof import('../config/index.js').loadConfig>>} Config */

/**
 * @typedef {object} BenchmarkRequest raw workflow inputs (strings; '' = not given)
 * @property {string} product
 * @property {string} version exact version (deb provider) or a git ref / version (source)
 * @property {string} [provider] install provider, default deb
 * @property {string} [suite] default: the host class's scale
 * @property {string} hostClass
 * @property {string} [mycnf] my.cnf template name (configs/mycnf/<name>.cnf)
 * @property {string} [repeats] positive integer
 * @property {string} [instances] positive integer: server instances the repeats are spread over
 * @property {string} [only] comma-separated test names
 * @property {string} [baseline] base release override
 * @property {string} [dryRun] 'true' | 'false'
 * @property {string} [commit] full commit id the version's tag pointed at when watch saw it: a
 *   source build builds exactly that commit ('' = the tag's commit when the build fetches it)
 * @property {string} [movedFrom] full commit id the tag pointed at when it was benchmarked before
 *   (watch found the tag moved); needs commit
 * @property {string} [resume] comma-separated run ids on the results branch this leg resumes
 *   from (watch sets it for a leg that died after some releases finished)
 * @property {string} [ref] a git ref to benchmark instead of a release (branch, tag, full commit
 *   id, pull/N/head): an ad-hoc ref run (`tagbench run --ref`); version stays empty
 * @property {string} [repo] with ref: the repository holding it (default the product's gitUrl)
 * @property {string} [baseRef] with ref: compare with the merge base with this ref (a pull
 *   request's base branch); default: the release the ref branched from, or `baseline`
 */

/** @typedef {import('./benchmark-plan.js').BenchmarkPlan} BenchmarkPlan */
/** @typedef {import('./runner-labels.js').RunnerOptions} RunnerOptions */

/** What a version that is no release is told. */
const AS_REF = 'to benchmark a branch, a commit or a pull request, give it as ref (tagbench plan --ref <ref>), not as version';

/** Versions and refs become path components and CLI arguments: keep them plain. */
const VERSION_RE = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;
const TEST_RE = /^[a-z0-9][a-z0-9.-]{0,63}$/;
const RUN_ID_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const MAX_REPEATS = 100;

/** @param {object} o @returns {string} its keys, sorted, for a message listing what is known */
const known = (o) => Object.keys(o).sort().join(', ');

/**
 * @param {Config} config
 * @param {BenchmarkRequest} input
 * @param {RunnerOptions} [runner]
 * @returns {{plan: BenchmarkPlan|null, errors: string[]}} plan is null when errors is not empty
 */
export function resolveBenchmarkRequest(config, input, runner = {}) {
  if (input.ref) return resolveRefRequest(config, input, runner);
  /** @type {string[]} */
  const errors = [];
  // Each check appends its problems, in the order the inputs are listed to the user.
  const target = checkReleaseTarget(config, input, errors);
  const lists = checkRunShape(config, input, errors);
  checkBaseline(input, target, errors);
  checkPins(input, errors);
  checkReference(config, target.host, errors);
  const labels = runnerLabels(config, target.host, runner, errors);
  const { product, host } = target;
  if (errors.length > 0 || !product || !host) return { plan: null, errors };
  return { plan: releasePlan(input, { ...target, product, host }, lists, labels), errors };
}

/**
 * @typedef {object} ReleaseTarget what a release request names, as far as it checked out
 * @property {Config['products'][string]|undefined} product
 * @property {Config['hosts'][string]|undefined} host
 * @property {string} suite the suite given, else the host class's scale ('' when neither)
 * @property {string} provider the install provider, deb when none was given
 * @property {string} line the version's product line ('' when it is unknown)
 */

/**
 * The product, host class, suite, provider and version of a release request, and the version's line.
 * @param {Config} config
 * @param {BenchmarkRequest} input
 * @param {string[]} errors problems are appended here
 * @returns {ReleaseTarget}
 */
function checkReleaseTarget(config, input, errors) {
  const product = config.products[input.product];
  if (!product) errors.push(`input product is '${input.product}'; known products: ${known(config.products)} (configs/products/)`);
  const host = config.hosts[input.hostClass];
  if (!host) errors.push(`input host_class is '${input.hostClass}'; known host classes: ${known(config.hosts)} (configs/hosts/)`);
  const suite = input.suite || host?.scale || '';
  if ((input.suite || host) && !config.suites[suite]) errors.push(`input suite is '${suite}'; known suites: ${known(config.suites)} (configs/suites/)`);
  const provider = input.provider || 'deb';
  if (!/^[a-z][a-z0-9-]{0,31}$/.test(provider)) errors.push(`input provider is '${provider}'; expected a provider name such as deb`);
  if (input.repo || input.baseRef) errors.push(`input ${input.repo ? 'repo' : 'base_ref'} goes with ref (a git ref to benchmark against its base), not with a release version`);
  if (!VERSION_RE.test(input.version)) errors.push(`input version is '${input.version}'; expected letters, digits and . _ + - (e.g. 10.11.19)`);
  else if (product && provider === 'deb' && !product.deb?.[input.version]) {
    errors.push(`input version '${input.version}' cannot be installed by the deb provider; configs/products/${product.name}.yml deb: lists ${Object.keys(product.deb ?? {}).join(', ') || 'nothing'}`);
  }
  let line = '';
  if (product && VERSION_RE.test(input.version)) {
    try {
      line = lineOf(product, input.version);
    } catch (err) {
      errors.push(`${err instanceof Error ? err.message : String(err)}${provider === 'source' ? `; ${AS_REF}` : ''}`);
    }
  }
  // A source build of a version builds its release tag: a version no tag pattern knows is a ref.
  const template = /** @type {{build?: {tagTemplate?: string}}|undefined} */ (product)?.build?.tagTemplate;
  if (product && line && provider === 'source' && template) {
    const tag = template.replaceAll('{version}', input.version);
    const tagged = product.lines.some((l) => new RegExp(l.tagPattern).exec(tag)?.[1] === input.version);
    if (!tagged) errors.push(`input version '${input.version}' is no release of ${product.name}: its tag ${tag} matches no line's tagPattern (configs/products/${product.name}.yml); ${AS_REF}`);
  }
  return { product, host, suite, provider, line };
}

/**
 * The my.cnf template, repeats, instances, tests and resumed runs of a request.
 * @param {Config} config
 * @param {BenchmarkRequest} input
 * @param {string[]} errors problems are appended here
 * @returns {{only: string[], resume: string[]}} the tests and the run ids, listed
 */
function checkRunShape(config, input, errors) {
  if (input.mycnf && !config.mycnf[input.mycnf]) errors.push(`input mycnf is '${input.mycnf}'; known templates: ${known(config.mycnf)} (configs/mycnf/)`);
  if (input.repeats && !(/^\d+$/.test(input.repeats) && Number(input.repeats) >= 1 && Number(input.repeats) <= MAX_REPEATS)) {
    errors.push(`input repeats is '${input.repeats}'; expected a whole number from 1 to ${MAX_REPEATS}`);
  }
  if (input.instances && !(/^\d+$/.test(input.instances) && Number(input.instances) >= 1 && Number(input.instances) <= MAX_REPEATS)) {
    errors.push(`input instances is '${input.instances}'; expected a whole number from 1 to ${MAX_REPEATS}`);
  }
  const only = parseList(input.only ?? '');
  for (const t of only) if (!TEST_RE.test(t)) errors.push(`input only names test '${t}'; test names are lower-case letters, digits, . and - (e.g. point-query,update-index)`);
  const resume = parseList(input.resume ?? '');
  // Run ids become file names and git paths: the form `tagbench run` writes, nothing else.
  for (const id of resume) if (!RUN_ID_RE.test(id)) errors.push(`input resume names run '${id}'; run ids are letters, digits, '.', '_' and '-' (at most 128), as index.json lists them`);
  return { only, resume };
}

/**
 * A baseline override: a version of the candidate's own line that the provider can install.
 * @param {BenchmarkRequest} input
 * @param {ReleaseTarget} target
 * @param {string[]} errors problems are appended here
 */
function checkBaseline(input, { product, line, provider }, errors) {
  if (input.baseline && !VERSION_RE.test(input.baseline)) errors.push(`input baseline is '${input.baseline}'; expected a version such as 10.11.18`);
  else if (input.baseline && product && line) {
    // Verdicts against a baseline stay within a line (compare refuses a comparison that spans
    // lines), so a base from another line would cost a whole benchmark run and then fail.
    let baseLine = '';
    try {
      baseLine = lineOf(product, input.baseline);
    } catch (err) {
      errors.push(`input baseline: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (baseLine && baseLine === line && provider === 'deb' && !product.deb?.[input.baseline]) {
      errors.push(`input baseline '${input.baseline}' cannot be installed by the deb provider; configs/products/${product.name}.yml deb: lists ${Object.keys(product.deb ?? {}).join(', ') || 'nothing'}`);
    }
    if (baseLine && baseLine !== line) {
      errors.push(`input baseline '${input.baseline}' is of line ${baseLine}, the version '${input.version}' of line ${line}; verdicts compare within a line: give a ${line}.x baseline, `
        + 'or compare across lines afterwards with tagbench compare --releases (a view without verdicts)');
    }
  }
}

/**
 * dry_run, and the commits a tag is pinned to (commit) and moved from (moved_from).
 * @param {BenchmarkRequest} input
 * @param {string[]} errors problems are appended here
 */
function checkPins(input, errors) {
  if (input.dryRun && !['true', 'false'].includes(input.dryRun)) errors.push(`input dry_run is '${input.dryRun}'; expected true or false`);
  for (const [name, value] of /** @type {const} */ ([['commit', input.commit], ['moved_from', input.movedFrom]])) {
    if (value && !COMMIT_RE.test(value)) errors.push(`input ${name} is '${value}'; expected a full commit id (40 or 64 lower-case hex digits, as git ls-remote prints it)`);
  }
  if (input.movedFrom && !input.commit) errors.push(`input moved_from is '${input.movedFrom}' but commit is empty; give the commit the tag points at now, where it moved to`);
  if (input.movedFrom && input.movedFrom === input.commit) errors.push(`input moved_from and commit are both '${input.commit}'; a tag that moved points at another commit than before`);
}

/**
 * The host class's reference release, installed by the deb provider beside the candidate.
 * @param {Config} config
 * @param {Config['hosts'][string]|undefined} host
 * @param {string[]} errors problems are appended here
 */
function checkReference(config, host, errors) {
  if (!host?.reference) return;
  const where = `configs/hosts/${host.name}.yml reference`;
  const refProduct = config.products[host.reference.product];
  if (!refProduct) errors.push(`${where} names product '${host.reference.product}'; known products: ${known(config.products)} (configs/products/)`);
  else if (!refProduct.deb?.[host.reference.version]) {
    errors.push(`${where} is ${refProduct.name} ${host.reference.version}, which the deb provider cannot install; configs/products/${refProduct.name}.yml deb: lists ${Object.keys(refProduct.deb ?? {}).join(', ') || 'nothing'}`);
  }
}

/**
 * The plan of a valid release request.
 * @param {BenchmarkRequest} input
 * @param {ReleaseTarget & {product: Config['products'][string], host: Config['hosts'][string]}} target
 * @param {{only: string[], resume: string[]}} lists
 * @param {string[]} labels the host class's runner labels
 * @returns {BenchmarkPlan}
 */
function releasePlan(input, { product, host, suite, provider, line }, { only, resume }, labels) {
  const base = input.baseline || product.lines.find((l) => l.name === line)?.baseVersion || '';
  // Only a source build is of a commit tagbench chooses; a Debian package or a tarball is what it is.
  const commit = provider === 'source' ? input.commit ?? '' : '';
  const movedFrom = commit ? input.movedFrom ?? '' : '';
  const releases = releaseList(product.name, [base, input.version].filter(Boolean), provider, { [input.version]: commit });
  return {
    product: product.name,
    version: input.version,
    line,
    provider,
    suite,
    hostClass: host.name,
    runsOn: ['self-hosted', ...labels],
    // '_' appears in no host class, product or suite name, so only a version can hold one:
    // two different requests never share a leg.
    leg: [host.name, product.name, input.version, suite].join('_'),
    base,
    releases,
    mycnf: input.mycnf ?? '',
    repeats: input.repeats ?? '',
    instances: input.instances ?? '',
    only: only.join(','),
    resume: resume.join(','),
    dryRun: input.dryRun === 'true',
    commit,
    movedFrom,
    reference: host.reference ? { product: host.reference.product, version: host.reference.version } : null,
    kind: 'release',
    ref: '',
    repo: '',
    baseRef: '',
  };
}

/**
 * A request to benchmark a git ref (`ref` input): checked here as far as it can be without git
 * (the ref's form, the repository's, the base's); `tagbench run --ref` resolves the commit and the
 * base with git on the runner.
 * @param {Config} config
 * @param {BenchmarkRequest} input
 * @param {RunnerOptions} runner
 * @returns {{plan: BenchmarkPlan|null, errors: string[]}}
 */
function resolveRefRequest(config, input, runner) {
  /** @type {string[]} */
  const errors = [];
  const ref = /** @type {string} */ (input.ref);
  const checkRef = (/** @type {string} */ value, /** @type {string} */ what) => {
    try {
      parseGitRef(value, what);
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  };
  checkRef(ref, 'input ref');
  if (input.version) errors.push(`input version is '${input.version}' and ref is '${ref}': give one (version: a release; ref: a branch, tag, commit or pull request built from source)`);
  if (input.provider && input.provider !== 'source') errors.push(`input provider is '${input.provider}'; a ref is built from source (leave provider empty or give source)`);
  if (input.movedFrom || input.resume) errors.push(`input ${input.movedFrom ? 'moved_from' : 'resume'} is for a release leg of watch, not a ref`);
  const repo = input.repo ?? '';
  if (repo && (repo.startsWith('-') || /\s/.test(repo))) errors.push(`input repo is '${repo}'; expected a repository URL (https://github.com/<owner>/<repo>.git) or a folder on the runner`);
  // The repository reaches the job's logs and the records: a token in it would be published.
  else if (repo && /^[\w+.-]+:\/\//.test(repo) && redactRepository(repo) !== repo) errors.push(`input repo carries a user name or password; give the plain URL (${redactRepository(repo)}) and the token in the TAGBENCH_UPSTREAM_TOKEN secret`);
  if (input.baseRef) checkRef(input.baseRef, 'input base_ref');
  if (input.baseRef && input.baseline) errors.push(`input baseline '${input.baseline}' and base_ref '${input.baseRef}' name two bases; give one`);
  if (input.commit && !COMMIT_RE.test(input.commit)) errors.push(`input commit is '${input.commit}'; expected a full commit id (40 or 64 lower-case hex digits)`);
  // The rest is checked as for a release leg (host class, suite, my.cnf, repeats, runner labels),
  // with the baseline as its version when there is one (its line), else a line's own name.
  const stand = input.baseline || config.products[input.product]?.lines[0]?.name || '0';
  // (provider path: a stand-in that installs nothing, so neither the deb list nor the tags apply)
  const asRelease = resolveBenchmarkRequest(config, { ...input, ref: '', repo: '', baseRef: '', version: stand, provider: 'path', baseline: '', commit: '', movedFrom: '', resume: '' }, runner);
  for (const e of asRelease.errors) errors.push(e.replace(/input version/g, 'input baseline'));
  const product = config.products[input.product];
  const host = config.hosts[input.hostClass];
  if (errors.length > 0 || !product || !host || !asRelease.plan) return { plan: null, errors };
  return {
    plan: {
      ...asRelease.plan,
      version: '',
      line: input.baseline ? asRelease.plan.line : '',
      provider: 'source',
      // A ref name may hold '/' (pull/7/head), which an artifact name may not; a hash keeps two refs apart.
      leg: [host.name, product.name, `ref-${ref.replace(/[^A-Za-z0-9.-]+/g, '-').slice(0, 60)}-${createHash('sha256').update(`${repo}\n${ref}`).digest('hex').slice(0, 8)}`, asRelease.plan.suite].join('_'),
      base: input.baseline ?? '',
      releases: '',
      commit: input.commit ?? '',
      // The host series gets its point from watch's cycles; a change under review runs alone.
      reference: null,
      kind: 'ref',
      ref,
      repo,
      baseRef: input.baseRef ?? '',
    },
    errors,
  };
}
