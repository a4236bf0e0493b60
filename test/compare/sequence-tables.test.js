// The insert benchmark's and LinkBench's tables beside the verdicts, on run records a real
// `tagbench run` wrote (test/fixtures/sequence/, made by make-records.js there: insert-smoke and
// linkbench-smoke on MariaDB 10.11.18 and 10.11.19).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { median } from 'simple-statistics';
import { computeSequenceTables, renderSequenceTables, representativeRepeat, formatBytes, computeQos } from '../../scripts/compare/index.js';
import { sparkline, sizePair } from '../../scripts/compare/sequence-tables.js';

const FIXTURES = new URL('../fixtures/sequence/', import.meta.url).pathname;

/** @param {string} suite @returns {import('../../scripts/types.js').RunRecord[]} */
function records(suite) {
  const dir = join(FIXTURES, suite);
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
}

/** @param {import('../../scripts/types.js').RunRecord[]} recs */
function byRelease(recs) {
  const versions = [...new Set(recs.map((r) => r.release.version))].sort();
  return versions.map((version) => ({ version, records: recs.filter((r) => r.release.version === version) }));
}

const ibench = records('insert-smoke');
const linkbench = records('linkbench-smoke');
// loops-smoke (6 loops) on 10.11.18 and 10.11.19, 2 passes, copied from a real `tagbench run`.
const loops = records('loops-smoke');
const OPTIONS = { stallFraction: 0.5 };

