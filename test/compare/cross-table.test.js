/**
 * The table across product lines and products: three MariaDB lines and one MySQL release in one
 * table (the generator's records, with an injected 20 % drop of update-nonindex in 11.8.6 and a
 * 10 % rise of point-query in MySQL 9.7.4), checked against medians recomputed from the records.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeCrossTable, renderCrossTable, releaseKey } from '../../scripts/compare/index.js';
import { generateHistory } from '../support/generate-history.js';

const SPEC = {
  lines: [
    { product: 'mariadb', line: '10.5', versions: ['10.5.23'] },
    { product: 'mariadb', line: '10.11', versions: ['10.11.18'] },
    { product: 'mariadb', line: '11.8', versions: ['11.8.6'] },
    { product: 'mysql', line: '9.7', versions: ['9.7.4'] },
  ],
  hosts: ['local', 'small-server'],
  tests: 5, // point-query.pre, range-notcovered-si.pre, update-inlist, update-index, update-nonindex
  repeats: 3,
  intervalsS: 4,
  changes: [{ version: '11.8.6', test: 'update-nonindex', factor: 0.8 }, { version: '9.7.4', test: 'point-query.pre', factor: 1.1 }],
  seed: 3,
};
const { records } = generateHistory(SPEC);
const NAMES = /** @type {Record<string, string>} */ ({ mariadb: 'MariaDB', mysql: 'MySQL' });

/** @param {string} host */
function releasesOn(host) {
  return SPEC.lines.map(({ product, line, versions }) => ({
    product, productName: NAMES[product], line, version: versions[0],
    records: records.filter((r) => r.host.class === host && r.release.product === product && r.release.version === versions[0]),
  }));
}

/** Median of an odd count, computed here apart from the compare stage. */
function median(/** @type {number[]} */ xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[(s.length - 1) / 2];
}

/** @param {string} host @param {string} version @param {string} testName */
function qps(host, version, testName) {
  const rec = records.filter((r) => r.host.class === host && r.release.version === version);
  return median(rec.flatMap((r) => r.steps.filter((s) => s.name === testName).flatMap((s) => s.repeats.map((x) => /** @type {number} */ (x.throughput)))));
}

test('one table of three lines of one product and a release of another: columns, medians, ratios to the chosen base', () => {
  const table = computeCrossTable({ hostClass: 'local', suite: 'smoke', base: 'mariadb@10.5.23', releases: releasesOn('local') });
  assert.equal(table.kind, 'cross');
  assert.deepEqual(table.versions, ['mariadb@10.5.23', 'mariadb@10.11.18', 'mariadb@11.8.6', 'mysql@9.7.4']);
  assert.deepEqual(table.columns.map((c) => [c.label, c.line]), [['MariaDB 10.5.23', '10.5'], ['MariaDB 10.11.18', '10.11'], ['MariaDB 11.8.6', '11.8'], ['MySQL 9.7.4', '9.7']]);
  const rows = table.groups.flatMap((g) => g.rows);
  assert.deepEqual(rows.map((r) => r.test).sort(), ['point-query.pre', 'range-notcovered-si.pre', 'update-index', 'update-inlist', 'update-nonindex']);
  for (const row of rows) {
    for (const c of table.columns) {
      const cell = row.cells[c.key];
      assert.equal(cell.stats?.median, qps('local', c.version, row.test), `${row.test} ${c.key}`);
      assert.equal(cell.ratio, qps('local', c.version, row.test) / qps('local', '10.5.23', row.test));
    }
  }
  const drop = /** @type {number} */ (rows.find((r) => r.test === 'update-nonindex')?.cells['mariadb@11.8.6'].ratio);
  assert.ok(drop > 0.76 && drop < 0.84, `injected 20 % drop, got ${drop}`);
  const rise = /** @type {number} */ (rows.find((r) => r.test === 'point-query.pre')?.cells['mysql@9.7.4'].ratio);
  assert.ok(rise > 1.06 && rise < 1.14, `injected 10 % rise, got ${rise}`);
});

test('the base may be any column, of any product; rendered with product names and the per-line marks', () => {
  const table = computeCrossTable({ hostClass: 'local', suite: 'smoke', base: 'mysql@9.7.4', releases: releasesOn('local') });
  assert.equal(table.groups.flatMap((g) => g.rows).every((r) => r.cells['mysql@9.7.4'].ratio === 1), true);
  const md = renderCrossTable(table, { format: 'markdown' });
  assert.match(md, /^## smoke on local: throughput and ratio to MySQL 9\.7\.4, across MariaDB 10\.5, 10\.11, 11\.8 and MySQL 9\.7$/m);
  assert.match(md, /not a verdict/);
  const header = md.split('\n').find((l) => l.startsWith('| test |'));
  assert.equal(header, '| test | MariaDB 10.5.23 | ratio | MariaDB 10.11.18 | ratio | MariaDB 11.8.6 | ratio | MySQL 9.7.4 (base) |');
  // update-nonindex of 11.8.6 against MySQL: marked low in Markdown (bold ▼) and in colour on a terminal
  const row = md.split('\n').find((l) => l.startsWith('| update-nonindex |'));
  const cells = row?.split('|').map((c) => c.trim()) ?? [];
  const ratio = qps('local', '11.8.6', 'update-nonindex') / qps('local', '9.7.4', 'update-nonindex');
  assert.equal(cells[7], `**${ratio.toFixed(2)} ▼**`); // after the test name and two (QPS, ratio) pairs
  const colored = renderCrossTable(table, { format: 'terminal', color: true });
  assert.match(colored, new RegExp(`\\x1b\\[31m\\s*${ratio.toFixed(2).replace('.', '\\.')} ▼\\x1b\\[0m`));
  assert.doesNotMatch(renderCrossTable(table, { format: 'terminal', color: false }), /\x1b\[/);
});

test('refuses records of another host class, a base outside the table and a release twice', () => {
  const mixed = releasesOn('local');
  mixed[1] = { ...mixed[1], records: releasesOn('small-server')[1].records };
  assert.throws(() => computeCrossTable({ hostClass: 'local', suite: 'smoke', base: 'mariadb@10.5.23', releases: mixed }), /column mariadb@10\.11\.18 of this table needs local and suite smoke/);
  assert.throws(() => computeCrossTable({ hostClass: 'local', suite: 'smoke', base: 'mysql@8.4.6', releases: releasesOn('local') }), /base mysql@8\.4\.6 is not among/);
  const twice = [...releasesOn('local'), releasesOn('local')[0]];
  assert.throws(() => computeCrossTable({ hostClass: 'local', suite: 'smoke', base: 'mariadb@10.5.23', releases: twice }), /mariadb@10\.5\.23 appears twice/);
  assert.equal(releaseKey({ product: 'mysql', version: '9.7.4' }), 'mysql@9.7.4');
});
