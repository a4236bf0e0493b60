/**
 * CLI commands of the verify stage: compare, confirm, calibrate, bisect. They read the store, run
 * releases (confirm, calibrate) and hand the numbers to scripts/compare/'s pure functions.
 * Each handler imports the module it drives only when it runs, so `--help` stays light.
 */
import { SERVER_RUN_OPTIONS } from '../run-options.js';
import { parseList, parsePositiveInt } from '../command-spec.js';
import { CALIBRATION_DEFAULTS, TIMED_INJECTIONS } from './calibrate/settings.js';

export { CALIBRATION_DEFAULTS } from './calibrate/settings.js';

/**
 * `tagbench compare`: tables, verdicts against the base and change points of a product line.
 * @param {Record<string, any>} options see CompareOptions in compare-releases.js
 * @returns {Promise<number>} 0, or 2 when a regression at the issue level is found
 * @throws {UserError} bad options, no records, unreadable store or baseline
 */
export async function compareCommand(options) {
  const { compareReleases } = await import('./compare-releases.js');
  return compareReleases(options);
}

/**
 * `tagbench confirm`: rerun the regressed tests of a comparison and keep what the rerun agrees with.
 * @param {Record<string, any>} options see confirm-regressions.js
 * @returns {Promise<number>} 0, or 2 when a confirmed issue-level regression remains
 * @throws {UserError} no such comparison, or the rerun cannot run
 */
export async function confirmCommand(options) {
  const { confirmRegressions } = await import('./confirm-regressions.js');
  return confirmRegressions(options);
}

/**
 * `tagbench calibrate`: false alarms and detection rate of this host, for one meter.
 * @param {Record<string, any>} options see calibrate/pipeline.js
 * @returns {Promise<number>} 0, or 130 when interrupted
 * @throws {UserError} bad options, no cgroup (timed quota), no gcc or valgrind (counted)
 */
export async function calibrateCommand(options) {
  const { calibrateHost } = await import('./calibrate/pipeline.js');
  return calibrateHost(options);
}

/**
 * `tagbench bisect`: the first bad release between a good and a bad one.
 * @param {Record<string, any>} options see BisectOptions in bisect.js
 * @returns {Promise<number>} 0 found, 3 stopped for want of evidence, 130 interrupted
 * @throws {UserError} bad options, no comparison to take the tests from
 */
export async function bisectCommand(options) {
  const { bisectReleases } = await import('./bisect.js');
  return bisectReleases(options);
}

