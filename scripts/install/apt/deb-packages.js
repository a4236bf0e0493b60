/**
 * Which Debian packages make up a release, and how upstream versions map to Debian ones.
 * Pure data and functions: no apt calls here.
 */

/**
 * Binary packages per server family. The server lifecycle needs the server, its install-db
 * script (MariaDB), a client and an admin tool; MyRocks needs the rocksdb plugin. Oracle's
 * `mysqladmin` lives in `mysql-client`, not in `mysql-client-core`.
 * Older releases name the real packages with a release suffix (`mariadb-server-core-10.5` in
 * bullseye, where `mariadb-server-core` does not exist and `mariadb-server` is a metapackage):
 * see {@link packageNameCandidates}.
 * @type {Readonly<Record<'mariadb'|'mysql', readonly string[]>>}
 */
export const PACKAGE_ROLES = Object.freeze({
  mariadb: Object.freeze(['mariadb-server-core', 'mariadb-server', 'mariadb-client-core', 'mariadb-client', 'mariadb-plugin-rocksdb']),
  mysql: Object.freeze(['mysql-server-core', 'mysql-client-core', 'mysql-client']),
});

/**
 * Roles a release can do without: only MyRocks runs need the plugin, and some archives lack
 * its file (the bullseye-security 10.5.29 plugin answers 404).
 * @type {ReadonlySet<string>}
 */
export const OPTIONAL_ROLES = new Set(['mariadb-plugin-rocksdb']);

/**
 * Upstream version inside a Debian version: `1:11.8.9+ds-4` -> `11.8.9`.
 * @param {string} debVersion
 * @returns {string}
 */
export function upstreamOf(debVersion) {
  return debVersion.replace(/^\d+:/, '').replace(/-[^-]*$/, '').replace(/[+~].*$/, '');
}

/**
 * Names a role's package may have for this upstream version: the plain name and the
 * release-suffixed one (`mariadb-server-core-10.5`).
 * @param {string} role
 * @param {string} version upstream version, e.g. `10.5.23`
 * @returns {string[]}
 */
export function packageNameCandidates(role, version) {
  const line = version.split('.').slice(0, 2).join('.');
  return [role, `${role}-${line}`];
}

/**
 * Pick the Debian version of a release among apt's rows for its server-core package.
 * @param {{name: string, version: string, suite: string}[]} rows madison rows for the server-core candidates
 * @param {string} version upstream version
 * @param {string|null} suite preferred suite (the config's), null = any
 * @returns {{version: string, suite: string}|null}
 */
export function pickDebianVersion(rows, version, suite) {
  const matching = rows.filter((r) => upstreamOf(r.version) === version);
  const inSuite = matching.filter((r) => suite === null || r.suite === suite);
  const pick = inSuite[0] ?? matching[0];
  return pick ? { version: pick.version, suite: pick.suite } : null;
}

/**
 * Sort upstream version strings numerically (`10.5.23` < `10.11.18` < `11.8.6`).
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
export function compareUpstream(a, b) {
  const pa = a.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  const pb = b.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? -1;
    const y = pb[i] ?? -1;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/**
 * The file name apt gives a downloaded package (`:` of the epoch escaped as `%3a`), without
 * the architecture part.
 * @param {string} name
 * @param {string} version
 * @returns {string} prefix of the .deb file name: `name_version_`
 */
export function debFilePrefix(name, version) {
  return `${name}_${version.replace(/:/g, '%3a')}_`;
}

/**
 * Parse `dpkg-deb -c` (a tar listing) into the files and links a package installs.
 * @param {string} text
 * @returns {{path: string, type: 'file'|'dir'|'link', target: string|null}[]} paths without the leading `./`
 */
export function parseDebListing(text) {
  /** @type {{path: string, type: 'file'|'dir'|'link', target: string|null}[]} */
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^([dl-])\S+\s+\S+\s+\d+\s+\S+\s+\S+\s+\.\/(.*?)(?: -> (.*))?$/.exec(line);
    if (!m || m[2] === '') continue;
    const type = m[1] === 'd' ? 'dir' : m[1] === 'l' ? 'link' : 'file';
    out.push({ path: m[2].replace(/\/$/, ''), type, target: m[3] ?? null });
  }
  return out;
}

/**
 * Shared objects a package provides, by file name (what DT_NEEDED asks for).
 * @param {{path: string, type: string}[]} listing from parseDebListing
 * @returns {Record<string, string>} soname -> path inside the package
 */
export function sharedObjectsOf(listing) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const f of listing) {
    if (f.type === 'dir') continue;
    // Only the dynamic linker's own folders: not gconv modules, plugins or gdb helper scripts.
    const m = /^(?:usr\/)?lib(?:32|64|x32)?(?:\/[a-z0-9_]+-linux-gnu[a-z0-9_]*)?\/([^/]+)$/.exec(f.path);
    // Sonames are lib*.so.N (libaio.so.1t64 too) and the loader ld-*.so.N.
    if (m && /^(lib|ld-).*\.so(\..+)?$/.test(m[1]) && !(m[1] in out)) out[m[1]] = f.path;
  }
  return out;
}
