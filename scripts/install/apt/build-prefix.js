/**
 * Build one release's prefix in a work folder: download apt's closure, extract the release's
 * own packages, and add the library packages its ELF files need (lib-closure.js); then make it
 * run from its final path (make-runnable.js), with the host's glibc or the suite's own.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { UserError } from '../../errors.js';
import { runTool, runToolChecked } from '../run-tool.js';
import { sha256File } from '../provenance.js';
import { OPTIONAL_ROLES, debFilePrefix, parseDebListing, sharedObjectsOf } from './deb-packages.js';
import { computeLibClosure, parseLdconfig } from './lib-closure.js';
import { eachLimited, isElf, listElfFiles, readNeeded } from './elf.js';
import { makeRunnable } from './make-runnable.js';

/**
 * @param {object} input
 * @param {import('./apt-env.js').AptEnv} input.apt
 * @param {import('./resolve-release.js').ResolvedRelease} input.resolved
 * @param {string} input.workDir private work folder (debs/ and prefix/ go there)
 * @param {string} input.finalPrefix where the prefix will live after the move
 * @param {(msg: string) => void} input.log
 * @returns {Promise<import('./make-runnable.js').BuiltPrefix>}
 * @throws {UserError} when a download, an extraction or a patch fails, or a binary misses a library
 */
export async function buildPrefix({ apt, resolved: requested, workDir, finalPrefix, log }) {
  const dir = join(workDir, 'prefix');
  await mkdir(dir, { recursive: true });

  log(`download: ${requested.closure.length} packages of apt's closure from ${apt.release}`);
  const debs = await downloadDebs(apt, requested, join(workDir, 'debs'), log);
  const { resolved } = debs;
  const own = resolved.closure.filter((p) => p.version === resolved.packageVersion);
  const others = resolved.closure.filter((p) => p.version !== resolved.packageVersion);
  log(`extract: ${own.map((p) => p.name).join(', ')}`);
  const extracted = await extractOwnPackages(debs, own, dir);

  const ownElf = await listElfFiles(dir);
  /** @type {Record<string, string[]>} */
  const rootNeeded = {};
  await eachLimited(ownElf, 4, async (f) => { rootNeeded[relative(dir, f)] = await readNeeded(f); });
  /** @type {Record<string, CandidateDeb>} */
  const cand = {};
  await eachLimited(others, 4, async (p) => { const deb = debs.pathOf(p); cand[p.name] = { version: p.version, deb, listing: await debs.listingOf(deb) }; });

  const mode = (await suiteGlibcIsNewer(resolved.closure)) ? 'private-glibc' : 'host-glibc';
  const hostSonames = mode === 'host-glibc' ? parseLdconfig((await runTool('ldconfig', ['-p'])).stdout) : new Set();
  log(`libraries: ${mode === 'private-glibc' ? `${apt.release}'s glibc is newer than the host's: private glibc + patchelf` : 'host glibc; only libraries the host lacks'}`);
  const libDirs = await addLibraries({ release: apt.release, dir, cand, rootNeeded, extracted, mode, hostSonames: (so) => hostSonames.has(so), log });

  await rm(debs.dir, { recursive: true, force: true });
  return makeRunnable({ dir, finalPrefix, libDirs, packages: extracted.packages }, { mode, release: apt.release, libc: cand.libc6, ownElf, log });
}

/**
 * @typedef {object} CandidateDeb a downloaded package of apt's closure that is not the release's own
 * @property {string} version
 * @property {string} deb the .deb file
 * @property {ReturnType<typeof parseDebListing>} listing its files
 */

/**
 * @typedef {object} DownloadedDebs the .deb files of a release's closure
 * @property {string} dir where they are
 * @property {import('./resolve-release.js').ResolvedRelease} resolved the release as downloaded
 *   (without an optional package the archive lacks)
 * @property {(p: {name: string, version: string}) => string} pathOf the .deb of a package
 * @property {(deb: string) => Promise<ReturnType<typeof parseDebListing>>} listingOf the files of a .deb
 */

/**
 * Download apt's closure of the release into debsDir.
 * @param {import('./apt-env.js').AptEnv} apt
 * @param {import('./resolve-release.js').ResolvedRelease} resolved
 * @param {string} debsDir
 * @param {(msg: string) => void} log
 * @returns {Promise<DownloadedDebs>}
 * @throws {UserError} when the download fails, or a package is not among the files apt downloaded
 */
