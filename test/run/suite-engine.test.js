// Engine per suite: a suite's `engine` is the run's engine (and template) unless the run or a
// release names one; the suite schema takes innodb and rocksdb only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, validateAgainst } from '../../scripts/config/index.js';
import { resolveRun, expandEngines } from '../../scripts/run/resolve-run.js';

const loaded = await loadConfig(new URL('../..', import.meta.url).pathname);
const config = { ...loaded, suites: { ...loaded.suites, 'rocks-tiny': { ...loaded.suites.smoke, name: 'rocks-tiny', engine: /** @type {const} */ ('rocksdb') } } };
const base = { suite: 'rocks-tiny', hostClass: 'local', storeDir: 'x', workDir: 'y', cacheDir: 'z' };
const maria = { product: 'mariadb', version: '10.11.18' };

test("a suite's engine is the run's engine and picks that engine's template", () => {
  const plan = resolveRun(config, { ...base, releases: [maria] });
  assert.equal(plan.engine, 'rocksdb');
  assert.deepEqual(plan.releases.map((r) => [r.engine, r.mycnfName]), [['rocksdb', 'rocksdb']]);
  assert.equal(plan.mycnfTemplate, config.mycnf.rocksdb);
  // A suite without one stays on InnoDB.
  assert.equal(resolveRun(config, { ...base, suite: 'smoke', releases: [maria] }).engine, 'innodb');
  // --mycnf still names the template.
  assert.equal(resolveRun(config, { ...base, mycnf: 'innodb', releases: [maria] }).mycnfName, 'innodb');
});

test('an explicit engine wins over the suite: the run option, a release of --engine, several engines', () => {
  assert.equal(resolveRun(config, { ...base, engine: 'innodb', releases: [maria] }).releases[0].engine, 'innodb');
  assert.equal(resolveRun(config, { ...base, releases: expandEngines([maria], ['innodb']) }).releases[0].engine, 'innodb');
  const both = resolveRun(config, { ...base, releases: expandEngines([maria], ['innodb', 'rocksdb']), enginePerRelease: true });
  assert.deepEqual(both.releases.map((r) => r.engine), ['innodb', 'rocksdb']);
  // No --engine: the CLI passes the releases on unchanged (expandEngines with no engine), so the suite's applies.
  assert.equal(resolveRun(config, { ...base, releases: expandEngines([maria], []) }).releases[0].engine, 'rocksdb');
});

test('the suite schema takes engine innodb or rocksdb, nothing else', () => {
  const { only: _only, ...smoke } = /** @type {Record<string, unknown>} */ (loaded.suites.smoke);
  assert.deepEqual(validateAgainst('suite', { ...smoke, engine: 'rocksdb' }), []);
  assert.deepEqual(validateAgainst('suite', { ...smoke, engine: 'innodb' }), []);
  const problems = validateAgainst('suite', { ...smoke, engine: 'myisam' });
  assert.equal(problems.length, 1);
  assert.match(problems[0], /engine.*myisam.*"innodb", "rocksdb"/);
});
