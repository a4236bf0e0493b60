import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { UserError } from '../../scripts/errors.js';

const projectRoot = new URL('../..', import.meta.url).pathname;

/** A copy of the project's configs/ in a temp dir, to break on purpose. */
async function copyOfConfigs() {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-config-'));
  await cp(join(projectRoot, 'configs'), join(dir, 'configs'), { recursive: true });
  return dir;
}

test('the shipped configs load and are frozen', async () => {
  const config = await loadConfig(projectRoot);
  assert.ok(config.products.mariadb, 'mariadb product');
  assert.ok(config.hosts.local, 'local host class');
  assert.ok(config.suites.smoke, 'smoke suite');
  assert.equal(config.hosts.local.pinning.serverCpus, config.hosts.local.pinning.clientCpus, 'local pins client and server together');
  assert.throws(() => { /** @type {any} */ (config.hosts.local).repeats = 99; }, TypeError);
});

test('malformed YAML names the file and the line', async () => {
  const dir = await copyOfConfigs();
  await writeFile(join(dir, 'configs/hosts/local.yml'), 'name: local\nrepeats: [1, 2\n');
  await assert.rejects(loadConfig(dir), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /configs\/hosts\/local\.yml: malformed YAML at line \d+/);
    return true;
  });
});

test('a bad field names the file, the dot path, the value and what is allowed', async () => {
  const dir = await copyOfConfigs();
  const text = (await import('node:fs')).readFileSync(join(dir, 'configs/products/mariadb.yml'), 'utf8');
  await writeFile(join(dir, 'configs/products/mariadb.yml'), text.replace('flavor: mariadb', 'flavor: postgres'));
  await writeFile(join(dir, 'configs/suites/smoke.yml'), 'name: smoke\ndescription: x\ntables: 0\ntableSize: 1000\nclients: 1\nreadDurationS: 1\nwriteDurationS: 1\nwarmupS: 0\nscanWarmDurationS: 1\nrestS: 0\ncolour: red\n');
  await assert.rejects(loadConfig(dir), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /configs\/products\/mariadb\.yml: field 'flavor' \(got "postgres"\) must be one of: "mariadb", "mysql"/);
    assert.match(err.message, /configs\/suites\/smoke\.yml: field 'tables' \(got 0\) must be >= 1/);
    assert.match(err.message, /configs\/suites\/smoke\.yml: unknown field 'colour'; allowed: name, description/);
    assert.match(err.message, /3 problems/);
    return true;
  });
});

test('a name that differs from the file name is refused', async () => {
  const dir = await copyOfConfigs();
  await mkdir(join(dir, 'configs/hosts'), { recursive: true });
  const text = (await import('node:fs')).readFileSync(join(dir, 'configs/hosts/local.yml'), 'utf8');
  await writeFile(join(dir, 'configs/hosts/laptop.yml'), text);
  await assert.rejects(loadConfig(dir), /configs\/hosts\/laptop\.yml: field 'name' is "local" but must equal the file name 'laptop'/);
});

test('benchmarks: any name of the plug-in form loads; an unregistered one is refused when planned, naming the file, the entry and the registered names', async () => {
  const { planSuite, BENCHMARKS } = await import('../../scripts/workload/index.js');
  const dir = await copyOfConfigs();
  const text = (await import('node:fs')).readFileSync(join(dir, 'configs/suites/smoke.yml'), 'utf8');
  await writeFile(join(dir, 'configs/suites/tool.yml'), `${text.replace(/^name: smoke$/m, 'name: tool')}\nbenchmarks: [sysbench, tpcc]\n`);
  const config = await loadConfig(dir);
  assert.deepEqual(config.suites.tool.benchmarks, ['sysbench', 'tpcc'], 'the schema checks the form, not a copy of the registry');
  const valid = Object.keys(BENCHMARKS).join(', ');
  assert.throws(() => planSuite(config.suites.tool), (err) => {
    assert.ok(err instanceof UserError);
    assert.equal(err.message, `unknown benchmark in configs/suites/tool.yml: benchmarks[1] = 'tpcc'; valid: ${valid}`);
    return true;
  });
  // A name not of the plug-in form is a schema error naming the file and the entry.
  await writeFile(join(dir, 'configs/suites/tool.yml'), `${text.replace(/^name: smoke$/m, 'name: tool')}\nbenchmarks: [sysbench, TPC C]\n`);
  await assert.rejects(loadConfig(dir), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /configs\/suites\/tool\.yml: field 'benchmarks\.1' \(got "TPC C"\) must match pattern/);
    return true;
  });
});