async function downloadDebs(apt, resolved, debsDir, log) {
  const downloaded = await downloadClosure(apt, resolved, debsDir, log);
  const debFiles = await readdir(debsDir);
  return {
    dir: debsDir,
    resolved: downloaded,
    pathOf: (p) => {
      const f = debFiles.find((x) => x.startsWith(debFilePrefix(p.name, p.version)) && x.endsWith('.deb'));
      if (!f) throw new UserError(`apt did not download ${p.name} ${p.version} into ${debsDir}`);
      return join(debsDir, f);
    },
    listingOf: async (deb) => parseDebListing((await runToolChecked('dpkg-deb', ['-c', deb], { what: 'listing a package' })).stdout),
  };
}

/**
 * @typedef {object} ExtractedPackages what the prefix holds so far
 * @property {{name: string, version: string, sha256: string}[]} packages extracted, in order
 * @property {Set<string>} ownSonames sonames the release's own packages provide
 * @property {Record<string, string>} ownSoPaths soname -> path in the prefix, for those
 */

/**
 * Extract the release's own packages into the prefix.
 * @param {DownloadedDebs} debs
 * @param {{name: string, version: string}[]} own the packages at the release's version
 * @param {string} dir the prefix
 * @returns {Promise<ExtractedPackages>}
 * @throws {UserError} when dpkg-deb fails
 */
async function extractOwnPackages(debs, own, dir) {
  /** @type {ExtractedPackages} */
  const out = { packages: [], ownSonames: new Set(), ownSoPaths: {} };
  for (const p of own) {
    const deb = debs.pathOf(p);
    await runToolChecked('dpkg-deb', ['-x', deb, dir], { what: `extracting ${p.name}` });
    out.packages.push({ name: p.name, version: p.version, sha256: await sha256File(deb) });
    for (const [so, path] of Object.entries(sharedObjectsOf(await debs.listingOf(deb)))) { out.ownSonames.add(so); out.ownSoPaths[so] = path; }
  }
  return out;
}

/**
 * Extract the library packages the release's ELF files load (lib-closure.js) into the prefix.
 * @param {object} a
 * @param {string} a.release Debian release, for messages
 * @param {string} a.dir the prefix
 * @param {Record<string, CandidateDeb>} a.cand packages of apt's closure that are not the release's own
 * @param {Record<string, string[]>} a.rootNeeded prefix-relative ELF file -> sonames, of the release's own files
 * @param {ExtractedPackages} a.extracted the release's own packages; the chosen ones are added to its packages
 * @param {'host-glibc'|'private-glibc'} a.mode
 * @param {(soname: string) => boolean} a.hostSonames whether the host provides it
 * @param {(msg: string) => void} a.log
 * @returns {Promise<string[]>} folders holding a library something loads, relative to the prefix, sorted
 * @throws {UserError} when a binary in usr/bin or usr/sbin needs a library nobody provides
 */
async function addLibraries({ release, dir, cand, rootNeeded, extracted, mode, hostSonames, log }) {
  const candidates = Object.entries(cand).map(([name, c]) => ({ name, provides: sharedObjectsOf(c.listing) }));
  const closure = await computeLibClosure({
    rootNeeded,
    ownSonames: extracted.ownSonames,
    candidates,
    hostHas: hostSonames,
    always: mode === 'private-glibc' ? ['libc6'] : [],
    neededOf: async (name) => {
      const c = cand[name];
      await runToolChecked('dpkg-deb', ['-x', c.deb, dir], { what: `extracting ${name}` });
      extracted.packages.push({ name, version: c.version, sha256: await sha256File(c.deb) });
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
  for (const u of closure.unresolved.filter((x) => !fatal.includes(x))) log(`warning: ${u.neededBy} needs ${u.soname}, which neither the host nor ${release} provides`);
  if (fatal.length) {
    throw new UserError(`missing libraries for ${release} binaries: ${fatal.map((u) => `${u.neededBy} needs ${u.soname}`).join('; ')}`);
  }
  const libDirs = new Set();
  for (const name of closure.packages) for (const p of Object.values(candidates.find((c) => c.name === name)?.provides ?? {})) libDirs.add(dirname(p));
  const ownNeededDirs = closure.ownUsed.filter((so) => mode === 'private-glibc' || !hostSonames(so)).map((so) => dirname(extracted.ownSoPaths[so]));
  for (const d of ownNeededDirs) libDirs.add(d);
  return [...libDirs].sort();
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
