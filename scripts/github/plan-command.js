/**
 * `tagbench plan`: the first job of the benchmark workflow. Validates the dispatch/call inputs
 * against configs/ and writes the resolved plan as step outputs ($GITHUB_OUTPUT), so later
 * jobs get validated values only (and the runner labels of the host class for runs-on).
 */
import { appendFile } from 'node:fs/promises';
import { UserError, EXIT } from '../errors.js';
import { loadConfig } from '../config/index.js';
import { join } from 'node:path';
import { readBaseline } from '../store/index.js';
import { resolveBenchmarkRequest } from './resolve-benchmark-request.js';

/**
 * @param {Record<string, any>} options CLI options (commands.js); tests may pass `env` and `root`
 * @returns {Promise<number>} 0 when the request is valid
 * @throws {UserError} listing every invalid input
 */
export async function run(options) {
  /** @type {Record<string, string|undefined>} */
  const env = options.env ?? process.env;
  const config = await loadConfig(options.root ?? process.cwd());
  const { plan, errors } = resolveBenchmarkRequest(config, {
    product: options.product ?? '',
    version: options.version ?? '',
    provider: options.provider ?? '',
    suite: options.suite ?? '',
    hostClass: options.hostClass ?? '',
    mycnf: options.mycnf ?? '',
    repeats: options.repeats ?? '',
    only: options.only ?? '',
    baseline: options.baseline ?? '',
    dryRun: options.dryRun ?? '',
  });
  if (!plan) throw new UserError(`invalid benchmark request (${errors.length} problem${errors.length > 1 ? 's' : ''}):\n  - ${errors.join('\n  - ')}`);
  if (!options.baseline) {
    // The accepted baseline (tagbench baseline promote) wins over the line's baseVersion, as in
    // `tagbench compare`; an explicit baseline input wins over both.
    const root = options.root ?? process.cwd();
    const accepted = await readBaseline(options.baselines ?? join(root, 'baselines'), { hostClass: plan.hostClass, product: plan.product, line: plan.line, suite: plan.suite });
    if (accepted && accepted.version !== plan.base) {
      plan.base = accepted.version;
      plan.releases = [...new Set([accepted.version, plan.version])].map((v) => `${plan.product}@${v}`).join(',');
    }
  }
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
  const text = Object.entries(outputs).map(([k, v]) => `${k}=${v}\n`).join('');
  if (env.GITHUB_OUTPUT) await appendFile(env.GITHUB_OUTPUT, text);
  process.stdout.write(options.json ? `${JSON.stringify(plan, null, 2)}\n` : text);
  return EXIT.ok;
}
