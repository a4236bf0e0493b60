/**
 * CLI commands of the run stage: run. Ctrl-C / SIGTERM abort a run cleanly: servers stop, the
 * records not stored yet are stored as `partial`, exit code 130.
 */
import { resolve } from 'node:path';
import { UserError, EXIT } from '../errors.js';
import { SERVER_RUN_OPTIONS, cacheDirFrom, workDirFrom } from '../run-options.js';
import { InvalidArgumentError } from 'commander';
import { parseList, parsePositiveInt } from '../command-spec.js';
import { parseShard } from './count-schedule.js';
import { withInterrupt } from '../with-interrupt.js';
import { providerNames } from '../install/index.js';
import { meterNames, METERS, DEFAULT_METERS } from '../metrics/index.js';
/**
 * `tagbench run`: benchmark releases side by side, one run record per release.
 * @param {Record<string, any>} options commander options
 * @returns {Promise<number>} exit code: 0 all ok, 1 some step failed, 130 interrupted
 */
export async function runCommand(options) {
  checkRefOptions(options);
  if (!options.releases && !options.ref) throw new UserError('missing --releases: give product@version[,product@version...], e.g. mariadb@10.11.18,mariadb@10.11.19 (or a git ref: --product mariadb --ref <branch, tag, commit or pull/N/head>)');
  const { loadConfig } = await import('../config/index.js');
  const { runSuite, parseReleaseList } = await import('./index.js');
  const { expandEngines } = await import('./resolve-run.js');
  const config = await loadConfig(resolve(new URL('../..', import.meta.url).pathname));
  const host = config.hosts[options.hostClass];
  /** @type {import('../install/index.js').ResolvedRefRun|null} */
  let refRun = null;
  /** @type {import('./run-releases.js').RunOptions['releases']} */
  let given;
  if (options.ref) {
    // A git ref and its base, both built from source: two releases of one run (ref-run.js).
    const { planRefRun } = await import('./ref-run.js');
    const planned = await planRefRun(config, {
      product: options.product, ref: options.ref, cacheDir: resolve(cacheDirFrom(options.cacheDir)), log: (l) => process.stderr.write(`ref: ${l}\n`),
      ...(options.repo ? { repo: options.repo } : {}), ...(options.baseRef ? { baseRef: options.baseRef } : {}), ...(options.base ? { baseVersion: options.base } : {}),
      ...(options.commit ? { commit: options.commit } : {}), ...(options.profile ? { profile: options.profile } : {}),
    });
    refRun = planned.resolved;
    given = planned.releases;
  } else {
    // --provider / --path apply to the releases that name no provider of their own.
    given = parseReleaseList(options.releases).map((r) => (r.provider ? r : { ...r, ...(options.provider ? { provider: options.provider } : {}), ...(options.path ? { path: options.path } : {}) }));
  }
  // Several engines: one server per engine of each release, labelled by it, alternating.
  const releases = applyMovedFrom(expandEngines(given, options.engine ?? []), options.movedFrom ?? []);
  // A suite with a config matrix runs each cell in turn (each its own series).
  const outcome = await withInterrupt((signal) => runSuite(config, {
    releases,
    suite: options.suite ?? host?.scale ?? 'smoke',
    hostClass: options.hostClass,
    mycnf: options.mycnf,
    repeats: options.repeats,
    instances: options.instances,
    ...(options.meter ? { meters: options.meter } : {}),
    ...(options.budgetH !== undefined ? { budgetH: options.budgetH } : {}),
    ...(options.resumeFrom?.length ? { resumeFrom: options.resumeFrom } : {}),
    ...(options.countShard ? { countShard: options.countShard } : {}),
    only: options.only,
    storeDir: resolve(options.store),
    workDir: resolve(workDirFrom(options.workDir, host)),
    cacheDir: resolve(cacheDirFrom(options.cacheDir)),
    portBase: options.portBase,
    signal,
    keepWork: Boolean(options.keepWork),
  }), (sig) => process.stderr.write(`\n${sig}: stopping servers and storing the records so far as partial...\n`));
  if (options.json) process.stdout.write(`${JSON.stringify({ records: outcome.paths, ...(refRun ? { ref: describeRefRun(refRun) } : {}) }, null, 2)}\n`);
  if (outcome.interrupted) return EXIT.interrupted;
  return outcome.records.every((r) => r.status === 'ok') ? EXIT.ok : EXIT.userError;
}

/**
 * The options of a ref run go together; those of a release run do not mix with them.
 * @param {Record<string, any>} options
 * @throws {UserError} naming the option that does not belong
 */
