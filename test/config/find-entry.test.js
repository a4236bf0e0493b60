import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findHostClass, findProduct, loadConfig } from '../../scripts/config/index.js';
import { UserError } from '../../scripts/errors.js';

const config = await loadConfig(new URL('../..', import.meta.url).pathname);
/** The shipped host classes and products, as the messages list them (configs/ order). */
const HOSTS = Object.keys(config.hosts).join(', ');
const PRODUCTS = Object.keys(config.products).join(', ');

test('findProduct and findHostClass return the configured entry', () => {
  assert.equal(findProduct(config, 'mariadb'), config.products.mariadb);
  assert.equal(findHostClass(config, 'local'), config.hosts.local);
  assert.equal(findHostClass(config, 'local', '--host-class'), config.hosts.local);
});

test('an unknown name is a UserError naming it, the option, every configured one and their folder', () => {
  const cases = /** @type {[() => unknown, string][]} */ ([
    [() => findProduct(config, 'postgres'), `unknown product 'postgres'; known: ${PRODUCTS} (configs/products/<name>.yml)`],
    [() => findProduct(config, 'nope', '--product'), `unknown --product 'nope'; known: ${PRODUCTS} (configs/products/<name>.yml)`],
    [() => findProduct(config, 'postgres', 'product', "--releases 'postgres@16.1'"),
      `unknown product 'postgres' in --releases 'postgres@16.1'; known: ${PRODUCTS} (configs/products/<name>.yml)`],
    [() => findHostClass(config, 'huge'), `unknown host class 'huge'; known: ${HOSTS} (configs/hosts/<name>.yml)`],
    [() => findHostClass(config, 'huge', '--host-class'), `unknown --host-class 'huge'; known: ${HOSTS} (configs/hosts/<name>.yml)`],
  ]);
  for (const [call, message] of cases) {
    assert.throws(call, (err) => err instanceof UserError && err.message === message, message);
  }
});

test('a name inherited from Object.prototype is unknown, not a function', () => {
  assert.throws(() => findProduct(config, 'toString'), /unknown product 'toString'/);
  assert.throws(() => findHostClass(config, 'constructor', '--host-class'), /unknown --host-class 'constructor'/);
});

test('with nothing configured the message says where entries come from', () => {
  assert.throws(() => findProduct({ products: {} }, 'mariadb'), { message: "unknown product 'mariadb'; known: none (add configs/products/<name>.yml)" });
  assert.throws(() => findHostClass({ hosts: {} }, 'local'), { message: "unknown host class 'local'; known: none (add configs/hosts/<name>.yml)" });
});
