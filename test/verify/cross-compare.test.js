/**
 * `tagbench compare --releases product@version,...` end to end on a results store in a temp dir
 * (the generator's records written through scripts/store): one table across three MariaDB lines
 * and a MySQL release, in the terminal, Markdown and JSON, with no verdict stored; and the
 * messages that lead a user from the per-line compare to it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRecord, readComparisons } from '../../scripts/store/index.js';
import { compareCommand as compare } from '../../scripts/verify/commands.js';
import { generateHistory } from '../support/generate-history.js';

const RELEASES = 'mariadb@10.5.23,mariadb@10.11.18,mariadb@11.8.6,mysql@9.7.4';
const { records } = generateHistory({
  lines: [
    { product: 'mariadb', line: '10.5', versions: ['10.5.23'] },
    { product: 'mariadb', line: '10.11', versions: ['10.11.18'] },
    { product: 'mariadb', line: '11.8', versions: ['11.8.6'] },
    { product: 'mysql', line: '9.7', versions: ['9.7.4'] },
  ],
  hosts: ['local', 'small-server'],
  tests: 5,
  repeats: 3,
  intervalsS: 4,
  changes: [{ version: '11.8.6', test: 'update-nonindex', factor: 0.8 }],
  seed: 5,
});

/** @type {string} */
let dir;
/** @type {string} */
let store;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tagbench-cross-compare-'));
  store = join(dir, 'results');
  for (const r of records) await writeRecord(store, r);
});
after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** @param {string} host @param {string} version @param {string} name */
function qps(host, version, name) {
  const xs = records.filter((r) => r.host.class === host && r.release.version === version)
    .flatMap((r) => r.steps.filter((s) => s.name === name).flatMap((s) => s.repeats.map((x) => /** @type {number} */ (x.throughput)))).sort((a, b) => a - b);
  return xs[(xs.length - 1) / 2];
}

test('prints one table of three lines and another product, writes Markdown and JSON, stores no verdict', async () => {
  let printed = '';
  const code = await compare({ releases: RELEASES, base: 'mariadb@10.5.23', store, markdown: join(dir, 'cross.md'), json: join(dir, 'cross.json'), out: (/** @type {string} */ t) => (printed += t), color: false });
  assert.equal(code, 0);
  assert.match(printed, /^smoke on local: throughput and ratio to MariaDB 10\.5\.23, across MariaDB 10\.5, 10\.11, 11\.8 and Oracle MySQL 9\.7$/m);
  const header = printed.split('\n').find((l) => l.startsWith('test '));
  assert.deepEqual(header?.split(/\s{2,}/), ['test', 'MariaDB 10.5.23 (base)', 'MariaDB 10.11.18', 'ratio', 'MariaDB 11.8.6', 'ratio', 'Oracle MySQL 9.7.4', 'ratio']);
  const ratio = qps('local', '11.8.6', 'update-nonindex') / qps('local', '10.5.23', 'update-nonindex');
  assert.match(printed, new RegExp(`^update-nonindex .* ${ratio.toFixed(2).replace('.', '\\.')} ▼ `, 'm'));
  assert.match(printed, /base MariaDB 10\.5\.23 \(--base\); runs: MariaDB 10\.5\.23 \(line 10\.5\): local-mariadb-10\.5\.23-/);

  const md = await readFile(join(dir, 'cross.md'), 'utf8');
  assert.match(md, /^# Across lines and products: smoke on local$/m);
  assert.match(md, /^\| test \| MariaDB 10\.5\.23 \(base\) \| MariaDB 10\.11\.18 \| ratio \| MariaDB 11\.8\.6 \| ratio \| Oracle MySQL 9\.7\.4 \| ratio \|$/m);
  const json = JSON.parse(await readFile(join(dir, 'cross.json'), 'utf8'));
  assert.deepEqual(json.base, { key: 'mariadb@10.5.23', source: 'option' });
  const row = json.table.groups.flatMap((/** @type {any} */ g) => g.rows).find((/** @type {any} */ r) => r.test === 'update-nonindex');
  assert.equal(row.cells['mysql@9.7.4'].stats.median, qps('local', '9.7.4', 'update-nonindex'));
  assert.equal(row.cells['mariadb@11.8.6'].ratio, ratio);
  // only local's records: small-server's are another host class
  assert.ok(json.table.groups.every((/** @type {any} */ g) => g.rows.every((/** @type {any} */ r) => r.cells['mariadb@10.11.18'].stats.n === 3)));
  assert.deepEqual(await readComparisons(store), [], 'a view stores no verdict');
});

test('on another host class, with a plain --base, the first release by default, and colour when asked', async () => {
  let printed = '';
  await compare({ releases: 'mysql@9.7.4,mariadb@11.8.6', hostClass: 'small-server', store, out: (/** @type {string} */ t) => (printed += t), color: true });
  assert.match(printed, /ratio to Oracle MySQL 9\.7\.4, across Oracle MySQL 9\.7 and MariaDB 11\.8/);
  assert.match(printed, /base Oracle MySQL 9\.7\.4 \(first release\)/);
  const ratio = qps('small-server', '11.8.6', 'update-nonindex') / qps('small-server', '9.7.4', 'update-nonindex');
  assert.match(printed, new RegExp(`\\x1b\\[3[12]m\\s*${ratio.toFixed(2).replace('.', '\\.')} [▼▲]\\x1b\\[0m`));
  printed = '';
  await compare({ releases: 'mysql@9.7.4,mariadb@11.8.6', base: '11.8.6', store, out: (/** @type {string} */ t) => (printed += t), color: false });
  assert.match(printed, /ratio to MariaDB 11\.8\.6/);
});

test('guides the user: from a per-line compare spanning lines, and on bad releases, base or options', async () => {
  const quiet = { store, out: () => {}, color: false };
  await assert.rejects(compare({ ...quiet, product: 'mariadb', releases: '10.5.23,10.11.18,11.8.6' }),
    /the releases span product lines 10\.5, 10\.11, 11\.8: give --line \(one of them\) for verdicts against that line's base, or name them as product@version \(--releases mariadb@10\.5\.23,mariadb@10\.11\.18,mariadb@11\.8\.6\) for one table across lines, without verdicts/);
  await assert.rejects(compare({ ...quiet, releases: 'mariadb@10.5.23,mysql@8.4.6' }),
    /no run record of mysql 8\.4\.6 for host class 'local' and suite 'smoke' in .*; mysql versions with records there: 9\.7\.4/);
  await assert.rejects(compare({ ...quiet, releases: 'mariadb@10.5.23,10.11.18' }), /release '10\.11\.18' in --releases names no product: write product@version/);
  await assert.rejects(compare({ ...quiet, releases: 'mariadb@10.5.23,postgres@16.1' }), /unknown product 'postgres' in --releases 'postgres@16\.1'; known: .*mariadb/);
  await assert.rejects(compare({ ...quiet, releases: RELEASES, base: 'mysql@8.0.40' }), /--base mysql@8\.0\.40 is none of --releases/);
  await assert.rejects(compare({ ...quiet, releases: RELEASES, line: '10.11' }), /takes no --line/);
  await assert.rejects(compare({ ...quiet, releases: RELEASES, adaptive: true }), /makes no verdicts/);
  await assert.rejects(compare({ ...quiet, releases: 'mysql@9.7.4,mysql@9.7.4' }), /names mysql@9\.7\.4 twice/);
});