/** `tagbench compare`: its help and options. @type {import('../command-spec.js').CommandSpec} */
const compareSpec = {
  name: 'compare',
  summary: 'relative-to-base tables, verdicts against the baseline and change points for a product line; tables across lines and products',
  help: [
    'Every release is compared with the base: ratio of medians with an exact rank interval, thresholds',
    'from configs/thresholds.yml, verdicts regression / improvement / unchanged / inconclusive / failed,',
    'the minimum detectable effect per test, and change points across the releases (apache-otava).',
    'Stores the comparisons, and the change points of the series (changepoints/<host-class>/<product>/<line>/<suite>.json,',
    'replaced by each compare of the whole series; a compare of some --releases only prints them).',
    'Base: --base, else baselines/<host-class>/<product>/<line>/<suite>.yml, else the line\'s baseVersion, else the first release.',
    'Exit codes: 0 no issue-level regression, 1 bad input, 2 an issue-level regression (confirm it with `tagbench confirm`).',
    'Example: tagbench compare --product mariadb --releases 10.11.18,10.11.19 --markdown out/compare.md',
    'Across lines and products: releases named product@version, run on the same host class and suite, give one table',
    '(a row per test, a column per release, QPS and ratio to --base, default the first) and no verdicts: verdicts stay per line.',
    'Example: tagbench compare --releases mariadb@10.5.23,mariadb@10.11.18,mariadb@11.8.9,mysql@9.7.4 --base mariadb@10.5.23',
    'A ref run (tagbench run --ref): its commit against the base that ran beside it, stored apart (refs/verdicts/), no change points:',
    '  tagbench compare --product mariadb --ref pull/123/head --repo https://github.com/MariaDB/server.git --commit <sha> --suite smoke',
  ].join('\n'),
  options: [
    { flags: '--product <name>', description: 'product (configs/products/<name>.yml)' },
    { flags: '--line <name>', description: 'product line; default: the line of the releases\' records' },
    { flags: '--releases <list>', description: 'comma-separated versions, in column order; default: every version in the store; product@version entries: one table across lines and products, no verdicts', parse: parseList },
    { flags: '--base <version>', description: 'base release (product@version across products); default: the baseline file\'s, across products the first release; with --ref: the runs of the commit against that release' },
    { flags: '--ref <ref>', description: 'the verdicts of a ref run (tagbench run --ref): the candidate\'s records of the commit the ref names (a branch, tag, full commit id or pull/N/head) against the base records of the same runs; stored under refs/verdicts/ with the ref, the commit and the base; prints the site page of the ref run' },
    { flags: '--repo <url or folder>', description: 'with --ref: the repository the ref is resolved in (git ls-remote); default: the product\'s gitUrl' },
    { flags: '--commit <sha>', description: 'with --ref: the candidate\'s full commit id (what run --ref --json printed) instead of resolving the ref again: a ref pushed to during the run names another commit' },
    { flags: '--base-ref <ref>', description: 'with --ref: the runs of the commit against the merge base with this ref (when it ran against several bases)' },
    { flags: '--host-class <name>', description: 'host class of the runs', default: 'local' },
    { flags: '--suite <name>', description: 'suite of the runs', default: 'smoke' },
    { flags: '--store <dir>', description: 'results store directory', default: 'results' },
    { flags: '--baselines <dir>', description: 'baselines directory', default: 'baselines' },
    { flags: '--markdown <file>', description: 'also write the report as Markdown' },
    { flags: '--json <file>', description: 'also write {base, table, comparisons, changePoints} as JSON' },
    { flags: '--no-store-verdicts', description: 'do not write the comparisons nor the change points to the results store' },
    { flags: '--no-change-points', description: 'skip change-point detection (release-series rule, apache-otava for long series)' },
    { flags: '--functions', description: 'where the instructions went (functions that added and removed the most instructions per operation) for every instruction verdict, not only regressions and improvements' },
    { flags: '--adaptive', description: 'before judging, run more server instances of just the undecided tests (both releases alternating) until decided or the host class\'s adaptive.budgetS is spent' },
    { flags: '--adaptive-budget <seconds>', description: 'time budget of --adaptive instead of the host class\'s', parse: parsePositiveInt },
    ...SERVER_RUN_OPTIONS,
  ],
  run: compareCommand,
};

/** `tagbench confirm`: its help and options. @type {import('../command-spec.js').CommandSpec} */
const confirmSpec = {
  name: 'confirm',
  summary: 'rerun only the regressed tests of a comparison (both releases, alternating); keep regressions the rerun agrees with',
  help: 'Writes the confirmed comparison as a new file in the store; issues are opened only for confirmed regressions.\nExit codes: 0 no confirmed issue-level regression, 1 bad input, 2 a confirmed issue-level regression.',
  options: [
    { flags: '--product <name>', description: 'product' },
    { flags: '--version <version>', description: 'candidate version of the comparison' },
    { flags: '--comparison <id>', description: 'comparison id (file name in the store); default: the newest unconfirmed one' },
    { flags: '--provider <name>', description: 'install provider of both releases in the rerun (deb, source, tarball); default: the install cache, else deb' },
    { flags: '--commit <sha>', description: 'with --provider source: the candidate\'s build of exactly this full commit id (a moved tag\'s install cache holds a build of each commit); benchmark.yml passes the commit the run was built from' },
    { flags: '--ref', description: 'the comparison is of a ref run (compare --ref, refs/verdicts/; --version is its candidate\'s, e.g. 10.11.18+1a2b3c4d5e6f): both sides are rerun from their source builds and the rerun\'s records stay under refs/' },
    { flags: '--host-class <name>', description: 'host class', default: 'local' },
    { flags: '--suite <name>', description: 'suite (default: any)' },
    { flags: '--repeats <n>', description: 'repeats per test in the rerun; default: the host class\'s' },
    { flags: '--instances <n>', description: 'server instances the rerun\'s repeats are spread over (at most the repeats); default: the host class\'s' },
    { flags: '--store <dir>', description: 'results store directory', default: 'results' },
    ...SERVER_RUN_OPTIONS,
  ],
  run: confirmCommand,
};

