/**
 * CLI commands of the watch stage: watch. The handler imports the stage only when it runs, so
 * `--help` stays light.
 */
import { dirname, resolve } from 'node:path';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { UserError, EXIT } from '../errors.js';
import { collect, wholeNumberAtLeast, parseList } from '../command-spec.js';
import { parseRemoteOverrides } from '../upstream-remote.js';

/**
 * Where this repository's workflow runs live, as a failed attempt names its run.
 * @param {string|undefined} repository owner/name (--attempts-repository, else $GITHUB_REPOSITORY)
 * @param {string|undefined} server $GITHUB_SERVER_URL (default https://github.com)
 * @returns {string|null} `<server>/<owner>/<name>/actions/runs/`, null when no repository is known
 * @throws {UserError} for a repository that is not owner/name
 */
export function attemptRunPrefix(repository, server) {
  if (!repository) return null;
  if (!OWNER_NAME.test(repository)) throw new UserError(`--attempts-repository ${JSON.stringify(repository)} is not owner/name`);
  return `${(server || 'https://github.com').replace(/\/+$/, '')}/${repository}/actions/runs/`;
}

/** A GitHub repository's full name. */
const OWNER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/;

/**
 * The repository whose workflow runs' failed attempts count: --attempts-repository, else the
 * Actions environment's. act (env ACT) sets GITHUB_REPOSITORY to the checkout's origin, which
 * may be a local path that names no workflow runs: there every attempt counts, as outside
 * Actions. A malformed value anywhere else still fails (attemptRunPrefix).
 * @param {string|undefined} option --attempts-repository
 * @param {NodeJS.ProcessEnv} env
 * @returns {string|undefined}
 */
export function attemptsRepositoryFrom(option, env) {
  if (option !== undefined) return option;
  const fromEnv = env.GITHUB_REPOSITORY;
  return env.ACT && fromEnv && !OWNER_NAME.test(fromEnv) ? undefined : fromEnv;
}

/**
 * `tagbench watch`: the CLI face of discoverTags.
 * @param {Record<string, any>} options commander options: {store: string, index?: string (an index.json read alone, instead of store), products?: string,
 *   hostClass?: string[], suite?: string, max: number, retryFailed?: boolean,
 *   remoteOverride?: string[], json?: boolean, githubOutput?: string (default: $GITHUB_OUTPUT),
 *   attemptsRepository?: string (owner/name whose workflow runs' attempts count), serverUrl?: string};
 *   root: project root holding configs/ (default: this checkout; tests pass a fixture)
 * @returns {Promise<number>} exit code
 * @throws {UserError} on a bad option, config or store
 */
export async function watchCommand(options) {
  const { loadConfig } = await import('../config/index.js');
  const { readIndex, readIndexFile } = await import('../store/index.js');
  const { discoverTags, DEFAULT_BACK_OFF } = await import('./discover-tags.js');
  const root = options.root ?? resolve(new URL('../..', import.meta.url).pathname);
  const config = await loadConfig(root);
  const remoteOverrides = parseRemoteOverrides(options.remoteOverride ?? []);
  const result = await discoverTags(config, {
    products: options.products ? parseList(String(options.products)) : undefined,
    hostClasses: options.hostClass,
    suite: options.suite,
    remoteOverrides,
    index: options.index ? await readIndexOnly(resolve(options.index), readIndexFile) : await readIndex(resolve(options.store ?? 'results')),
    max: options.max ?? 10,
    retryFailed: Boolean(options.retryFailed),
    backOff: { hours: options.backOffHours ?? DEFAULT_BACK_OFF.hours, maxAttempts: options.maxAttempts ?? DEFAULT_BACK_OFF.maxAttempts },
    attemptRunPrefix: attemptRunPrefix(options.attemptsRepository, options.serverUrl),
  });
  const matrix = JSON.stringify(result.matrix);
  // For the site (tagbench site --deleted-tags): it reads no upstream itself.
  if (options.deletedTagsOut) {
    await mkdir(dirname(resolve(options.deletedTagsOut)), { recursive: true });
    await writeFile(options.deletedTagsOut, `${JSON.stringify(deletedTagsFile(result.deleted, new Date()), null, 2)}\n`);
  }
  // The run's page lists the legs watch is backing off from, so nobody has to read the log.
  const stepSummary = options.stepSummary ?? process.env.GITHUB_STEP_SUMMARY;
  const failed = result.skipped.filter((x) => x.attempts);
  if (stepSummary && failed.length > 0) await appendFile(stepSummary, renderFailedLegs(failed));
  const moved = result.matrix.include.filter((e) => e.movedFrom);
  if (stepSummary && (moved.length > 0 || result.deleted.length > 0)) await appendFile(stepSummary, renderTagChanges(moved, result.deleted));
  // In GitHub Actions the step outputs file is the natural destination; the flag overrides it.
  const githubOutput = options.githubOutput ?? process.env.GITHUB_OUTPUT;
  if (githubOutput) await appendFile(githubOutput, `matrix=${matrix}\ncount=${result.matrix.include.length}\n`);
  if (options.json) {
    process.stdout.write(`${matrix}\n`);
  } else {
    for (const e of result.matrix.include) process.stdout.write(`${e.hostClass}\t${e.product}\t${e.line}\t${e.version}\t${e.tag}\t${e.suite}${e.resume ? `\tresume ${e.resume}` : ''}${e.movedFrom ? `\tmoved from ${e.movedFrom} to ${e.commit}` : ''}\n`);
    for (const d of result.deleted) process.stdout.write(`tag deleted upstream: ${d.product} ${d.tag} (${d.runs.length} run${d.runs.length === 1 ? '' : 's'} in the index: ${d.runs.map((r) => r.id).join(', ')})\n`);
    if (result.matrix.include.length === 0) process.stdout.write('nothing new to benchmark\n');
    if (result.pending > result.matrix.include.length) process.stdout.write(`(${result.pending - result.matrix.include.length} more left for later runs: --max ${options.max ?? 10})\n`);
  }
  return EXIT.ok;
}

