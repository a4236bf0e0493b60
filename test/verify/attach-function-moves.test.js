// Where the instructions went, end to end from stored profiles: records with counted repeats
// whose profiles are real callgrind dumps of MariaDB 10.11.18 (test/fixtures/callgrind), one
// side with a function made to cost more per query; compareRuns judges, attachFunctionMoves
// attaches the functions from the store's raw logs, the comparison stays schema-valid, and the
// terminal and Markdown reports and the GitHub issue name the function, bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateComparison, writeRawLog } from '../../scripts/store/index.js';
import { compareRuns, renderComparison, resolveThresholds } from '../../scripts/compare/index.js';
import { attachFunctionMoves } from '../../scripts/verify/attach-function-moves.js';
import { renderIssue } from '../../scripts/github/render-issue.js';
import { loadConfig } from '../../scripts/config/index.js';
import { REAL_PROFILES as real, injectCost, recordWithProfiles as recordWith } from '../support/instruction-comparison.js';

const root = new URL('../..', import.meta.url).pathname;
const config = await loadConfig(root);
const INJECTED = 'tagbench_injected_cost';
const ADDED = 1250; // per query: 2 % of the ~62,000 of a point select's query path
/** @param {typeof real[number]} p */
const inject = (p) => injectCost(p, INJECTED, ADDED);

