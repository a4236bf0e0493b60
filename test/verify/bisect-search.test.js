/**
 * The search of `tagbench bisect` without servers: the order of probes, the first bad release
 * for every place it can be, the early stop on an undecided probe, the call a comparison gives
 * a candidate, the candidate lists, and the Markdown of a report.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchFirstBad, nextProbe, maxProbes, classifyProbe, findBisectTargets } from '../../scripts/verify/bisect-search.js';
import { parseRelease, checkCandidates, defaultCandidates } from '../../scripts/verify/bisect-plan.js';
import { renderBisectReport } from '../../scripts/compare/render-bisect.js';
import { validateBisectReport } from '../../scripts/store/index.js';

/**
 * A probe from a list of calls by candidate index, recording the order it was asked in.
 * @param {('good'|'bad'|'undecided')[]} calls
 */
function scripted(calls) {
  /** @type {number[]} */
  const asked = [];
  return { asked, probe: async (/** @type {number} */ i) => { asked.push(i); return calls[i]; } };
}

test('binary search names the first bad candidate wherever it is, within ceil(log2(n+1)) probes', async () => {
  for (let n = 0; n <= 9; n++) {
    for (let firstBad = 0; firstBad <= n; firstBad++) {
      const calls = Array.from({ length: n }, (_, i) => (i < firstBad ? 'good' : 'bad'));
      const { asked, probe } = scripted(/** @type {any} */ (calls));
      const out = await searchFirstBad(n, probe);
      assert.equal(out.status, 'found');
      assert.equal(out.firstBad, firstBad, `n=${n}`);
      assert.equal(out.lastGood, firstBad - 1);
      assert.ok(asked.length <= maxProbes(n), `n=${n} firstBad=${firstBad}: ${asked.length} probes`);
      assert.equal(new Set(asked).size, asked.length, 'no candidate is probed twice');
    }
  }
});

test('probes go to the middle of the remaining range, the earlier middle first', async () => {
  // four candidates, the third is the first bad one: probe c2 (good), then c3 (bad)
  const { asked, probe } = scripted(['good', 'good', 'bad', 'bad']);
  const out = await searchFirstBad(4, probe);
  assert.deepEqual(asked, [1, 2]);
  assert.deepEqual(out.steps, [{ index: 1, call: 'good' }, { index: 2, call: 'bad' }]);
  assert.equal(nextProbe(-1, 4), 1);
  assert.equal(nextProbe(1, 4), 2);
  assert.equal(nextProbe(-1, 1), 0);
  assert.equal(maxProbes(0), 0);
  assert.equal(maxProbes(4), 3);
  assert.equal(maxProbes(7), 3);
});

test('an undecided probe stops the search at once, keeping the bounds decided so far', async () => {
  // c2 good, then c3 undecided: the first bad one is c3 or c4 (index 2..3) or... up to the bad release
  const { asked, probe } = scripted(['good', 'good', 'undecided', 'bad']);
  const out = await searchFirstBad(4, probe);
  assert.equal(out.status, 'stopped');
  assert.deepEqual(asked, [1, 2], 'nothing is probed after the undecided step');
  assert.equal(out.lastGood, 1);
  assert.equal(out.firstBad, 4, 'no candidate known bad: the bad release bounds the range');
  const first = scripted(['undecided', 'undecided', 'bad', 'bad']);
  const stoppedAtOnce = await searchFirstBad(4, first.probe);
  assert.deepEqual(first.asked, [1]);
  assert.deepEqual([stoppedAtOnce.status, stoppedAtOnce.lastGood, stoppedAtOnce.firstBad], ['stopped', -1, 4]);
  // an interrupt between probes stops too
  let calls = 0;
  const interrupted = await searchFirstBad(8, async () => { calls++; return 'good'; }, { shouldStop: () => calls >= 2 });
  assert.equal(interrupted.status, 'stopped');
  assert.equal(calls, 2);
});

/**
 * A verdict of a probe's comparison with the fields the classifier reads.
 * @param {Record<string, any>} over
 * @returns {any}
 */
function verdict(over) {
  return { test: 'point-query', metric: 'throughput', verdict: 'unchanged', level: null, ratio: 1, ci: [0.98, 1.02], mde: 0.03, base: { n: 3 }, candidate: { n: 3 }, reason: 'r', threshold: { warn: 0.03, issue: 0.05 }, ...over };
}

