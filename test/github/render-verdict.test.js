/**
 * The verdict on a commit, rendered from real comparisons: the github fixture store's
 * (hand-built, schema-valid), the captured store's (the real pipeline's compare and confirm of a
 * throttled server), and one judged by compareRuns over real callgrind profiles with a function
 * made to cost more (test/support/instruction-comparison.js).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readComparisonFile } from '../../scripts/store/index.js';
import { CHECK_OUTPUT_BUDGET, decideVerdict, GITHUB_LIMITS, parseVerdictMarker, renderStartedCheck, renderVerdict } from '../../scripts/github/render-verdict.js';
import { utf8Bytes } from '../../scripts/github/fit-text.js';
import { formatChange } from '../../scripts/format-number.js';
import { loadFixtures } from './fixture-store.js';
import { compareInstructionRuns, injectCost, REAL_PROFILES } from '../support/instruction-comparison.js';
import { linksAndMentions, outsideCodeSpans } from '../support/markdown-syntax.js';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const context = { sha: SHA, reportUrl: 'https://github.example/acme/bench/actions/runs/7#summary', siteUrl: 'https://acme.example/bench/refs/x/', runUrl: null };
const CAPTURED = fileURLToPath(new URL('../fixtures/github/captured-store/verdicts/local/mariadb/10.11.19/smoke/', import.meta.url));

/** The captured store's comparisons: the one compare wrote, then the one confirm wrote. */
async function capturedComparisons() {
  const files = (await readdir(CAPTURED)).sort();
  const all = await Promise.all(files.map((f) => readComparisonFile(join(CAPTURED, f))));
  const confirmed = all.find((c) => c.tests.some((t) => t.confirmed !== undefined));
  const unconfirmed = all.find((c) => c.tests.every((t) => t.confirmed === undefined));
  assert.ok(confirmed && unconfirmed, 'the captured store holds an unconfirmed and a confirmed comparison');
  return { confirmed, unconfirmed };
}

test('confirmed regressions fail the check; the title names them, largest first, with their change and metric', async () => {
  const { c19 } = await loadFixtures();
  const v = renderVerdict(c19, context);
  assert.equal(v.conclusion, 'failure');
  const confirmed = c19.tests.filter((t) => t.verdict === 'regression' && t.confirmed === true)
    .sort((a, b) => Math.abs(Math.log(/** @type {number} */ (b.ratio))) - Math.abs(Math.log(/** @type {number} */ (a.ratio))));
  assert.ok(confirmed.length >= 2);
  assert.equal(v.output.title, `${confirmed.length} regressions: ${confirmed.map((t) => `${t.test} ${formatChange(t)} (${t.metric})`).join(', ')}`);
  assert.doesNotMatch(v.output.title, /\n/);
  assert.doesNotMatch(v.output.title, /read-only-count/, 'the rerun did not confirm it: not in the title');
  // The table: every verdict, regressions first.
  const rows = [...v.output.summary.matchAll(/^\| ([\w-]+) \| (\w+) \| /gm)].map((m) => `${m[1]}:${m[2]}`).filter((r) => r !== 'test:metric');
  assert.equal(rows.length, c19.tests.length);
  assert.deepEqual(rows.slice(0, 2), confirmed.map((t) => `${t.test}:${t.metric}`));
  assert.match(v.output.summary, /\| read-only-count \| throughput \| 🔴 regression \(not confirmed\) \|/);
  assert.match(v.output.summary, /\| scan \| throughput \| 🟡 inconclusive \| 0\.976 \| \[0\.964, 0\.988\] \| 2\.1 % \|/);
  assert.ok(v.output.summary.includes(`commit \`${SHA}\``));
  // Links close the text; the details URL is the report.
  assert.ok(v.output.text.endsWith(`- Full report: ${context.reportUrl}\n- Site page of this run: ${context.siteUrl}\n`), v.output.text);
  assert.equal(v.detailsUrl, context.reportUrl);
  assert.deepEqual(v.status, { state: 'failure', description: v.output.title.slice(0, 140), context: 'tagbench: smoke on local', target_url: context.reportUrl });
  // The comment carries the same content under its marker.
  assert.equal(parseVerdictMarker(v.comment), v.externalId);
  assert.ok(v.comment.includes(v.output.summary) && v.comment.includes(v.output.text));
  assert.equal(v.name, 'tagbench: smoke on local');
});