/**
 * The job summary's table of failed legs (Markdown). Pure.
 * @param {{product: string, version: string, hostClass: string, reason: string, attempts?: import('../store/index.js').LegAttempts}[]} failed
 * @returns {string}
 */
export function renderFailedLegs(failed) {
  const cell = (/** @type {string} */ t) => t.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    `### Failed benchmark legs (${failed.length})`, '',
    'Not proposed this cycle: their bench job failed, timed out or was cancelled (`tagbench watch --back-off-hours`, `--max-attempts`).', '',
    '| host class | release | suite | failed attempts | why not now |', '|---|---|---|---:|---|',
    ...failed.map((f) => `| ${cell(f.hostClass)} | ${cell(`${f.product} ${f.version}`)} | ${cell(f.attempts?.suite ?? '')} | ${f.attempts?.count ?? ''} | ${cell(f.reason)} |`),
    '', '',
  ].join('\n');
}

/**
 * @typedef {object} DeletedTagsFile what `watch --deleted-tags-out` writes and `site --deleted-tags` reads
 * @property {1} schemaVersion
 * @property {string} checkedAt when upstream's tags were read (ISO 8601)
 * @property {import('./discover-tags.js').DeletedTag[]} deleted
 */

/**
 * @param {import('./discover-tags.js').DeletedTag[]} deleted
 * @param {Date} checkedAt
 * @returns {DeletedTagsFile}
 */
export function deletedTagsFile(deleted, checkedAt) {
  return { schemaVersion: 1, checkedAt: checkedAt.toISOString(), deleted };
}

/**
 * The job summary's tables of moved and deleted tags (Markdown). Pure.
 * @param {import('./discover-tags.js').MatrixEntry[]} moved proposed again because their tag moved
 * @param {import('./discover-tags.js').DeletedTag[]} deleted
 * @returns {string}
 */
export function renderTagChanges(moved, deleted) {
  const lines = [];
  if (moved.length > 0) {
    lines.push(`### Moved tags benchmarked again (${moved.length})`, '', '| host class | release | tag | moved from | to |', '|---|---|---|---|---|',
      ...moved.map((e) => `| ${e.hostClass} | ${e.product} ${e.version} | ${e.tag} | \`${e.movedFrom}\` | \`${e.commit}\` |`), '');
  }
  if (deleted.length > 0) {
    lines.push(`### Tags deleted upstream (${deleted.length})`, '', 'Their runs stay in the results store; the site marks the releases "tag deleted".', '',
      '| product | tag | runs |', '|---|---|---|', ...deleted.map((d) => `| ${d.product} | ${d.tag} | ${d.runs.map((r) => r.id).join(', ')} |`), '');
  }
  return `${lines.join('\n')}\n`;
}