/** `tagbench calibrate`: its help and options (each kind's defaults from calibrate/settings.js). @type {import('../command-spec.js').CommandSpec} */
const calibrateSpec = {
  name: 'calibrate',
  summary: 'measure false issues per run (A/A with two servers side by side) and detection of injected costs of known size, through compare and confirm: slowdowns under the wall meter, added instructions under the instructions meter',
  help: [
    'Each run starts servers of one release, each with its own datadir: A and B for A/A, and injected servers S.',
    'A timed meter, --meter wall (default): S is slowed by --slowdowns in turn, --inject quota: its server in a cgroup CPU quota (needs root), or',
    '--inject preload: every server loads the preload library (built with gcc), S\'s spinning on each query answer for a share of',
    'the CPU time that query took (s / (1 - s)), A\'s and B\'s at 0; compare --adaptive and confirm.',
    'A counted meter, --meter instructions: every server runs under it (callgrind); S loads a preload library (built with gcc) that adds a fixed number of',
    'instructions to each query answer, sized by --sizes as shares of point-query\'s instructions per query in a reference run, or turns',
    'performance_schema on; the first size is injected in every run, the others take turns; compare and confirm (counts need no adaptive repeats).',
    'Writes bench/calibration-<host-class>.md (another meter: bench/calibration-<meter>-<host-class>.md) and .json after every run;',
    'the same settings again add runs until --runs.',
  ].join('\n'),
  options: [
    { flags: '--product <name>', description: 'product' },
    { flags: '--version <version>', description: 'release to calibrate with' },
    { flags: '--provider <name>', description: 'install provider of the release (default deb)' },
    { flags: '--meter <name>', description: 'the meter to calibrate, any registered one (scripts/metrics/meters/), calibrated by its kind; default: wall, the host\'s own calibration' },
    { flags: '--host-class <name>', description: 'host class', default: 'local' },
    { flags: '--suite <name>', description: 'suite; default: the host class\'s scale' },
    { flags: '--only <tests>', description: `tests to calibrate (default ${Object.entries(CALIBRATION_DEFAULTS).map(([m, d]) => `${m}: ${d.tests.join(', ')}`).join('; ')})`, parse: parseList },
    { flags: '--runs <n>', description: `calibration runs the report should hold (default ${Object.entries(CALIBRATION_DEFAULTS).map(([m, d]) => `${m} ${d.runs}`).join(', ')})`, parse: parsePositiveInt },
    { flags: '--slowdowns <list>', description: 'timed: injected slowdowns as fractions, one per run in turn', default: CALIBRATION_DEFAULTS.timed.slowdowns.map((s) => s.toFixed(2)).join(',') },
    { flags: '--inject <how>', description: 'timed: how S is slowed: a cgroup CPU quota of (1 - slowdown) x its server\'s CPU in a reference run, or the preload library spinning on each query answer for slowdown / (1 - slowdown) of that query\'s own CPU time', choices: [...TIMED_INJECTIONS], default: TIMED_INJECTIONS[0] },
    { flags: '--sizes <list>', description: 'counted: injected costs as shares of point-query\'s instructions per query, or performance_schema; the first in every run, the others in turn', default: CALIBRATION_DEFAULTS.counted.sizes.join(',') },
    { flags: '--adaptive-budget <seconds>', description: 'timed: budget of the adaptive repeats per comparison; default: the host class\'s', parse: parsePositiveInt },
    { flags: '--instances <n>', description: 'timed: server instances per side in each run and its confirmation, one repeat each (2 to the host class\'s adaptive.maxInstances); default: the host class\'s repeats and instances', parse: parsePositiveInt },
    { flags: '--note <text>', description: 'the conditions of this call\'s runs, printed in the report beside their run numbers (e.g. "quiet host: nothing else ran")' },
    { flags: '--report <file>', description: 'report path; default bench/calibration-<host-class>.md (another meter: calibration-<meter>-<host-class>.md)' },
    { flags: '--store <dir>', description: 'results store for the calibration runs', default: '.tagbench/calibration-store' },
    ...SERVER_RUN_OPTIONS,
  ],
  run: calibrateCommand,
};

