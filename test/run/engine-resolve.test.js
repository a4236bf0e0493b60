// Engine per release: `--engine innodb,rocksdb` becomes one labelled server per engine of each
// release, and resolveRun gives each release its own engine and my.cnf template.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../scripts/config/index.js';
import { resolveRun, expandEngines, releaseKey } from '../../scripts/run/resolve-run.js';

const config = await loadConfig(new URL('../..', import.meta.url).pathname);
const base = { suite: 'smoke', hostClass: 'local', storeDir: 'x', workDir: 'y', cacheDir: 'z' };
const maria = { product: 'mariadb', version: '10.11.18' };

test('several engines: one server per engine of each release, labelled by its engine', () => {
  const releases = expandEngines([maria, { product: 'mariadb', version: '10.11.19' }], ['innodb', 'rocksdb']);
  assert.deepEqual(releases.map(releaseKey), ['mariadb@10.11.18#innodb', 'mariadb@10.11.18#rocksdb', 'mariadb@10.11.19#innodb', 'mariadb@10.11.19#rocksdb']);
  assert.deepEqual(releases.map((r) => r.engine), ['innodb', 'rocksdb', 'innodb', 'rocksdb']);
  const plan = resolveRun(config, { ...base, releases, enginePerRelease: true });
  assert.deepEqual(plan.releases.map((r) => [r.label, r.engine, r.mycnfName]), [
    ['innodb', 'innodb', 'innodb'], ['rocksdb', 'rocksdb', 'rocksdb'], ['innodb', 'innodb', 'innodb'], ['rocksdb', 'rocksdb', 'rocksdb'],
  ]);
  assert.equal(plan.releases[1].mycnfTemplate, config.mycnf.rocksdb);
  assert.equal(plan.releases[0].mycnfTemplate, config.mycnf.innodb);
});

test('one engine: releases keep their keys and take that engine, as --engine did before', () => {
  const releases = expandEngines([maria], ['rocksdb']);
  assert.deepEqual(releases, [{ ...maria, engine: 'rocksdb' }]);
  const plan = resolveRun(config, { ...base, releases });
  assert.equal(plan.engine, 'rocksdb');
  assert.equal(plan.mycnfName, 'rocksdb');
  assert.equal(releaseKey(plan.releases[0]), 'mariadb@10.11.18');
  // The run-wide option still works for callers that pass it (calibrate, confirm).
  assert.equal(resolveRun(config, { ...base, engine: 'rocksdb', releases: [maria] }).releases[0].engine, 'rocksdb');
  assert.equal(resolveRun(config, { ...base, releases: [maria] }).releases[0].engine, 'innodb');
});

test('bad engine lists and mixes are refused with what was given and what is valid', () => {
  assert.throws(() => expandEngines([maria], ['innodb', 'myisam']), /unknown engine 'myisam' for --engine; known: innodb, rocksdb/);
  assert.throws(() => expandEngines([maria], ['rocksdb', 'rocksdb']), /engine rocksdb is listed twice in --engine/);
  assert.throws(() => expandEngines([{ ...maria, label: 'B' }], ['innodb', 'rocksdb']), /mariadb@10\.11\.18#B already has a label/);
  const mixed = expandEngines([maria], ['innodb', 'rocksdb']);
  // A caller that starts every server with one engine must not get two.
  assert.throws(() => resolveRun(config, { ...base, releases: mixed }), /different engines \(innodb, rocksdb\).*one engine at a time/);
  assert.throws(() => resolveRun(config, { ...base, releases: mixed, enginePerRelease: true, mycnf: 'innodb' }), /--mycnf innodb names one template, but the releases run innodb and rocksdb/);
  assert.throws(() => resolveRun(config, { ...base, releases: expandEngines([{ product: 'mysql', version: '9.7.4' }], ['innodb', 'rocksdb']), enginePerRelease: true }),
    /engine 'rocksdb' is not available for mysql/);
  assert.throws(() => resolveRun(config, { ...base, releases: [{ ...maria, engine: 'aria' }] }), /unknown engine 'aria' for mariadb@10\.11\.18; known: innodb, rocksdb/);
});
