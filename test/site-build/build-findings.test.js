/**
 * namedFindings on real captured comparisons (test/fixtures/github/captured-store: 10.11.19 held
 * to a tenth of a CPU against 10.11.18, compared and confirmed by the real pipeline) and on the
 * github fixture store's comparison with a suspect: what home and the release page name first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readComparisons } from '../../scripts/store/index.js';
import { findSuspects } from '../../scripts/compare/index.js';
import { namedFindings } from '../../scripts/site-build/build-findings.js';

const fixture = (/** @type {string} */ dir) => fileURLToPath(new URL(`../fixtures/github/${dir}/`, import.meta.url));

test('every regression of every gated metric is named, by test and metric, with its change and interval and whether a rerun confirmed it', async () => {
  const confirmed = (await readComparisons(fixture('captured-store'))).find((c) => c.tests.some((t) => t.confirmed));
  assert.ok(confirmed, 'the confirmed comparison');
  const findings = namedFindings(/** @type {any} */ (confirmed), findSuspects(/** @type {any} */ (confirmed)));
  const regressions = confirmed.tests.filter((t) => t.verdict === 'regression');
  assert.equal(findings.length, regressions.length, 'no suspect in this one');
  assert.deepEqual(findings.map((f) => `${f.test} ${f.metric}`), regressions.map((t) => `${t.test} ${t.metric}`).sort(), 'timed (all of them here) by test, then metric');
  const pq = /** @type {any} */ (findings.find((f) => f.test === 'point-query' && f.metric === 'throughput'));
  assert.deepEqual([pq.kind, pq.label, pq.counted, pq.confirmed, pq.change], ['regression', 'throughput', false, true, '-91.4 % [-92.6, -88.0]']);
  assert.equal(findings.find((f) => f.test === 'point-query' && f.metric === 'latencyP95Ms')?.confirmed, false, 'the rerun did not confirm every one');
});

test('suspects follow the regressions, in compare\'s order, worded by their own interval', async () => {
  const [withSuspect] = (await readComparisons(fixture('store'))).filter((c) => findSuspects(/** @type {any} */ (c)).length > 0);
  assert.ok(withSuspect);
  const suspects = findSuspects(/** @type {any} */ (withSuspect));
  const findings = namedFindings(/** @type {any} */ (withSuspect), suspects);
  assert.deepEqual(findings.map((f) => `${f.kind} ${f.test}`), ['regression point-query', 'regression read-only-count', 'regression update-index', 'suspect scan']);
  assert.equal(findings.at(-1)?.change, '-2.4 % [-3.6, -1.2]');
  assert.deepEqual(namedFindings(/** @type {any} */ ({ tests: [] }), []), [], 'nothing to name');
});

test('a context verdict (a timed figure whose question a counted verdict decided) is never named as a regression', async () => {
  const confirmed = /** @type {any} */ ((await readComparisons(fixture('captured-store'))).find((c) => c.tests.some((t) => t.confirmed)));
  const cpu = confirmed.tests.find((/** @type {any} */ t) => t.verdict === 'regression' && t.metric !== 'throughput');
  assert.ok(cpu, 'a regression of another metric than throughput in the fixture');
  const before = namedFindings(confirmed, []).length;
  const withContext = { ...confirmed, tests: confirmed.tests.map((/** @type {any} */ t) => (t === cpu ? { ...t, context: true } : t)) };
  const after = namedFindings(withContext, []);
  assert.equal(after.length, before - 1);
  assert.ok(!after.some((f) => f.test === cpu.test && f.metric === cpu.metric), `${cpu.test} ${cpu.metric} is context, not named`);
});
