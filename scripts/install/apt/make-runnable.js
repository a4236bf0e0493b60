/**
 * Make a built prefix run from its final path. Two ways to run a foreign build, chosen from the
 * data, not the suite's name (build-prefix.js compares the glibc versions):
 *  - the suite's glibc is not newer than the host's (bullseye, bookworm): the host's glibc runs
 *    it; libraries the host lacks (bullseye's libssl1.1) come into the prefix and LD_LIBRARY_PATH;
 *  - the suite's glibc is newer (trixie, sid): the suite's glibc and every library come into the
 *    prefix, and each ELF file gets that glibc's loader as interpreter plus an RPATH into the
 *    prefix. No LD_LIBRARY_PATH, which would leak into host programs (the bash that runs
 *    mariadb-install-db would load trixie's libc and die).
 */
import { basename, join, relative } from 'node:path';
import { UserError } from '../../errors.js';
import { runTool } from '../run-tool.js';
import { eachLimited, patchElf, readInterpreter } from './elf.js';

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
 * How the prefix runs: set up for it (patchelf in private-glibc mode) and say how to run and
 * check its binaries before and after the move.
 * @param {PrefixFacts} built
 * @param {object} how
 * @param {'host-glibc'|'private-glibc'} how.mode
 * @param {string} how.release Debian release, for messages
 * @param {import('./build-prefix.js').CandidateDeb|undefined} how.libc the suite's libc6 package (private-glibc)
 * @param {string[]} how.ownElf the release's own ELF files (absolute, in the work folder)
 * @param {(msg: string) => void} how.log
 * @returns {Promise<BuiltPrefix>}
 * @throws {UserError} when the suite's libc6 has no loader of the name the server asks for, or patchelf fails
 */
export async function makeRunnable(built, { mode, release, libc, ownElf, log }) {
  return mode === 'host-glibc' ? runWithHostGlibc(built) : runWithPrivateGlibc(built, { release, libc, ownElf, log });
}

/**
 * @typedef {object} PrefixFacts a prefix with its packages and libraries in place
 * @property {string} dir the built prefix (inside the work folder)
 * @property {string} finalPrefix where it will live after the move
 * @property {string[]} libDirs folders holding a library something loads, relative to the prefix
 * @property {{name: string, version: string, sha256: string}[]} packages extracted packages
 */

/**
 * A prefix run by the host's glibc: the libraries the host lacks are found through LD_LIBRARY_PATH.
 * @param {PrefixFacts} built
 * @returns {BuiltPrefix}
 */
function runWithHostGlibc({ dir, finalPrefix, libDirs, packages }) {
  /** @type {Record<string, string>} */
  const env = libDirs.length ? { LD_LIBRARY_PATH: libDirs.map((d) => join(finalPrefix, d)).join(':') } : {};
  const builtEnv = libDirs.length ? { LD_LIBRARY_PATH: libDirs.map((d) => join(dir, d)).join(':') } : /** @type {Record<string, string>} */ ({});
  return {
    dir, packages, patchedElf: [], env, mode: 'host-glibc',
    runInWorkDir: (bin) => ({ cmd: bin, args: [], env: builtEnv }),
    checkLibraries: async (bin) => {
      const res = await runTool('ldd', [bin], { env: { ...process.env, ...builtEnv } });
      return res.stdout.split('\n').filter((l) => /not found/.test(l)).map((l) => `${basename(bin)}: ${l.trim()}`);
    },
  };
}

/**
 * A prefix run by its suite's own glibc: every ELF file of the release gets that glibc's loader
 * as interpreter and an RPATH into the prefix (see the file comment for why not LD_LIBRARY_PATH).
 * @param {PrefixFacts} built
 * @param {object} suite
 * @param {string} suite.release Debian release, for messages
 * @param {import('./build-prefix.js').CandidateDeb|undefined} suite.libc the suite's libc6 package
 * @param {string[]} suite.ownElf the release's own ELF files
 * @param {(msg: string) => void} suite.log
 * @returns {Promise<BuiltPrefix>}
 * @throws {UserError} when the suite's libc6 has no loader of the name the server asks for, or patchelf fails
 */
async function runWithPrivateGlibc({ dir, finalPrefix, libDirs, packages }, { release, libc, ownElf, log }) {
  const serverElf = ownElf.find((f) => /usr\/sbin\/(mariadbd|mysqld)$/.test(f)) ?? ownElf[0];
  const interpName = basename((await readInterpreter(serverElf)) ?? 'ld-linux-x86-64.so.2');
  const loaderEntry = libc?.listing.find((f) => f.type === 'file' && basename(f.path) === interpName);
  if (!loaderEntry) throw new UserError(`${release}'s libc6 has no ${interpName}: cannot run its binaries on this host`);
  const finalLoader = join(finalPrefix, loaderEntry.path);
  const builtLoader = join(dir, loaderEntry.path);

  /** @type {string[]} */
  const patchedElf = [];
  log(`patchelf: ${ownElf.length} ELF files -> interpreter ${loaderEntry.path}, rpath ${libDirs.join(':')}`);
  await eachLimited(ownElf, 2, async (f) => {
    const interp = await readInterpreter(f);
    await patchElf(f, { interpreter: interp ? finalLoader : null, rpath: libDirs.map((d) => join(finalPrefix, d)) });
    patchedElf.push(relative(dir, f));
  });
  patchedElf.sort();
  const libraryPath = libDirs.map((d) => join(dir, d)).join(':');
  return {
    dir, packages, patchedElf, env: {}, mode: 'private-glibc',
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
        else if (m && m[1].startsWith('/') && !m[1].startsWith(dir)) problems.push(`${basename(bin)}: loads the host's ${m[1]} next to ${release}'s glibc`);
      }
      return problems;
    },
  };
}