export function checkRefOptions(options) {
  if (!options.ref) {
    for (const [flag, key] of /** @type {const} */ ([['--repo', 'repo'], ['--base', 'base'], ['--base-ref', 'baseRef'], ['--commit', 'commit'], ['--profile', 'profile']])) {
      if (options[key] !== undefined) throw new UserError(`${flag} goes with --ref (a git ref to benchmark against its base); with --releases, list the releases to run`);
    }
    return;
  }
  if (!options.product) throw new UserError('--ref needs --product (configs/products/<name>.yml): the product whose repository, tags and build profile the ref uses');
  for (const [flag, key] of /** @type {const} */ ([['--releases', 'releases'], ['--provider', 'provider'], ['--path', 'path'], ['--moved-from', 'movedFrom']])) {
    if (options[key] !== undefined) throw new UserError(`${flag} does not go with --ref: a ref run builds the ref and its base from source (--repo names where the code is)`);
  }
}

/**
 * What `run --ref --json` says of the ref run, for the workflow's next steps (compare --ref
 * --commit, the check run).
 * @param {import('../install/index.js').ResolvedRefRun} r
 * @returns {{product: string, repository: string, pullRequest: number|null, ref: string, commit: string, version: string, base: {how: string, ref: string|null, version: string, commit: string}}}
 */
function describeRefRun(r) {
  return {
    product: r.product, repository: r.repository, pullRequest: r.pullRequest, ref: r.candidate.name, commit: r.candidate.commit, version: r.candidate.version,
    base: { how: r.baseHow, ref: r.baseRef, version: r.base.version, commit: r.base.commit },
  };
}

/**
 * Mark the releases whose tag moved (`--moved-from product@version=<old commit>`): their records
 * say "moved from <old> to <commit>".
 * @template {{product: string, version: string, commit?: string}} R
 * @param {R[]} releases
 * @param {string[]} given the option's values
 * @returns {(R & {movedFrom?: string})[]}
 * @throws {UserError} a value that is not product@version=<full commit>, names no release of
 *   --releases, or names one without @<commit> (the new commit must be known to say it moved)
 */
export function applyMovedFrom(releases, given) {
  /** @type {Map<string, string>} */
  const moved = new Map();
  for (const item of given) {
    const m = /^([a-z][a-z0-9-]*@[^=]+)=([0-9a-f]{40}|[0-9a-f]{64})$/.exec(item);
    if (!m) throw new UserError(`--moved-from '${item}': expected product@version=<the old full commit id>, e.g. mariadb@10.11.19=${'0'.repeat(40)}`);
    const target = releases.filter((r) => `${r.product}@${r.version}` === m[1]);
    if (target.length === 0) throw new UserError(`--moved-from '${item}': ${m[1]} is not one of --releases (${releases.map((r) => `${r.product}@${r.version}`).join(', ')})`);
    if (target.some((r) => !r.commit)) throw new UserError(`--moved-from '${item}': give ${m[1]}'s new commit in --releases (${m[1]}:source@<commit>), so that the record can say where the tag moved to`);
    if (target.some((r) => r.commit === m[2])) throw new UserError(`--moved-from '${item}': that is the commit ${m[1]} is built from; the tag moved from another one`);
    moved.set(m[1], m[2]);
  }
  return releases.map((r) => {
    const from = moved.get(`${r.product}@${r.version}`);
    return from ? { ...r, movedFrom: from } : r;
  });
}

/**
 * @param {string} value `wall,instructions`
 * @returns {import('../types.js').MeterName[]}
 * @throws {UserError} naming the unknown meter and the known ones
 */
function parseMeters(value) {
  const known = meterNames();
  const names = parseList(value);
  for (const n of names) if (!known.includes(n)) throw new UserError(`--meter: unknown meter '${n}'; known: ${known.join(', ')}`);
  return /** @type {import('../types.js').MeterName[]} */ (names);
}

/**
 * @param {string} value
 * @returns {number} hours, 0 or more
 */
function parseHours(value) {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`expected hours as a number >= 0 (0 = no limit), got ${JSON.stringify(value)}`);
  return n;
}

/**
 * @param {string} value `k/n`
 * @returns {{index: number, of: number}}
 */
