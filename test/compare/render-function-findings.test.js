// "Below the threshold, named" rendered from real judged profiles (the fixtures of
// function-findings.test.js: MariaDB 10.11.18 with 0.1 % of a point select injected in one
// function of a preload library), plus a function name a pull request could choose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { judgeFunctionProfiles } from '../../scripts/compare/function-findings.js';
import { renderFunctionFindings, groupFunctionFindings, BELOW_THRESHOLD_TITLE } from '../../scripts/compare/render-function-findings.js';

/** @param {string} label @param {string} name */
function judged(label, name) {
  const at = (/** @type {string} */ l, /** @type {number} */ i) => JSON.parse(readFileSync(new URL(`../fixtures/compare/function-findings/10.11.18-${l}-${name}.i${i}.profile.json`, import.meta.url), 'utf8'));
  return /** @type {import('../../scripts/types.js').TestFunctionFindings} */ (judgeFunctionProfiles([0, 1, 2].map((i) => ({ base: at('A', i), candidate: at(label, i) })), {}));
}

const injected = [
  { test: 'point-query', metric: 'instructionsPerOp', functionFindings: judged('S0p1', 'point-query') },
  { test: 'read-only.range100', metric: 'instructionsPerOp', functionFindings: judged('S0p1', 'read-only.range100') },
  // A throughput verdict never carries findings: ignored even when handed some.
  { test: 'point-query', metric: 'throughput', functionFindings: judged('S0p1', 'point-query') },
];

test('findings are grouped by function, with every test they show in, the largest share first', () => {
  const named = groupFunctionFindings(injected);
  assert.deepEqual(named.map((f) => [f.name, f.tests.map((t) => t.test)]), [['tagbench_injected_cost', ['point-query']], ['send', ['read-only.range100']]]);
});

test('Markdown: the heading, sizes, that a finding never opens an issue, names as code spans', () => {
  const md = renderFunctionFindings(injected, 'markdown');
  assert.match(md, new RegExp(`### ${BELOW_THRESHOLD_TITLE}`));
  assert.match(md, /never opens an issue by itself/);
  assert.match(md, /\| `tagbench_injected_cost` \| `[0-9a-f]{64}\.so` \| appeared \(self\) \| `point-query` \+67\.\d+ \/op \(\+0\.10\d % of the total\) \|/);
  assert.match(md, /\| `send` \| `[0-9a-f]{64}\.so` \| inclusive \+\d+\.\d % \| `read-only\.range100` \+64\.\d+ \/op \(\+0\.040 % of the total\) \|/);
});

test('a hostile function name renders as text: no link, no mention, no broken table', () => {
  const base = judged('S0p1', 'point-query');
  const hostile = { ...base, findings: base.findings.map((f) => ({ ...f, name: 'x[pay](https://evil.example) @octocat | y', object: 'lib`z`.so' })) };
  const md = renderFunctionFindings([{ test: 'point-query', metric: 'instructionsPerOp', functionFindings: hostile }], 'markdown');
  const row = md.split('\n').find((l) => l.includes('evil'));
  assert.ok(row);
  assert.ok(row.startsWith('| `x[pay](https://evil.example) @octocat \\| y` | ``lib`z`.so`` |'), row);
  const text = renderFunctionFindings([{ test: 'point-query', metric: 'instructionsPerOp', functionFindings: { ...base, findings: base.findings.map((f) => ({ ...f, name: 'a\u001b[2Jb' })) } }], 'text');
  assert.match(text, /a\?\[2Jb/);
  assert.doesNotMatch(text, /\u001b/);
});

test('no finding says so; no function judged gives no section', () => {
  const aa = renderFunctionFindings([{ test: 'point-query', metric: 'instructionsPerOp', functionFindings: judged('B', 'point-query') }], 'text');
  assert.match(aa, /Below the threshold, named:\n\n {2}No function rose beyond its noise in the 1 test judged per function/);
  assert.equal(renderFunctionFindings([{ test: 'point-query', metric: 'instructionsPerOp' }], 'markdown'), '');
});

test('the list is bounded, the rest counted', () => {
  const md = renderFunctionFindings(injected, 'markdown', { limit: 1 });
  assert.equal(md.split('\n').filter((l) => l.startsWith('| `')).length, 1);
  assert.match(md, /1 more function \(the smallest shares\) in the comparison's JSON/);
});