/** @type {import('../command-spec.js').CommandSpec[]} */
/**
 * The results branch's index.json as it is (watch.yml fetches that one file, not the records,
 * so there are no files to check it against).
 * @param {string} path
 * @param {typeof import('../store/index.js').readIndexFile} readIndexFile
 * @returns {Promise<import('../store/index.js').StoreIndex>}
 * @throws {UserError} when the file is missing: an empty store is --store of an empty folder,
 *   never a missing index (every release would look new)
 */
async function readIndexOnly(path, readIndexFile) {
  const index = await readIndexFile(path);
  if (!index) throw new UserError(`--index ${path}: no such file; for a results branch that does not exist yet pass --store <empty folder>`);
  return index;
}

export const commands = [
  {
    name: 'watch',
    summary: 'list upstream release tags not benchmarked yet, as a workflow matrix',
    help: [
      'Reads the tags of each product\'s gitUrl (git ls-remote), keeps those matching a line\'s tagPattern at or',
      'above the line\'s floor (minVersion, else baseVersion), drops (host class, version, suite) combinations',
      'the results index already holds with status ok or failed, and prints {"include": [...]} entries',
      '{product, line, version, tag, commit, hostClass, suite}, newest first, lines interleaved, at most --max.',
      'A leg whose bench job failed is proposed again after its back-off with attempt: <n>; when that attempt',
      'published finished run records but no comparison, also with resume: <run ids> (benchmark.yml fetches them',
      'and runs only the releases without a finished record).',
      'A tag that now points at another commit than the index\'s runs of it (where they record one) is proposed',
      'again with movedFrom: <the last run\'s commit>; tags the index has runs of that upstream deleted are listed.',
      'Example: tagbench watch --store bench-data --host-class small-server --json',
    ].join('\n'),
    options: [
      { flags: '--store <dir>', description: 'results store or checkout of the results branch (its index.json, checked against its files)', default: 'results' },
      { flags: '--index <file>', description: 'read this index.json alone (the results branch\'s, fetched without its records: watch.yml) instead of --store' },
      { flags: '--products <names>', description: 'comma-separated products (default: every product with a gitUrl)' },
      { flags: '--host-class <name>', description: 'host class to plan for (repeatable; default: every host class with runner labels)', parse: collect },
      { flags: '--suite <name>', description: 'suite to plan and look for (default: each host class\'s scale)' },
      { flags: '--max <n>', description: 'most matrix entries', default: 10, parse: wholeNumberAtLeast(0) },
      { flags: '--retry-failed', description: 'propose again versions whose runs failed (partial runs are always proposed again)' },
      { flags: '--back-off-hours <n>', description: 'a leg whose bench job failed, timed out or was cancelled (the index\'s attempts: tagbench store attempt) is proposed again after this many hours, doubled after each further failure', default: 6, parse: wholeNumberAtLeast(0) },
      { flags: '--max-attempts <n>', description: 'after this many failed attempts a leg is not proposed again until someone dispatches it by hand', default: 3, parse: wholeNumberAtLeast(1) },
      { flags: '--attempts-repository <owner/name>', description: 'count a leg\'s failed attempts once per workflow run of this repository, and no attempt that names another run (default: $GITHUB_REPOSITORY when set; outside Actions every attempt counts)' },
      { flags: '--remote-override <product=url>', description: 'read this product\'s tags from another URL or path (repeatable, or comma-separated)', parse: collect },
      { flags: '--json', description: 'print the matrix as JSON ({"include": [...]}) on stdout' },
      { flags: '--github-output <file>', description: 'append matrix=<json> and count=<n> to this file (default: $GITHUB_OUTPUT when set, i.e. in GitHub Actions)' },
      { flags: '--deleted-tags-out <file>', description: 'write the tags the index has runs of that upstream deleted to this JSON file ({schemaVersion, checkedAt, deleted: [{product, tag, versions, runs}]}), for tagbench site --deleted-tags' },
      { flags: '--step-summary <file>', description: 'append a table of the failed legs backed off from to this file (default: $GITHUB_STEP_SUMMARY when set)' },
    ],
    // The Actions environment is read here, once: the handler (and its tests) get plain values.
    run: (/** @type {Record<string, any>} */ options) => watchCommand({ ...options, attemptsRepository: attemptsRepositoryFrom(options.attemptsRepository, process.env), serverUrl: process.env.GITHUB_SERVER_URL }),
  },
];
