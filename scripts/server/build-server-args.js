/**
 * Turn a rendered my.cnf into the server's command line, and find a release's clients from
 * that command line. Pure.
 *
 * Why options on the command line and not `--defaults-file`: the server gets `--no-defaults`
 * as its first option, so no option file at all is read (not /etc/mysql/*, not ~/.my.cnf,
 * not $MYSQL_HOME/my.cnf); the rendered my.cnf is translated here into `--name=value`
 * arguments, so `ps` and the run record show exactly what the server was told. The rendered
 * text is also written to <workDir>/my.cnf for people to read; the server never opens it.
 *
 * Groups, as the servers themselves read them:
 *   [mysqld] [server]            every flavor
 *   [mysqld-X.Y]                 release line X.Y of any flavor (e.g. [mysqld-10.11])
 *   [mariadb] [mariadbd] [client-server] [mariadb-X.Y]   MariaDB only
 *   [mysqld-oracle]              Oracle MySQL only (a tagbench group: the server has none)
 * Options are applied in file order; a later value wins, as in mysqld.
 */
import { UserError } from '../errors.js';
import { getFlavor, listFlavors } from '../config/index.js';
import { dirname, join } from 'node:path';
import { normalizeOptionName } from './mycnf.js';

/** @typedef {import('./types.js').MycnfOption} MycnfOption */

/** Options tagbench sets per instance; a template must not set them. */
const RESERVED = new Set([
  'no-defaults', 'defaults-file', 'defaults-extra-file', 'defaults-group-suffix', 'print-defaults',
  'basedir', 'datadir', 'socket', 'port', 'bind-address', 'pid-file', 'log-error', 'tmpdir',
  'user', 'plugin-dir', 'lc-messages-dir', 'character-sets-dir', 'secure-file-priv', 'mysqlx',
]);

/**
 * @typedef {object} InstancePaths
 * @property {string} basedir
 * @property {string} datadir
 * @property {string} socket
 * @property {string} pidFile
 * @property {string} errorLog
 * @property {string} tmpdir
 * @property {string} secureFileDir
 */

/**
 * Groups a server of this flavor and version reads.
 * @param {string} flavor a product's flavor (config getFlavor)
 * @param {string} version e.g. `10.11.18`
 * @returns {Set<string>}
 */
export function serverGroups(flavor, version) {
  const line = /^(\d+\.\d+)/.exec(version)?.[1];
  const groups = new Set(['mysqld', 'server']);
  if (line) groups.add(`mysqld-${line}`);
  for (const group of getFlavor(flavor).optionGroups) {
    if (!group.includes('{line}')) groups.add(group);
    else if (line) groups.add(group.replace('{line}', line));
  }
  return groups;
}

/** Every group some flavor reads, as one pattern ({line} standing for any release line). */
const SERVER_GROUP = new RegExp(`^(${['mysqld', 'server', 'mysqld-{line}', ...listFlavors().flatMap((f) => f.optionGroups)]
  .map((g) => g.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace('{line}', '\\d+\\.\\d+')).join('|')})$`);

/**
 * @param {string} group
 * @returns {boolean} whether some server flavor reads this group
 */
function isServerGroup(group) {
  return SERVER_GROUP.test(group);
}

/**
 * Options of the template that this server reads, in file order, checked.
 * @param {MycnfOption[]} options parsed rendered my.cnf
 * @param {string} flavor a product's flavor
 * @param {string} version
 * @param {string} source template name for messages
 * @returns {MycnfOption[]}
 * @throws {UserError} naming every line that sets an option tagbench owns or uses a group no server reads
 */
export function selectServerOptions(options, flavor, version, source) {
  /** @type {string[]} */
  const problems = [];
  for (const opt of options) {
    if (!isServerGroup(opt.group)) {
      problems.push(`line ${opt.line}: group [${opt.group}] is read by no server; use [mysqld] (all), [mariadb] (MariaDB only), [mysqld-oracle] (Oracle MySQL only) or [mysqld-X.Y] (one release line)`);
    } else if (RESERVED.has(normalizeOptionName(opt.name))) {
      problems.push(`line ${opt.line}: option '${opt.name}' is set by tagbench for each instance; remove it from the template`);
    }
  }
  if (problems.length > 0) {
    throw new UserError(`my.cnf template '${source}': ${problems.length} problem${problems.length > 1 ? 's' : ''}:\n  - ${problems.join('\n  - ')}`);
  }
  const groups = serverGroups(flavor, version);
  return options.filter((o) => groups.has(o.group));
}

/**
 * The server's argv (without the binary): `--no-defaults` first, then the per-instance paths,
 * then the template's options, then what the engine cannot run without.
 * @param {object} input
 * @param {string} input.flavor a product's flavor: its startArgs follow the paths
 * @param {InstancePaths} input.paths
 * @param {number} input.port
 * @param {string} input.pluginDir
 * @param {string} input.shareDir
 * @param {'innodb'|'rocksdb'} input.engine
 * @param {MycnfOption[]} input.options from selectServerOptions()
 * @param {boolean} input.asRoot whether the process runs as uid 0 (mysqld then needs --user=root)
 * @returns {string[]}
 */
export function buildServerArgs({ flavor, paths, port, pluginDir, shareDir, engine, options, asRoot }) {
  const args = [
    '--no-defaults',
    ...(asRoot ? ['--user=root'] : []),
    `--basedir=${paths.basedir}`,
    `--datadir=${paths.datadir}`,
    `--plugin-dir=${pluginDir}`,
    `--lc-messages-dir=${shareDir}`,
    `--character-sets-dir=${shareDir}/charsets`,
    `--socket=${paths.socket}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--pid-file=${paths.pidFile}`,
    `--log-error=${paths.errorLog}`,
    `--tmpdir=${paths.tmpdir}`,
    // MySQL aborts when its compiled-in /var/lib/mysql-files is missing; keep MariaDB alike.
    `--secure-file-priv=${paths.secureFileDir}`,
  ];
  args.push(...getFlavor(flavor).startArgs);
  for (const o of options) args.push(o.value === null ? `--${o.name}` : `--${o.name}=${o.value}`);

  const names = options.map((o) => ({ name: normalizeOptionName(o.name), value: o.value ?? '' }));
  if (engine === 'rocksdb') {
    // Startup only: a runtime INSTALL SONAME 'ha_rocksdb' aborts the bookworm 10.11.19 build.
    const loads = names.some((o) => /^plugin-load(-add)?$/.test(o.name) && /ha_rocksdb/.test(o.value));
    if (!loads) args.push('--plugin-load-add=ha_rocksdb.so');
  }
  if (!names.some((o) => o.name === 'default-storage-engine')) {
    args.push(`--default-storage-engine=${engine === 'rocksdb' ? 'ROCKSDB' : 'InnoDB'}`);
  }
  return args;
}

/**
 * The release's client and dump tools, beside the server binary a command line runs (the
 * install prefix has usr/sbin/<server> and usr/bin/<clients>, scripts/install).
 * @param {string[]} command a server handle's command line
 * @returns {{client: string, dump: string}|null} null when no argument is a flavor's server binary
 */
export function releaseClients(command) {
  for (const arg of command) {
    const flavor = listFlavors().find((f) => arg.endsWith(`/${f.serverBinary}`));
    if (!flavor) continue;
    const bin = join(dirname(dirname(arg)), 'bin');
    return { client: join(bin, flavor.clientNames[0]), dump: join(bin, flavor.dumpName) };
  }
  return null;
}
