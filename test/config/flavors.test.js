import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFlavor, listFlavors, loadConfig } from '../../scripts/config/index.js';
import { UserError } from '../../scripts/errors.js';

const ROOT = new URL('../..', import.meta.url).pathname;
/** Every fact a flavor must state, with the type it has. */
const FACTS = {
  name: 'string', serverBinary: 'string', init: 'string', installDbNames: 'array', clientNames: 'array',
  adminNames: 'array', dumpName: 'string', optionGroups: 'array', startArgs: 'array',
  dispatchFunction: 'string', performanceSchemaOnByDefault: 'boolean', rocksdbPluginPackage: 'string|null',
};

/** @param {unknown} v */
const typeOf = (v) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);

test('an unknown flavor is a UserError naming it and every known one, listed from the table', () => {
  const known = listFlavors().map((f) => f.name);
  assert.deepEqual(known, ['mariadb', 'mysql']);
  assert.throws(() => getFlavor('postgres'), (err) => err instanceof UserError && err.message === "unknown flavor 'postgres'; known: mariadb, mysql");
  // Inherited names are not flavors either.
  assert.throws(() => getFlavor('toString'), UserError);
});

test('each flavor states every fact, and nothing else', () => {
  for (const flavor of listFlavors()) {
    assert.deepEqual(Object.keys(flavor).sort(), Object.keys(FACTS).sort(), `facts of ${flavor.name}`);
    for (const [fact, type] of Object.entries(FACTS)) {
      assert.ok(type.split('|').includes(typeOf(flavor[/** @type {keyof typeof flavor} */ (fact)])), `${flavor.name}.${fact} is ${type}`);
    }
    assert.equal(getFlavor(flavor.name), flavor);
    assert.ok(['install-db', 'initialize-insecure'].includes(flavor.init), `${flavor.name}.init`);
    // A flavor initialised by a separate tool must name it (prefix-layout looks for it, startServer requires it).
    assert.equal(flavor.init === 'install-db', flavor.installDbNames.length > 0, `${flavor.name}: install-db tool named iff it initialises with one`);
    assert.ok(flavor.clientNames.length > 0 && flavor.adminNames.length > 0, `${flavor.name}: client and admin named`);
  }
});

test('the table is frozen: a caller cannot change a fact for every later start', () => {
  const mysql = getFlavor('mysql');
  assert.ok(Object.isFrozen(mysql) && Object.isFrozen(mysql.startArgs));
  assert.throws(() => /** @type {string[]} */ (mysql.startArgs).push('--x'), TypeError);
});

test('the product schema allows exactly the flavors of the table', async () => {
  const schema = JSON.parse(await readFile(new URL('../../scripts/config/schemas/product.schema.json', import.meta.url), 'utf8'));
  assert.deepEqual(schema.properties.flavor.enum, listFlavors().map((f) => f.name));
});

test('a product without a dispatch function gets its flavor\'s; one that sets it keeps its own', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tb-flavors-'));
  try {
    await cp(join(ROOT, 'configs'), join(dir, 'configs'), { recursive: true });
    const mysqlFile = join(dir, 'configs', 'products', 'mysql.yml');
    const mysqlYaml = await readFile(mysqlFile, 'utf8');
    const withoutDispatch = mysqlYaml.replace(/^dispatchFunction: .*\n/m, '');
    assert.notEqual(withoutDispatch, mysqlYaml, 'the test product lost its dispatchFunction');
    await writeFile(mysqlFile, withoutDispatch);
    const mariadbFile = join(dir, 'configs', 'products', 'mariadb.yml');
    await writeFile(mariadbFile, (await readFile(mariadbFile, 'utf8')).replace(/^dispatchFunction: .*$/m, 'dispatchFunction: do_command'));
    const config = await loadConfig(dir);
    assert.equal(config.products.mysql.dispatchFunction, getFlavor('mysql').dispatchFunction);
    assert.equal(config.products.mariadb.dispatchFunction, 'do_command');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
