/**
 * `tagbench bisect`: given a regression between a good and a bad release, find the first bad
 * release among those in between. Each probe runs only the regressed tests, for one candidate
 * and the good release side by side with their repeats alternating (the run stage), extends the
 * undecided verdicts with adaptive repeats as `compare --adaptive` does, and judges the
 * candidate by the verdict rules that open issues (scripts/verify/bisect-search.js). The search
 * is binary, and it stops at the first probe that cannot tell, saying so with the evidence so
 * far, rather than guessing. The report is stored (bisects/ in the results store), printed, and
 * written as Markdown for the issue when asked.
 */
import { resolve } from 'node:path';
import { EXIT } from '../errors.js';
import { runReleases as runReleasesReal } from '../run/index.js';
import { readRecords, writeBisectReport, replaceFileAtomic } from '../store/index.js';
import { estimateNoiseHistory, renderBisectReport } from '../compare/index.js';
import { resolveAdaptiveLimits } from './adaptive-repeats.js';
import { searchFirstBad, maxProbes } from './bisect-search.js';
import { installRelease as installReleaseReal } from '../install/index.js';
import { planBisect } from './bisect-plan.js';
import { createProber } from './bisect-probe.js';
import { loadVerifyContext } from './load-verify-context.js';
import { withInterrupt } from '../with-interrupt.js';

/** @typedef {import('../store/index.js').BisectReport} BisectReport */
/** @typedef {import('./bisect-plan.js').BisectPlan} BisectPlan */

/**
 * @typedef {object} BisectOptions
 * @property {string} product
 * @property {string} good the good release (`VERSION[#LABEL][=PATH]`)
 * @property {string} bad the bad release
 * @property {string[]|string} [candidates] releases in between, oldest first; default: the
 *   provider's known versions strictly between good and bad (deb: configs/products/<p>.yml deb,
 *   tarball: its tarball.sha256)
 * @property {string} [provider] install provider of releases without a path (default deb)
 * @property {boolean} [commits] candidates are the first-parent commits between the good and the
 *   bad release's tags, each built by the source provider (bisect-commits.js)
 * @property {string} [path] with commits: a local git mirror to read and build from instead of gitUrl
 * @property {number} [maxCommits] with commits: refuse more candidates than this (default 63: at most 6 builds)
 * @property {string[]|string} [only] tests to bisect (throughput); default: the issue-level
 *   regressions of the stored comparison of bad against good
 * @property {string} [comparison] id of that comparison (default: the newest, confirmed first)
 * @property {string} [hostClass] default local
 * @property {string} [suite] default the host class's scale
 * @property {number} [repeats] repeats per probe (default the host class's)
 * @property {number} [adaptiveBudget] seconds of adaptive repeats per probe (default the host class's)
 * @property {string[]|string} [note] what a reader must know about the releases (kept in the report)
 * @property {string} [markdown] write the report as Markdown here (for the issue comment)
 * @property {string} [store] results store (default results)
 * @property {string} [workDir]
 * @property {string} [cacheDir]
 * @property {number} [portBase]
 * @property {string} [root] project root holding configs/
 * @property {(text: string) => void} [out] stdout writer
 * @property {(text: string) => void} [write] progress writer (default stderr)
 */

/**
 * @typedef {object} BisectDeps stand-ins for tests; each defaults to the real one
 * @property {typeof runReleasesReal} [runReleases]
 * @property {typeof installReleaseReal} [installRelease] the install stage (commit builds)
 * @property {() => number} [now] ms clock
 */

/**
 * `tagbench bisect` (see the module comment).
 * @param {Record<string, any>} options see BisectOptions
 * @param {BisectDeps} [deps]
 * @returns {Promise<number>} 0 found, 3 stopped (not enough evidence), 130 interrupted
 * @throws {UserError} bad options, no comparison to take the tests from, candidates out of order
 */
