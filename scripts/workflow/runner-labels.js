/**
 * The runner labels a benchmark leg's jobs run on: the host class's own and the extra ones the
 * repository variable TAGBENCH_HOST_LABELS gives it, checked as the plan step's other inputs are.
 */

/** @typedef {Awaited<ReturnType<typeof import('../config/index.js').loadConfig>>} Config */

/** GitHub runner labels: no spaces or commas; kept to what an artifact name may hold too. */
const LABEL_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * @typedef {object} RunnerOptions
 * @property {string} [hostLabels] JSON `{"<host class>": ["<runner label>", ...]}` (the
 *   repository variable TAGBENCH_HOST_LABELS): labels added to the class's own, e.g. the label
 *   of the one runner that serves a class whose config has none
 * @property {boolean} [selfHosted] the jobs run on self-hosted runners: a host class that ends
 *   up with no label of its own is refused, since `runs-on: [self-hosted]` takes any runner
 */

/**
 * The host class's runner labels, its own first; refused (appended to errors) when self-hosted
 * jobs would end up with none.
 * @param {Config} config
 * @param {Config['hosts'][string]|undefined} host
 * @param {RunnerOptions} runner
 * @param {string[]} errors problems are appended here
 * @returns {string[]} the labels ([] without a host class)
 */
export function runnerLabels(config, host, runner, errors) {
  const extraLabels = parseHostLabels(runner.hostLabels ?? '', config.hosts, errors);
  const labels = host ? [...new Set([...host.labels, ...(extraLabels[host.name] ?? [])])] : [];
  if (host && runner.selfHosted && labels.length === 0) {
    errors.push(`host class '${host.name}' has no runner labels (configs/hosts/${host.name}.yml labels: []), so its self-hosted jobs would run on any self-hosted runner; `
      + `give the class labels there, or name the runner that serves it in the repository variable TAGBENCH_HOST_LABELS, e.g. {"${host.name}": ["tagbench-laptop"]}`);
  }
  return labels;
}

/**
 * @param {string} text JSON of TAGBENCH_HOST_LABELS ('' = none)
 * @param {Record<string, unknown>} hosts known host classes
 * @param {string[]} errors problems are appended here
 * @returns {Record<string, string[]>}
 */
function parseHostLabels(text, hosts, errors) {
  if (!text.trim()) return {};
  const where = 'repository variable TAGBENCH_HOST_LABELS';
  /** @type {unknown} */
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    errors.push(`${where} is not JSON (${err instanceof Error ? err.message : err}); expected e.g. {"local": ["tagbench-laptop"]}`);
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    errors.push(`${where} is ${JSON.stringify(parsed)}; expected an object of host class -> list of runner labels, e.g. {"local": ["tagbench-laptop"]}`);
    return {};
  }
  /** @type {Record<string, string[]>} */
  const result = {};
  for (const [hostClass, labels] of Object.entries(parsed)) {
    if (!(hostClass in hosts)) {
      errors.push(`${where} names host class '${hostClass}'; known host classes: ${Object.keys(hosts).sort().join(', ')} (configs/hosts/)`);
      continue;
    }
    if (!Array.isArray(labels) || labels.some((l) => typeof l !== 'string' || !LABEL_RE.test(l))) {
      errors.push(`${where} gives host class '${hostClass}' ${JSON.stringify(labels)}; expected a list of runner labels (letters, digits, . _ -), e.g. ["tagbench-laptop"]`);
      continue;
    }
    result[hostClass] = labels;
  }
  return result;
}

/**
 * The runner labels of a pull request's leg: labels of its own that no release leg asks for, so a
 * pull request's code never runs on a release host and a runner registered for pull requests
 * (setup/runner.sh --pull-requests, which gives it exactly these) never takes a release leg.
 * @param {string} hostClass the pull request's host class (what its runner measures like)
 * @returns {string[]} self-hosted, tagbench-pull-request and tagbench-pr-<host class>
 */
export function pullRequestRunnerLabels(hostClass) {
  return ['self-hosted', 'tagbench-pull-request', `tagbench-pr-${hostClass}`];
}
