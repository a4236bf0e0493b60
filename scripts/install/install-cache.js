/**
 * The install cache: one prefix per cache key (product, version, provider, build profile, the
 * git ref when a source build is not of the version's tag, and the commit a source build from
 * git was built from), at
 * `<cacheDir>/<product>-<version>@<provider>[-<profile>][+ref-<ref>][+commit-<first 12 hex>]/`.
 * The commit is in the key because an upstream tag can be moved: a build of the tag's old commit
 * must never be served for its new one. A prefix is built in a
 * private work folder and moved into place with one rename; its marker file, written before the
 * rename, records the key and the sha256 of the server binary. Every reuse checks both: another
 * key, a missing binary or another checksum is an error naming the folder, never a silent reuse.
 *
 * Older tagbench versions kept `<cacheDir>/<product>-<version>/` (marker schema 1), reused by
 * any provider. Those folders cannot be moved (binaries and patched ELF files hold their
 * absolute paths), so they are read where they are: the key comes from the recorded result and
 * the checksum from the provenance recorded at install time. Nothing is ever written there.
 */
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { sha256File } from './provenance.js';

/** @typedef {import('./types.js').CacheKey} CacheKey */
/** @typedef {import('../types.js').InstallResult} InstallResult */

/** Marker file at the root of a finished prefix: the key, the server's checksum and the InstallResult. */
export const MARKER = '.tagbench-install.json';
const MARKER_SCHEMA = 2;
/** The `<product>-<version>/` markers of older tagbench versions, read in place (see the file comment). */
const LEGACY_MARKER_SCHEMA = 1;

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;
/** A full git object id (SHA-1 or SHA-256): an abbreviated one could name two commits. */
export const COMMIT_RE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** How much of the commit names the folder; the marker keeps it whole and tells two apart. */
const COMMIT_IN_NAME = 12;

/**
 * A cache key with every field present (null where it does not apply).
 * @param {{product: string, version: string, provider: string, profile?: string|null, ref?: string|null, commit?: string|null}} fields
 * @returns {CacheKey}
 * @throws {UserError} for names that would escape the cache folder, or a commit that is not a full object id
 */
export function makeCacheKey({ product, version, provider, profile = null, ref = null, commit = null }) {
  for (const [what, v] of [['product', product], ['version', version], ['provider', provider], ['build profile', profile ?? 'x']]) {
    if (!NAME_RE.test(v)) throw new UserError(`${what} '${v}' cannot name an install folder: use letters, digits, '.', '_', '+', '-' only`);
  }
  if (ref !== null && (ref === '' || ref.length > 200)) throw new UserError(`git ref '${ref}' cannot name an install folder`);
  if (commit !== null && !COMMIT_RE.test(commit)) throw new UserError(`commit '${commit}' is not a full git commit id (40 or 64 lower-case hex digits)`);
  return { product, version, provider, profile, ref, commit };
}

/**
 * @param {CacheKey} key
 * @returns {string} for messages: `mariadb 10.11.19 (source, profile release, ref bb-10.11, commit 1a2b3c4d5e6f)`
 */
export function describeKey(key) {
  const parts = [key.provider, ...(key.profile ? [`profile ${key.profile}`] : []), ...(key.ref ? [`ref ${key.ref}`] : []),
    ...(key.commit ? [`commit ${key.commit.slice(0, COMMIT_IN_NAME)}`] : [])];
  return `${key.product} ${key.version} (${parts.join(', ')})`;
}

/**
 * @param {CacheKey} a
 * @param {CacheKey} b
 * @returns {boolean}
 */
function sameKey(a, b) {
  return a.product === b.product && a.version === b.version && a.provider === b.provider
    && (a.profile ?? null) === (b.profile ?? null) && (a.ref ?? null) === (b.ref ?? null) && (a.commit ?? null) === (b.commit ?? null);
}

/**
 * Final prefix path of a cache key. A ref is made safe for a folder name; two refs that become
 * the same name are told apart by the key in the marker (a clear error, not a reuse).
 * @param {string} cacheDir
 * @param {CacheKey} key from makeCacheKey
 * @returns {string}
 */
export function prefixPathFor(cacheDir, key) {
  const checked = makeCacheKey(key);
  const profile = checked.profile ? `-${checked.profile}` : '';
  const ref = checked.ref ? `+ref-${checked.ref.replace(/[^A-Za-z0-9._+-]/g, '_')}` : '';
  const commit = checked.commit ? `+commit-${checked.commit.slice(0, COMMIT_IN_NAME)}` : '';
  return join(cacheDir, `${checked.product}-${checked.version}@${checked.provider}${profile}${ref}${commit}`);
}