test('a candidate is bad on an issue-level regression, good when unchanged or better, undecided otherwise', () => {
  const targets = [{ test: 'point-query', metric: 'throughput' }];
  const cmp = (/** @type {any[]} */ tests) => /** @type {any} */ ({ tests });
  assert.equal(classifyProbe(cmp([verdict({ verdict: 'regression', level: 'issue', ratio: 0.6, ci: [0.55, 0.65] })]), targets).call, 'bad');
  assert.equal(classifyProbe(cmp([verdict({})]), targets).call, 'good');
  assert.equal(classifyProbe(cmp([verdict({ verdict: 'improvement', level: 'issue', ratio: 1.2 })]), targets).call, 'good');
  const warn = classifyProbe(cmp([verdict({ verdict: 'regression', level: 'warn', ratio: 0.96 })]), targets);
  assert.equal(warn.call, 'undecided');
  assert.match(warn.reason, /below the issue level/);
  const inconclusive = classifyProbe(cmp([verdict({ verdict: 'inconclusive', ratio: 0.95, ci: [0.8, 1.1], base: { n: 3 }, candidate: { n: 2 } })]), targets);
  assert.equal(inconclusive.call, 'undecided');
  assert.match(inconclusive.reason, /not enough evidence.*inconclusive with 3 vs 2 instances/);
  assert.deepEqual(inconclusive.evidence[0].instances, [3, 2]);
  assert.deepEqual(inconclusive.evidence[0].ci, [0.8, 1.1]);
  assert.equal(inconclusive.evidence[0].pairedRounds, undefined);
  // a probe paired by round says so: the instance counts are not what the interval rests on
  const paired = classifyProbe(cmp([verdict({ verdict: 'inconclusive', ratio: 0.95, ci: [0.8, 1.1], base: { n: 5 }, candidate: { n: 5 }, pairedRounds: 5 })]), targets);
  assert.match(paired.reason, /inconclusive with 5 rounds, paired \(the interval spans/);
  assert.equal(paired.evidence[0].pairedRounds, 5);
  assert.match(classifyProbe(cmp([verdict({ verdict: 'failed', reason: 'server crashed' })]), targets).reason, /failed \(server crashed\)/);
  assert.match(classifyProbe(cmp([verdict({ test: 'other' })]), targets).reason, /no result for this test/);
  // another metric of the same test does not stand in for the target
  assert.equal(classifyProbe(cmp([verdict({ metric: 'cpuUsPerOp', verdict: 'regression', level: 'issue' })]), targets).call, 'undecided');
});

test('with several tests the candidate is called only when they agree; a split stops the search', () => {
  const targets = [{ test: 'point-query', metric: 'throughput' }, { test: 'update-index', metric: 'throughput' }];
  const cmp = (/** @type {any[]} */ tests) => /** @type {any} */ ({ tests });
  const bad = verdict({ verdict: 'regression', level: 'issue', ratio: 0.7 });
  assert.equal(classifyProbe(cmp([bad, { ...bad, test: 'update-index' }]), targets).call, 'bad');
  assert.equal(classifyProbe(cmp([verdict({}), verdict({ test: 'update-index' })]), targets).call, 'good');
  const split = classifyProbe(cmp([bad, verdict({ test: 'update-index' })]), targets);
  assert.equal(split.call, 'undecided');
  assert.match(split.reason, /the tests disagree: point-query throughput regressed, update-index throughput did not.*--only/);
});

test('the targets of a comparison are its issue-level regressions, only the confirmed ones once confirmed', () => {
  const tests = [
    verdict({ verdict: 'regression', level: 'issue' }),
    verdict({ test: 'update-index', verdict: 'regression', level: 'warn' }),
    verdict({ test: 'scan', verdict: 'improvement', level: 'issue' }),
    verdict({ test: 'insert', metric: 'cpuUsPerOp', verdict: 'regression', level: 'issue' }),
  ];
  assert.deepEqual(findBisectTargets(/** @type {any} */ ({ tests })), [{ test: 'point-query', metric: 'throughput' }, { test: 'insert', metric: 'cpuUsPerOp' }]);
  const confirmed = tests.map((t, i) => (t.verdict === 'regression' ? { ...t, confirmed: i === 3 } : t));
  assert.deepEqual(findBisectTargets(/** @type {any} */ ({ tests: confirmed })), [{ test: 'insert', metric: 'cpuUsPerOp' }]);
});

test('releases and candidates: labelled installs, order, range; the deb list between good and bad', () => {
  assert.deepEqual(parseRelease('10.11.19', '--bad', 'deb'), { name: '10.11.19', version: '10.11.19', provider: 'deb' });
  assert.deepEqual(parseRelease('10.11.18#c1=/opt/c1', '--candidates', 'deb'), { name: '10.11.18#c1', version: '10.11.18', provider: 'path', label: 'c1', path: '/opt/c1' });
  assert.throws(() => parseRelease('mariadb@10.11.18', '--good', 'deb'), /--good: bad release 'mariadb@10.11.18': expected VERSION/);
  const good = parseRelease('10.11.10', '--good', 'deb');
  const bad = parseRelease('10.11.19', '--bad', 'deb');
  const list = (/** @type {string[]} */ xs) => xs.map((x) => parseRelease(x, '--candidates', 'deb'));
  assert.equal(checkCandidates(list(['10.11.11', '10.11.15', '10.11.18']), good, bad).length, 3);
  assert.throws(() => checkCandidates(list(['10.11.15', '10.11.11']), good, bad), /10\.11\.11 comes after 10\.11\.15 but is older; list the candidates oldest first/);
  assert.throws(() => checkCandidates(list(['10.11.20']), good, bad), /10\.11\.20 is not between the good release 10\.11\.10 and the bad release 10\.11\.19/);
  assert.throws(() => checkCandidates(list(['10.11.11', '10.11.11']), good, bad), /listed twice/);
  const product = { name: 'mariadb', deb: { '10.5.23': {}, '10.11.19': {}, '10.11.12': {}, '10.11.9': {}, '10.11.15': {}, '11.8.6': {} } };
  assert.deepEqual(defaultCandidates(product, 'deb', good, bad).map((c) => c.name), ['10.11.12', '10.11.15'], 'strictly between, in version order');
  assert.throws(() => defaultCandidates(product, 'source', good, bad), /--provider source has no list of versions.*--candidates.*commits between two tags are not supported yet/);
});

test('the Markdown of a stopped bisect says so, shows every probe with its numbers, and the notes first', () => {
  /** @type {import('../../scripts/store/index.js').BisectReport} */
  const report = {
    schemaVersion: 1, createdAt: '2026-11-22T23:00:00.000Z', finishedAt: '2026-11-22T23:10:00.000Z', hostClass: 'local', product: 'mariadb', suite: 'smoke',
    good: { name: '10.11.18', version: '10.11.18', provider: 'deb' }, bad: { name: '10.11.22', version: '10.11.22', provider: 'deb' },
    source: { comparisonId: 'vs-10.11.18-20261122T220000Z-1a2b3c4d', testsFrom: 'comparison' }, targets: [{ test: 'point-query', metric: 'throughput' }],
    candidates: ['10.11.19', '10.11.20', '10.11.21'].map((v) => ({ name: v, version: v, provider: 'deb' })),
    probes: [
      { candidate: '10.11.20', index: 1, call: 'good', reason: 'unchanged', seconds: 100.4, runIds: { good: ['g1'], candidate: ['c1'] }, adaptive: null, evidence: [{ test: 'point-query', metric: 'throughput', call: 'good', verdict: 'unchanged', level: null, ratio: 0.995, ci: [0.97, 1.01], mde: 0.03, instances: [3, 3], reason: 'r' }] },
      { candidate: '10.11.21', index: 2, call: 'undecided', reason: 'not enough evidence', seconds: 200, runIds: { good: ['g2'], candidate: ['c2'] }, adaptive: { rounds: 0, stopped: 'the 1 s budget is spent' }, evidence: [{ test: 'point-query', metric: 'throughput', call: 'undecided', verdict: 'inconclusive', level: null, ratio: 0.95, ci: [0.8, 1.1], mde: 0.2, instances: [3, 3], pairedRounds: 3, reason: 'r' }] },
    ],
    outcome: { status: 'stopped', lastGood: '10.11.20', firstBad: '10.11.22', suspects: ['10.11.21', '10.11.22'], message: 'Stopped at probe 2 (10.11.21): not enough evidence.' },
    notes: ['a stand-in report'],
  };
  assert.deepEqual(validateBisectReport(report), []);
  const md = renderBisectReport(report);
  assert.match(md, /^## Bisect of mariadb 10\.11\.18 \(good\) \.\. 10\.11\.22 \(bad\)/);
  assert.match(md, /\*\*Bisect stopped: the evidence is not enough to go on\.\*\* The first bad release is one of `10\.11\.21`, `10\.11\.22`\./);
  assert.match(md, /> \*\*Note:\*\* a stand-in report/);
  assert.match(md, /\| 1 \| `10\.11\.20` \| \*\*good\*\* \| `point-query` throughput \| unchanged \| 0\.995 \| \[0\.970, 1\.010\] \| 3 \/ 3 \| 3\.0 % \|/);
  assert.match(md, /\| 2 \| `10\.11\.21` \| \*\*undecided\*\* \| `point-query` throughput \| inconclusive \| 0\.950 \|/);
  assert.match(md, /\| 3 \/ 3 \(3 rounds, paired\) \| 20\.0 % \|/, 'a paired probe says so beside its instances');
  assert.match(md, /2\. `10\.11\.21`: \*\*undecided\*\*, not enough evidence \(200 s; adaptive repeats: 0 round\(s\), stopped: the 1 s budget is spent; runs g2, c2\)/);
  assert.ok(md.indexOf('Note:') < md.indexOf('| # |'), 'the note comes before the numbers');
  // the schema refuses a report without its outcome's message
  assert.match(validateBisectReport({ ...report, outcome: { ...report.outcome, message: '' } }).join('\n'), /outcome\.message/);
});
