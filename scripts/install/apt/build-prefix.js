/**
 * Build one release's prefix in a work folder: download apt's closure, extract the release's
 * own packages, add the library packages its ELF files need, and make it run from its final
 * path. Two ways to run a foreign build, chosen from the data, not the suite's name:
 *  - the suite's glibc is not newer than the host's (bullseye, bookworm): the host's glibc runs
 *    it; libraries the host lacks (bullseye's libssl1.1) come into the prefix and LD_LIBRARY_PATH;
 *  - the suite's glibc is newer (trixie, sid): the suite's glibc and every library come into the
 *    prefix, and each ELF file gets that glibc's loader as interpreter plus an RPATH into the
 *    prefix. No LD_LIBRARY_PATH, which would leak into host programs (the bash that runs
 *    mariadb-install-db would load trixie's libc and die).
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { UserError } from '../../errors.js';
import { runTool, runToolChecked } from '../run-tool.js';
import { sha256File } from '../provenance.js';
import { OPTIONAL_ROLES, debFilePrefix, parseDebListing, sharedObjectsOf } from './deb-packages.js';
import { computeLibClosure, parseLdconfig } from './lib-closure.js';
import { isElf, listElfFiles, patchElf, readInterpreter, readNeeded } from './elf.js';

/**
 * @typedef {object} BuiltPrefix
 * @property {string} dir the built prefix (inside the work folder)
 * @property {{name: string, version: string, sha256: string}[]} packages extracted packages
 * @property {string[]} patchedElf paths relative to the prefix
 * @property {Record<string, string>} env environment for the FINAL prefix
 * @property {'host-glibc'|'private-glibc'} mode
 * @property {(bin: string, argv0: string) => {cmd: string, args: string[], env: Record<string, string>}} runInWorkDir how to run a built binary before the move, showing it argv0
 * @property {(bin: string) => Promise<string[]>} checkLibraries problems resolving a built binary's libraries
 */

/**
 * @param {object} input
 * @param {import('./apt-env.js').AptEnv} input.apt
 * @param {import('./resolve-release.js').ResolvedRelease} input.resolved
 * @param {string} input.workDir private work folder (debs/ and prefix/ go there)
 * @param {string} input.finalPrefix where the prefix will live after the move
 * @param {(msg: string) => void} input.log
 * @returns {Promise<BuiltPrefix>}
 * @throws {UserError} when a download, an extraction or a patch fails, or a binary misses a library
 */
