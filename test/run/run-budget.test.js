/**
 * A run's budget while it runs (scripts/run/run-budget.js): a counted phase or a step whose
 * estimate (the one the run's plan added up) does not fit what is left of `--budget-h` /
 * legBudgetH is not started, the run says what it skipped and the estimate it used, and the
 * records say so. Pure: the project's real demo suite planned, a clock given, no server (a step
 * that started would need one).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../scripts/config/index.js';
import { planSuite } from '../../scripts/workload/index.js';
import { estimateRun } from '../../scripts/run/estimate.js';
import { formatDuration } from '../../scripts/run/progress.js';
import { createRecord } from '../../scripts/run/record-builder.js';
import { executeSchedule } from '../../scripts/run/execute-schedule.js';
import { getMeter } from '../../scripts/metrics/meters/registry.js';
import { startRunBudget, checkCountedPhase, skipCountedPhase } from '../../scripts/run/run-budget.js';

const config = await loadConfig(new URL('../..', import.meta.url).pathname);
const host = config.hosts.local;
const steps = planSuite(config.suites.demo, { engine: 'innodb' });
const instructions = getMeter('instructions');
/** The demo's counting on this class: both releases at once, no shard. */
const count = { parallel: 2, shard: null };

/** @param {string} version */
function stateOf(version) {
  const install = /** @type {any} */ ({ provider: 'deb', provenance: { serverSha256: '0', serverVersionString: version, packages: [] } });
  const record = createRecord({ id: `r-${version}`, startedAt: '2026-11-28T16:00:00Z', release: { key: `mariadb@${version}`, product: 'mariadb', version, line: '10.11', install }, host: /** @type {any} */ ({}), config: /** @type {any} */ ({}), steps });
  return { record, deadReason: /** @type {string|null} */ (null), /** @type {string|undefined} */ budgetStop: undefined };
}

/** A clock that reads `at` seconds after the run's start once the budget has started. */
function clockAt(/** @type {number} */ at) {
  let started = false;
  return () => (started ? at * 1000 : ((started = true), 0));
}

test('a counted phase that would overrun the budget left is not started: the message has its estimate, and every step it would count says why', () => {
  const phase = estimateRun({ steps, releases: 2, repeats: 3, instances: 3, meters: ['instructions'], host, count }).parts.find((p) => p.name === 'counted phase (instructions)');
  assert.ok(phase && phase.seconds > 60, 'the demo has a counted phase of minutes');
  // One hour, 58 minutes of it gone: 2 minutes left.
  const budget = startRunBudget(1, clockAt(58 * 60));
  const over = checkCountedPhase(budget, instructions, steps, 2, host, count);
  assert.equal(over, `the instructions meter's counted phase takes about ${formatDuration(phase.seconds)}; 2m00s left of the 1h00m budget (--budget-h, else the host class's legBudgetH): skipped`);
  const states = [stateOf('10.11.18'), stateOf('10.11.19')];
  skipCountedPhase('instructions', states, steps, /** @type {string} */ (over));
  for (const { record } of states) {
    const slots = record.steps.filter((s) => s.meters?.instructions);
    assert.ok(slots.some((s) => s.name === 'point-query') && slots.some((s) => s.name === 'l.i1') && slots.some((s) => s.name === 'linkbench.request.1'), 'sysbench tests and sequence steps alike');
    for (const s of slots) assert.deepEqual(s.meters?.instructions, { status: 'skipped', reason: `not counted: ${over}`, repeats: [] });
    assert.ok(!record.steps.find((s) => s.name === 'load')?.meters, 'a step it would not count gets no slot');
  }
});

test('a counted phase that fits the budget left starts; without a budget nothing is checked', () => {
  assert.equal(checkCountedPhase(startRunBudget(1, clockAt(60)), instructions, steps, 2, host, count), null);
  assert.equal(checkCountedPhase(startRunBudget(undefined, clockAt(1e9)), instructions, steps, 2, host, count), null);
  assert.equal(checkCountedPhase(startRunBudget(0, clockAt(1e9)), instructions, steps, 2, host, count), null);
});

test('a step that would overrun the budget left is not started: the run stops there, says what it skipped, and every release is left partial with the reason', async () => {
  const states = new Map([['mariadb@10.11.18', stateOf('10.11.18')], ['mariadb@10.11.19', stateOf('10.11.19')]]);
  const releases = /** @type {any[]} */ ([...states.keys()].map((key) => ({ key })));
  const lines = /** @type {string[]} */ ([]);
  let counted = false;
  // The budget is spent before the first step (the load) starts: 10 s of one hour left.
  const budget = startRunBudget(1, clockAt(3590));
  await executeSchedule(steps, releases, /** @type {Map<string, any>} */ (states), {
    plan: { repeats: 3, instances: 3, host }, options: {}, write: (/** @type {string} */ t) => lines.push(t),
    afterLoad: async () => { counted = true; }, counted: true, onReleaseDone: async () => assert.fail('no release is done'), budget,
  });
  assert.equal(counted, false, 'nothing after the stop runs, the counted phase neither');
  assert.equal(lines.length, 1, lines.join(''));
  assert.match(lines[0], /^load of mariadb@10\.11\.18 \(1 of \d+\) takes about \d+s; 10s left of the 1h00m budget \(--budget-h, else the host class's legBudgetH\): skipped: the run stops here, with what it measured\n$/);
  const reason = lines[0].replace(/: the run stops here.*\n$/, '');
  for (const state of states.values()) {
    assert.equal(state.budgetStop, reason);
    assert.ok(state.record.steps.every((s) => s.status === 'skipped' && s.reason === `not run: ${reason}`));
  }
});