/**
 * The folder an older tagbench used for a release, whatever its provider.
 * @param {string} cacheDir
 * @param {string} product
 * @param {string} version
 * @returns {string}
 */
export function legacyPrefixPathFor(cacheDir, product, version) {
  makeCacheKey({ product, version, provider: 'x' });
  return join(cacheDir, `${product}-${version}`);
}

/**
 * @typedef {object} MarkerRecord what a prefix's marker says, schema 2 or read from schema 1
 * @property {CacheKey} key
 * @property {string} serverSha256 checksum of the server binary at install time
 * @property {InstallResult} result
 * @property {boolean} legacy the folder was made by an older tagbench (`<product>-<version>/`)
 */

/**
 * Read and check the marker of a prefix.
 * @param {string} prefix
 * @returns {Promise<MarkerRecord|null>} null when the folder or its marker is missing (an
 *   install that never finished: it is replaced, never reused)
 * @throws {UserError} a marker that is not one, or that records no checksum
 */
async function readMarker(prefix) {
  const file = join(prefix, MARKER);
  const text = await readFile(file, 'utf8').catch((err) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
    throw err;
  });
  if (text === null) return null;
  const fix = `delete ${prefix} (rm -rf) and install the release again`;
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UserError(`${file} is not JSON, so the install in ${prefix} cannot be checked; ${fix}`);
  }
  const result = data?.result;
  if (!result?.bin?.server || typeof result.provider !== 'string') throw new UserError(`${file} records no server binary or provider; ${fix}`);
  if (data.schemaVersion === MARKER_SCHEMA) {
    if (!/^[0-9a-f]{64}$/.test(data.serverSha256 ?? '') || !data.key) throw new UserError(`${file} records no sha256 of the server binary or no cache key; ${fix}`);
    // Markers written before the commit was part of the key have none: commit null, so they
    // name the folder they are in, and a lookup that asks for a commit never takes them.
    return { key: { ...data.key, commit: data.key.commit ?? null }, serverSha256: data.serverSha256, result, legacy: false };
  }
  if (data.schemaVersion === LEGACY_MARKER_SCHEMA) {
    const p = result.provenance ?? {};
    if (!/^[0-9a-f]{64}$/.test(p.serverSha256 ?? '')) {
      throw new UserError(`${prefix} was installed by an older tagbench that recorded no sha256 of its server binary, so it cannot be trusted; ${fix}`);
    }
    const key = {
      product: result.product,
      version: result.version,
      provider: result.provider,
      profile: p.buildProfile ?? null,
      ref: result.provider === 'source' && !p.tag ? p.build?.ref ?? p.commit ?? null : null,
      commit: null,
    };
    return { key, serverSha256: p.serverSha256, result, legacy: true };
  }
  throw new UserError(`${file} has schemaVersion ${JSON.stringify(data.schemaVersion)}; this tagbench reads ${LEGACY_MARKER_SCHEMA} and ${MARKER_SCHEMA}. `
    + `Use the tagbench that made it, or ${fix}`);
}

/**
 * Check that the server binary is the one recorded at install time.
 * @param {string} prefix
 * @param {MarkerRecord} marker
 * @returns {Promise<void>}
 * @throws {UserError} the binary is missing or its checksum differs
 */
async function verifyServer(prefix, marker) {
  const server = marker.result.bin.server;
  const fix = `the install was changed after it was made: delete ${prefix} (rm -rf) and install ${describeKey(marker.key)} again`;
  const st = await stat(server).catch(() => null);
  if (!st?.isFile()) throw new UserError(`${server} is missing, although ${join(prefix, MARKER)} records it; ${fix}`);
  const actual = await sha256File(server);
  if (actual !== marker.serverSha256) {
    throw new UserError(`${server} has sha256 ${actual}, but it was installed with sha256 ${marker.serverSha256}; ${fix}`);
  }
}

/**
 * The verified result stored in a prefix for a key.
 * @param {string} prefix
 * @param {CacheKey} key what the caller is about to reuse it as
 * @returns {Promise<InstallResult|null>} null when there is no finished install there
 * @throws {UserError} the prefix holds another key, a server binary that is missing or was
 *   changed, or an unreadable marker: each says what to do
 */
export async function readCachedResult(prefix, key) {
  const marker = await readMarker(prefix);
  if (!marker) return null;
  if (!sameKey(marker.key, key)) {
    throw new UserError(`${prefix} holds ${describeKey(marker.key)}, not ${describeKey(key)}; delete it (rm -rf) or use another --cache-dir`);
  }
  await verifyServer(prefix, marker);
  return marker.result;
}

