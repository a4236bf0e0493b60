/**
 * The adaptive budget is a budget: a round whose estimate (the run's own, estimateTestsRun) does
 * not fit what is left of it is not started, and the comparison says what was skipped and the
 * estimate it used. On real records (test/fixtures/compare/time-and-work: two releases on a loaded
 * host, their timed verdicts inconclusive), with no server: a round that started would need one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../scripts/config/index.js';
import { readRecords } from '../../scripts/store/index.js';
import { resolveThresholds, renderComparison } from '../../scripts/compare/index.js';
import { estimateTestsRun } from '../../scripts/run/index.js';
import { extendUndecided } from '../../scripts/verify/adaptive-repeats.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STORE = fileURLToPath(new URL('../fixtures/compare/time-and-work/', import.meta.url));

/**
 * @param {number} budgetS
 * @param {number} [clockS] seconds the clock moves each time it is read (an extension that started earlier)
 */
async function extendWith(budgetS, clockS = 0) {
  const config = await loadConfig(ROOT);
  const records = await readRecords(STORE);
  const side = (/** @type {string} */ version) => ({ version, records: records.filter((r) => r.release.version === version) });
  const lines = /** @type {string[]} */ ([]);
  let t = 0;
  const out = await extendUndecided(side('10.11.18'), side('10.11.19'), '2026-11-28T13:02:17Z', {
    config, thresholds: resolveThresholds(config.thresholds), product: 'mariadb', suite: 'smoke', hostClass: 'local',
    storeDir: '/nonexistent/store', workDir: '/nonexistent/work', cacheDir: '/nonexistent/cache', budgetS, maxInstances: 9,
    write: (l) => lines.push(l), now: () => (t += clockS * 1000),
  });
  return { out, lines, config };
}

test('a round that would overrun the budget is not started: the comparison says what it skipped and the estimate it used', async () => {
  const { out, lines, config } = await extendWith(20);
  const a = out.comparison.adaptive;
  assert.ok(a);
  assert.equal(a.rounds, 0, 'no round started');
  assert.equal(lines.filter((l) => /^adaptive round/.test(l)).length, 0, lines.join(''));
  assert.ok(a.undecidedBefore >= 1, 'there was something to decide: the budget, not the verdicts, stopped it');
  assert.equal(out.base.records.length, 1, 'no record added');
  // The estimate in the message is the run's own estimate of a round of the first test.
  const test = /the next adaptive round \(1 test, ([\w.-]+), 2 more instances per release\)/.exec(a.stopped)?.[1];
  assert.ok(test, a.stopped);
  const estimated = estimateTestsRun(config, { suite: 'smoke', hostClass: 'local', only: [test], releases: 2, repeats: 2, instances: 2, meters: ['wall'] }).totalS;
  assert.ok(estimated > 20, `the round's estimate (${estimated} s) is over the budget`);
  const m = Math.floor(estimated / 60);
  const s = Math.round(estimated) % 60;
  const shown = m > 0 ? `${m}m${String(s).padStart(2, '0')}s` : `${s}s`;
  assert.match(a.stopped, new RegExp(`takes about ${shown}; 20s left of the 20s budget \\(--adaptive-budget, else the host class's adaptive\\.budgetS\\): skipped$`));
  assert.match(renderComparison(out.comparison, { format: 'terminal' }), /adaptive repeats: 0 round\(s\) in 0 s of a 20 s budget resolved 0 of \d+ undecided verdicts.*stopped: the next adaptive round/);
});

test('the budget left, not the whole budget, is what a round must fit', async () => {
  // A budget that would take a round of either test, read by a clock that says 60 s of it are gone.
  const config = await loadConfig(ROOT);
  const round = (/** @type {string} */ t) => estimateTestsRun(config, { suite: 'smoke', hostClass: 'local', only: [t], releases: 2, repeats: 2, instances: 2, meters: ['wall'] }).totalS;
  const budgetS = Math.ceil(Math.max(round('point-query'), round('update-index'))) + 30;
  const { out } = await extendWith(budgetS, 60);
  const a = out.comparison.adaptive;
  assert.ok(a);
  assert.equal(a.rounds, 0);
  const m = /takes about (\d+)m(\d+)s; (\d+)m(\d+)s left of the (\d+)m(\d+)s budget/.exec(a.stopped);
  assert.ok(m, a.stopped);
  const [takes, left, budget] = [[m[1], m[2]], [m[3], m[4]], [m[5], m[6]]].map(([min, sec]) => 60 * Number(min) + Number(sec));
  assert.equal(budget, budgetS);
  assert.equal(left, budgetS - 60, 'what is left after the 60 s the clock says have gone');
  assert.ok(takes > left && takes <= budget, `the round (${takes} s) would have fit the whole budget, not what was left`);
});