describe('insert benchmark', () => {
  const tables = computeSequenceTables(byRelease(ibench), OPTIONS);

  it('has a row per release for every measured step, in the sequence order', () => {
    assert.deepEqual(tables.insert.map((s) => s.test), ['l.i0', 'l.x', 'l.i1', 'l.i2', 'qr100', 'qp100', 'qr500', 'qp500', 'qr1000', 'qp1000']);
    for (const step of tables.insert) assert.deepEqual(step.releases.map((r) => r.version), ['10.11.18', '10.11.19']);
    assert.equal(tables.linkbench, null);
  });

  it('gated stall metrics read the right per-second rate: qps is inserts/s for l.i*, queries/s for q*', () => {
    for (const rec of ibench) {
      for (const step of rec.steps.filter((s) => s.reported)) {
        for (const rep of step.repeats) {
          for (const iv of /** @type {any[]} */ (rep.intervals)) {
            if (step.name.startsWith('l.i')) assert.equal(iv.qps, iv.inserts, `${step.name} t=${iv.t}`);
            if (step.name.startsWith('q')) assert.equal(iv.qps, iv.queries, `${step.name} t=${iv.t}`);
          }
        }
      }
    }
  });

  it('rates are medians of the ok repeats; stalls come from computeQos on the step\'s own rate', () => {
    const rec = ibench.find((r) => r.release.version === '10.11.18');
    const li1 = /** @type {any} */ (rec).steps.find((/** @type {any} */ s) => s.name === 'l.i1');
    const row = /** @type {any} */ (tables.insert.find((s) => s.test === 'l.i1')).releases[0];
    assert.equal(row.rate, median(li1.repeats.map((/** @type {any} */ r) => r.throughput)));
    const qos = li1.repeats.map((/** @type {any} */ r) => computeQos(r.intervals.map((/** @type {any} */ iv) => ({ t: iv.t, qps: iv.inserts })), OPTIONS));
    assert.equal(row.stalls.p50, median(qos.map((/** @type {any} */ q) => q.p50)));
    assert.equal(row.stalls.stallShare, median(qos.map((/** @type {any} */ q) => q.stallShare)));
    const rep = representativeRepeat(li1.repeats.map((/** @type {any} */ r) => ({ rep: r })));
    assert.deepEqual(row.perSecond, /** @type {any} */ (rep).rep.intervals.map((/** @type {any} */ iv) => iv.inserts));
    const lx = /** @type {any} */ (tables.insert.find((s) => s.test === 'l.x'));
    assert.equal(lx.rateField, null);
    assert.equal(lx.releases[0].stalls, null, 'one ALTER TABLE has no per-second rate');
    assert.ok(lx.releases[0].seconds > 0);
  });

  it('says when the background writers did not keep up, from the failed repeats\' figures', () => {
    for (const test of ['qr1000', 'qp1000']) {
      for (const row of /** @type {any} */ (tables.insert.find((s) => s.test === test)).releases) {
        const shares = ibench.filter((r) => r.release.version === row.version)
          .flatMap((r) => r.steps.filter((s) => s.name === test).flatMap((s) => s.repeats.map((rep) => /** @type {any} */ (rep.details).ibench.keepUp.share)));
        assert.deepEqual(row.keepUp, { share: Math.min(...shares), sustained: false, failedRepeats: 2 });
        assert.equal(row.rate, null, 'no ok repeat: no rate');
      }
    }
    const kept = /** @type {any} */ (tables.insert.find((s) => s.test === 'qp100')).releases[0].keepUp;
    assert.equal(kept.sustained, true);
    assert.ok(kept.share >= 0.95);
  });

  it('renders the steps, the keep-up misses and a per-second chart per insert step', () => {
    const text = renderSequenceTables(tables, { format: 'terminal' });
    assert.match(text, /^insert benchmark per step/);
    assert.match(text, /qr1000 +10\.11\.18 .*NO: 2 repeat\(s\), worst \d+\.\d %/);
    assert.match(text, /l\.x +10\.11\.18 +2 +\d.* s \(\d+ rows\/s\)/);
    for (const step of ['l.i0', 'l.i1', 'l.i2']) {
      const block = text.slice(text.indexOf(`\n${step} (top `));
      assert.match(block, new RegExp(`^\\n${step.replace('.', '\\.')} \\(top \\d+/s\\)\\n  10\\.11\\.18 [▁▂▃▄▅▆▇█ ]+\\n  10\\.11\\.19 [▁▂▃▄▅▆▇█ ]+\\n`));
    }
    const md = renderSequenceTables(tables, { format: 'markdown' });
    assert.match(md, /^### Insert benchmark per step\n\n\| step \| release \| repeats \| rate \|/);
    assert.equal(md.match(/\n\| q[rp]1000 \| .* \| NO: 2 repeat\(s\)/g)?.length, 4);
    assert.match(md, /```\nl\.i0 \(top \d+\/s\)\n/);
  });
});

describe('LinkBench', () => {
  const tables = computeSequenceTables(byRelease(linkbench), OPTIONS);

  it('gives seed 000\'s table: load ips, size after load, QPS and size after each request phase', () => {
    assert.deepEqual(tables.insert, []);
    const lb = /** @type {NonNullable<typeof tables.linkbench>} */ (tables.linkbench);
    assert.deepEqual(lb.phases, ['linkbench.request.1']);
    for (const row of lb.rows) {
      const recs = linkbench.filter((r) => r.release.version === row.version);
      const reps = (/** @type {string} */ name) => recs.flatMap((r) => r.steps.filter((s) => s.name === name).flatMap((s) => s.repeats.filter((x) => x.status === 'ok')));
      assert.equal(row.loadIps, median(reps('linkbench.load').map((r) => /** @type {number} */ (r.throughput))));
      assert.equal(row.loadBytes, median(reps('linkbench.load').map((r) => /** @type {any} */ (r.details).linkbench.sizeAfterBytes)));
      assert.ok(/** @type {number} */ (row.loadBytes) > 0);
      assert.ok(/** @type {number} */ (row.indexS) > 0);
      assert.equal(row.requests[0].qps, median(reps('linkbench.request.1').map((r) => /** @type {number} */ (r.throughput))));
      assert.ok(/** @type {number} */ (row.requests[0].sizeBytes) >= /** @type {number} */ (row.loadBytes) * 0.5, 'size after the requests is of the loaded database');
    }
    // These records come from before the on-disk size was measured: the logical one, marked.
    assert.ok(lb.rows.every((r) => r.loadFilesBytes === null && r.requests[0].filesBytes === null));
    const text = renderSequenceTables(tables, { format: 'terminal' });
    assert.match(text, /^LinkBench \(medians over ok repeats\)\. Sizes after each phase: on disk .* \/ logical/);
    assert.match(text, /release +load ips +size after load +index \(s\) +request 1 qps +size after request 1\n/);
    assert.match(text, /\n  10\.11\.18 +\d+ +[\d.]+ MiB \(logical only\) +[\d.]+ +\d[\d.]* +[\d.]+ MiB \(logical only\)\n/);
    const md = renderSequenceTables(tables, { format: 'markdown' });
    assert.match(md, /^### LinkBench\n\nSizes after each phase: [^\n]+\n\n\| release \| load ips \| size after load \| index \(s\) \| request 1 qps \| size after request 1 \|\n\| --- \| ---: \|/);
  });

  it('prints the size on disk first when the records have it (median over the repeats), then the logical one', () => {
    const MiB = 1024 * 1024;
    /** @type {typeof linkbench} */
    const withFiles = structuredClone(linkbench);
    let k = 0;
    for (const rec of withFiles) {
      for (const step of rec.steps) {
        for (const rep of step.repeats) {
          const lb = /** @type {any} */ (rep.details)?.linkbench;
          if (lb) lb.filesAfterBytes = (step.name === 'linkbench.load' ? 40 : 44) * MiB + (k++ % 3) * MiB;
        }
      }
    }
    const lb = /** @type {NonNullable<ReturnType<typeof computeSequenceTables>['linkbench']>} */ (computeSequenceTables(byRelease(withFiles), OPTIONS).linkbench);
    for (const row of lb.rows) {
      const recs = withFiles.filter((r) => r.release.version === row.version);
      const files = (/** @type {string} */ name) => recs.flatMap((r) => r.steps.filter((s) => s.name === name).flatMap((s) => s.repeats.filter((x) => x.status === 'ok')))
        .map((r) => /** @type {any} */ (r.details).linkbench.filesAfterBytes);
      assert.equal(row.loadFilesBytes, median(files('linkbench.load')));
      assert.equal(row.requests[0].filesBytes, median(files('linkbench.request.1')));
    }
    const text = renderSequenceTables({ insert: [], linkbench: lb }, { format: 'terminal' });
    assert.match(text, /\n  10\.11\.18 +\d+ +4\d(\.\d+)? MiB \/ [\d.]+ MiB +[\d.]+ +\d[\d.]* +4\d(\.\d+)? MiB \/ [\d.]+ MiB\n/);
  });
});

describe('sizePair', () => {
  it('puts the size on disk first, marks a logical size alone, and prints n/a for none', () => {
    assert.equal(sizePair(2 * 1024 * 1024, 1024 * 1024), '2.00 MiB / 1.00 MiB');
    assert.equal(sizePair(null, 1024 * 1024), '1.00 MiB (logical only)');
    assert.equal(sizePair(null, null), 'n/a');
    assert.equal(sizePair(0, 0), '0 B / 0 B');
  });
});

describe('long runs (loops)', () => {
  const tables = computeSequenceTables(byRelease(loops), OPTIONS);

  it('gives seed 001\'s series: QPS and database size after each loop, per release, in loop order', () => {
    const lp = /** @type {NonNullable<typeof tables.loops>} */ (tables.loops);
    assert.deepEqual(lp.steps, [1, 2, 3, 4, 5, 6].map((k) => `read-write.range10.loop${k}`));
    assert.deepEqual(lp.rows.map((r) => r.version), ['10.11.18', '10.11.19']);
    for (const row of lp.rows) {
      const recs = loops.filter((r) => r.release.version === row.version);
      lp.steps.forEach((name, i) => {
        const reps = recs.flatMap((r) => r.steps.filter((s) => s.name === name).flatMap((s) => s.repeats.filter((x) => x.status === 'ok')));
        assert.equal(row.qps[i], median(reps.map((r) => /** @type {number} */ (r.throughput))));
        assert.equal(row.onDiskBytes[i], median(reps.map((r) => /** @type {any} */ (r.details).loops.dbSize.onDiskBytes)));
        assert.ok(/** @type {number} */ (row.logicalBytes[i]) > 0 && /** @type {number} */ (row.logicalBytes[i]) < /** @type {number} */ (row.onDiskBytes[i]));
      });
    }
    const text = renderSequenceTables(tables, { format: 'terminal' });
    assert.match(text, /^long run, loop by loop/);
    assert.match(text, /release +qps@1 +qps@2 +qps@3 +qps@4 +qps@5 +qps@6 +size@1 .* size@6\n/);
    assert.match(text, /\n  10\.11\.19 +\d+( +\d+){5} +[\d.]+ MiB \/ [\d.]+ MiB/);
    assert.match(renderSequenceTables(tables, { format: 'markdown' }), /^### Long run, loop by loop\n\n\| release \| qps@1 \|/);
  });
  it('is absent for suites without loops', () => {
    assert.equal(computeSequenceTables(byRelease(linkbench), OPTIONS).loops, null);
  });
});

describe('helpers', () => {
  it('sparkline: one scale for all lines, a gap for a second with nothing done, at most width columns', () => {
    assert.equal(sparkline([0, 50, 100], 100), ' ▅█');
    assert.equal(sparkline([100, 100], 200), '▅▅', 'half the top of another line');
    assert.equal(sparkline(Array.from({ length: 120 }, () => 10), 10, 60).length, 60);
    assert.equal(sparkline([], 10), '');
  });
  it('representativeRepeat: the median one, the lower middle for an even count, ignoring failed ones', () => {
    const reps = [3, 1, 2].map((throughput) => ({ rep: { throughput } }));
    assert.equal(representativeRepeat(reps)?.rep.throughput, 2);
    assert.equal(representativeRepeat([...reps, { rep: { throughput: 4 } }])?.rep.throughput, 2);
    assert.equal(representativeRepeat([{ rep: { throughput: null } }]), null);
  });
  it('formatBytes: binary units', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(3 * 1024 * 1024), '3.00 MiB');
    assert.equal(formatBytes(null), 'n/a');
  });
});

describe('issue 35\'s demo (its records trimmed: test/fixtures/sequence/issue35-demo/)', () => {
  it('a release whose charted repeat has one second of samples gets no lone bar but why; a step where none has two is not drawn', () => {
    const text = renderSequenceTables(computeSequenceTables(byRelease(records('issue35-demo')), OPTIONS), { format: 'markdown' });
    const chart = text.slice(text.indexOf('Inserts per second'), text.indexOf('```\n', text.indexOf('```\n') + 4));
    // l.i1: 10.11.18's charted repeat ran 2.0 s (two samples), 10.11.19's 1.5 s (one).
    assert.match(chart, /\nl\.i1 \(top \d+\/s\)\n {2}10\.11\.18 \S{2}\n {2}10\.11\.19 \(one second of samples: its repeats ran 1\.51 s \(median\), too short for a per-second picture\)\n/);
    // l.i2's repeats ran under a second: no per-second sample, no chart.
    assert.doesNotMatch(chart, /l\.i2/);
  });
});