test('conclusion: failure on a confirmed regression, neutral while one awaits its rerun or a test is undecided, success otherwise', async () => {
  const { c19, c20 } = await loadFixtures();
  const { confirmed, unconfirmed } = await capturedComparisons();
  assert.equal(decideVerdict(confirmed).conclusion, 'failure', 'the real confirm run confirmed regressions');
  const neutral = renderVerdict(unconfirmed, context);
  assert.equal(neutral.conclusion, 'neutral', 'compare found regressions, confirm had not run');
  assert.match(neutral.output.title, /^8 regressions not confirmed by a rerun yet: /);
  assert.equal(neutral.status.state, 'success', 'a status has no neutral: undecided is a success that says so');
  assert.match(neutral.status.description, /^undecided: 8 regressions/);
  assert.ok(neutral.status.description.length <= 140);
  assert.equal(renderVerdict(c20, context).conclusion, 'success');
  assert.match(renderVerdict(c20, context).output.title, /^No regression: 1 improvement, 5 unchanged$/);

  /** @param {(t: any) => any} change applied to every verdict of c19 */
  const variant = (change) => ({ ...structuredClone(c19), tests: structuredClone(c19.tests).map(change) });
  // Only the inconclusive scan left undecided.
  const undecided = variant((t) => (t.verdict === 'regression' ? { ...t, verdict: 'unchanged' } : t));
  assert.equal(decideVerdict(undecided).conclusion, 'neutral');
  assert.match(renderVerdict(undecided, context).output.title, /^1 test undecided \(scan inconclusive\)$/);
  // The confirmed regressions' policy is note: they open no issue and fail no commit.
  const noted = variant((t) => (t.confirmed ? { ...t, policy: 'note' } : t.verdict === 'inconclusive' ? { ...t, verdict: 'unchanged' } : t));
  assert.equal(decideVerdict(noted).conclusion, 'success');
  assert.match(renderVerdict(noted, context).output.summary, /regression \(confirmed\) \(policy: note, no issue\)/);
  // Below the issue threshold (warn): listed, not failing.
  const warned = variant((t) => (t.confirmed ? { ...t, level: 'warn' } : t.verdict === 'inconclusive' ? { ...t, verdict: 'unchanged' } : t));
  assert.equal(decideVerdict(warned).conclusion, 'success');
  // A failed test is undecided too.
  const failed = variant((t) => (t.verdict === 'regression' ? { ...t, verdict: 'unchanged' } : t.verdict === 'inconclusive' ? { ...t, verdict: 'failed' } : t));
  assert.equal(decideVerdict(failed).conclusion, 'neutral');
});

test('an instruction regression: the text names the function that moved most first, then its tables, bounded', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-verdict-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const INJECTED = 'tagbench_injected_cost';
  const rounds = [REAL_PROFILES[0], REAL_PROFILES[1], REAL_PROFILES[0]].map((p) => injectCost(p, INJECTED, 1250));
  const { comparison } = await compareInstructionRuns(join(dir, 'results'), rounds);
  const verdict = comparison.tests.find((x) => x.metric === 'instructionsPerOp');
  assert.equal(verdict?.verdict, 'regression', String(verdict?.reason));
  // Straight from compare (no rerun): neutral, and the text already says where they went.
  const before = renderVerdict(comparison, context);
  assert.equal(before.conclusion, 'neutral');
  assert.match(before.output.title, /^1 regression not confirmed by a rerun yet: point-query \+2\.\d % \(instructionsPerOp\)$/);
  // Confirmed by a rerun, as tagbench confirm marks it.
  Object.assign(/** @type {any} */ (verdict), { confirmed: true, confirmation: { verdict: 'regression', level: 'issue', ratio: verdict?.ratio, ci: verdict?.ci, reason: 'rerun agrees', runIds: { base: [], candidate: [] } } });
  const v = renderVerdict(comparison, context);
  assert.equal(v.conclusion, 'failure');
  assert.match(v.output.title, /^1 regression: point-query \+2\.\d % \(instructionsPerOp\)$/);
  // The test's and the function's names are code spans (issue 34: names are data).
  const firstFunction = /`([^`]+)`/.exec(v.output.text.slice(v.output.text.indexOf('the function that moved most')));
  assert.equal(firstFunction?.[1], INJECTED, 'the function that moved most is the first one named');
  assert.match(v.output.text, new RegExp(`\`point-query\`: the function that moved most\\*\\* is \`${INJECTED}\` \\(\`inject-cost\\.so\`\\): \\+1250 instructions per operation`));
  assert.match(v.output.text, /### Where the instructions went: point-query/);
  assert.ok(v.output.text.indexOf(INJECTED) < v.output.text.indexOf('### Links'));
  assert.ok(v.comment.includes(`\`${INJECTED}\``));
});

