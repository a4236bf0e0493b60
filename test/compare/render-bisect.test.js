// A commit bisect names its candidates `<12-hex id> (<subject>)`: the subjects are the commit
// authors' text, so the Markdown of a report shows them whole, in code spans, with no link and
// no mention (issue 34). The report's shape is the stored one (store/bisect-report.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderBisectReport } from '../../scripts/compare/render-bisect.js';
import { linksAndMentions, outsideCodeSpans } from '../support/markdown-syntax.js';

const GOOD = '1a2b3c4d5e6f (Merge branch 10.11)';
const BAD = 'f6e5d4c3b2a1 (lib[pay here](https:evil.example) @octocat `x` | y)';

test('commit subjects with a link, a mention, a backtick and a pipe render as text in every place', () => {
  const probe = { index: 1, seconds: 100, runIds: { good: ['g1'], candidate: ['c1'] }, adaptive: null };
  const evidence = { test: 'point-query [t](https://evil.example)', metric: 'throughput', verdict: 'regression', level: 'issue', ratio: 0.8, ci: /** @type {[number, number]} */ ([0.75, 0.85]), mde: 0.03, instances: /** @type {[number, number]} */ ([3, 3]) };
  const md = renderBisectReport({
    hostClass: 'local', product: 'mariadb', suite: 'smoke',
    good: { name: 'pull/7/head@octocat' }, bad: { name: '[bad](https://evil.example)' },
    candidates: [{ name: GOOD }, { name: BAD }], source: { comparisonId: null },
    targets: [{ test: evidence.test, metric: 'throughput' }],
    probes: [{ ...probe, candidate: BAD, call: 'bad', reason: `regressed in ${BAD}`, evidence: [evidence] }],
    outcome: { status: 'found', lastGood: GOOD, firstBad: BAD, suspects: [], message: `The first bad commit is ${BAD}.` },
    notes: [`built ${BAD} from @octocat's fork`],
  });
  const found = linksAndMentions(md);
  assert.deepEqual(found, [], `no link or mention outside code spans:\n${md}`);
  assert.ok(md.includes(`**First bad commit: mariadb \`\`${BAD}\`\`**`), md);
  assert.match(md, /\| 1 \| ``f6e5d4c3b2a1 \(lib\[pay here\]\(https:evil\.example\) @octocat `x` \\\| y\)`` \| \*\*bad\*\* \|/, 'in the table: a span, its pipe escaped');
  assert.match(outsideCodeSpans(md), /## Bisect of mariadb pull\/7\/head@\u200Boctocat \(good\)/, 'the heading: escaped, the mention broken');
});
