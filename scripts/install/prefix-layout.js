/**
 * Find a release's binaries and data folders inside an install prefix. Shared by the deb
 * provider (Debian layout under `usr/`) and the path provider (Debian layout, or an upstream
 * tarball / cmake install with bin/, share/, lib/plugin directly under the prefix).
 */
import { access, readdir } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { listFlavors } from '../config/index.js';

/**
 * @typedef {object} PrefixLayout
 * @property {string} root the folder holding bin/ and sbin/ (`<prefix>/usr` or `<prefix>`)
 * @property {import('../config/index.js').FlavorName} flavor guessed from the server binary's name; the provider confirms it with `--version`
 * @property {import('../types.js').InstallBinaries} bin absolute paths
 * @property {string} pluginDir
 * @property {string} shareDir folder holding `charsets/` and `english/errmsg.sys`
 * @property {string[]} missing what could not be found, as words a person understands
 */

/** @param {string} p */
async function exists(p) {
  return access(p, constants.F_OK).then(() => true, () => false);
}

/** @param {string} p */
async function executable(p) {
  return access(p, constants.X_OK).then(() => true, () => false);
}

/**
 * First existing executable among candidates.
 * @param {string} root
 * @param {string[]} rels
 * @returns {Promise<string|null>}
 */
async function firstExecutable(root, rels) {
  for (const r of rels) if (await executable(join(root, r))) return join(root, r);
  return null;
}

/**
 * Locate server, install-db, client, admin, plugin dir and share dir in a prefix.
 * @param {string} prefix absolute install prefix
 * @returns {Promise<PrefixLayout|null>} null when no server binary is there at all
 */
export async function detectLayout(prefix) {
  for (const root of [join(prefix, 'usr'), prefix]) {
    // The first flavor whose server binary is there wins (a MariaDB prefix may hold a mysqld symlink too).
    for (const flavor of listFlavors()) {
      const name = flavor.serverBinary;
      const server = await firstExecutable(root, [`sbin/${name}`, `bin/${name}`, `libexec/${name}`]);
      if (server) return { root, flavor: flavor.name, ...(await findRest(root, server, flavor)) };
    }
  }
  return null;
}

/**
 * @param {string} root
 * @param {string} server
 * @param {import('../config/index.js').Flavor} flavor
 */
async function findRest(root, server, flavor) {
  /** @type {string[]} */
  const missing = [];
  const installDb = await firstExecutable(root, flavor.installDbNames.flatMap((n) => [`bin/${n}`, `scripts/${n}`]));
  if (flavor.init === 'install-db' && !installDb) missing.push(`${flavor.installDbNames[0]} (bin/ or scripts/)`);
  const client = await firstExecutable(root, flavor.clientNames.map((n) => `bin/${n}`));
  if (!client) missing.push(`client (bin/${flavor.clientNames[0]})`);
  const admin = await firstExecutable(root, flavor.adminNames.map((n) => `bin/${n}`));
  if (!admin) missing.push(`admin tool (bin/${flavor.adminNames[0]})`);

  let pluginDir = null;
  for (const rel of ['lib/mysql/plugin', 'lib/mariadb/plugin', 'lib/plugin', 'lib64/mysql/plugin', 'lib64/plugin']) {
    const names = await readdir(join(root, rel)).catch(() => /** @type {string[]} */ ([]));
    if (names.some((n) => n.endsWith('.so'))) { pluginDir = join(root, rel); break; }
  }
  if (!pluginDir) missing.push('plugin dir (lib/mysql/plugin, lib/plugin, ...)');

  let shareDir = null;
  for (const rel of ['share/mariadb', 'share/mysql', 'share']) {
    if ((await exists(join(root, rel, 'charsets'))) && (await exists(join(root, rel, 'english', 'errmsg.sys')))) { shareDir = join(root, rel); break; }
  }
  if (!shareDir) missing.push('share dir with charsets/ and english/errmsg.sys (share/mariadb, share/mysql)');

  return {
    bin: { server, installDb, client: client ?? '', admin: admin ?? '' },
    pluginDir: pluginDir ?? '',
    shareDir: shareDir ?? '',
    missing,
  };
}
