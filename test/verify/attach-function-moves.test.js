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
import { validateComparison } from '../../scripts/store/index.js';
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
