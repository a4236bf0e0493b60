/**
 * `tagbench compare` on a store holding InnoDB and MyRocks records of one release (as
 * `tagbench run --engine innodb,rocksdb` writes them): labelled releases (10.11.18#rocksdb,
 * mariadb@10.11.18#rocksdb) select one engine's records; a plain version never pools two engines.
 * Records written through scripts/store into a temp dir.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRecord, readComparisons } from '../../scripts/store/index.js';
import { compareCommand as compare } from '../../scripts/verify/commands.js';
import { parseReleaseEntry, selectEntryRecords, checkOneEngine, checkOneBuild } from '../../scripts/verify/release-entry.js';
import { UserError } from '../../scripts/errors.js';
import { makeRecord } from '../compare/make-record.js';

/**
 * @param {string} id
 * @param {string} version
 * @param {'innodb'|'rocksdb'} engine
 * @param {number[]} pointQuery
 */
function engineRecord(id, version, engine, pointQuery) {
  const record = makeRecord({ id, version, steps: [{ name: 'point-query', group: 'point', throughput: pointQuery }, { name: 'update-index', group: 'write', throughput: [500, 505, 495] }] });
  return { ...record, config: { ...record.config, engine } };
}

// Ids as run-releases.js writes them: `<stamp>-<host>-<product>-<version>[-<label>]-<suite>-<tag>`.
const RECORDS = [
  engineRecord('20250101T000000Z-local-mariadb-10.11.18-innodb-smoke-aaaaaa', '10.11.18', 'innodb', [1000, 1010, 990]),
  engineRecord('20250101T000000Z-local-mariadb-10.11.18-rocksdb-smoke-aaaaaa', '10.11.18', 'rocksdb', [600, 606, 594]),
  // `--engine rocksdb` alone: no label in the id, still a MyRocks record of 10.11.18.
  engineRecord('20250102T000000Z-local-mariadb-10.11.18-smoke-bbbbbb', '10.11.18', 'rocksdb', [602, 604, 598]),
  engineRecord('20250103T000000Z-local-mariadb-10.11.19-smoke-cccccc', '10.11.19', 'innodb', [1001, 1009, 991]),
];