/** `tagbench bisect`: its help and options. @type {import('../command-spec.js').CommandSpec} */
const bisectSpec = {
  name: 'bisect',
  summary: 'find the first bad release between a good and a bad one: probe the releases in between (binary search), rerunning only the regressed tests against the good release',
  help: [
    'Each probe runs the tests for one candidate and the good release side by side, alternating, extends undecided',
    'verdicts with adaptive repeats (as compare --adaptive), and calls the candidate bad on an issue-level regression',
    'of every test, good when every test is unchanged or better within the thresholds. Any other probe stops the search',
    'and says between which releases the first bad one lies: it never guesses.',
    'Candidates: --candidates (oldest first; VERSION, or VERSION#LABEL=PATH for an installed prefix), else the versions',
    'of configs/products/<product>.yml strictly between good and bad (deb list, or tarball.sha256 with --provider tarball).',
    'Source provider: give tagged versions with --candidates (each built from its tag), or --commits: the candidates are the',
    'first-parent commits between the good and the bad release\'s tags (gitUrl, or a local mirror with --path), each built',
    'from source (ref = the commit, cached by ref) and run against the good release built from its tag; at most --max-commits.',
    'Stores the report at bisects/<host-class>/<product>/<suite>/ in the results store; prints it as Markdown.',
    'Exit codes: 0 first bad release found, 1 bad input, 3 stopped (not enough evidence), 130 interrupted.',
    'Example: tagbench bisect --product mariadb --good 10.11.18 --bad 10.11.19 --markdown out/bisect.md',
    'Example: tagbench bisect --product mariadb --good 10.11.18 --bad 10.11.19 --provider source --commits --path ~/mirrors/server',
  ].join('\n'),
  options: [
    { flags: '--product <name>', description: 'product' },
    { flags: '--good <release>', description: 'the good release: VERSION, or VERSION#LABEL=PATH' },
    { flags: '--bad <release>', description: 'the bad release' },
    { flags: '--candidates <list>', description: 'releases in between, oldest first; default: the provider\'s known versions between good and bad', parse: parseList },
    { flags: '--provider <name>', description: 'install provider of releases without a path (default deb; source with --commits)' },
    { flags: '--commits', description: 'candidates: the first-parent commits between the good and the bad release\'s tags, each built from source' },
    { flags: '--path <dir>', description: 'with --commits: a local git mirror of the product to list and build the commits from, instead of its gitUrl' },
    { flags: '--max-commits <n>', description: 'with --commits: refuse a range of more commits than this (one build per probe)', default: 63, parse: parsePositiveInt },
    { flags: '--only <tests>', description: 'tests to bisect (their throughput); default: the issue-level regressions of the stored comparison of bad against good', parse: parseList },
    { flags: '--comparison <id>', description: 'that comparison\'s id; default: the newest, a confirmed one first' },
    { flags: '--host-class <name>', description: 'host class', default: 'local' },
    { flags: '--suite <name>', description: 'suite; default: the host class\'s scale' },
    { flags: '--repeats <n>', description: 'repeats per probe; default: the host class\'s', parse: parsePositiveInt },
    { flags: '--adaptive-budget <seconds>', description: 'adaptive repeats per probe: time budget instead of the host class\'s', parse: parsePositiveInt },
    { flags: '--note <text>', description: 'what a reader must know about the releases (kept in the report, shown first)' },
    { flags: '--markdown <file>', description: 'also write the report as Markdown (an issue comment)' },
    { flags: '--store <dir>', description: 'results store directory', default: 'results' },
    ...SERVER_RUN_OPTIONS,
  ],
  run: bisectCommand,
};

/** The verify stage's commands, in --help order. @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [compareSpec, confirmSpec, calibrateSpec, bisectSpec];
