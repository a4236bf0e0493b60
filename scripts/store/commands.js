/**
 * CLI commands of the store stage: publish, store index, store attempt, store fetch, store migrate,
 * baseline promote.
 * Each handler imports the module it drives only when it runs, so `--help` stays light.
 */
import { resolve, join } from 'node:path';
import { existsSync } from 'node:fs';
import { UserError, EXIT } from '../errors.js';
import { baselinesOption, parseList, parsePositiveInt, storeOption, wholeNumberAtLeast } from '../command-spec.js';

/** @param {string} store --store @returns {string} the existing store directory */
function existingStore(store) {
  const dir = resolve(store);
  if (!existsSync(dir)) throw new UserError(`results store ${dir} does not exist; pass --store <dir>`);
  return dir;
}

/**
 * @typedef {object} StoreSettings what the store's commands take from the environment
 * @property {string|null} runUrl the workflow run this job belongs to (null outside Actions)
 */

/**
 * The store's settings from the Actions environment, read once by the command's entry so that
 * the handlers (and their tests) get plain values.
 * @param {Record<string, string|undefined>} env process.env, or a test's stand-in
 * @returns {StoreSettings}
 */
export function readStoreSettings(env) {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: runId } = env;
  return { runUrl: runId && repo ? `${server ?? 'https://github.com'}/${repo}/actions/runs/${runId}` : null };
}

/**
 * `tagbench publish`: commit the store's new files to the results branch.
 * @param {Record<string, any>} options {store, repo?, branch, logs?, maxLogKb, logRetentionDays, attempts, json?}
 * @returns {Promise<number>}
 * @throws {UserError} see publishToBranch
 */
export async function publishCommand(options) {
  if (!options.repo) throw new UserError('tagbench publish needs --repo <git URL or path> (the repository holding the results branch)');
  const stray = ['expectRepository', 'expectPullRequest', 'expectCommit', 'expectHostClass', 'expectProduct', 'expectSuite'].filter((k) => options[k] !== undefined);
  // An expectation without --refs-only would check nothing while looking as if it did.
  if (!options.refsOnly && stray.length > 0) throw new UserError(`${stray.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} only go${stray.length === 1 ? 'es' : ''} with --refs-only`);
  const refsOnly = options.refsOnly ? refArtifactExpectation(options) : undefined;
  const { publishToBranch } = await import('./publish-to-branch.js');
  const result = await publishToBranch(resolve(options.store), {
    repo: options.repo,
    branch: options.branch,
    logs: Boolean(options.logs),
    maxLogBytes: options.maxLogKb * 1024,
    logRetentionDays: options.logRetentionDays,
    attempts: options.attempts,
    ...(refsOnly ? { refsOnly } : {}),
  });
  if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(`${result.status}: ${result.added.length} file(s) added${result.replaced.length > 0 ? `, ${result.replaced.length} change-point file(s) replaced` : ''} to ${result.branch} at ${result.commit ?? '(no commit)'}\n`);
  return EXIT.ok;
}

/**
 * What `publish --refs-only` checks the artifact against: the trusted plan's values, every one
 * required (an artifact checked against nothing would be trusted after all).
 * @param {Record<string, any>} options {expectRepository, expectPullRequest, expectCommit, expectHostClass?, expectProduct?, expectSuite?}
 * @returns {import('./ref-artifact.js').RefArtifactExpectation}
 * @throws {UserError} naming every missing or malformed --expect-* option
 */
export function refArtifactExpectation(options) {
  const errors = [];
  if (!options.expectRepository) errors.push('--expect-repository <url> (the clone URL the plan resolved)');
  if (!Number.isInteger(options.expectPullRequest)) errors.push('--expect-pull-request <n> (the pull request number)');
  if (!/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(options.expectCommit ?? '')) errors.push(`--expect-commit <sha> (the approved head commit, a full id; got ${JSON.stringify(options.expectCommit ?? null)})`);
  if (options.logs) errors.push('no --logs (a pull request\'s run never writes logs/ on the results branch)');
  if (errors.length > 0) throw new UserError(`tagbench publish --refs-only needs:\n  - ${errors.join('\n  - ')}`);
  return {
    repository: options.expectRepository, pullRequest: options.expectPullRequest, commit: options.expectCommit,
    ...(options.expectHostClass ? { hostClass: options.expectHostClass } : {}),
    ...(options.expectProduct ? { product: options.expectProduct } : {}),
    ...(options.expectSuite ? { suite: options.expectSuite } : {}),
  };
}