/**
 * Look a key up in the cache: its own folder, else the folder an older tagbench made for the
 * release when that one holds the same key (a legacy folder of another provider is left alone).
 * @param {string} cacheDir
 * @param {CacheKey} key
 * @param {(msg: string) => void} [log]
 * @returns {Promise<{prefix: string, result: InstallResult}|null>} the verified install, or null
 * @throws {UserError} from readCachedResult
 */
export async function lookupInstall(cacheDir, key, log = () => {}) {
  const prefix = prefixPathFor(cacheDir, key);
  const result = await readCachedResult(prefix, key);
  if (result) return { prefix, result };
  const legacy = legacyPrefixPathFor(cacheDir, key.product, key.version);
  const marker = await readMarker(legacy);
  if (!marker) return null;
  if (!sameKey(marker.key, key)) {
    log(`${legacy} (made by an older tagbench) holds ${describeKey(marker.key)}, not ${describeKey(key)}: left alone`);
    return null;
  }
  await verifyServer(legacy, marker);
  return { prefix: legacy, result: marker.result };
}

/**
 * Every verified install of a release in the cache, whatever its provider.
 * @param {string} cacheDir
 * @param {string} product
 * @param {string} version
 * @returns {Promise<{prefix: string, key: CacheKey, result: InstallResult}[]>}
 * @throws {UserError} when one of them fails its check
 */
export async function listCachedInstalls(cacheDir, product, version) {
  const legacyName = `${product}-${version}`;
  legacyPrefixPathFor(cacheDir, product, version);
  const names = (await readdir(cacheDir).catch(() => /** @type {string[]} */ ([])))
    .filter((n) => (n === legacyName || n.startsWith(`${legacyName}@`)) && !n.includes('.trash-'))
    .sort();
  const found = [];
  for (const name of names) {
    const prefix = join(cacheDir, name);
    const marker = await readMarker(prefix);
    // A name can match another release's (`mysql-8.0.39-30` is product mysql, version 8.0.39-30).
    if (!marker || marker.key.product !== product || marker.key.version !== version) continue;
    if (!marker.legacy && prefixPathFor(cacheDir, marker.key) !== prefix) {
      throw new UserError(`${prefix} holds ${describeKey(marker.key)}, which belongs in ${prefixPathFor(cacheDir, marker.key)}; delete it (rm -rf)`);
    }
    await verifyServer(prefix, marker);
    found.push({ prefix, key: marker.key, result: marker.result });
  }
  return found;
}

/**
 * Look a release up in the install cache for `tagbench run`, which may be given no provider.
 * With `want`, only an install of that provider (and profile, ref and commit, when given) counts. Without
 * it, an install counts only when it is the release's one install in the cache: two (a deb
 * package and a source build of one version) are an error asking for the provider.
 * @param {string} cacheDir install cache
 * @param {string} product
 * @param {string} version
 * @param {{provider: string, profile?: string|null, ref?: string|null, commit?: string|null}} [want]
 *   commit: the build of exactly that commit (a moved tag's cache holds a build of each commit)
 * @returns {Promise<InstallResult|null>} the verified install (status 'skipped'), or null
 * @throws {UserError} when the release is cached several times and `want` does not say which,
 *   or an install fails its check (another key, a changed server binary)
 */
export async function findCachedInstall(cacheDir, product, version, want) {
  const all = await listCachedInstalls(cacheDir, product, version);
  const matching = all.filter(({ key }) => !want || (key.provider === want.provider
    && (want.profile === undefined || (key.profile ?? null) === want.profile)
    && (want.ref === undefined || (key.ref ?? null) === want.ref)
    && (want.commit === undefined || (key.commit ?? null) === want.commit)));
  if (matching.length === 0) return null;
  if (matching.length > 1) {
    throw new UserError(`${product} ${version} is in the install cache ${matching.length} times: ${matching.map((m) => `${describeKey(m.key)} in ${m.prefix}`).join('; ')}. `
      + 'Say which to use with --provider (and the source provider\'s --profile, --ref or --commit; in --releases product@version:source@<commit>)');
  }
  return { ...matching[0].result, status: 'skipped' };
}

/**
 * @typedef {object} CacheAuditEntry one folder of the install cache, checked
 * @property {string} prefix
 * @property {CacheKey|null} key null when the marker could not be read
 * @property {boolean} legacy made by an older tagbench (`<product>-<version>/`, read in place)
 * @property {string|null} problem why it would not be reused (what to do included), null when fine
 */

/**
 * Check every install in the cache the way a reuse would (for `tagbench doctor`). Folders
 * without a marker (installs that never finished) are listed with their problem too.
 * @param {string} cacheDir
 * @returns {Promise<CacheAuditEntry[]>} sorted by folder; empty when the cache does not exist
 */
