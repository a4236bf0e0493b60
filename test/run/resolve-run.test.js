import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../scripts/config/index.js';
import { resolveRun, parseReleaseList, lineOf } from '../../scripts/run/resolve-run.js';

const config = await loadConfig(new URL('../..', import.meta.url).pathname);
const base = { suite: 'smoke', hostClass: 'local', storeDir: 'x', workDir: 'y', cacheDir: 'z' };

test('a valid run resolves lines, provider, repeats and template', () => {
  const plan = resolveRun(config, { ...base, releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mysql', version: '9.7.4' }] });
  assert.deepEqual(plan.releases.map((r) => [r.product, r.version, r.line, r.provider]), [
    ['mariadb', '10.11.18', '10.11', 'deb'],
    ['mysql', '9.7.4', '9', 'deb'],
  ]);
  assert.equal(plan.repeats, config.hosts.local.repeats);
  assert.equal(plan.mycnfName, 'innodb');
});

test('unknown names list what is available', () => {
  assert.throws(() => resolveRun(config, { ...base, suite: 'huge', releases: [{ product: 'mariadb', version: '10.11.18' }] }),
    /unknown suite 'huge'; known: .*smoke/);
  assert.throws(() => resolveRun(config, { ...base, releases: [{ product: 'percona', version: '8.0.1' }] }),
    /unknown product 'percona'; known: mariadb, mysql/);
  assert.throws(() => resolveRun(config, { ...base, releases: [{ product: 'mariadb', version: '10.11.99' }] }),
    /mariadb 10\.11\.99 is not available from the deb provider; available: .*10\.11\.18.*10\.11\.19/);
  assert.throws(() => resolveRun(config, { ...base, engine: 'rocksdb', releases: [{ product: 'mysql', version: '9.7.4' }] }),
    /engine 'rocksdb' is not available for mysql/);
  assert.throws(() => resolveRun(config, { ...base, releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.18' }] }),
    /listed twice/);
});

test('release lists parse, and bad items are named', () => {
  assert.deepEqual(parseReleaseList('mariadb@10.11.18, mysql@9.7.4'), [{ product: 'mariadb', version: '10.11.18' }, { product: 'mysql', version: '9.7.4' }]);
  assert.throws(() => parseReleaseList('mariadb-10.11.18'), /bad release 'mariadb-10\.11\.18'.*product@version/);
});

test('a release may carry a label and its own provider or prefix: our build beside Debian\'s', () => {
  assert.deepEqual(parseReleaseList('mariadb@10.11.18,mariadb@10.11.18#ours:source'), [
    { product: 'mariadb', version: '10.11.18' },
    { product: 'mariadb', version: '10.11.18', label: 'ours', provider: 'source' },
  ]);
  assert.deepEqual(parseReleaseList('mariadb@10.11.18#c1=/opt/build-c1/usr'), [{ product: 'mariadb', version: '10.11.18', label: 'c1', provider: 'path', path: '/opt/build-c1/usr' }]);
  assert.deepEqual(parseReleaseList('mysql@9.7.4:tarball'), [{ product: 'mysql', version: '9.7.4', provider: 'tarball' }]);
  assert.throws(() => parseReleaseList('mariadb@10.11.18#ours:rpm'), /unknown provider 'rpm' in --releases 'mariadb@10\.11\.18#ours:rpm'; known: deb, path, source, tarball/);
  assert.throws(() => parseReleaseList('mariadb@10.11.18#no good'), /bad label 'no good'/);
  // Two servers of one version: labelled they are two releases of the run, unlabelled the same one twice.
  const run = resolveRun(config, { ...base, releases: parseReleaseList('mariadb@10.11.18,mariadb@10.11.18#ours:source') });
  assert.deepEqual(run.releases.map((r) => [r.version, r.label ?? null, r.provider]), [['10.11.18', null, 'deb'], ['10.11.18', 'ours', 'source']]);
  assert.throws(() => resolveRun(config, { ...base, releases: parseReleaseList('mariadb@10.11.18,mariadb@10.11.18:source') }), /listed twice/);
});

test('the longest matching line wins', () => {
  const product = { name: 'x', flavor: /** @type {const} */ ('mariadb'), displayName: 'X', lines: [{ name: '10', tagPattern: '' }, { name: '10.11', tagPattern: '' }] };
  assert.equal(lineOf(product, '10.11.5'), '10.11');
  assert.equal(lineOf(product, '10.6.1'), '10');
  assert.throws(() => lineOf(product, '11.0.1'), /belongs to no release line of x; lines: 10, 10\.11/);
});
