#!/usr/bin/env node
/**
 * Which test files run alone, which beside them, and which side by side afterwards, in what
 * order (setup/test.sh).
 *
 * - `alone`: files whose assertions need a quiet host: they decide a verdict between releases
 *   that perform alike, or calibrate an injected slowdown against the host's measured speed.
 *   They run one at a time; their servers and clients are pinned to the last CPU (the `local`
 *   host class).
 * - `light`: files that start no database server, no benchmark tool and no workflow run (found
 *   by reading their source for what starts one, see STARTS_WORK). They run at the same time as
 *   the `alone` files, pinned to the first CPU (setup/test.sh), so they take nothing from the CPU
 *   the quiet files measure on. A file wrongly taken for light only adds noise to that phase.
 * - `heavy`: every other file, side by side (`node --test --test-concurrency=N`) once the quiet
 *   phase is over: their real servers run fixed durations or fixed work, each on its own ports
 *   and work folders, and what they assert holds on a loaded host (a throttled server at a
 *   tenth of a CPU is a regression whatever the neighbours do).
 *
 * Usage: node test/support/test-plan.js alone|light|heavy   prints one file per line
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Files that need a quiet host, and why. */
export const ALONE = Object.freeze({
  // Its A/A probe (c2) must be decided unchanged within the adaptive budget: noise from other
  // files' servers leaves it inconclusive and the bisection stops.
  'test/verify/bisect-servers.test.js': 'an A/A probe must be decided unchanged',
  // The injected slowdown is a CPU quota sized from the reference run's measured server CPU:
  // measured beside other servers it overshoots (a realised ratio of 0.37 for a nominal 0.85).
  'test/verify/calibrate/calibrate-host.test.js': 'a slowdown calibrated against the measured server CPU',
});

/**
 * What in a test file's source says it starts a server, a benchmark tool, a workflow run or a
 * tagbench command (directly, through a helper, or as a child process). The CPU throttle of
 * servers is named by its files and function (server-throttle.js, the act tests'
 * throttle-server.js, watchServer), not by the word: `throttle: false` is the Octokit client's
 * rate-limit plugin turned off, which the GitHub tests all write, and it started no server.
 */
export const STARTS_WORK = /startServer|runReleases|runSuite|getInstall|test-server|runAct|calibrateHost|bisectReleases|confirmRegressions|compareReleases|cli\.js|installRelease|server-throttle|throttle-server|watchServer|spawn|execFile|exec\(/;

/**
 * The slowest heavy files first, longest first, so that the side-by-side run does not end
 * waiting on one long file started late: node --test starts the next file of its list when one
 * ends, and a 446 s file started 79th of 99 (calibrate-instructions, in name order) ran on alone
 * at the end. The seconds are each file's whole process in the clean-clone run of df0aca7
 * (test/support/slowest-tests.js; watch-act's full run from the run before, the preload
 * calibration from its test in calibrate-host.test.js then); on a 2-core host with four files
 * side by side, so they rank files rather than say how long one takes alone. Files of 25 s and
 * more are listed; the others follow in name order. To refresh it after a run:
 * `node test/support/slowest-tests.js --top 40` (the light and quiet files it lists stay out).
 */
export const SLOW_FIRST = Object.freeze([
  'test/github-workflows/pull-request-act.test.js', // 943
  'test/github-workflows/benchmark-act.test.js', // 788
  'test/github-workflows/watch-act.test.js', // 550
  'test/verify/calibrate/calibrate-instructions.test.js', // 446
  'test/run/run-releases.test.js', // 243
  'test/verify/calibrate/inject-cost.test.js', // 207
  'test/run/sequence-count.test.js', // 175
  'test/verify/adaptive-repeats.test.js', // 125
  'test/metrics/meters/made-up-meters.test.js', // 124
  'test/run/instructions-meter.test.js', // 119
  'test/site-build/real-run.test.js', // 103
  'test/workload/sysbench-server.test.js', // 102
  'test/verify/calibrate/calibrate-preload.test.js', // 89
  'test/run/matrix-run.test.js', // 75
  'test/run/sweep-run.test.js', // 74
  'test/github-workflows/triage-act.test.js', // 66
  'test/workload/linkbench-server.test.js', // 60
  'test/run/insert-benchmark.test.js', // 59
  'test/run/engine-comparison.test.js', // 54
  'test/run/loops-benchmark.test.js', // 52
  'test/run/iobound-run.test.js', // 50
  'test/run/same-data-rounds.test.js', // 45
  'test/github-workflows/github-action-benchmark-act.test.js', // 39
  'test/metrics/instance-cpu.test.js', // 38
  'test/github-workflows/pages-act.test.js', // 33
  'test/github-workflows/inputs-act.test.js', // 33
  'test/metrics/start-sampling.test.js', // 30
  'test/server/wrapper.test.js', // 28
  'test/doctor/commands.test.js', // 26
]);

/**
 * @param {'alone'|'light'|'heavy'} which
 * @returns {Promise<string[]>} test files relative to the project root
 * @throws {Error} for another argument, or a listed file that does not exist
 */
export async function planTestFiles(which) {
  if (!['alone', 'light', 'heavy'].includes(which)) throw new Error(`test-plan: expected 'alone', 'light' or 'heavy', got '${which}'`);
  const entries = await readdir(join(ROOT, 'test'), { recursive: true, withFileTypes: true });
  const all = entries.filter((e) => e.isFile() && e.name.endsWith('.test.js'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name))).sort();
  const missing = [...Object.keys(ALONE), ...SLOW_FIRST].filter((f) => !all.includes(f));
  if (missing.length > 0) throw new Error(`test/support/test-plan.js lists files that do not exist: ${missing.join(', ')}`);
  if (which === 'alone') return Object.keys(ALONE);
  const rest = all.filter((f) => !(f in ALONE));
  /** @type {string[]} */
  const light = [];
  for (const f of rest) if (!STARTS_WORK.test(await readFile(join(ROOT, f), 'utf8'))) light.push(f);
  if (which === 'light') return light;
  const heavy = rest.filter((f) => !light.includes(f));
  return [...SLOW_FIRST.filter((f) => heavy.includes(f)), ...heavy.filter((f) => !SLOW_FIRST.includes(f))];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const f of await planTestFiles(/** @type {any} */ (process.argv[2]))) console.log(f);
}