export async function auditInstallCache(cacheDir) {
  const names = (await readdir(cacheDir, { withFileTypes: true }).catch(() => []))
    .filter((d) => d.isDirectory() && !d.name.startsWith('.') && !d.name.includes('.trash-'))
    .map((d) => d.name)
    .sort();
  /** @type {CacheAuditEntry[]} */
  const out = [];
  for (const name of names) {
    const prefix = join(cacheDir, name);
    try {
      const marker = await readMarker(prefix);
      if (!marker) {
        out.push({ prefix, key: null, legacy: !name.includes('@'), problem: `no ${MARKER}: an install that never finished; it is replaced by the next install of that release, or delete it (rm -rf)` });
        continue;
      }
      const expected = marker.legacy ? legacyPrefixPathFor(cacheDir, marker.key.product, marker.key.version) : prefixPathFor(cacheDir, marker.key);
      if (expected !== prefix) throw new UserError(`${prefix} holds ${describeKey(marker.key)}, which belongs in ${expected}; delete it (rm -rf)`);
      await verifyServer(prefix, marker);
      out.push({ prefix, key: marker.key, legacy: marker.legacy, problem: null });
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      out.push({ prefix, key: null, legacy: !name.includes('@'), problem: err.message });
    }
  }
  return out;
}

/**
 * A fresh work folder beside the final prefix (same file system, so the final rename is atomic).
 * @param {string} cacheDir
 * @param {string} name `<product>-<version>`
 * @returns {Promise<string>}
 */
export async function makeWorkDir(cacheDir, name) {
  await mkdir(cacheDir, { recursive: true });
  await removeAbandoned(cacheDir);
  return mkdtemp(join(cacheDir, `.work-${name}-`));
}

/** Work folders older than this belong to a killed install (a cold install takes under a minute). */
const ABANDONED_AFTER_MS = 6 * 3600 * 1000;

/**
 * Delete work and trash folders left by interrupted installs (each can hold hundreds of MB).
 * @param {string} cacheDir
 * @returns {Promise<void>}
 */
async function removeAbandoned(cacheDir) {
  for (const name of await readdir(cacheDir).catch(() => /** @type {string[]} */ ([]))) {
    if (!name.startsWith('.work-') && !name.includes('.trash-')) continue;
    const st = await stat(join(cacheDir, name)).catch(() => null);
    if (st && Date.now() - st.mtimeMs > ABANDONED_AFTER_MS) await rm(join(cacheDir, name), { recursive: true, force: true });
  }
}

/**
 * Write the marker (key, server checksum, result) into a built prefix and move it into place.
 * When another process finished the same key first, its prefix wins and ours is dropped.
 * A final folder without a marker (an interrupted install) is moved aside to `.trash-*` and
 * removed; one with a marker that fails its check is an error (see readCachedResult).
 * @param {string} builtPrefix folder that holds the complete install
 * @param {string} finalPrefix prefixPathFor(cacheDir, key)
 * @param {InstallResult} result status 'installed'
 * @param {CacheKey} key
 * @returns {Promise<{result: InstallResult, won: boolean}>} won = our prefix is the one in place
 * @throws {UserError} the server binary changed between the provider's check and now
 */
export async function commitPrefix(builtPrefix, finalPrefix, result, key) {
  const serverSha256 = await sha256File(result.bin.server.replace(finalPrefix, builtPrefix));
  if (result.provenance.serverSha256 && result.provenance.serverSha256 !== serverSha256) {
    throw new UserError(`the server binary in ${builtPrefix} changed after it was checked (sha256 ${result.provenance.serverSha256}, now ${serverSha256}): install again`);
  }
  const marker = { schemaVersion: MARKER_SCHEMA, key: makeCacheKey(key), serverSha256, installedAt: new Date().toISOString(), result };
  await writeFile(join(builtPrefix, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await rename(builtPrefix, finalPrefix);
      return { result, won: true };
    } catch (err) {
      const code = /** @type {NodeJS.ErrnoException} */ (err).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
      const existing = await readCachedResult(finalPrefix, key);
      if (existing) {
        await rm(builtPrefix, { recursive: true, force: true });
        return { result: existing, won: false };
      }
      await discardPrefix(finalPrefix);
    }
  }
  throw new UserError(`could not move ${builtPrefix} to ${finalPrefix}: another process keeps recreating it`);
}

/**
 * Move a prefix aside and delete it (the rename makes it disappear at once for readers).
 * @param {string} prefix
 * @returns {Promise<void>}
 */
export async function discardPrefix(prefix) {
  const trash = `${prefix}.trash-${process.pid}-${Date.now()}`;
  try {
    await rename(prefix, trash);
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return;
    throw err;
  }
  await rm(trash, { recursive: true, force: true });
}