test('a function made cheaper by more than another got dearer is the one named first', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-verdict-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // The real profile's costliest named function, made 3,000 instructions per query cheaper,
  // beside a new one that adds 500: an improvement led by the saving.
  const named = REAL_PROFILES[0].functions.filter((f) => !/^0x|^\(other\)$/.test(f.name)).sort((a, b) => b.selfPerOp - a.selfPerOp)[0];
  assert.ok(named.selfPerOp > 3000, `${named.name}: ${named.selfPerOp}`);
  /** @param {typeof REAL_PROFILES[number]} p */
  const cheaper = (p) => {
    const q = injectCost(p, 'tagbench_small_cost', 500);
    return { ...q, totalPerOp: q.totalPerOp - 3000, queryPathPerOp: /** @type {number} */ (q.queryPathPerOp) - 3000, functions: q.functions.map((f) => (f.name === named.name && f.object === named.object ? { ...f, selfPerOp: f.selfPerOp - 3000, inclusivePerOp: f.inclusivePerOp - 3000 } : f)) };
  };
  const { comparison } = await compareInstructionRuns(join(dir, 'results'), [REAL_PROFILES[0], REAL_PROFILES[1], REAL_PROFILES[0]].map(cheaper));
  assert.equal(comparison.tests.find((x) => x.metric === 'instructionsPerOp')?.verdict, 'improvement');
  const v = renderVerdict(comparison, context);
  const lead = /the function that moved most\*\* is `([^`]+)`[^:]*: ([+-][\d.]+) instructions/.exec(v.output.text);
  assert.equal(lead?.[1], named.name.replace(/`/g, "'"));
  assert.ok(Number(lead?.[2]) < -2900, lead?.[2]);
});

test('2,000 verdicts: summary, text and comment stay under GitHub\'s limits, regressions first, the rest linked', async () => {
  const { c19 } = await loadFixtures();
  const big = structuredClone(c19);
  const kinds = /** @type {const} */ (['unchanged', 'unchanged', 'unchanged', 'improvement', 'regression']);
  // Long test names with characters of several UTF-8 bytes: GitHub counts the check output in bytes.
  big.tests = Array.from({ length: 2000 }, (_, i) => {
    const verdict = kinds[i % kinds.length];
    const ratio = verdict === 'regression' ? 0.7 + (0.29 * i) / 2000 : verdict === 'improvement' ? 1.05 : 1.001;
    return { ...structuredClone(c19.tests[0]), test: `größe-µ-${String(i).padStart(4, '0')}-${'x'.repeat(40)}`, verdict, ratio, confirmed: verdict === 'regression' ? true : undefined };
  });
  const v = renderVerdict(big, context);
  const rowBytes = utf8Bytes(v.output.summary.split('\n').find((l) => l.startsWith('| größe')) ?? '');
  assert.ok(rowBytes * big.tests.length > 2 * GITHUB_LIMITS.checkOutput, 'uncapped, the table would be far over the limit');
  assert.ok(utf8Bytes(v.output.summary) <= GITHUB_LIMITS.checkOutput, `${utf8Bytes(v.output.summary)} bytes`);
  assert.ok(utf8Bytes(v.output.summary) <= CHECK_OUTPUT_BUDGET);
  assert.ok(utf8Bytes(v.output.text) <= GITHUB_LIMITS.checkOutput);
  assert.ok(v.comment.length <= GITHUB_LIMITS.commentBody && utf8Bytes(v.comment) <= GITHUB_LIMITS.commentBody, `${v.comment.length} characters`);
  const listed = [...v.output.summary.matchAll(/^\| (größe[^|]+) \| \w+ \| \S+ (\w+)/gm)].map((m) => m[2]);
  const regressions = big.tests.filter((t) => t.verdict === 'regression').length;
  assert.ok(listed.length > 50 && listed.length < regressions, `${listed.length} rows listed`);
  assert.ok(listed.every((kind) => kind === 'regression'), 'the regressions come first');
  assert.match(v.output.summary, new RegExp(`${big.tests.length - listed.length} more rows .* every verdict is in the full report \\(${context.reportUrl.replace(/[.?#]/g, '\\$&')}\\)`));
  // The largest change is the first row.
  const first = /^\| (größe-µ-\d{4})/m.exec(v.output.summary)?.[1];
  assert.equal(first, 'größe-µ-0004', 'index 4 is the first regression, with the lowest ratio');
  const largest = /** @type {import('../../scripts/types.js').TestVerdict} */ (big.tests[4]);
  assert.ok(v.output.title.startsWith(`400 regressions: ${largest.test} ${formatChange(largest)} (throughput), `), v.output.title);
  const more = /, and (\d+) more$/.exec(v.output.title);
  const names = v.output.title.match(/größe-µ-\d{4}/g) ?? [];
  assert.equal(names.length + Number(more?.[1]), 400, 'as many names as fit, and the count of the rest (not cut off)');
  assert.ok(v.output.title.length <= 200);
  assert.ok(v.status.description.length <= GITHUB_LIMITS.statusDescription);
  const commentRows = [...v.comment.matchAll(/^\| größe/gm)].length;
  assert.ok(commentRows > 50 && commentRows <= listed.length, `${commentRows} rows in the comment`);
});