export async function bisectReleases(options, deps = {}) {
  const now = deps.now ?? Date.now;
  const { config, thresholds, out } = await loadVerifyContext(options);
  const write = options.write ?? ((/** @type {string} */ t) => process.stderr.write(t));
  const log = (/** @type {string} */ m) => write(`bisect: ${m}\n`);
  const plan = await planBisect(options, config, log);
  const { hostClass, suite, storeDir, candidates } = plan;
  // Noise of earlier runs on this host class and suite, as compare uses it for the detectable effect.
  const noiseHistory = estimateNoiseHistory(await readRecords(storeDir, { hostClass, suite, status: ['ok', 'failed'] }), thresholds);
  const { search, probes, aborted, createdAt } = await withInterrupt(async (signal) => {
    const createdAt = new Date(now()).toISOString();
    log(`${plan.product} ${plan.good.name} (good) .. ${plan.bad.name} (bad): ${candidates.length} ${plan.commitMode ? 'commit' : 'candidate'}(s) in between, at most ${maxProbes(candidates.length)} probe(s)${plan.commitMode ? ' (one build each)' : ''} of ${plan.targets.map((t) => `${t.test} ${t.metric}`).join(', ')} on ${hostClass}, suite ${suite}`);
    const { probe, probes } = createProber({
      plan, config, thresholds, noiseHistory, ...resolveAdaptiveLimits(plan.host, options.adaptiveBudget),
      ...(options.repeats ? { repeats: Number(options.repeats) } : {}),
      ...(options.portBase ? { portBase: Number(options.portBase) } : {}),
      signal, write, log, now, startedMs: now(),
      runReleases: deps.runReleases ?? runReleasesReal, installRelease: deps.installRelease ?? installReleaseReal,
    });
    const search = await searchFirstBad(candidates.length, probe, { shouldStop: () => signal.aborted });
    return { search, probes, aborted: signal.aborted, createdAt };
  }, () => log('interrupted: stopping the servers; the report keeps the probes done so far'));
  /** @type {BisectReport} */
  const report = {
    schemaVersion: 1, createdAt, finishedAt: new Date(now()).toISOString(), hostClass, product: plan.product, suite,
    good: plan.good, bad: plan.bad, source: plan.source, targets: plan.targets, candidates: candidates.map(({ sha: _sha, ...release }) => release), probes,
    outcome: describeOutcome(plan, search, probes, aborted),
    notes: plan.notes,
  };
  const { path } = await writeBisectReport(storeDir, report);
  log(`stored ${path}`);
  const markdown = renderBisectReport(report);
  out(markdown);
  if (options.markdown) await replaceFileAtomic(resolve(options.markdown), markdown);
  const { status } = report.outcome;
  return status === 'found' ? EXIT.ok : status === 'interrupted' ? EXIT.interrupted : EXIT.stopped;
}

/**
 * What the search found, in the report's words: the last good and first bad release, the
 * suspects between them, and a message that never guesses past the evidence.
 * @param {BisectPlan} plan
 * @param {import('./bisect-search.js').SearchOutcome} search
 * @param {BisectReport['probes']} probes
 * @param {boolean} aborted the search was interrupted
 * @returns {BisectReport['outcome']}
 * @throws nothing
 */
function describeOutcome({ good, bad, candidates, commitMode }, search, probes, aborted) {
  // Search indexes run from -1 (the good release) to candidates.length (the bad one).
  const names = [good.name, ...candidates.map((c) => c.name), bad.name];
  const lastGood = names[search.lastGood + 1];
  const firstBad = names[search.firstBad + 1];
  const suspects = search.status === 'found' ? [firstBad] : names.slice(search.lastGood + 2, search.firstBad + 2);
  const status = aborted ? 'interrupted' : search.status;
  const stoppedAt = probes.at(-1);
  const unit = commitMode ? 'commit' : 'release';
  const message = status === 'found'
    ? candidates.length === 0 ? `No ${unit} lies between ${good.name} and ${bad.name}: the first bad ${unit} is ${bad.name} itself (nothing to probe).`
      : search.firstBad === candidates.length ? `Every candidate is good: the first bad ${unit} is ${bad.name} itself (last good ${lastGood}, ${probes.length} probe(s)).`
        : `${commitMode ? 'Commit ' : ''}${firstBad} is the first bad ${unit}: ${lastGood} is good and ${firstBad} is bad (${probes.length} probe(s)).`
    : status === 'interrupted' ? `Interrupted after ${probes.length} probe(s): the first bad ${unit} is one of ${suspects.join(', ')} (last good ${lastGood}, first known bad ${firstBad}).`
      : `Stopped at probe ${probes.length} (${stoppedAt?.candidate}): ${stoppedAt?.reason}. Not guessing: the first bad ${unit} is one of ${suspects.join(', ')} (last known good ${lastGood}, first known bad ${firstBad}). To go on, bisect again between ${lastGood} and ${firstBad} with more instances (--repeats, --adaptive-budget) or on a quieter host.`;
  return { status, lastGood, firstBad, suspects, message };
}