export async function buildPrefix({ apt, resolved: requested, workDir, finalPrefix, log }) {
  let resolved = requested;
  const debsDir = join(workDir, 'debs');
  const dir = join(workDir, 'prefix');
  await mkdir(dir, { recursive: true });

  log(`download: ${resolved.closure.length} packages of apt's closure from ${apt.release}`);
  resolved = await downloadClosure(apt, resolved, debsDir, log);
  const debFiles = await readdir(debsDir);
  /** @param {{name: string, version: string}} p */
  const debOf = (p) => {
    const f = debFiles.find((x) => x.startsWith(debFilePrefix(p.name, p.version)) && x.endsWith('.deb'));
    if (!f) throw new UserError(`apt did not download ${p.name} ${p.version} into ${debsDir}`);
    return join(debsDir, f);
  };
  /** @param {string} deb */
  const listingOf = async (deb) => parseDebListing((await runToolChecked('dpkg-deb', ['-c', deb], { what: 'listing a package' })).stdout);

  const own = resolved.closure.filter((p) => p.version === resolved.packageVersion);
  const others = resolved.closure.filter((p) => p.version !== resolved.packageVersion);
  /** @type {{name: string, version: string, sha256: string}[]} */
  const packages = [];
  /** @type {Set<string>} */
  const ownSonames = new Set();
  /** @type {Record<string, string>} */
  const ownSoPaths = {};
  log(`extract: ${own.map((p) => p.name).join(', ')}`);
  for (const p of own) {
    const deb = debOf(p);
    await runToolChecked('dpkg-deb', ['-x', deb, dir], { what: `extracting ${p.name}` });
    packages.push({ name: p.name, version: p.version, sha256: await sha256File(deb) });
    for (const [so, path] of Object.entries(sharedObjectsOf(await listingOf(deb)))) { ownSonames.add(so); ownSoPaths[so] = path; }
  }

  const ownElf = await listElfFiles(dir);
  /** @type {Record<string, string[]>} */
  const rootNeeded = {};
  await eachLimited(ownElf, 4, async (f) => { rootNeeded[relative(dir, f)] = await readNeeded(f); });

  /** @type {Record<string, {version: string, deb: string, listing: ReturnType<typeof parseDebListing>}>} */
  const cand = {};
  await eachLimited(others, 4, async (p) => { const deb = debOf(p); cand[p.name] = { version: p.version, deb, listing: await listingOf(deb) }; });
  const candidates = Object.entries(cand).map(([name, c]) => ({ name, provides: sharedObjectsOf(c.listing) }));

  const mode = (await suiteGlibcIsNewer(resolved.closure)) ? 'private-glibc' : 'host-glibc';
  const hostSonames = mode === 'host-glibc' ? parseLdconfig((await runTool('ldconfig', ['-p'])).stdout) : new Set();
  log(`libraries: ${mode === 'private-glibc' ? `${apt.release}'s glibc is newer than the host's: private glibc + patchelf` : 'host glibc; only libraries the host lacks'}`);

  const closure = await computeLibClosure({
    rootNeeded,
    ownSonames,
    candidates,
    hostHas: (so) => hostSonames.has(so),
    always: mode === 'private-glibc' ? ['libc6'] : [],
    neededOf: async (name) => {
      const c = cand[name];
      await runToolChecked('dpkg-deb', ['-x', c.deb, dir], { what: `extracting ${name}` });
      packages.push({ name, version: c.version, sha256: await sha256File(c.deb) });
      /** @type {Record<string, string[]>} */
      const needed = {};
      // Only what the loader finds by soname; gconv modules and the like resolve their own
      // helpers through $ORIGIN and are not our concern.
      const libPaths = new Set(Object.values(sharedObjectsOf(c.listing)));
      for (const f of c.listing) {
        const abs = join(dir, f.path);
        if (f.type === 'file' && libPaths.has(f.path) && (await isElf(abs))) needed[f.path] = await readNeeded(abs);
      }
      return needed;
    },
  });
  if (closure.packages.length) log(`libraries: added ${closure.packages.join(', ')}`);
  const fatal = closure.unresolved.filter((u) => /^usr\/s?bin\//.test(u.neededBy));
  for (const u of closure.unresolved.filter((x) => !fatal.includes(x))) log(`warning: ${u.neededBy} needs ${u.soname}, which neither the host nor ${apt.release} provides`);
  if (fatal.length) {
    throw new UserError(`missing libraries for ${apt.release} binaries: ${fatal.map((u) => `${u.neededBy} needs ${u.soname}`).join('; ')}`);
  }

  /** Folders holding a library that something loads, relative to the prefix. */
  const libDirs = new Set();
  for (const name of closure.packages) for (const p of Object.values(candidates.find((c) => c.name === name)?.provides ?? {})) libDirs.add(dirname(p));
  const ownNeededDirs = closure.ownUsed.filter((so) => mode === 'private-glibc' || !hostSonames.has(so)).map((so) => dirname(ownSoPaths[so]));
  for (const d of ownNeededDirs) libDirs.add(d);
  const rel = [...libDirs].sort();
  const finalDirs = rel.map((d) => join(finalPrefix, d));
  const builtDirs = rel.map((d) => join(dir, d));

  await rm(debsDir, { recursive: true, force: true });

  if (mode === 'host-glibc') {
    /** @type {Record<string, string>} */
    const env = rel.length ? { LD_LIBRARY_PATH: finalDirs.join(':') } : {};
    const builtEnv = rel.length ? { LD_LIBRARY_PATH: builtDirs.join(':') } : /** @type {Record<string, string>} */ ({});
    return {
      dir, packages, patchedElf: [], env, mode,
      runInWorkDir: (bin) => ({ cmd: bin, args: [], env: builtEnv }),
      checkLibraries: async (bin) => {
        const res = await runTool('ldd', [bin], { env: { ...process.env, ...builtEnv } });
        return res.stdout.split('\n').filter((l) => /not found/.test(l)).map((l) => `${basename(bin)}: ${l.trim()}`);
      },
    };
  }

  const libc = cand.libc6;
  const serverElf = ownElf.find((f) => /usr\/sbin\/(mariadbd|mysqld)$/.test(f)) ?? ownElf[0];
  const interpName = basename((await readInterpreter(serverElf)) ?? 'ld-linux-x86-64.so.2');
  const loaderEntry = libc?.listing.find((f) => f.type === 'file' && basename(f.path) === interpName);
  if (!loaderEntry) throw new UserError(`${apt.release}'s libc6 has no ${interpName}: cannot run its binaries on this host`);
  const finalLoader = join(finalPrefix, loaderEntry.path);
  const builtLoader = join(dir, loaderEntry.path);

  /** @type {string[]} */
  const patchedElf = [];
  log(`patchelf: ${ownElf.length} ELF files -> interpreter ${loaderEntry.path}, rpath ${rel.join(':')}`);
  await eachLimited(ownElf, 2, async (f) => {
    const interp = await readInterpreter(f);
    await patchElf(f, { interpreter: interp ? finalLoader : null, rpath: finalDirs });
    patchedElf.push(relative(dir, f));
  });
  patchedElf.sort();
  const libraryPath = builtDirs.join(':');
  return {
    dir, packages, patchedElf, env: {}, mode,
    // Before the move, RPATH points at folders that do not exist yet; --library-path stands in.
    runInWorkDir: (bin, argv0) => ({ cmd: builtLoader, args: ['--library-path', libraryPath, '--argv0', argv0, bin], env: {} }),
    checkLibraries: async (bin) => {
      const res = await runTool(builtLoader, ['--list', '--library-path', libraryPath, bin]);
      /** @type {string[]} */
      const problems = [];
      if (res.code !== 0) problems.push(`${basename(bin)}: ${res.stderr.trim() || `loader exited ${res.code}`}`);
      for (const line of res.stdout.split('\n')) {
        const m = /=>\s*(\S+)/.exec(line);
        if (/not found/.test(line)) problems.push(`${basename(bin)}: ${line.trim()}`);
        else if (m && m[1].startsWith('/') && !m[1].startsWith(dir)) problems.push(`${basename(bin)}: loads the host's ${m[1]} next to ${apt.release}'s glibc`);
      }
      return problems;
    },
  };
}

/**
 * Download the closure; when only an optional package's file is missing from the archive,
 * go on without it (its absence is logged and shows in the provenance's package list).
 * @param {import('./apt-env.js').AptEnv} apt
 * @param {import('./resolve-release.js').ResolvedRelease} resolved
 * @param {string} debsDir
 * @param {(msg: string) => void} log
 * @returns {Promise<import('./resolve-release.js').ResolvedRelease>} the release as downloaded
 */
async function downloadClosure(apt, resolved, debsDir, log) {
  try {
    await apt.download(resolved.requests, resolved.pin, debsDir);
    return resolved;
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    const missing = [...OPTIONAL_ROLES].filter((name) => new RegExp(`/${name}_[^ /]*\\.deb\\s+404`).test(err.message));
    const requests = resolved.requests.filter((r) => !missing.includes(r.split('=')[0]));
    if (missing.length === 0 || requests.length === resolved.requests.length) throw err;
    log(`warning: the archive has no file for ${missing.join(', ')} ${resolved.packageVersion}; installing without it`);
    const closure = await apt.simulate(requests, resolved.pin);
    const next = { ...resolved, requests, closure, missingRoles: [...resolved.missingRoles, ...missing] };
    await apt.download(next.requests, next.pin, debsDir);
    return next;
  }
}

/**
 * Is the closure's glibc newer than this machine's? (Unknown host glibc counts as older.)
 * @param {{name: string, version: string}[]} closure
 * @returns {Promise<boolean>}
 */
async function suiteGlibcIsNewer(closure) {
  const suiteLibc = closure.find((p) => p.name === 'libc6')?.version;
  if (!suiteLibc) return false;
  const host = await runTool('dpkg-query', ['-W', '-f', '${Version}', 'libc6']).catch(() => null);
  if (!host || host.code !== 0 || !host.stdout.trim()) return true;
  return (await runTool('dpkg', ['--compare-versions', suiteLibc, 'gt', host.stdout.trim()])).code === 0;
}

/**
 * Run fn over items with at most `limit` in flight (the machine has 2 cores; patchelf and
 * dpkg-deb are short processes).
 * @template T
 * @param {T[]} items
 * @param {number} limit
 * @param {(item: T) => Promise<void>} fn
 * @returns {Promise<void>}
 */
async function eachLimited(items, limit, fn) {
  let next = 0;
  const worker = async () => { while (next < items.length) await fn(items[next++]); };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