test('a plugin file named with a Markdown link and an @mention renders neither in the comment or the check run (issue 34)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-verdict-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const OBJECT = 'lib[pay here](https:evil.example) @octocat.so';
  const FUNCTION = 'evil`fn` [click](https://evil.example) @octocat';
  const rounds = [REAL_PROFILES[0], REAL_PROFILES[1], REAL_PROFILES[0]].map((p) => {
    const q = injectCost(p, FUNCTION, 1250);
    return { ...q, functions: q.functions.map((f) => (f.name === FUNCTION ? { ...f, object: OBJECT } : f)) };
  });
  const { comparison } = await compareInstructionRuns(join(dir, 'results'), rounds);
  const verdict = comparison.tests.find((x) => x.metric === 'instructionsPerOp');
  assert.equal(verdict?.verdict, 'regression', String(verdict?.reason));
  const v = renderVerdict(comparison, context);
  for (const [what, md] of /** @type {const} */ ([['comment', v.comment], ['check run text', v.output.text]])) {
    const found = linksAndMentions(md);
    assert.ok(!found.some((x) => /octocat/.test(x)), `${what}: no mention (${found.join(', ')})`);
    assert.doesNotMatch(outsideCodeSpans(md), /\]\(https:evil|\]\(https:\/\/evil/, `${what}: no link`);
    assert.ok(md.includes(`\`${OBJECT}\``), `${what}: the object's name shown whole, in a code span`);
    assert.ok(md.includes(`\`\`${FUNCTION}\`\``), `${what}: the function's name whole, in a span fenced longer than its backticks`);
  }
});

test('what a started check is about (a base branch from the dispatch) renders no link or mention', () => {
  const { output } = renderStartedCheck({ product: 'mariadb', hostClass: 'local', suite: 'smoke' }, { about: 'pull request #7 against its merge base with release@octocat](https://evil.example)', runUrl: null });
  assert.deepEqual(linksAndMentions(output.summary), [], output.summary);
  assert.match(output.summary, /release@\u200Boctocat\\\]\(https:\u200B\/\/evil\.example\)/);
});

test('the check run sets time beside work: a timed regression with the instructions unmoved points to waiting, disagreements first; words, never "unchanged", for an interval excluding no change', async () => {
  const { c19 } = await loadFixtures();
  /** A counted query-path verdict on a test of the fixture, as compare writes one. @param {string} test @param {import('../../scripts/types.js').VerdictClass} verdict @param {number} ratio @param {[number, number]} ci */
  const counted = (test, verdict, ratio, ci) => ({
    ...c19.tests[0], test, metric: 'instructionsPerOp', unit: 'instructions/op', higherIsBetter: false, counted: true, scale: /** @type {const} */ ('log'),
    verdict, level: verdict === 'regression' ? /** @type {const} */ ('warn') : null, confirmed: undefined, ratio, ci,
  });
  const cmp = { ...c19, tests: [...c19.tests, counted('scan', 'regression', 1.01, [1.009, 1.011]), counted('point-query', 'unchanged', 1.0025, [1.0022, 1.0028])] };
  const v = renderVerdict(cmp, context);
  const section = v.output.text.slice(v.output.text.indexOf('### Time and work'), v.output.text.indexOf('### Links'));
  const lines = section.split('\n').filter((l) => l.startsWith('- '));
  assert.equal(lines.length, 2, section);
  assert.match(lines[0], /^- `point-query`: time and work disagree: .*this points to waiting \(I\/O, locks, the host\) rather than CPU work\.$/);
  assert.match(lines[1], /^- `scan`: cannot tell whether time and work agree: time: throughput undecided; CPU work: instructionsPerOp \+1\.0 % \[0\.9, 1\.1\] \(regression, warn\)\./);
  assert.match(v.output.summary, /\| point-query \| instructionsPerOp \| ⚪ \+0\.25 % \[0\.22, 0\.28\], under the warn threshold \|/);
  assert.ok(v.comment.includes(section), 'the comment carries it too');
});
