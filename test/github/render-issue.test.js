import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderIssue } from '../../scripts/github/render-issue.js';
import { renderSummary } from '../../scripts/github/render-summary.js';
import { parseMarker } from '../../scripts/github/issue-marker.js';
import { loadFixtures } from './fixture-store.js';

const context = { siteUrl: 'https://example.org/tagbench/', runUrl: 'https://github.example/acme/bench/actions/runs/7', label: 'tagbench-regression' };

test('the issue lists only confirmed regressions, with numbers, baseline, links and my.cnf diff', async () => {
  const { c19, records } = await loadFixtures();
  const plan = renderIssue(c19, records, context);
  assert.ok(plan);
  assert.deepEqual(plan.marker.tests, ['point-query:throughput', 'update-index:throughput']);
  assert.match(plan.body, /\| point-query \| point \| throughput ↑ \| 30500 \(30195–30805, n=3\) \| 27400 /);
  assert.doesNotMatch(plan.body, /\| read-only-count \|/, 'an unconfirmed regression must not be in the issue');
  assert.match(plan.body, /baseline `mariadb 10\.11\.18`/);
  assert.ok(plan.body.includes(context.siteUrl) && plan.body.includes(context.runUrl));
  assert.match(plan.body, /-innodb_flush_log_at_trx_commit=1\n\+innodb_flush_log_at_trx_commit=2/);
  assert.deepEqual(parseMarker(plan.body), plan.marker, 'the marker in the body reads back');
  assert.equal(plan.labels[0], 'tagbench-regression');
});

test('no confirmed regression, no issue', async () => {
  const { c20, records } = await loadFixtures();
  assert.equal(renderIssue(c20, records, context), null);
});

test('the digest ignores links and dates but not the numbers', async () => {
  const { c19, records } = await loadFixtures();
  const a = renderIssue(c19, records, context);
  const b = renderIssue({ ...c19, createdAt: '2025-03-02T00:00:00Z' }, records, { ...context, runUrl: 'https://github.example/acme/bench/actions/runs/8' });
  const changed = structuredClone(c19);
  changed.tests[0].candidate = { median: 26000, min: 25800, max: 26200, n: 3 };
  const c = renderIssue(changed, records, context);
  assert.equal(a?.marker.digest, b?.marker.digest);
  assert.notEqual(a?.marker.digest, c?.marker.digest);
});

test('missing run records are named instead of failing the issue', async () => {
  const { c19 } = await loadFixtures();
  const plan = renderIssue(c19, new Map(), context);
  assert.match(plan?.body ?? '', /Run records not found in the results store: `run-20250301T100000Z-10\.11\.18`, `run-20250301T100000Z-10\.11\.19`/);
  assert.match(plan?.body ?? '', /my\.cnf diff\*\*: not available/);
});

test('a marker cannot be closed early by its own content', () => {
  const body = `<!-- tagbench-issue {"v":1,"fingerprint":"x","key":{},"tests":["a\\u003e"],"digest":"d"} -->\ntext`;
  assert.deepEqual(parseMarker(body)?.tests, ['a>']);
  assert.equal(parseMarker('<!-- tagbench-issue {broken -->'), null);
  assert.equal(parseMarker('no marker'), null);
});