function parseShardOption(value) {
  try {
    return parseShard(value);
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message : String(err));
  }
}

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'run',
    summary: 'benchmark releases with a suite on this host; writes one run record per release',
    help: [
      'Releases run side by side: each reported test\'s repeats alternate between them (A B A B ...)',
      'and are spread over several server instances (between rounds, a restart on a copy of the datadir taken after the load).',
      'Example: tagbench run --releases mariadb@10.11.18,mariadb@10.11.19 --suite smoke --host-class local',
      'InnoDB against MyRocks on one release: tagbench run --releases mariadb@10.11.18 --engine innodb,rocksdb',
      'A git ref (a branch, tag, full commit or pull request of the product\'s repository or a fork) against its base,',
      'both built from source, stored apart from the release series (refs/runs/):',
      '  tagbench run --product mariadb --ref pull/123/head --repo https://github.com/MariaDB/server.git --base-ref 10.11 --suite smoke',
      'Each release\'s record is stored as soon as that release is done. Ctrl-C or SIGTERM (a cancelled job, a',
      'timeout) stops every server, stores the records not stored yet as status "partial" and exits 130.',
    ].join('\n'),
    options: [
      { flags: '--releases <list>', description: 'comma-separated product@version (e.g. mariadb@10.11.18,mariadb@10.11.19); product@version#label:provider or #label=PREFIX runs another install of a version beside it (mariadb@10.11.18,mariadb@10.11.18#ours:source); :source@<full commit> the source build of exactly that commit (a moved tag)' },
      { flags: '--product <name>', description: 'with --ref: the product (configs/products/<name>.yml) whose repository, release tags and build profile the ref uses' },
      { flags: '--ref <ref>', description: 'benchmark a git ref instead of releases: a branch, a tag, a full commit id or a pull request\'s head (pull/N/head), resolved with git (ls-remote, then its commits fetched into <cache>/.git-refs/), built with the source provider (cached by commit) and run beside its base; the records carry release.ref and are stored apart (refs/runs/): never a release, a baseline or a change point' },
      { flags: '--repo <url or folder>', description: 'with --ref: the repository holding it (a fork, a local clone); default: the product\'s gitUrl. A user name or token in the URL is used to fetch and kept out of the records' },
      { flags: '--base <version>', description: 'with --ref: compare with this release (built from its tag); default: the release it branched from (the newest release tag that is an ancestor of the ref\'s commit)' },
      { flags: '--base-ref <ref>', description: 'with --ref: compare with the merge base of the ref and this ref (a pull request\'s base branch)' },
      { flags: '--commit <sha>', description: 'with --ref: build this full commit id (a pull request\'s head when the workflow started), fetched from the repository, whatever the ref names by then; the records still name the ref' },
      { flags: '--profile <name>', description: 'with --ref: the build profile of both sides (configs/products/<product>.yml build.profiles; default build.defaultProfile), e.g. reduced on a small host' },
      { flags: '--moved-from <release=commit>', description: 'product@version=<old full commit>: that release\'s tag was moved since it was benchmarked at the old commit (benchmark.yml passes what watch found); its record says "moved from <old> to <new>" (release.movedFrom). Repeatable', parse: (/** @type {string} */ v, /** @type {string[]|undefined} */ prev) => [...(prev ?? []), v] },
      { flags: '--suite <name>', description: 'suite (configs/suites/<name>.yml); default: the host class\'s scale' },
      { flags: '--host-class <name>', description: 'host class (configs/hosts/<name>.yml)', default: 'local' },
      { flags: '--engine <engines>', description: 'storage engine (innodb, rocksdb; default: the suite\'s engine, else innodb); several, comma-separated, run one server per engine of each release, labelled by it (mariadb@10.11.18#innodb, mariadb@10.11.18#rocksdb), alternating like releases', parse: parseList },
      { flags: '--mycnf <name>', description: 'my.cnf template (configs/mycnf/<name>.cnf); default: the engine\'s' },
      { flags: '--repeats <n>', description: 'repeats per test; default: the host class\'s', parse: parsePositiveInt },
      { flags: '--instances <n>', description: 'server instances (restarts on a copy of the datadir after the load) the repeats are spread over; default: the host class\'s, else 2', parse: parsePositiveInt },
      { flags: '--meter <meters>', description: `how to measure, comma-separated, of the registered meters (scripts/metrics/meters/): ${Object.values(METERS).map((m) => `${m.name} (${m.kind})`).join(', ')}; timed meters measure the timed repeats, counted ones count a fixed amount of work on servers of their own; default: the suite's, else the host class's, else ${DEFAULT_METERS.join(',')}`, parse: parseMeters },
      { flags: '--only <tests>', description: 'comma-separated test names to run (setup steps still run)', parse: parseList },
      { flags: '--count-shard <k/n>', description: 'count the k-th of n shares of the counted tests (every n-th test or sequence in suite order, from the k-th), both releases of each, and nothing timed: with counting meters only (--meter instructions); the n shards\' records of a release merge in compare like any records of it, so n runners (which need no bare metal) split a counted leg', parse: parseShardOption },
      { flags: '--budget-h <hours>', description: 'hours this run may take: a run estimated over it is refused before anything starts (0 = no limit); default: the host class\'s legBudgetH, else no limit', parse: parseHours },
      { flags: '--resume-from <run ids>', description: 'comma-separated run ids in --store (a leg resumed after it died: tagbench store fetch puts them there): a release with a finished (ok) record among them is not run again; a partial or failed one is history and its release runs again; a finished one measured with other repeats, instances, tests, my.cnf or meters is refused', parse: parseList },
      { flags: '--provider <name>', description: `install provider for every release (${providerNames().join(', ')}); default: the install cache, else deb` },
      { flags: '--path <prefix>', description: 'install prefix for the path provider' },
      { flags: '--store <dir>', description: 'results store directory', default: 'results' },
      ...SERVER_RUN_OPTIONS,
      { flags: '--keep-work', description: 'keep datadirs after the run (default: removed when the run ends)' },
      { flags: '--json', description: 'print the written record paths as JSON on stdout' },
    ],
    run: runCommand,
  },
];
