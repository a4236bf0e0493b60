/**
 * A hand-made bisect report for the tests of what reads them (report --bisects, publish, the
 * site): mariadb 10.11.18 (good) .. 10.11.22 (bad) on host class `local`, suite `smoke`, three
 * candidates; 10.11.20 probed good, 10.11.21 bad, so the first bad release is 10.11.21. Made-up
 * numbers in the stored shape; the tests validate it against the store's schema (writeBisectReport
 * refuses an invalid one).
 */

import assert from 'node:assert/strict';
import { generateHistory } from './generate-history.js';
import { validateRecord, writeRecord } from '../../scripts/store/index.js';

/** @typedef {import('../../scripts/store/index.js').BisectReport} BisectReport */

/**
 * What the bisect tests' stand-in run stage returns for one probe: schema-valid records of the
 * good release and the candidate (the generator's, the candidate `factor` times as fast on the
 * bisected tests), limited to those tests and written to the probe's store, as runReleases does.
 * @param {any} options the probe's runReleases options (hostClass, suite, repeats, only, storeDir)
 * @param {{good: string, candidate: string, factor: number, call: number, repeats: number, scatter?: number[]}} probe
 *   scatter: multiplies the candidate's repeats in turn (a noisy host)
 */
export async function standInProbe(options, probe) {
  const only = /** @type {string[]} */ (options.only);
  const { records } = generateHistory({
    lines: [{ product: 'mariadb', line: '10.11', versions: [probe.good, probe.candidate] }], hosts: [options.hostClass], suite: options.suite,
    tests: 20, repeats: probe.repeats, seed: 7, start: `2026-0${probe.call}-01T00:00:00Z`,
    changes: probe.factor === 1 ? [] : only.map((t) => ({ version: probe.candidate, test: t, factor: probe.factor })),
  });
  const out = records.map((r) => ({ ...r, steps: r.steps.filter((s) => only.includes(s.name)) }));
  const scatter = probe.scatter;
  if (scatter) {
    for (const s of out[1].steps) s.repeats.forEach((rep, i) => { rep.throughput = Math.round(Number(rep.throughput) * scatter[i % scatter.length] * 1000) / 1000; });
  }
  const paths = [];
  for (const r of out) {
    assert.deepEqual(validateRecord(r), [], 'the stand-in returns valid run records');
    paths.push(await writeRecord(options.storeDir, r));
  }
  return { records: out, paths, interrupted: false };
}

/**
 * @param {Partial<BisectReport>} [over] fields to replace
 * @returns {BisectReport}
 */
export function makeBisectReport(over = {}) {
  /** @param {string} candidate @param {number} index @param {'good'|'bad'} call @param {number} ratio @param {[number, number]} ci */
  const probe = (candidate, index, call, ratio, ci) => ({
    candidate, index, call, reason: call === 'bad' ? 'every test regressed at the issue level' : 'every test unchanged or better',
    seconds: 120 + index, runIds: { good: [`run-good-${index}`], candidate: [`run-${candidate}`] }, adaptive: null,
    evidence: [{ test: 'point-query', metric: 'throughput', call, verdict: call === 'bad' ? 'regression' : 'unchanged', level: call === 'bad' ? /** @type {const} */ ('issue') : null,
      ratio, ci, mde: 0.04, instances: /** @type {[number, number]} */ ([5, 5]), reason: 'stand-in' }],
  });
  return {
    schemaVersion: 1, createdAt: '2026-11-22T23:00:00.000Z', finishedAt: '2026-11-22T23:10:00.000Z', hostClass: 'local', product: 'mariadb', suite: 'smoke',
    good: { name: '10.11.18', version: '10.11.18', provider: 'deb' }, bad: { name: '10.11.22', version: '10.11.22', provider: 'deb' },
    source: { comparisonId: 'vs-10.11.18-20261122T220000Z-1a2b3c4d', testsFrom: 'comparison' }, targets: [{ test: 'point-query', metric: 'throughput' }],
    candidates: ['10.11.19', '10.11.20', '10.11.21'].map((v) => ({ name: v, version: v, provider: 'deb' })),
    probes: [probe('10.11.20', 1, 'good', 0.996, [0.97, 1.02]), probe('10.11.21', 2, 'bad', 0.71, [0.66, 0.77])],
    outcome: { status: 'found', lastGood: '10.11.20', firstBad: '10.11.21', suspects: ['10.11.21'], message: 'First bad release: 10.11.21 (10.11.20 good, 10.11.21 bad) after 2 probes.' },
    notes: ['a stand-in report made by hand for tests'],
    ...over,
  };
}
