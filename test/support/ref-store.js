/**
 * A results store holding an ad-hoc ref run, made from real records: the two runs of
 * test/fixtures/github/captured-store (mariadb 10.11.18 and 10.11.19 side by side, twice, with
 * 10.11.19's server held to a tenth of a CPU), relabelled as what `tagbench run --ref` writes:
 * 10.11.19's records as the candidate commit (`10.11.18+<12 hex>`, role candidate), 10.11.18's as
 * its base (role base), both source builds at their commits, with release.ref, ids in the form
 * run-id.js gives (the run's stamp and tag kept, so the two sides still pair round by round).
 * A stand-in for a run on servers (none can start in these tests); it goes through writeRecord,
 * so every rule of the store (schema, path from content, append-only) holds for it. Optionally
 * the original records too, as the release series beside it.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeRecord, writeComparison } from '../../scripts/store/index.js';
import { formatRecordId } from '../../scripts/run-id.js';

const CAPTURED = new URL('../fixtures/github/captured-store/', import.meta.url).pathname;

/**
 * @typedef {object} RefStoreOptions
 * @property {string} candidateCommit full commit id of the candidate
 * @property {string} baseCommit full commit id of the base
 * @property {string} [name] the candidate's ref (default `pull/7/head`)
 * @property {number|null} [pullRequest] default 7
 * @property {string} [repository] default `https://github.com/acme/server.git`
 * @property {import('../../scripts/types.js').RefBase['how']} [how] default pull-request-base
 * @property {string|null} [baseRef] default `10.11`
 * @property {string} [baseVersion] default `10.11.18+<12 hex of baseCommit>`
 * @property {boolean} [withReleases] also write the captured records as the release series
 */

/**
 * @param {string} storeDir
 * @param {RefStoreOptions} o
 * @returns {Promise<{candidateVersion: string, baseVersion: string, records: import('../../scripts/types.js').RunRecord[]}>}
 */
export async function writeRefRunStore(storeDir, o) {
  const candidateVersion = `10.11.18+${o.candidateCommit.slice(0, 12)}`;
  const baseVersion = o.baseVersion ?? `10.11.18+${o.baseCommit.slice(0, 12)}`;
  const how = o.how ?? 'pull-request-base';
  /** @type {import('../../scripts/types.js').RecordRef} */
  const shared = {
    role: 'candidate', name: o.name ?? 'pull/7/head', repository: o.repository ?? 'https://github.com/acme/server.git',
    pullRequest: o.pullRequest === undefined ? 7 : o.pullRequest, commit: o.candidateCommit,
    base: { how, version: baseVersion, ref: o.baseRef === undefined ? '10.11' : o.baseRef, commit: o.baseCommit },
  };
  const records = [];
  for (const version of ['10.11.18', '10.11.19']) {
    const dir = join(CAPTURED, 'runs/local/mariadb', version, 'smoke');
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json')).sort()) {
      /** @type {import('../../scripts/types.js').RunRecord} */
      const original = JSON.parse(await readFile(join(dir, file), 'utf8'));
      if (o.withReleases) await writeRecord(storeDir, original);
      const candidate = version === '10.11.19';
      const newVersion = candidate ? candidateVersion : baseVersion;
      const parts = original.id.split('-');
      const record = {
        ...original,
        id: formatRecordId({ stamp: parts[0], host: original.host.class, product: 'mariadb', version: newVersion, suite: original.config.suite, tag: /** @type {string} */ (parts.at(-1)) }),
        release: {
          ...original.release, version: newVersion, provider: 'source', commit: candidate ? o.candidateCommit : o.baseCommit,
          tag: !candidate && how !== 'pull-request-base' ? 'mariadb-10.11.18' : null, buildProfile: 'release', buildFlags: ['-DCMAKE_BUILD_TYPE=RelWithDebInfo'], packages: [],
          ref: { ...shared, role: /** @type {'candidate'|'base'} */ (candidate ? 'candidate' : 'base'), base: { ...shared.base } },
        },
        config: { ...original.config, alternatedWith: [candidate ? baseVersion : candidateVersion] },
      };
      await writeRecord(storeDir, record);
      records.push(record);
    }
  }
  if (o.withReleases) {
    const verdicts = join(CAPTURED, 'verdicts/local/mariadb/10.11.19/smoke');
    for (const file of (await readdir(verdicts)).sort()) {
      await writeComparison(storeDir, JSON.parse(await readFile(join(verdicts, file), 'utf8')), { id: file.replace(/\.json$/, '') });
    }
  }
  return { candidateVersion, baseVersion, records };
}
