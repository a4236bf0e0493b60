// The noise summary (scripts/store/noise-summary.js): what `tagbench triage` counts is a valid
// file of this format, written and read back unchanged; a file that is wrong is refused naming
// the field, a newer one is refused, the counts must add up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNoiseSummary, validateNoiseSummary, writeNoiseSummary } from '../../scripts/store/noise-summary.js';
import { summarise } from '../../scripts/github/triage.js';

const key = { product: 'mariadb', line: '10.11', version: '10.11.19', hostClass: 'local', suite: 'smoke', adHoc: null };
/** Triaged issues as triageIssues returns them: one noise (two throughput tests), one expected change, one unanswered. */
const triaged = /** @type {any[]} */ ([
  { number: 1, url: 'https://github.example/acme/bench/issues/1', state: 'open', key, tests: ['point-query:throughput', 'update-index:throughput'], answer: 'noise', source: 'label', problem: null, action: 'acknowledged' },
  { number: 2, url: 'https://github.example/acme/bench/issues/2', state: 'open', key: { ...key, version: '10.11.21' }, tests: ['point-query:latencyP95Ms', 'point-query:throughput'], answer: 'expected-change', source: 'comment', problem: null, action: 'promotion-dispatched' },
  { number: 3, url: 'https://github.example/acme/bench/issues/3', state: 'open', key: { ...key, version: '10.11.22' }, tests: ['read-only:throughput'], answer: null, source: null, problem: null, action: 'none' },
]);
const summary = summarise(triaged, 'acme/bench', new Date('2026-11-22T10:00:00Z'));

test('what triage counts is a valid noise summary, written and read back unchanged', async (t) => {
  assert.deepEqual(validateNoiseSummary(summary), []);
  assert.equal(summary.metrics.throughput.noise, 1);
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-noise-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'out', 'noise-summary.json');
  await writeNoiseSummary(file, summary);
  assert.deepEqual(await readNoiseSummary(file), summary);
  assert.ok((await readFile(file, 'utf8')).endsWith('}\n'));
});

test('a wrong field is named; counts that do not add up are refused', () => {
  const wrongType = { ...summary, issues: '3' };
  assert.match(validateNoiseSummary(wrongType).join('\n'), /issues/);
  const badMetric = structuredClone(summary);
  badMetric.metrics.throughput.noise = 2;
  assert.deepEqual(validateNoiseSummary(badMetric), ['metrics.throughput: noise + confirmedBug + expectedChange + unanswered is 4, but issues is 3']);
  const badAnswers = structuredClone(summary);
  badAnswers.answers.unanswered = 0;
  assert.match(validateNoiseSummary(badAnswers).join('\n'), /answers add up to 2, but issues is 3/);
  const badList = structuredClone(summary);
  badList.noise = [];
  assert.match(validateNoiseSummary(badList).join('\n'), /noise lists 0 issue\(s\), but answers.noise is 1/);
  const badTest = structuredClone(summary);
  badTest.noise[0].tests = ['point-query'];
  assert.match(validateNoiseSummary(badTest).join('\n'), /noise\.0\.tests\.0/);
});

test('reading refuses a missing file, broken JSON, a newer format and an invalid summary, saying what to do', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-noise-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await assert.rejects(readNoiseSummary(join(dir, 'none.json')), { name: 'UserError', message: /cannot read .*tagbench triage --out FILE/ });
  const broken = join(dir, 'broken.json');
  await writeFile(broken, '{"schemaVersion": 1,');
  await assert.rejects(readNoiseSummary(broken), { name: 'UserError', message: /not valid JSON/ });
  const newer = join(dir, 'newer.json');
  await writeFile(newer, JSON.stringify({ ...summary, schemaVersion: 2 }));
  await assert.rejects(readNoiseSummary(newer), { name: 'UserError', message: /schemaVersion 2 is newer than this tagbench reads \(1\)/ });
  const invalid = join(dir, 'invalid.json');
  await writeFile(invalid, JSON.stringify({ ...summary, repo: 'not a repo' }));
  await assert.rejects(readNoiseSummary(invalid), { name: 'UserError', message: /not a noise summary: .*repo/ });
  await assert.rejects(writeNoiseSummary(join(dir, 'w.json'), /** @type {any} */ ({ ...summary, issues: 9 })), { name: 'UserError', message: /answers add up to 3, but issues is 9/ });
});
