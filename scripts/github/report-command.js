/**
 * `tagbench report`: the edge of the github stage. Reads options and the environment (token,
 * repository, API URL, run URL, step summary file), then calls reportComparisons.
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EXIT } from '../errors.js';
import { readReferencedRecords, readReportComparisons } from './read-report-inputs.js';
import { reportComparisons } from './report-comparisons.js';

/**
 * @param {Record<string, any>} options parsed CLI options (see commands.js); tests may also pass
 *   `env` (defaults to process.env)
 * @returns {Promise<number>} exit code: 0 when every comparison was reported
 * @throws {UserError} for unreadable inputs or when GitHub refuses a request
 */
export async function run(options) {
  /** @type {Record<string, string|undefined>} */
  const env = options.env ?? process.env;
  const log = (/** @type {string} */ line) => process.stderr.write(`report: ${line}\n`);
  const storeDir = options.store ?? 'results';
  const comparisons = await readReportComparisons({
    files: options.comparison,
    storeDir,
    filter: { hostClass: options.hostClass, product: options.product, version: options.version, suite: options.suite },
  });
  log(`${comparisons.length} comparison(s) to report`);
  const records = await readReferencedRecords(comparisons, storeDir);
  const token = options.dryRun ? null : env[options.tokenEnv ?? 'GITHUB_TOKEN'] || null;
  const repo = options.repo ?? env.GITHUB_REPOSITORY ?? null;
  if (!options.dryRun && !token) log(`no token in $${options.tokenEnv ?? 'GITHUB_TOKEN'}: dry run`);
  const result = await reportComparisons(comparisons, records, {
    repo,
    token,
    apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
    dryRunDir: options.dryRunDir ?? 'out/issues',
    siteUrl: options.siteUrl ?? env.TAGBENCH_SITE_URL ?? null,
    runUrl: options.runUrl ?? defaultRunUrl(env),
    label: options.label ?? 'tagbench-regression',
    closeOnRecovery: Boolean(options.closeOnRecovery) || env.TAGBENCH_CLOSE_ON_RECOVERY === 'true',
    log,
  });
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, result.summary);
  if (options.summaryFile) {
    await mkdir(dirname(options.summaryFile), { recursive: true });
    await writeFile(options.summaryFile, result.summary);
  }
  if (!env.GITHUB_STEP_SUMMARY && !options.summaryFile) process.stdout.write(result.summary);
  return EXIT.ok;
}

/**
 * @param {Record<string, string|undefined>} env
 * @returns {string|null}
 */
function defaultRunUrl(env) {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env;
  return server && repo && runId ? `${server}/${repo}/actions/runs/${runId}` : null;
}