test('an instruction regression names the function that added the instructions, in the stored comparison, the reports and the issue', async () => {
  const storeDir = join(await mkdtemp(join(tmpdir(), 'tagbench-moves-')), 'results');
  const rounds = [real[0], real[1], real[0]];
  const base = { version: '10.11.18', records: [await recordWith('10.11.18', rounds, storeDir)] };
  const candidate = { version: '10.11.19', records: [await recordWith('10.11.19', rounds.map(inject), storeDir)] };
  const cmp = compareRuns({ base, candidate, thresholds: resolveThresholds(config.thresholds), createdAt: '2026-01-01T00:00:00Z' });
  const v = cmp.tests.find((t) => t.metric === 'instructionsPerOp');
  assert.ok(v);
  assert.equal(v.verdict, 'regression', v.reason);
  assert.equal(v.pairedRounds, 3, 'the counted rounds are paired');

  assert.equal(await attachFunctionMoves(cmp, base, candidate, storeDir), 1);
  const moves = v.functions;
  assert.ok(moves, 'the verdict carries where the instructions went');
  assert.equal(moves.added[0].name, INJECTED, 'the injected function is named first');
  assert.ok(Math.abs(moves.added[0].selfDelta - ADDED) < 1, `${moves.added[0].selfDelta} per op`);
  assert.ok(moves.added.length <= 10 && moves.removed.length <= 10, 'bounded');
  assert.ok(moves.base.unnamedSelfPerOp > 0, 'Debian\'s binary leaves code without a name: its amount is kept');
  // p1 and p2 differ by process (the totals by 12 %): the unchanged real functions must not outrank the injected one.
  assert.deepEqual(validateComparison(cmp), [], 'the comparison with its functions is a valid stored comparison');

  const term = renderComparison(cmp, { format: 'terminal' });
  assert.match(term, /instructions per operation in the query path \(counted under callgrind, 1 of 1 decided\)/);
  assert.match(term, /Where the instructions went: point-query \(regression/);
  assert.match(term, new RegExp(INJECTED));
  const md = renderComparison(cmp, { format: 'markdown' });
  assert.match(md, /### Where the instructions went: point-query/);

  // The confirmed issue shows the section, bounded.
  v.confirmed = true;
  v.confirmation = { verdict: 'regression', level: 'issue', ratio: v.ratio, ci: v.ci, reason: 'rerun agrees', runIds: { base: [], candidate: [] } };
  const plan = renderIssue(/** @type {any} */ (cmp), new Map([...base.records, ...candidate.records].map((r) => [r.id, r])), { siteUrl: null, runUrl: null, label: 'tagbench' });
  assert.ok(plan, 'an issue is planned');
  assert.match(plan.body, /### Where the instructions went: point-query/);
  assert.match(plan.body, new RegExp(`\`${INJECTED}\``));
  assert.ok(plan.body.length < 20_000, `issue body ${plan.body.length} characters`);
});

test('unchanged instruction verdicts keep their functions for the site but the terminal shows them only with --functions', async () => {
  const storeDir = join(await mkdtemp(join(tmpdir(), 'tagbench-moves-')), 'results');
  const rounds = [real[0], real[1], real[0]];
  const base = { version: '10.11.18', records: [await recordWith('10.11.18', rounds, storeDir)] };
  const candidate = { version: '10.11.19', records: [await recordWith('10.11.19', [real[1], real[0], real[1]], storeDir)] };
  const cmp = compareRuns({ base, candidate, thresholds: resolveThresholds(config.thresholds), createdAt: '2026-01-01T00:00:00Z' });
  await attachFunctionMoves(cmp, base, candidate, storeDir);
  const v = cmp.tests.find((t) => t.metric === 'instructionsPerOp');
  assert.ok(v?.functions);
  assert.notEqual(v.verdict, 'regression');
  assert.doesNotMatch(renderComparison(cmp, { format: 'terminal' }), /Where the instructions went/);
  assert.match(renderComparison(cmp, { format: 'terminal', functions: 'all' }), /Where the instructions went: point-query/);
});

test('paired rounds: the function that rose is a finding in the stored comparison, under the total\'s threshold too; a base from another run is not judged per function', async () => {
  const storeDir = join(await mkdtemp(join(tmpdir(), 'tagbench-findings-')), 'results');
  const rounds = [real[0], real[1], real[0]];
  // 100 per query: 0.16 % of a point select, under the 0.25 % warn level of the total.
  const small = (/** @type {typeof real[number]} */ p) => injectCost(p, INJECTED, 100);
  const base = { version: '10.11.18', records: [await recordWith('10.11.18', rounds, storeDir)] };
  const candidate = { version: '10.11.19', records: [await recordWith('10.11.19', rounds.map(small), storeDir)] };
  const cmp = compareRuns({ base, candidate, thresholds: resolveThresholds(config.thresholds), createdAt: '2026-01-01T00:00:00Z' });
  const v = cmp.tests.find((t) => t.metric === 'instructionsPerOp');
  assert.ok(v);
  assert.notEqual(v.verdict, 'regression', 'the total stays under its threshold');
  await attachFunctionMoves(cmp, base, candidate, storeDir);
  assert.deepEqual(v.functionFindings?.findings.map((f) => [f.name, f.kind, f.measure, f.deltaPerOp]), [[INJECTED, 'appeared', 'self', 100]]);
  assert.equal(v.functionFindings?.rounds, 3);
  assert.deepEqual(validateComparison(cmp), [], 'a comparison with findings is a valid stored comparison');
  assert.match(renderComparison(cmp, { format: 'terminal' }), /Below the threshold, named:\n.*\n {2}tagbench_injected_cost {2}\[inject-cost\.so\] {2}appeared \(self\): point-query \+100\.0 \/op/);

  // The same profiles, the base's record from another run: nothing pairs its rounds.
  const otherRun = { version: '10.11.18', records: [{ ...base.records[0], id: base.records[0].id.replace('abc123', 'fed321') }] };
  for (const [i, p] of rounds.entries()) await writeRawLog(storeDir, otherRun.records[0].id, `point-query.instructions.i${i}.r0.profile.json`, JSON.stringify(p));
  const unpaired = compareRuns({ base: otherRun, candidate, thresholds: resolveThresholds(config.thresholds), createdAt: '2026-01-01T00:00:00Z' });
  await attachFunctionMoves(unpaired, otherRun, candidate, storeDir);
  const u = unpaired.tests.find((t) => t.metric === 'instructionsPerOp');
  assert.ok(u?.functions, 'where the instructions went is still attached');
  assert.equal(u.functionFindings, undefined, 'no paired rounds: not judged per function');
});