/** @type {string} */
let dir;
/** @type {string} */
let store;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tagbench-compare-engines-'));
  store = join(dir, 'results');
  for (const r of RECORDS) await writeRecord(store, r);
});
after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('labelled releases compare InnoDB with MyRocks of one release; verdicts printed and in --json, not stored', async () => {
  let printed = '';
  const code = await compare({ product: 'mariadb', releases: '10.11.18#innodb,10.11.18#rocksdb', store, json: join(dir, 'engines.json'), out: (/** @type {string} */ t) => (printed += t), color: false, changePoints: false });
  assert.equal(code, 2, 'the candidate engine is 40 % slower on point-query: a regression, as between releases');
  assert.match(printed, /base 10\.11\.18#innodb \(first release\)/);
  const out = JSON.parse(await readFile(join(dir, 'engines.json'), 'utf8'));
  assert.equal(out.comparisons.length, 1);
  const [c] = out.comparisons;
  assert.equal(c.base.version, '10.11.18#innodb');
  assert.equal(c.candidate.version, '10.11.18#rocksdb');
  assert.deepEqual(c.base.runIds, ['20250101T000000Z-local-mariadb-10.11.18-innodb-smoke-aaaaaa']);
  // Both MyRocks runs, the labelled one and the one of `--engine rocksdb` alone; no InnoDB run.
  assert.deepEqual(c.candidate.runIds.sort(), ['20250101T000000Z-local-mariadb-10.11.18-rocksdb-smoke-aaaaaa', '20250102T000000Z-local-mariadb-10.11.18-smoke-bbbbbb']);
  const pq = c.tests.find((/** @type {any} */ t) => t.test === 'point-query' && t.metric === 'throughput');
  assert.ok(pq.ratio > 0.59 && pq.ratio < 0.61, `MyRocks / InnoDB point-query ratio ${pq.ratio}`);
  assert.deepEqual(await readComparisons(store), [], 'a labelled column is no release: its verdicts are not stored');
});

test('a plain version whose records ran on two engines is refused, naming the engines and the labelled form', async () => {
  for (const releases of ['10.11.18,10.11.19', undefined]) {
    await assert.rejects(
      compare({ product: 'mariadb', releases, store, out: () => {}, color: false, changePoints: false, storeVerdicts: false }),
      (/** @type {any} */ err) => {
        assert.ok(err instanceof UserError);
        assert.match(err.message, /mariadb 10\.11\.18 has run records of 2 engines \(innodb: 20250101T000000Z-local-mariadb-10\.11\.18-innodb-smoke-aaaaaa; rocksdb: /);
        assert.match(err.message, /--releases 10\.11\.18#innodb,10\.11\.18#rocksdb/);
        assert.match(err.message, /mariadb@10\.11\.18#innodb,mariadb@10\.11\.18#rocksdb/);
        return true;
      },
      `--releases ${releases}`,
    );
  }
  await assert.rejects(
    compare({ product: 'mariadb', releases: '10.11.18#innodb,10.11.18#rocksdb', adaptive: true, store, out: () => {}, color: false, changePoints: false, storeVerdicts: false }),
    /--adaptive runs more servers of plain releases; 10\.11\.18#innodb, 10\.11\.18#rocksdb name one engine/,
  );
  // A labelled release against a plain version of one engine is fine (MyRocks 10.11.18 vs InnoDB 10.11.19).
  let printed = '';
  assert.equal(await compare({ product: 'mariadb', releases: '10.11.18#innodb,10.11.19', store, out: (/** @type {string} */ t) => (printed += t), color: false, changePoints: false, storeVerdicts: false }), 0);
  assert.match(printed, /10\.11\.18#innodb/);
});

test('the table across products takes product@version#label and refuses a plain product@version of two engines', async () => {
  let printed = '';
  await compare({ releases: 'mariadb@10.11.18#innodb,mariadb@10.11.18#rocksdb', store, json: join(dir, 'cross.json'), out: (/** @type {string} */ t) => (printed += t), color: false });
  const header = printed.split('\n').find((l) => l.startsWith('test '));
  assert.deepEqual(header?.split(/\s{2,}/), ['test', 'MariaDB 10.11.18#innodb (base)', 'MariaDB 10.11.18#rocksdb', 'ratio']);
  const json = JSON.parse(await readFile(join(dir, 'cross.json'), 'utf8'));
  const row = json.table.groups.flatMap((/** @type {any} */ g) => g.rows).find((/** @type {any} */ r) => r.test === 'point-query');
  assert.equal(row.cells['mariadb@10.11.18#innodb'].stats.median, 1000);
  assert.equal(row.cells['mariadb@10.11.18#rocksdb'].stats.n, 6, 'both MyRocks runs, 3 repeats each');
  await assert.rejects(
    compare({ releases: 'mariadb@10.11.18,mariadb@10.11.19', store, out: () => {}, color: false }),
    /mariadb 10\.11\.18 has run records of 2 engines .*mariadb@10\.11\.18#innodb,mariadb@10\.11\.18#rocksdb/,
  );
  // --base as a labelled release of the list
  printed = '';
  await compare({ releases: 'mariadb@10.11.18#innodb,mariadb@10.11.18#rocksdb', base: '10.11.18#rocksdb', store, out: (/** @type {string} */ t) => (printed += t), color: false });
  assert.match(printed, /base MariaDB 10\.11\.18#rocksdb \(--base\)/);
});

test('release entries: parsing, selection by engine and by a run label, the one-engine rule (pure)', () => {
  assert.deepEqual(parseReleaseEntry('10.11.18'), { version: '10.11.18' });
  assert.deepEqual(parseReleaseEntry('10.11.18#rocksdb'), { version: '10.11.18', label: 'rocksdb' });
  assert.throws(() => parseReleaseEntry('10.11.18#'), /bad label '' in --releases '10\.11\.18#'/);
  assert.throws(() => parseReleaseEntry('10.11.18#a/b'), /bad label 'a\/b'/);
  assert.deepEqual(selectEntryRecords(RECORDS, { version: '10.11.18', label: 'innodb' }).map((r) => r.id), [RECORDS[0].id]);
  assert.deepEqual(selectEntryRecords(RECORDS, { version: '10.11.19' }).map((r) => r.id), [RECORDS[3].id]);
  // An A/A run's labels (`mariadb@10.11.18#b`) are in the ids only.
  const aa = [
    engineRecord('20250104T000000Z-local-mariadb-10.11.18-a-smoke-dddddd', '10.11.18', 'innodb', [1, 1, 1]),
    engineRecord('20250104T000000Z-local-mariadb-10.11.18-b-smoke-dddddd', '10.11.18', 'innodb', [1, 1, 1]),
  ];
  assert.deepEqual(selectEntryRecords(aa, { version: '10.11.18', label: 'b' }).map((r) => r.id), [aa[1].id]);
  assert.deepEqual(selectEntryRecords(aa, { version: '10.11.18', label: 'smoke' }), [], 'the suite is no label');
  checkOneEngine(aa, { version: '10.11.18' }, 'mariadb');
  assert.throws(() => checkOneEngine(RECORDS.slice(0, 2), { version: '10.11.18' }, 'mariadb'), UserError);
  // The plain version is the release's own server: another labelled server's runs are not in it.
  assert.deepEqual(selectEntryRecords([...RECORDS, ...aa], { version: '10.11.18' }).map((r) => r.id), RECORDS.slice(0, 3).map((r) => r.id));
});

test('one build per column: Debian\'s package and our source build of one version are two columns, never one median', () => {
  /** @param {string} id @param {string} provider @param {string|null} profile */
  const built = (id, provider, profile) => {
    const r = engineRecord(id, '10.11.18', 'innodb', [1000, 1010, 990]);
    return { ...r, release: { ...r.release, provider, buildProfile: profile } };
  };
  const deb = built('20250105T000000Z-local-mariadb-10.11.18-smoke-eeeeee', 'deb', null);
  const ours = built('20250105T000000Z-local-mariadb-10.11.18-ours-smoke-eeeeee', 'source', 'reduced');
  const earlierOurs = built('20250106T000000Z-local-mariadb-10.11.18-smoke-ffffff', 'source', 'reduced');
  // Side by side in one run (`mariadb@10.11.18,mariadb@10.11.18#ours:source`): two columns.
  assert.deepEqual(selectEntryRecords([deb, ours], { version: '10.11.18' }), [deb]);
  assert.deepEqual(selectEntryRecords([deb, ours], { version: '10.11.18', label: 'ours' }), [ours]);
  checkOneBuild([deb], { version: '10.11.18' }, 'mariadb');
  // Unlabelled runs of two builds in one store: refused, naming both builds, their runs and the labelled form.
  assert.throws(() => checkOneBuild([deb, earlierOurs], { version: '10.11.18' }, 'mariadb'),
    (err) => err instanceof UserError && /mariadb 10\.11\.18 has run records of 2 builds \(deb: 20250105T000000Z-local-mariadb-10\.11\.18-smoke-eeeeee; source \(profile reduced\): 20250106T/.test(err.message)
      && /#ours:source/.test(err.message));
});
