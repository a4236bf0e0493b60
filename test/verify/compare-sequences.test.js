/**
 * `tagbench compare` of the insert benchmark and of LinkBench, on the records a real
 * `tagbench run` wrote (test/fixtures/sequence/: insert-smoke and linkbench-smoke on MariaDB
 * 10.11.18 and 10.11.19), written into a temp store: the terminal output, --markdown and --json
 * carry the per-step rates, stall figures, per-second chart and seed 000's table.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRecord } from '../../scripts/store/index.js';
import { compareCommand as compare } from '../../scripts/verify/commands.js';

const FIXTURES = new URL('../fixtures/sequence/', import.meta.url).pathname;

/** @type {string} */
let dir;
/** @type {string} */
let store;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tagbench-compare-sequences-'));
  store = join(dir, 'results');
  for (const suite of ['insert-smoke', 'linkbench-smoke']) {
    for (const f of readdirSync(join(FIXTURES, suite))) await writeRecord(store, JSON.parse(readFileSync(join(FIXTURES, suite, f), 'utf8')));
  }
});
after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** @param {string} suite */
async function run(suite) {
  let printed = '';
  const md = join(dir, `${suite}.md`);
  const json = join(dir, `${suite}.json`);
  const code = await compare({ product: 'mariadb', releases: '10.11.18,10.11.19', base: '10.11.18', suite, hostClass: 'local', store, baselines: join(dir, 'baselines'), markdown: md, json, out: (/** @type {string} */ t) => (printed += t), color: false, changePoints: false, storeVerdicts: false });
  return { code, printed, md: await readFile(md, 'utf8'), json: JSON.parse(await readFile(json, 'utf8')) };
}

test('insert benchmark: each step per release with stalls and whether the writers kept up, and a per-second insert-rate chart', async () => {
  const { code, printed, md, json } = await run('insert-smoke');
  assert.ok(code === 0 || code === 2, `exit ${code}`);
  assert.match(printed, /\ninsert benchmark per step .*\n  step +release +repeats +rate +p1\/s +p50\/s/);
  assert.match(printed, /\n  qp1000 +10\.11\.19 +0 +n\/a .* NO: 2 repeat\(s\), worst \d+\.\d %\n/);
  assert.match(printed, /\nl\.i2 \(top \d+\/s\)\n  10\.11\.18 [▁▂▃▄▅▆▇█ ]+\n  10\.11\.19 [▁▂▃▄▅▆▇█ ]+\n/);
  assert.ok(printed.indexOf('insert benchmark per step') > printed.indexOf('throughput verdicts'), 'after the verdicts');
  assert.match(md, /\n## Sequence benchmarks\n\n### Insert benchmark per step\n\n\| step \| release \|/);
  assert.deepEqual(json.sequences.insert.map((/** @type {any} */ s) => s.test), ['l.i0', 'l.x', 'l.i1', 'l.i2', 'qr100', 'qp100', 'qr500', 'qp500', 'qr1000', 'qp1000']);
  assert.equal(json.sequences.linkbench, null);
});

test('LinkBench: seed 000\'s table per release', async () => {
  const { printed, md, json } = await run('linkbench-smoke');
  assert.match(printed, /\nLinkBench .*\n  release +load ips +size after load +index \(s\) +request 1 qps +size after request 1\n  10\.11\.18 .+ MiB \(logical only\) .+ MiB \(logical only\)\n  10\.11\.19 .+ MiB \(logical only\) .+ MiB \(logical only\)\n/);
  assert.doesNotMatch(printed, /insert benchmark per step/);
  assert.match(md, /\n### LinkBench\n\nSizes after each phase: on disk [^\n]+\n\n\| release \| load ips \|/);
  assert.deepEqual(json.sequences.linkbench.rows.map((/** @type {any} */ r) => r.version), ['10.11.18', '10.11.19']);
  assert.ok(json.sequences.linkbench.rows.every((/** @type {any} */ r) => r.loadIps > 0 && r.requests[0].qps > 0));
});

test('the Markdown report has the release page\'s response times per operation: each release beside its base, no row of n/a', async () => {
  const { latencyTable } = await import('../../scripts/compare/index.js');
  for (const [suite, benchmark, title] of [['linkbench-smoke', 'linkbench', 'LinkBench: response time per operation'], ['insert-smoke', 'ibench', 'Insert benchmark: response time per statement']]) {
    const { md } = await run(suite);
    const at = md.indexOf('\n## Response times per operation\n');
    assert.ok(at > md.indexOf('## Sequence benchmarks'), `${suite}: after the sequence tables`);
    const section = md.slice(at, md.indexOf('\n## ', at + 5) > 0 ? md.indexOf('\n## ', at + 5) : undefined);
    assert.match(section, new RegExp(`### ${title}\\n`));
    const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| step') && !l.startsWith('| ---')).map((l) => l.slice(2, -2).split(' | '));
    assert.ok(rows.length > 0);
    assert.ok(rows.every((r) => !r.includes('n/a')), 'no cell of n/a');
    // The same figures as the release page's (latencyTable over the same records), base row first.
    const records = readdirSync(join(FIXTURES, suite)).map((f) => JSON.parse(readFileSync(join(FIXTURES, suite, f), 'utf8')));
    const table = /** @type {NonNullable<ReturnType<typeof latencyTable>>} */ (latencyTable(/** @type {any} */ (benchmark), records.filter((r) => r.release.version === '10.11.19'), records.filter((r) => r.release.version === '10.11.18')));
    const shown = table.rows.filter((r) => r.base && r.release);
    assert.ok(shown.length > 0);
    for (const row of shown) {
      const i = rows.findIndex((r) => r[0] === row.step && r[1] === row.op && r[2] === '10.11.18');
      assert.ok(i >= 0, `${row.step} ${row.op}: no base row`);
      assert.equal(rows[i + 1][2], '**10.11.19**', `${row.step} ${row.op}: the release right after its base`);
      const p95 = table.columns.indexOf('p95') + 5;
      assert.equal(Number(rows[i + 1][p95]).toPrecision(2), Number(row.release?.ms.p95).toPrecision(2));
    }
    if (benchmark === 'ibench') assert.match(section, /whole milliseconds/, 'the insert benchmark\'s resolution is said');
  }
});
