/**
 * A private apt configuration for one Debian release, kept under `<cacheDir>/.apt/<release>/`:
 * its own sources list (the machine's mirror, another suite), lists, package cache and an empty
 * dpkg status. It never touches the machine's apt state, needs no `apt-get update` of the system
 * and lets bullseye, bookworm, trixie and sid packages sit side by side.
 */
import { mkdir, readFile, readdir, stat, writeFile, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { replaceFileAtomic } from '../../store/index.js';
import { runToolChecked, runTool } from '../run-tool.js';
import { parseDeb822Sources, parseOneLineSources, pickDebianMirrors, renderSourcePackagesList, renderSourcesList } from './apt-sources.js';

/** Lists older than this are refreshed before resolving a version (a day: suites move slowly). */
const LISTS_MAX_AGE_S = 24 * 3600;

/**
 * @typedef {object} AptPackageVersion
 * @property {string} name binary package name
 * @property {string} version exact Debian version
 * @property {string} suite archive suite it comes from (`bullseye-security`)
 */

/**
 * @typedef {object} AptEnv
 * @property {string} release
 * @property {string} dir
 * @property {(options?: {force?: boolean}) => Promise<boolean>} ensureUpdated refresh lists when missing or stale; true when it ran `apt-get update`
 * @property {(names: string[]) => Promise<AptPackageVersion[]>} madison every version of these packages the release offers
 * @property {(prefix: string) => Promise<string[]>} packageNames names of the release's packages starting with prefix
 * @property {(pkgs: string[], pin: AptPin) => Promise<{name: string, version: string}[]>} simulate dependency closure of `name=version` requests, from an empty system
 * @property {(pkgs: string[], pin: AptPin, destDir: string) => Promise<void>} download fetch the closure's .deb files into destDir
 */

/**
 * @typedef {object} AptPin prefer one version for these packages when apt picks dependencies
 * @property {string} version exact Debian version
 * @property {string[]} names binary package names (virtual names are harmless)
 */

/**
 * Read the Debian mirrors this machine uses (deb822 `.sources` first, then one-line lists).
 * @param {string} [etcApt] folder holding sources.list and sources.list.d (default /etc/apt)
 * @returns {Promise<import('./apt-sources.js').DebianMirrors>}
 * @throws {UserError} when no Debian archive is configured
 */
export async function readMachineMirrors(etcApt = '/etc/apt') {
  const partsDir = join(etcApt, 'sources.list.d');
  const parts = (await readdir(partsDir).catch(() => [])).sort();
  /** @type {import('./apt-sources.js').AptSourceEntry[]} */
  const entries = [];
  for (const f of parts) {
    if (f.endsWith('.sources')) entries.push(...parseDeb822Sources(await readFile(join(partsDir, f), 'utf8')));
    else if (f.endsWith('.list')) entries.push(...parseOneLineSources(await readFile(join(partsDir, f), 'utf8')));
  }
  const main = await readFile(join(etcApt, 'sources.list'), 'utf8').catch(() => '');
  entries.push(...parseOneLineSources(main));
  const mirrors = pickDebianMirrors(entries);
  if (!mirrors) {
    throw new UserError(`no Debian archive found in ${join(etcApt, 'sources.list')} or ${partsDir}/*.sources: the deb provider uses this machine's own Debian mirror; configure apt for Debian first`);
  }
  return mirrors;
}

/**
 * The folders and files of a private apt configuration (binary or source lists): its own
 * lists, archives, an empty dpkg status and preferences, and the given sources.list.
 * @param {string} dir
 * @param {string} sourcesList
 */
async function prepareAptDir(dir, sourcesList) {
  await mkdir(join(dir, 'lists', 'partial'), { recursive: true });
  await mkdir(join(dir, 'cache', 'archives', 'partial'), { recursive: true });
  await mkdir(join(dir, 'empty.d'), { recursive: true });
  await writeIfChanged(join(dir, 'sources.list'), sourcesList);
  await writeIfChanged(join(dir, 'status'), '');
  await writeIfChanged(join(dir, 'preferences'), '');
}

/**
 * Open (creating when needed) the private apt configuration of one Debian release.
 * @param {string} cacheDir install cache root; the apt state goes in `<cacheDir>/.apt/<release>`
 * @param {string} release `bullseye`, `bookworm`, `trixie`, `sid`, ...
 * @param {(msg: string) => void} log
 * @returns {Promise<AptEnv>}
 * @throws {UserError} when the machine has no Debian mirror configured
 */
export async function openAptEnv(cacheDir, release, log) {
  const dir = join(cacheDir, '.apt', release);
  const mirrors = await readMachineMirrors();
  await prepareAptDir(dir, renderSourcesList(release, mirrors));

  const base = privateAptOptions(dir);
  const lockFile = join(dir, 'lists.lock');
  // Several installs (tests of several stages, parallel CI jobs) share one cache: `apt-get
  // update` rewrites the lists, so it takes the lock exclusively and readers share it. The
  // flock(1) tool (util-linux, on every Debian) does the waiting for us.
  /**
   * @param {'-s'|'-x'} mode shared (read the lists) or exclusive (rewrite them)
   * @param {string} tool apt-get / apt-cache
   * @param {string[]} args
   * @param {string} [what] when set, a failure throws a UserError naming this step
   */
  const apt = (mode, tool, args, what) => (what
    ? runToolChecked('flock', [mode, lockFile, tool, ...args], { what })
    : runTool('flock', [mode, lockFile, tool, ...args]));

  return {
    release,
    dir,
    ensureUpdated: ({ force = false } = {}) => refreshLists(dir, force, async () => {
      log(`apt: updating private package lists for ${release}`);
      await apt('-x', 'apt-get', [...base, 'update'], `apt-get update for the private ${release} lists`);
    }),
    async madison(names) {
      const res = await apt('-s', 'apt-cache', [...base, 'madison', ...names]);
      return parseMadison(res.stdout);
    },
    async packageNames(prefix) {
      const res = await apt('-s', 'apt-cache', [...base, 'pkgnames', prefix]);
      return res.stdout.split('\n').map((s) => s.trim()).filter(Boolean).sort();
    },
    async simulate(pkgs, pin) {
      const res = await withPin(dir, pin, (prefs) => apt('-s', 'apt-get', [...base, ...prefs, '-s', '--no-install-recommends', 'install', ...pkgs], `resolving dependencies in ${release}`));
      return parseSimulation(res.stdout);
    },
    async download(pkgs, pin, destDir) {
      await mkdir(join(destDir, 'partial'), { recursive: true });
      // `install --download-only` takes dpkg's frontend lock beside the status file: give each
      // download its own empty status folder so parallel installs of one release do not collide.
      const stateDir = `${destDir}.state`;
      await mkdir(stateDir, { recursive: true });
      await writeFile(join(stateDir, 'status'), '');
      const own = ['-o', `Dir::State::status=${join(stateDir, 'status')}`, '-o', `Dir::Cache::archives=${destDir}`];
      await withPin(dir, pin, (prefs) => apt('-s', 'apt-get', [...base, ...prefs, ...own, '-y', '--download-only', '--no-install-recommends', 'install', ...pkgs], `downloading packages from ${release}`));
    },
  };
}

/**
 * Refresh a private configuration's lists when they are missing or older than a day (or when
 * forced); a stamp file of our own records when they were last refreshed.
 * @param {string} dir the private folder
 * @param {boolean} force refresh whatever their age
 * @param {() => Promise<void>} update runs `apt-get update` for that folder
 * @returns {Promise<boolean>} true when it ran the update
 * @throws {UserError} from update
 */
async function refreshLists(dir, force, update) {
  const stampFile = join(dir, 'lists', '.tagbench-updated');
  const st = await stat(stampFile).catch(() => null);
  if (!force && st && Date.now() - st.mtimeMs < LISTS_MAX_AGE_S * 1000) return false;
  await update();
  await writeFile(stampFile, new Date().toISOString());
  return true;
}

/**
 * Run apt-get with a private preferences file holding the pin. Without it apt satisfies
 * `mariadb-server (10.5.23) -> mariadb-server-10.5 (>= 10.5.23)` with 10.5.29 from security.
 * @param {string} dir the private folder (the preferences file goes there, one per call)
 * @param {AptPin} pin
 * @param {(prefsArgs: string[]) => Promise<import('../types.js').ToolResult>} fn runs apt-get with these extra arguments
 * @returns {Promise<import('../types.js').ToolResult>} what fn returned
 */
async function withPin(dir, pin, fn) {
  const file = join(dir, `pin-${process.pid}-${randomBytes(4).toString('hex')}.pref`);
  await writeFile(file, `Package: ${pin.names.join(' ')}\nPin: version ${pin.version}\nPin-Priority: 1001\n`);
  try {
    return await fn(['-o', `Dir::Etc::Preferences=${file}`]);
  } finally {
    await rm(file, { force: true });
  }
}

/**
 * The apt options that point apt-get / apt-cache at one private configuration folder instead of
 * the machine's own state.
 * @param {string} dir the private folder (`<cacheDir>/.apt/<release>`, `<cacheDir>/.apt-src/<release>`)
 * @param {boolean} [asRoot] whether apt runs as root (default: this process's uid is 0)
 * @returns {string[]}
 */
export function privateAptOptions(dir, asRoot = process.getuid?.() === 0) {
  return [
    '-o', `Dir::Etc::SourceList=${join(dir, 'sources.list')}`,
    '-o', `Dir::Etc::SourceParts=${join(dir, 'empty.d')}`,
    '-o', `Dir::Etc::Preferences=${join(dir, 'preferences')}`,
    '-o', `Dir::Etc::PreferencesParts=${join(dir, 'empty.d')}`,
    '-o', `Dir::State::Lists=${join(dir, 'lists')}`,
    // An empty dpkg status makes apt compute the full closure, independent of what this
    // machine has installed; we choose what to keep from it later (see lib-closure.js).
    '-o', `Dir::State::status=${join(dir, 'status')}`,
    '-o', `Dir::State::extended_states=${join(dir, 'extended_states')}`,
    '-o', `Dir::Cache=${join(dir, 'cache')}`,
    '-o', 'Acquire::Languages=none',
    '-o', 'Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false',
    '-o', 'Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled=false',
    '-o', 'Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled=false',
    '-o', 'Acquire::IndexTargets::deb::CNF::DefaultEnabled=false',
    // apt drops privileges to _apt for downloads, and _apt cannot write into a root-owned
    // private folder: download as the current user instead.
    ...(asRoot ? ['-o', 'APT::Sandbox::User=root'] : []),
    '-q',
  ];
}

/**
 * The private folder of one release's source-package lists. Apart from `.apt/<release>` (the
 * binary lists) so that binary installs never fetch the Sources indexes.
 * @param {string} cacheDir
 * @param {string} release
 * @returns {string}
 */
export function sourceAptDir(cacheDir, release) {
  return join(cacheDir, '.apt-src', release);
}

/**
 * The commands that refresh a release's private source lists and download one source package
 * (`.dsc`, orig tarball and its `.asc`, Debian tarball) into the current folder, as
 * {@link openAptSourceEnv} and the source provider run them; the dry run prints these.
 * apt verifies the chain itself: Release signature (the archive keyring) -> Sources hash ->
 * .dsc -> every file the .dsc lists. `--download-only` leaves the files packed.
 * @param {string} cacheDir
 * @param {string} release
 * @param {string} packageArg `<name>=<Debian version>` (a binary name is mapped to its source by apt)
 * @returns {{update: string[], download: string[]}} argv each
 */
export function sourceAptCommands(cacheDir, release, packageArg) {
  const dir = sourceAptDir(cacheDir, release);
  const base = privateAptOptions(dir);
  const lockFile = join(dir, 'lists.lock');
  return {
    update: ['flock', '-x', lockFile, 'apt-get', ...base, 'update'],
    download: ['flock', '-s', lockFile, 'apt-get', ...base, 'source', '--download-only', packageArg],
  };
}

/**
 * @typedef {object} AptSourceEnv a release's private source-package lists
 * @property {string} release
 * @property {string} dir
 * @property {(options?: {force?: boolean}) => Promise<boolean>} ensureUpdated refresh lists when missing or stale; true when it ran `apt-get update`
 * @property {(names: string[]) => Promise<AptPackageVersion[]>} sourceVersions source packages
 *   (with versions and suites) that build these binary or source names; `name` is the source package
 */

/**
 * Open (creating when needed) the private source-package lists of one Debian release: the
 * machine's own mirrors as `deb-src` lines, never a mirror named by the project.
 * @param {string} cacheDir install cache root; the state goes in `<cacheDir>/.apt-src/<release>`
 * @param {string} release
 * @param {(msg: string) => void} log
 * @param {string} [etcApt] where the machine's apt sources are (default /etc/apt; tests give a folder of their own)
 * @returns {Promise<AptSourceEnv>}
 * @throws {UserError} when the machine has no Debian mirror configured
 */
export async function openAptSourceEnv(cacheDir, release, log, etcApt = '/etc/apt') {
  const dir = sourceAptDir(cacheDir, release);
  const mirrors = await readMachineMirrors(etcApt);
  await prepareAptDir(dir, renderSourcePackagesList(release, mirrors));
  const base = privateAptOptions(dir);
  const lockFile = join(dir, 'lists.lock');
  return {
    release,
    dir,
    ensureUpdated: ({ force = false } = {}) => refreshLists(dir, force, async () => {
      log(`apt: updating private source lists for ${release}`);
      const update = sourceAptCommands(cacheDir, release, 'unused').update;
      await runToolChecked(update[0], update.slice(1), { what: `apt-get update for the private ${release} source lists` });
    }),
    async sourceVersions(names) {
      const res = await runTool('flock', ['-s', lockFile, 'apt-cache', ...base, 'madison', ...names]);
      return parseMadison(res.stdout, 'Sources');
    },
  };
}

/**
 * Parse `apt-cache madison` output.
 * @param {string} text
 * @param {'Packages'|'Sources'} [kind] which rows to keep: binary packages (default) or source packages
 * @returns {AptPackageVersion[]}
 */
export function parseMadison(text, kind = 'Packages') {
  /** @type {AptPackageVersion[]} */
  const out = [];
  for (const line of text.split('\n')) {
    const parts = line.split('|').map((s) => s.trim());
    if (parts.length < 3 || !parts[2].endsWith(` ${kind}`)) continue;
    const suite = parts[2].split(/\s+/)[1]?.split('/')[0] ?? '';
    out.push({ name: parts[0], version: parts[1], suite });
  }
  return out;
}

/**
 * Parse the `Inst` lines of `apt-get -s install`.
 * @param {string} text
 * @returns {{name: string, version: string}[]}
 */
export function parseSimulation(text) {
  /** @type {{name: string, version: string}[]} */
  const out = [];
  for (const m of text.matchAll(/^Inst (\S+) (?:\[[^\]]*\] )?\((\S+) /gm)) out.push({ name: m[1].replace(/:[a-z0-9]+$/, ''), version: m[2] });
  return out;
}

/**
 * Replace a file of the private apt configuration only when its content changes, atomically:
 * several installs share one cache and may open the same release at once.
 * @param {string} file
 * @param {string} content
 */
async function writeIfChanged(file, content) {
  const old = await readFile(file, 'utf8').catch(() => null);
  if (old === content) return;
  await replaceFileAtomic(file, content);
}
