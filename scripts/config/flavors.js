/**
 * What differs between server flavors, in one table: a product's `flavor` (configs/products)
 * names an entry here, and install/, server/, workload/ and verify/ ask it for a fact instead
 * of testing the flavor's name. Percona Server is flavor `mysql`: its binaries, initialisation
 * and options are Oracle MySQL's.
 *
 * Why a JS module in config/ and not YAML in configs/products: these are facts about the
 * binaries upstream ships, not settings a user tunes per host or product, so they are checked
 * by tsc with the code that reads them instead of by a schema at load time; and config/ is the
 * one stage that install/, server/ and verify/ may all import (test/layout.test.js), so no
 * stage keeps its own copy. A product may still override what a release build can change (its
 * `dispatchFunction`); loadConfig fills in the flavor's when the product sets none.
 */
import { UserError } from '../errors.js';

/** @typedef {'mariadb'|'mysql'} FlavorName */

/**
 * @typedef {object} Flavor
 * @property {FlavorName} name
 * @property {string} serverBinary the server's file name (in sbin/, bin/ or libexec/ of a prefix)
 * @property {'install-db'|'initialize-insecure'} init how a fresh datadir is made: a separate
 *   install-db tool (MariaDB), or the server itself with `--initialize-insecure` (MySQL)
 * @property {string[]} installDbNames the install-db tool's names, preferred first ([] when
 *   the server initialises its own datadir)
 * @property {string[]} clientNames the command-line client's names, preferred first
 * @property {string[]} adminNames the admin tool's names, preferred first
 * @property {string} dumpName the dump tool beside the client
 * @property {string[]} optionGroups my.cnf groups only this flavor reads, besides [mysqld],
 *   [server] and [mysqld-X.Y]; `{line}` stands for the release line X.Y
 * @property {string[]} startArgs arguments every start of this flavor needs after the
 *   per-instance paths
 * @property {string} dispatchFunction the command-dispatch function (the instructions meter's
 *   query path) when the product sets none
 * @property {boolean} performanceSchemaOnByDefault whether a server starts with
 *   performance_schema on when no option says otherwise
 * @property {string|null} rocksdbPluginPackage the Debian package holding MyRocks (ha_rocksdb.so),
 *   null when the flavor ships none
 */

/** @type {Readonly<Record<FlavorName, Readonly<Flavor>>>} */
const FLAVORS = freezeDeep({
  mariadb: {
    name: 'mariadb',
    serverBinary: 'mariadbd',
    init: 'install-db',
    // mysql_install_db is the name before 10.4 (and a symlink after).
    installDbNames: ['mariadb-install-db', 'mysql_install_db'],
    clientNames: ['mariadb', 'mysql'],
    adminNames: ['mariadb-admin', 'mysqladmin'],
    dumpName: 'mariadb-dump',
    optionGroups: ['mariadb', 'mariadbd', 'client-server', 'mariadb-{line}'],
    startArgs: [],
    dispatchFunction: 'dispatch_command',
    performanceSchemaOnByDefault: false,
    rocksdbPluginPackage: 'mariadb-plugin-rocksdb',
  },
  mysql: {
    name: 'mysql',
    serverBinary: 'mysqld',
    init: 'initialize-insecure',
    installDbNames: [],
    clientNames: ['mysql'],
    adminNames: ['mysqladmin'],
    dumpName: 'mysqldump',
    // A tagbench group: Oracle's server reads none of its own, and MariaDB must not read this one.
    optionGroups: ['mysqld-oracle'],
    // X Protocol would listen on 33060 for every instance, colliding side by side.
    startArgs: ['--mysqlx=OFF'],
    dispatchFunction: 'dispatch_command',
    performanceSchemaOnByDefault: true,
    rocksdbPluginPackage: null,
  },
});

/**
 * The facts of one flavor.
 * @param {string} name a product's `flavor`
 * @returns {Readonly<Flavor>}
 * @throws {UserError} for a name the table does not hold, listing the known ones
 */
export function getFlavor(name) {
  if (!Object.hasOwn(FLAVORS, name)) {
    throw new UserError(`unknown flavor '${name}'; known: ${Object.keys(FLAVORS).join(', ')}`);
  }
  return FLAVORS[/** @type {FlavorName} */ (name)];
}

/**
 * Every flavor, in the order a prefix is searched for their server binaries.
 * @returns {Readonly<Flavor>[]}
 */
export function listFlavors() {
  return Object.values(FLAVORS);
}

/**
 * Freeze the table and its lists: a caller that pushed onto a flavor's startArgs would change
 * every later start.
 * @template T
 * @param {T} value
 * @returns {T}
 */
function freezeDeep(value) {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) freezeDeep(v);
    Object.freeze(value);
  }
  return value;
}