/**
 * `tagbench store index`: regenerate index.json of a local results store.
 * @param {Record<string, any>} options {store}
 * @returns {Promise<number>}
 */
export async function indexCommand(options) {
  const dir = existingStore(options.store);
  const { buildIndex } = await import('./build-index.js');
  const index = await buildIndex(dir);
  process.stdout.write(`${join(dir, 'index.json')}: ${index.runs.length} run(s), ${index.comparisons.length} comparison(s)\n`);
  return EXIT.ok;
}

/**
 * `tagbench store attempt`: remember a benchmark leg whose bench job failed, timed out or was
 * cancelled (benchmark.yml's remember-failure job), so that watch backs off instead of proposing
 * it again every cycle. Writes one file into the store; `tagbench publish` takes it to the branch.
 * @param {Record<string, any>} options {store, hostClass, product, version, suite, outcome, reason, runUrl?, at?}
 * @param {StoreSettings} settings what the Actions environment says (readStoreSettings)
 * @returns {Promise<number>}
 * @throws {UserError} a missing or invalid field, named
 */
export async function attemptCommand(options, settings) {
  for (const name of ['hostClass', 'product', 'version', 'suite', 'reason']) {
    if (!options[name]) throw new UserError(`tagbench store attempt needs --${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  }
  const runUrl = options.runUrl || settings.runUrl;
  const { writeLegAttempt } = await import('./leg-attempts.js');
  const { path } = await writeLegAttempt(resolve(options.store), {
    schemaVersion: 1, at: options.at ?? new Date().toISOString(), hostClass: options.hostClass, product: options.product,
    version: options.version, suite: options.suite, outcome: options.outcome, reason: options.reason, runUrl,
  });
  process.stdout.write(`${path}\n`);
  return EXIT.ok;
}

/**
 * `tagbench store fetch`: copy named run records from the results branch into a local store
 * (benchmark.yml's bench job, resuming a leg from the records it published before it died).
 * @param {Record<string, any>} options {store, repo, branch, runs}
 * @returns {Promise<number>}
 * @throws {UserError} see fetchRuns
 */
export async function fetchCommand(options) {
  if (!options.repo) throw new UserError('tagbench store fetch needs --repo <git URL or path> (the repository holding the results branch)');
  if (!options.runs?.length) throw new UserError('tagbench store fetch needs --runs <id,id...> (the run ids to fetch)');
  const { fetchRuns } = await import('./fetch-runs.js');
  const fetched = await fetchRuns(resolve(options.store), { repo: options.repo, branch: options.branch, ids: options.runs });
  for (const f of fetched) process.stdout.write(`${f.status}\t${f.path}\n`);
  return EXIT.ok;
}

/**
 * `tagbench store migrate`: upgrade a results store's files to the newest schemaVersion.
 * @param {Record<string, any>} options {store, dryRun?}
 * @returns {Promise<number>}
 */
export async function migrateCommand(options) {
  const dir = existingStore(options.store);
  const { migrateStore } = await import('./migrate-store.js');
  const result = await migrateStore(dir, { dryRun: options.dryRun });
  for (const m of result.migrated) process.stdout.write(`${options.dryRun ? 'would migrate' : 'migrated'} ${m.path} (${m.steps.join(', ')})\n`);
  process.stdout.write(`${dir}: ${result.migrated.length} file(s) ${options.dryRun ? 'to migrate' : 'migrated'}, ${result.current} already current\n`);
  return EXIT.ok;
}

/**
 * `tagbench baseline promote`: make a release the accepted baseline of a product line, suite
 * and host class. Writes the baseline file locally (in CI, promote-baseline.yml commits it
 * through a pull request); nothing else ever changes a baseline.
 * @param {Record<string, any>} options {product, line, version, runs?, hostClass, suite, store,
 *   baselines, note?, root? (project root holding configs/), now? (ISO time)}
 * @returns {Promise<number>}
 * @throws {UserError} missing options, unknown product or line, runs not in the store
 */
export async function promoteCommand(options) {
  for (const k of /** @type {const} */ (['product', 'line', 'version'])) {
    if (!options[k]) throw new UserError(`missing --${k}: tagbench baseline promote --product P --line L --version V [--suite S] [--host-class H] [--runs id,id]`);
  }
  const { loadConfig, findProduct } = await import('../config/index.js');
  const { promoteBaseline } = await import('./baselines.js');
  const config = await loadConfig(options.root ?? resolve(new URL('../..', import.meta.url).pathname));
  const product = findProduct(config, options.product, '--product');
  const { path, baseline, previous } = await promoteBaseline({
    product,
    line: options.line,
    version: options.version,
    hostClass: options.hostClass ?? 'local',
    suite: options.suite ?? 'smoke',
    storeDir: resolve(options.store ?? 'results'),
    baselinesDir: resolve(options.baselines ?? 'baselines'),
    runIds: typeof options.runs === 'string' ? parseList(options.runs) : options.runs,
    promotedAt: options.now ?? new Date().toISOString(),
    note: options.note,
  });
  process.stderr.write(`baseline of ${product.name} ${baseline.line} (${baseline.suite}, ${baseline.hostClass}) is now ${baseline.version} (runs ${baseline.runIds.join(', ')})${previous ? `, was ${previous.version}` : ''}: ${path}\n`);
  return EXIT.ok;
}

/** @type {import('../command-spec.js').OptionSpec[]} where the results branch is: publish writes it, store fetch reads it */
const RESULTS_BRANCH_OPTIONS = [
  { flags: '--repo <url-or-path>', description: 'git repository holding the results branch (URL or local path)' },
  { flags: '--branch <name>', description: 'results branch', default: 'bench-data' },
];

/** @type {import('../command-spec.js').CommandSpec} */
const publishSpec = {
  name: 'publish',
  summary: 'commit the run records and comparisons of a results store to the results branch (race-safe)',
  help: [
    'Adds every record (with its samples file) and comparison of --store that the branch lacks, adds them to',
    'index.json (fetching the branch without its other files) and pushes (never forced); raw logs of runs older',
    'than --log-retention-days leave the tip. When another publisher pushed first, it starts again on the new tip after a random',
    'backoff. Files are append-only: an identical file is a no-op, a different file at the same path is',
    'refused. The branch is created (orphan) when missing. The local store is only read.',
    'Example: tagbench publish --store results --repo git@github.com:org/tagbench.git',
  ].join('\n'),
  options: [
    storeOption('results store directory to publish'),
    ...RESULTS_BRANCH_OPTIONS,
    { flags: '--logs', description: 'also publish raw logs (logs/<run-id>/) of the published runs' },
    { flags: '--max-log-kb <n>', description: 'with --logs: leave out (and list) logs larger than this', default: 1024, parse: parsePositiveInt },
    { flags: '--log-retention-days <n>', description: 'raw logs of runs that started more than this many days ago leave the branch\'s tip (its history keeps them); 0 = keep every log', default: 90, parse: wholeNumberAtLeast(0) },
    { flags: '--attempts <n>', description: 'push attempts before giving up when other publishers keep winning', default: 12, parse: parsePositiveInt },
    { flags: '--refs-only', description: 'the store is a pull request\'s untrusted artifact: publish only its ref run (refs/runs/, refs/verdicts/), every file capped, schema-checked and of the --expect-* values, or nothing' },
    { flags: '--expect-repository <url>', description: 'with --refs-only: the clone URL every record\'s and comparison\'s ref.repository must be (the plan\'s repo output)' },
    { flags: '--expect-pull-request <n>', description: 'with --refs-only: the pull request every ref must be of (ref.pullRequest, ref.name pull/<n>/head)', parse: parsePositiveInt },
    { flags: '--expect-commit <sha>', description: 'with --refs-only: the approved head commit every ref must be of (ref.commit)' },
    { flags: '--expect-host-class <name>', description: 'with --refs-only: the host class every file must be of' },
    { flags: '--expect-product <name>', description: 'with --refs-only: the product every file must be of' },
    { flags: '--expect-suite <name>', description: 'with --refs-only: the suite every file must be of' },
    { flags: '--json', description: 'print the result as JSON on stdout' },
  ],
  run: publishCommand,
};

/** @type {import('../command-spec.js').CommandSpec} */
const indexSpec = {
  name: 'index',
  summary: 'regenerate index.json of a results store from its files',
  options: [storeOption()],
  run: indexCommand,
};

/** @type {import('../command-spec.js').CommandSpec} */
const attemptSpec = {
  name: 'attempt',
  summary: 'remember a benchmark leg that failed, timed out or was cancelled (watch backs off from it)',
  help: [
    'Writes attempts/<host-class>/<product>/<version>/<suite>/<id>.json into --store; publish takes it to the',
    'results branch, whose index.json then lists the leg\'s failed attempts. tagbench watch proposes the leg',
    'again only after its back-off, and not at all after --max-attempts (see tagbench watch --help).',
    'Example: tagbench store attempt --store results --host-class small-server --product mariadb --version 10.11.19 --suite small --outcome failure --reason "bench job failed"',
  ].join('\n'),
  options: [
    storeOption('results store directory (created when missing)'),
    { flags: '--host-class <name>', description: 'the leg\'s host class' },
    { flags: '--product <name>', description: 'the leg\'s product' },
    { flags: '--version <version>', description: 'the release the leg benchmarked' },
    { flags: '--suite <name>', description: 'the leg\'s suite' },
    { flags: '--outcome <outcome>', description: 'how its bench job ended (a timeout ends a job cancelled)', choices: ['failure', 'cancelled'], default: 'failure' },
    { flags: '--reason <text>', description: 'what went wrong, as far as is known' },
    { flags: '--run-url <url>', description: 'the workflow run (default: built from $GITHUB_SERVER_URL, $GITHUB_REPOSITORY, $GITHUB_RUN_ID)' },
  ],
  run: (options) => attemptCommand(options, readStoreSettings(process.env)),
};

/** @type {import('../command-spec.js').CommandSpec} */
const fetchSpec = {
  name: 'fetch',
  summary: 'copy named run records from the results branch into a local store (a leg resumed after it died)',
  help: [
    'Reads the branch\'s index.json for the records\' paths and writes only those records and their samples files into --store',
    '(validated, append-only: an identical local file is a no-op, a different one is refused). Logs are not fetched.',
    'Example: tagbench store fetch --store results --repo https://github.com/org/tagbench.git --runs <id>,<id>',
  ].join('\n'),
  options: [
    storeOption('results store directory (created when missing)'),
    ...RESULTS_BRANCH_OPTIONS,
    { flags: '--runs <ids>', description: 'comma-separated run ids, as the branch\'s index.json lists them', parse: parseList },
  ],
  run: fetchCommand,
};

/** @type {import('../command-spec.js').CommandSpec} */
const migrateSpec = {
  name: 'migrate',
  summary: 'upgrade every record and comparison of a results store to the newest schemaVersion',
  help: 'Rewrites (atomically) only files of an older schemaVersion; files newer than this tagbench are an error.',
  options: [
    storeOption(),
    { flags: '--dry-run', description: 'list what would change, write nothing' },
  ],
  run: migrateCommand,
};

/** @type {import('../command-spec.js').CommandSpec} */
const promoteSpec = {
  name: 'promote',
  summary: 'make a release the accepted baseline, naming the run records that stand for it',
  help: 'Writes the baseline file locally; in CI the workflow opens a pull request with it. A run never changes a baseline.',
  options: [
    { flags: '--product <name>', description: 'product' },
    { flags: '--line <name>', description: 'product line' },
    { flags: '--version <version>', description: 'release to promote' },
    { flags: '--runs <ids>', description: 'run ids that stand for it; default: every complete run of it in the store', parse: parseList },
    { flags: '--host-class <name>', description: 'host class', default: 'local' },
    { flags: '--suite <name>', description: 'suite', default: 'smoke' },
    storeOption(),
    baselinesOption(),
    { flags: '--note <text>', description: 'why (kept in the file)' },
  ],
  run: promoteCommand,
};

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  publishSpec,
  {
    name: 'store',
    summary: 'maintain a results store: regenerate its index, upgrade old files',
    subcommands: [indexSpec, attemptSpec, fetchSpec, migrateSpec],
  },
  {
    name: 'baseline',
    summary: 'manage the accepted baselines (baselines/<host-class>/<product>/<line>/<suite>.yml)',
    subcommands: [promoteSpec],
  },
];