test('the issue policy stamped on each verdict decides, over the comparison\'s thresholds; stored verdicts without one read the thresholds, with the same Markdown', async () => {
  const { c19, records } = await loadFixtures();
  assert.ok(c19.tests.every((t) => t.policy === undefined), 'the fixture store was written before compare stamped policies: the fallback is what it tests');
  /**
   * @param {Record<string, 'open'|'note'|'ignore'>} stamped policy on the verdicts, by test
   * @param {Record<string, string>} configured policy in the comparison's thresholds, by test
   */
  const variant = (stamped, configured) => {
    const c = structuredClone(c19);
    for (const t of c.tests) if (stamped[t.test]) t.policy = stamped[t.test];
    const tests = /** @type {Record<string, any>} */ ({ ...(c.thresholds.tests ?? {}) });
    for (const [name, policy] of Object.entries(configured)) tests[name] = { ...(tests[name] ?? {}), policy };
    c.thresholds = { ...c.thresholds, tests };
    return c;
  };
  // The verdicts say note / open; the thresholds (as a newer config would) say the opposite.
  const stamped = variant({ 'point-query': 'note', 'update-index': 'open' }, { 'point-query': 'open', 'update-index': 'ignore' });
  const plan = renderIssue(stamped, records, context);
  assert.deepEqual(plan?.marker.tests, ['update-index:throughput']);
  assert.match(plan?.body ?? '', /noted only .*`point-query:throughput`/);
  const summary = renderSummary([stamped], [], { dryRun: true });
  assert.match(summary, /\| point-query \| throughput \| .* regression \(confirmed\) \(policy: note, no issue\) \|/);
  assert.match(summary, /\| update-index \| throughput \| .* regression \(confirmed\) \|/);
  // The same policies, said only by the thresholds of an older comparison: the same issue and summary.
  const old = variant({}, { 'point-query': 'note' });
  assert.equal(renderIssue(old, records, context)?.body, plan?.body);
  assert.equal(renderSummary([old], [], { dryRun: true }), summary);
  // Every verdict stamped open, as compare writes it for a config without policies: unchanged from the stored file.
  const allOpen = variant(Object.fromEntries(c19.tests.map((t) => [t.test, 'open'])), {});
  assert.equal(renderIssue(allOpen, records, context)?.body, renderIssue(c19, records, context)?.body);
  assert.equal(renderSummary([allOpen], [], { dryRun: true }), renderSummary([c19], [], { dryRun: true }));
});

test('the issue and the job summary say how sure, right after the count: the matching calibration, or that there is none', async () => {
  const { c19, records } = await loadFixtures();
  const calibration = { runs: 30, runsWithFalseIssue: 0, upper95: 0.095, file: 'bench/calibration-local.json', detection: [{ slowdown: 0.15, trials: 20, detected: 2 }] };
  // A calibration of c19's own design (3 unpaired instances per side), 9 days before it.
  /** @type {import('../../scripts/types.js').Calibration} */
  const matching = {
    schemaVersion: 1, hostClass: 'local', host: { cores: 2, cpuModel: 'x' }, meter: 'wall', kind: 'timed', metric: 'throughput', suite: 'smoke', tests: [], product: 'mariadb', version: '10.11.18',
    design: { paired: false, instances: 3 }, load: { maxOneMinute: 0.4, conditions: null }, startedAt: '2025-02-19T00:00:00Z', measuredAt: '2025-02-20T00:00:00Z',
    falseIssues: { runs: 30, runsWithFalseIssue: 0, upper95: 0.095 }, detection: [{ size: 0.1, trials: 20, detected: 15 }], source: 'bench/calibration-local.json',
  };
  const plan = renderIssue(c19, records, { ...context, calibration, calibrations: [matching] });
  const body = plan?.body ?? '';
  assert.match(body, /against the baseline .*\n\n\*\*How sure:\*\* Throughput: no verdict of this run could detect a change at the issue level \(too few instances for it\); the calibration of 2025-02-20 \(9 days before this run; smoke, 3 instances per side, load up to 0\.4; bench\/calibration-local\.json\) found an injected 10\.0 % in 15 of 20 trials\. False issues per A\/A run, wall: 0 of 30 A\/A runs opened an issue \(95 % upper bound 9\.5 % per run, bench\/calibration-local\.json\)\./);
  // The false issues are the cited calibration's, not the host class's report: without a match, none.
  const none = renderIssue(c19, records, { ...context, calibration, calibrations: [{ ...matching, design: { paired: false, instances: 9 } }] })?.body ?? '';
  assert.match(none, /False issues per A\/A run, timed repeats: no matching calibration\./);
  assert.doesNotMatch(none, /On this host class 0 of 30/);
  const without = renderIssue(c19, records, context);
  assert.match(without?.body ?? '', /\*\*How sure:\*\* Throughput: .*no calibration of this host class matches this meter and design \(3 instances per side, at most 30 days old: tagbench calibrate\)\./);
  assert.doesNotMatch(without?.body ?? '', /A\/A calibration runs/);
  // Another design is not cited, and is named as passed over.
  const other = renderIssue(c19, records, { ...context, calibrations: [{ ...matching, design: { paired: true, instances: 3 } }] });
  assert.match(other?.body ?? '', /no calibration of this host class matches .*; not cited: 2025-02-20 \(smoke\): another design \(3 rounds paired\)\./);
  const summary = renderSummary([c19], [], { dryRun: true, storedCalibrations: new Map([['local', [matching]]]) });
  assert.equal(c19.hostClass, 'local');
  assert.match(summary, /\*\*How sure:\*\* Throughput: .*found an injected 10\.0 % in 15 of 20 trials\./);
  assert.match(renderSummary([c19], [], { dryRun: true }), /\*\*How sure:\*\* Throughput: .*no calibration of this host class matches/);
});

