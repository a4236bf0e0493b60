/**
 * Validate a benchmark request (the inputs of a workflow dispatch or call) against the loaded
 * configuration and resolve it into what the benchmark workflow's jobs need: the runner labels
 * of the host class, the product line, the base release, the release list. Pure: every input
 * is checked here once, so the workflow passes only validated values on (through env, never
 * interpolated into scripts). Collects every problem before failing. Also decides the base
 * once the accepted baseline is known, and renders the plan as step outputs.
 */
import { lineOf } from '../run/index.js';
import { parseList } from '../command-spec.js';

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
 * @property {string} [only] comma-separated test names
 * @property {string} [baseline] base release override
 * @property {string} [dryRun] 'true' | 'false'
 */

/**
 * @typedef {object} BenchmarkPlan
 * @property {string} product
 * @property {string} version
 * @property {string} line
 * @property {string} provider
 * @property {string} suite
 * @property {string} hostClass
 * @property {string[]} runsOn runner labels: self-hosted plus the host class's labels
 * @property {string} base base release ('' when the line has none and no override was given)
 * @property {string} releases `product@base,product@version` for `tagbench run` (base first)
 * @property {string} mycnf '' = the engine's default
 * @property {string} repeats '' = the host class's
 * @property {string} only '' = every test
 * @property {boolean} dryRun
 */

/** Versions and refs become path components and CLI arguments: keep them plain. */
const VERSION_RE = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;
const TEST_RE = /^[a-z0-9][a-z0-9.-]{0,63}$/;
const MAX_REPEATS = 100;

/**
 * @param {Config} config
 * @param {BenchmarkRequest} input
 * @returns {{plan: BenchmarkPlan|null, errors: string[]}} plan is null when errors is not empty
 */
export function resolveBenchmarkRequest(config, input) {
  /** @type {string[]} */
  const errors = [];
  const known = (/** @type {object} */ o) => Object.keys(o).sort().join(', ');
  const product = config.products[input.product];
  if (!product) errors.push(`input product is '${input.product}'; known products: ${known(config.products)} (configs/products/)`);
  const host = config.hosts[input.hostClass];
  if (!host) errors.push(`input host_class is '${input.hostClass}'; known host classes: ${known(config.hosts)} (configs/hosts/)`);
  const suite = input.suite || host?.scale || '';
  if ((input.suite || host) && !config.suites[suite]) errors.push(`input suite is '${suite}'; known suites: ${known(config.suites)} (configs/suites/)`);
  const provider = input.provider || 'deb';
  if (!/^[a-z][a-z0-9-]{0,31}$/.test(provider)) errors.push(`input provider is '${provider}'; expected a provider name such as deb`);
  if (!VERSION_RE.test(input.version)) errors.push(`input version is '${input.version}'; expected letters, digits and . _ + - (e.g. 10.11.19)`);
  else if (product && provider === 'deb' && !product.deb?.[input.version]) {
    errors.push(`input version '${input.version}' cannot be installed by the deb provider; configs/products/${product.name}.yml deb: lists ${Object.keys(product.deb ?? {}).join(', ') || 'nothing'}`);
  }
  let line = '';
  if (product && VERSION_RE.test(input.version)) {
    try {
      line = lineOf(product, input.version);
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  if (input.mycnf && !config.mycnf[input.mycnf]) errors.push(`input mycnf is '${input.mycnf}'; known templates: ${known(config.mycnf)} (configs/mycnf/)`);
  if (input.repeats && !(/^\d+$/.test(input.repeats) && Number(input.repeats) >= 1 && Number(input.repeats) <= MAX_REPEATS)) {
    errors.push(`input repeats is '${input.repeats}'; expected a whole number from 1 to ${MAX_REPEATS}`);
  }
  const only = parseList(input.only ?? '');
  for (const t of only) if (!TEST_RE.test(t)) errors.push(`input only names test '${t}'; test names are lower-case letters, digits, . and - (e.g. point-query,update-index)`);
  if (input.baseline && !VERSION_RE.test(input.baseline)) errors.push(`input baseline is '${input.baseline}'; expected a version such as 10.11.18`);
  if (input.dryRun && !['true', 'false'].includes(input.dryRun)) errors.push(`input dry_run is '${input.dryRun}'; expected true or false`);
  if (errors.length > 0 || !product || !host) return { plan: null, errors };

  const base = input.baseline || product.lines.find((l) => l.name === line)?.baseVersion || '';
  const releases = [...new Set([base, input.version].filter(Boolean))].map((v) => `${product.name}@${v}`).join(',');
  return {
    plan: {
      product: product.name,
      version: input.version,
      line,
      provider,
      suite,
      hostClass: host.name,
      runsOn: ['self-hosted', ...host.labels],
      base,
      releases,
      mycnf: input.mycnf ?? '',
      repeats: input.repeats ?? '',
      only: only.join(','),
      dryRun: input.dryRun === 'true',
    },
    errors,
  };
}

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
    releases: [...new Set([accepted.version, plan.version])].map((v) => `${plan.product}@${v}`).join(','),
  };
}

/**
 * The plan as GitHub step outputs, the names later jobs of the benchmark workflow read.
 * @param {BenchmarkPlan} plan
 * @returns {string} `key=value` lines
 */
export function renderPlanOutputs(plan) {
  /** @type {Record<string, string>} */
  const outputs = {
    product: plan.product,
    version: plan.version,
    line: plan.line,
    provider: plan.provider,
    suite: plan.suite,
    'host-class': plan.hostClass,
    'runs-on': JSON.stringify(plan.runsOn),
    base: plan.base,
    releases: plan.releases,
    mycnf: plan.mycnf,
    repeats: plan.repeats,
    only: plan.only,
    'dry-run': String(plan.dryRun),
  };
  return Object.entries(outputs).map(([k, v]) => `${k}=${v}\n`).join('');
}
