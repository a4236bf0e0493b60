/**
 * A reference release's series built from REAL run records: the records `tagbench run` wrote
 * on this 2-core VM for mariadb 10.11.18 (test/fixtures/github/captured-store, see its README).
 * A cycle-by-cycle series of one release would take days to record, so the series is derived:
 * each derived run is a copy of one of the real 10.11.18 records (alternating, so both real
 * repeat sets appear) with a new id and date, one run a day. Two things are injected, and
 * nothing else is changed:
 * - a drift: from run `driftFrom` on, the throughput of `driftTest` (every repeat and every
 *   per-second sample) is multiplied by `factor`;
 * - a host change: runs before `kernelChangeAt` get an older kernel string; from it on they
 *   keep the real record's kernel.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REAL_DIR = fileURLToPath(new URL('../fixtures/github/captured-store/runs/local/mariadb/', import.meta.url));

/** The real records' files, by version. */
export const REAL_FILES = Object.freeze({
  '10.11.18': ['20261121T135507Z-local-mariadb-10.11.18-smoke-495fd6.json', '20261121T135659Z-local-mariadb-10.11.18-smoke-d81602.json'],
  '10.11.19': ['20261121T135507Z-local-mariadb-10.11.19-smoke-495fd6.json', '20261121T135659Z-local-mariadb-10.11.19-smoke-d81602.json'],
});

/** Kernel given to the runs before the host change (the real records' kernel comes after). */
export const OLD_KERNEL = '6.1.0-27-amd64';

/**
 * @param {'10.11.18'|'10.11.19'} version
 * @returns {import('../../scripts/types.js').RunRecord[]} the real records, as stored
 */
export function readRealRecords(version) {
  return REAL_FILES[version].map((f) => JSON.parse(readFileSync(`${REAL_DIR}${version}/smoke/${f}`, 'utf8')));
}

/**
 * @typedef {object} SeriesSpec
 * @property {number} runs how many daily runs
 * @property {string} firstDay YYYY-MM-DD of run 0
 * @property {string} driftTest
 * @property {number} driftFrom first run whose driftTest throughput is scaled
 * @property {number} factor the scale (0.5 = half the throughput)
 * @property {number|null} kernelChangeAt first run on the real kernel (earlier runs: OLD_KERNEL); null = no change
 */

/**
 * @param {SeriesSpec} spec
 * @returns {import('../../scripts/types.js').RunRecord[]} oldest first
 */
export function deriveReferenceSeries(spec) {
  const real = readRealRecords('10.11.18');
  return Array.from({ length: spec.runs }, (_, i) => {
    /** @type {import('../../scripts/types.js').RunRecord} */
    const r = structuredClone(real[i % real.length]);
    const day = new Date(Date.parse(`${spec.firstDay}T09:00:00Z`) + i * 86_400_000);
    const shift = day.getTime() - Date.parse(r.startedAt);
    const stamp = day.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
    r.id = `${stamp}-local-mariadb-10.11.18-smoke-ref${String(i).padStart(3, '0')}`;
    r.startedAt = day.toISOString();
    r.finishedAt = r.finishedAt ? new Date(Date.parse(r.finishedAt) + shift).toISOString() : null;
    if (spec.kernelChangeAt !== null && i < spec.kernelChangeAt) r.host.kernel = OLD_KERNEL;
    if (i >= spec.driftFrom) {
      for (const step of r.steps.filter((s) => s.name === spec.driftTest)) {
        for (const rep of step.repeats) {
          if (typeof rep.throughput === 'number') rep.throughput *= spec.factor;
          for (const iv of rep.intervals ?? []) iv.qps *= spec.factor;
        }
      }
    }
    return r;
  });
}