test('300 confirmed regressions: the body stays under GitHub\'s 65,536 characters, the largest listed first, the rest counted, every one in the marker', async () => {
  const { c19, records } = await loadFixtures();
  const template = /** @type {any} */ (c19.tests.find((t) => t.test === 'point-query' && t.verdict === 'regression'));
  assert.ok(template, 'the fixture has a confirmed point-query regression to copy');
  const many = structuredClone(c19);
  // Ratios from 0.70 to 0.999: test-299 changed least, test-000 most. Long reasons, as real
  // ones are (the confirmation rerun, the interval, the threshold).
  many.tests = Array.from({ length: 300 }, (_, i) => ({
    ...structuredClone(template), test: `test-${String(i).padStart(3, '0')}`, ratio: 0.7 + (0.299 * i) / 299,
    reason: `${template.reason} `.repeat(3),
  }));
  const { ISSUE_BODY_LIMIT } = await import('../../scripts/github/render-issue.js');
  const plan = renderIssue(many, records, context);
  assert.ok(plan);
  assert.ok(ISSUE_BODY_LIMIT < 65_536);
  // Uncapped, these rows are far over the limit: the cap is what keeps the body in.
  assert.ok(plan.body.length <= ISSUE_BODY_LIMIT, `${plan.body.length} characters`);
  assert.equal(plan.marker.tests.length, 300, 'the marker names every regression');
  assert.deepEqual(parseMarker(plan.body)?.tests, plan.marker.tests);
  const listed = [...plan.body.matchAll(/^\| (test-\d{3}) \|/gm)].map((m) => m[1]);
  assert.ok(listed.length > 20 && listed.length < 300, `${listed.length} rows listed`);
  assert.deepEqual(listed, Array.from({ length: listed.length }, (_, i) => `test-${String(i).padStart(3, '0')}`), 'the largest changes first');
  assert.match(plan.body, new RegExp(`\\*\\*${300 - listed.length} more confirmed regressions\\*\\* \\(the smallest changes\\) are not listed here`));
  assert.ok(plan.body.includes(context.siteUrl));
  // The reasons follow the table: one per listed row, none for the rest.
  assert.equal([...plan.body.matchAll(/^- `test-\d{3}:/gm)].length, listed.length);
  // A handful fit whole, as before.
  const few = structuredClone(many);
  few.tests = few.tests.slice(0, 5);
  const small = renderIssue(few, records, context);
  assert.equal([...(small?.body ?? '').matchAll(/^\| (test-\d{3}) \|/gm)].length, 5);
  assert.doesNotMatch(small?.body ?? '', /more confirmed regression/);
});

test('a moved tag\'s issue says from which commit to which; an unmoved one says nothing of it', async () => {
  const { c19, records } = await loadFixtures();
  const plain = renderIssue(c19, records, context);
  assert.ok(plain);
  assert.doesNotMatch(plain.body, /moved/);
  const old = 'a'.repeat(40);
  const now = 'b'.repeat(40);
  const moved = new Map([...records].map(([id, r]) => [id, c19.candidate.runIds.includes(id)
    ? { ...r, release: { ...r.release, tag: 'mariadb-10.11.19', commit: now, movedFrom: old } } : r]));
  const plan = renderIssue(c19, moved, context);
  assert.ok(plan);
  assert.ok(plan.body.includes(`> The tag \`mariadb-10.11.19\` was moved upstream: moved from \`${old}\` to \`${now}\`. This run is of the new commit.`), plan.body);
  assert.match(plan.body, new RegExp(`\\| tag / commit \\| .* \\| \`mariadb-10\\.11\\.19\` / \`${now}\` \\(tag moved from \`${old}\`\\) \\|`));
});

/**
 * c19 with a counted query-path verdict beside point-query's confirmed throughput regression:
 * the instructions barely moved (+0.25 %, under the warn threshold), so time and work disagree.
 * @param {import('../../scripts/types.js').Comparison} c19
 */
function withUnmovedInstructions(c19) {
  const instructions = {
    ...c19.tests[0], metric: 'instructionsPerOp', unit: 'instructions/op', higherIsBetter: false, counted: true, scale: /** @type {const} */ ('log'),
    verdict: /** @type {const} */ ('unchanged'), level: null, confirmed: undefined, ratio: 1.0025, ci: /** @type {[number, number]} */ ([1.0022, 1.0028]),
    base: { median: 63140, min: 63100, max: 63180, n: 3 }, candidate: { median: 63298, min: 63260, max: 63330, n: 3 },
  };
  return { ...c19, tests: [...c19.tests, instructions] };
}

test('the issue sets time beside work for the regressed tests: slower with the same instructions points to waiting', async () => {
  const { c19, records } = await loadFixtures();
  const plan = renderIssue(withUnmovedInstructions(c19), records, context);
  assert.ok(plan);
  assert.match(plan.body, /### Time and work\n\n- `point-query`: time and work disagree: time: throughput -10\.2 % \[-11\.4, -9\.0\] \(regression\); CPU work: instructionsPerOp \+0\.25 % \[0\.22, 0\.28\], under the warn threshold\. Time moved and the work did not: this points to waiting \(I\/O, locks, the host\) rather than CPU work\.\n/);
  assert.doesNotMatch(plan.body, /`update-index`: time and/, 'a test judged by one meter has no statement');
  assert.doesNotMatch(renderIssue(c19, records, context)?.body ?? '', /### Time and work/, 'no section when no test has two meters');
});

test('the job summary never says unchanged for an interval that excludes no change', async () => {
  const { c19 } = await loadFixtures();
  const summary = renderSummary([withUnmovedInstructions(c19)], [], { dryRun: true });
  assert.match(summary, /\| point-query \| instructionsPerOp \| \S+ \+0\.25 % \[0\.22, 0\.28\], under the warn threshold \|/);
  // The stored fixture's own: insert 1.0139 with 1.0019–1.0259, under the 3 % warn threshold.
  assert.match(summary, /\| insert \| throughput \| \S+ \+1\.4 % \[0\.2, 2\.6\], under the warn threshold \|/);
  assert.doesNotMatch(summary, /\| insert \| throughput \|[^|]*unchanged/);
});

test('the issue lists the functions below the threshold, named, that a comparison found; they alone open no issue', async () => {
  const { c19, c20, records } = await loadFixtures();
  const { judgeFunctionProfiles } = await import('../../scripts/compare/index.js');
  const { readFileSync } = await import('node:fs');
  // Real profiles: 10.11.18 with 0.1 % of a point select added in one preload-library function.
  const at = (/** @type {string} */ l, /** @type {number} */ i) => JSON.parse(readFileSync(new URL(`../fixtures/compare/function-findings/10.11.18-${l}-point-query.i${i}.profile.json`, import.meta.url), 'utf8'));
  const functionFindings = judgeFunctionProfiles([0, 1, 2].map((i) => ({ base: at('A', i), candidate: at('S0p1', i) })), {});
  assert.ok(functionFindings);
  const withFindings = (/** @type {import('../../scripts/types.js').Comparison} */ c) => {
    const unmoved = /** @type {import('../../scripts/types.js').TestVerdict} */ (withUnmovedInstructions(c).tests.at(-1));
    return { ...c, tests: [...c.tests, { ...unmoved, functionFindings }] };
  };
  const plan = renderIssue(withFindings(c19), records, context);
  assert.ok(plan);
  assert.match(plan.body, /### Below the threshold, named\n\n.*never opens an issue by itself\.\n\n\| function \| object \| change \|.*\n\| --- .*\n\| `tagbench_injected_cost` \| `[0-9a-f]{64}\.so` \| appeared \(self\) \| `point-query` \+67\.\d+ \/op \(\+0\.10\d % of the total\) \|\n/);
  assert.equal(renderIssue(withFindings(c20), records, context), null, 'findings without a confirmed regression open no issue');
});
