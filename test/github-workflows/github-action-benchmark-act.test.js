/**
 * The real github-action-benchmark (v1.22.0, the commit benchmark.yml pins), run by act on what
 * `tagbench export` makes of a run record: its release tree comes from
 * ../shared/actions/gab-v1.22.0.tar.gz (checked against its sha256, unpacked into a temp
 * folder, never into the project). The test workflow takes benchmark.yml's two action steps
 * with their inputs (name, tool, alerting off) and swaps only where the data goes: the action's
 * external-data-json-path mode instead of the bench-charts branch, so what it stored can be read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import { interpolate } from './expressions.js';
import { describeFailure, ROOT, runAct, STUB_MARK } from './run-act.js';

const run = promisify(execFile);
const ARCHIVE = join(ROOT, '..', 'shared', 'actions', 'gab-v1.22.0.tar.gz');
const ARCHIVE_SHA256 = '5a0c20035e8832c5ca2b0cb46260bd538c94a4484092e1310d71eac5c85b7684';
const ACTION = 'benchmark-action/github-action-benchmark@a60cea5bc7b49e15c1f58f411161f99e0df48372';
const CHECKOUT = 'actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1';
const FIXTURE_STORE = join(ROOT, 'test', 'fixtures', 'github', 'store');
const RUN_ID = 'run-20250301T100000Z-10.11.19';
const COMMIT = { id: 'c0ffee0000000000000000000000000000000001', message: 'tagbench', timestamp: '2026-11-22T10:00:00Z', url: 'https://example.invalid/commit/c0ffee', author: { name: 'tagbench', username: 'tagbench' }, committer: { name: 'tagbench', username: 'tagbench' } };

test('github-action-benchmark stores an exported record as benchmark.yml configures it (external-data-json-path mode)', { timeout: 10 * 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-gab-'));
  let passed = false;
  t.after(() => (passed ? rm(dir, { recursive: true, force: true }) : undefined));

  const archive = await readFile(ARCHIVE);
  assert.equal(createHash('sha256').update(archive).digest('hex'), ARCHIVE_SHA256, `${ARCHIVE} is not the release tree the README there lists`);
  await mkdir(join(dir, 'gab'));
  await run('tar', ['-xzf', ARCHIVE, '-C', join(dir, 'gab')]);

  const benchmark = parse(await readFile(join(ROOT, '.github/workflows/benchmark.yml'), 'utf8'));
  const gabSteps = benchmark.jobs.publish.steps.filter((/** @type {any} */ s) => s.uses?.startsWith('benchmark-action/github-action-benchmark@'));
  assert.equal(gabSteps.length, 2, 'benchmark.yml runs the action twice (higher and lower is better)');
  const planOutputs = { 'host-class': 'local', suite: 'smoke' };
  const dataFile = join(dir, 'charts', 'data.json');
  const out = join(dir, 'out');
  /** @type {{name: string, tool: string}[]} */
  const expected = [];
  const steps = [];
  for (const step of gabSteps) {
    assert.equal(step.uses, `${ACTION} # v1.22.0`.split(' #')[0]);
    const inputs = Object.fromEntries(Object.entries(step.with).map(([k, v]) => [k, interpolate(v, { needs: { plan: { outputs: planOutputs } }, env: { OUT_DIR: out }, github: { token: '' } })]));
    // Alerting stays tagbench's: the action may neither comment nor fail the job.
    assert.equal(inputs['comment-on-alert'], false);
    assert.equal(inputs['fail-on-alert'], false);
    assert.equal(inputs['comment-always'], false);
    for (const key of ['gh-pages-branch', 'benchmark-data-dir-path', 'auto-push', 'github-token']) delete inputs[key];
    inputs['external-data-json-path'] = dataFile;
    expected.push({ name: String(inputs.name), tool: String(inputs.tool) });
    steps.push(
      { name: `export (${inputs.tool})`, run: `node scripts/cli.js export --format github-action-benchmark --tool ${inputs.tool} --store "${FIXTURE_STORE}" --run ${RUN_ID} --out "${inputs['output-file-path']}"` },
      { name: `github-action-benchmark (${inputs.tool})`, uses: ACTION, with: inputs },
    );
  }
  const workflowFile = join(dir, 'gab.yml');
  await writeFile(workflowFile, stringify({
    name: 'github-action-benchmark under act',
    on: { workflow_dispatch: null },
    permissions: {},
    jobs: { charts: { 'runs-on': 'ubuntu-latest', permissions: {}, steps: [{ uses: CHECKOUT, with: { 'persist-credentials': false } }, { run: 'npm ci --omit=dev --no-audit --no-fund --loglevel=error' }, ...steps] } },
  }));

  const result = await runAct({
    workflow: relative(ROOT, workflowFile),
    dir,
    // A dispatch has no head_commit; on GitHub the action asks the API for it, here it is given.
    event: { inputs: {}, head_commit: COMMIT, repository: { full_name: 'tagbench/tagbench', name: 'tagbench', owner: { login: 'tagbench' }, html_url: 'https://example.invalid/tagbench' } },
    actions: { [ACTION]: join(dir, 'gab', 'github-action-benchmark') },
  });
  assert.equal(result.code, 0, describeFailure(result));
  assert.doesNotMatch(result.log, new RegExp(STUB_MARK), 'a stubbed action ran instead of the real one');

  const stored = JSON.parse(await readFile(dataFile, 'utf8'));
  assert.deepEqual(Object.keys(stored.entries).sort(), expected.map((e) => e.name).sort());
  for (const { name, tool } of expected) {
    const [entry, ...more] = stored.entries[name];
    assert.equal(more.length, 0, `${name}: one run stored`);
    assert.equal(entry.tool, tool);
    assert.equal(entry.commit.id, COMMIT.id);
    assert.ok(entry.benches.length > 0, `${name}: no benches stored`);
    for (const bench of entry.benches) {
      assert.match(bench.name, /^mariadb 10\.11 · local · smoke · point-query · /);
      assert.equal(typeof bench.value, 'number');
      assert.match(bench.extra, new RegExp(`run: ${RUN_ID}`));
      assert.match(bench.extra, /host class: local/);
    }
  }
  const higher = stored.entries[expected.find((e) => e.tool === 'customBiggerIsBetter')?.name ?? ''];
  assert.ok(higher[0].benches.some((/** @type {any} */ b) => /throughput$/.test(b.name)), 'throughput is charted as higher is better');
  const lower = stored.entries[expected.find((e) => e.tool === 'customSmallerIsBetter')?.name ?? ''];
  assert.ok(lower[0].benches.some((/** @type {any} */ b) => /latency/.test(b.name)), 'latency is charted as lower is better');
  passed = true;
});
