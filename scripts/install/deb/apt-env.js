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
import { parseDeb822Sources, parseOneLineSources, pickDebianMirrors, renderSourcesList } from './apt-sources.js';

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
  await mkdir(join(dir, 'lists', 'partial'), { recursive: true });
  await mkdir(join(dir, 'cache', 'archives', 'partial'), { recursive: true });
  await mkdir(join(dir, 'empty.d'), { recursive: true });
  await writeIfChanged(join(dir, 'sources.list'), renderSourcesList(release, mirrors));
  await writeIfChanged(join(dir, 'status'), '');
  await writeIfChanged(join(dir, 'preferences'), '');

  const base = [
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
    ...(process.getuid?.() === 0 ? ['-o', 'APT::Sandbox::User=root'] : []),
    '-q',
  ];
  const stampFile = join(dir, 'lists', '.tagbench-updated');
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

  /**
   * Run apt-get with a private preferences file holding the pin. Without it apt satisfies
   * `mariadb-server (10.5.23) -> mariadb-server-10.5 (>= 10.5.23)` with 10.5.29 from security.
   * @param {AptPin} pin
   * @param {(prefsArgs: string[]) => Promise<import('../types.js').ToolResult>} fn
   */
  const withPin = async (pin, fn) => {
    const file = join(dir, `pin-${process.pid}-${randomBytes(4).toString('hex')}.pref`);
    await writeFile(file, `Package: ${pin.names.join(' ')}\nPin: version ${pin.version}\nPin-Priority: 1001\n`);
    try {
      return await fn(['-o', `Dir::Etc::Preferences=${file}`]);
    } finally {
      await rm(file, { force: true });
    }
  };

  return {
    release,
    dir,
    async ensureUpdated({ force = false } = {}) {
      const st = await stat(stampFile).catch(() => null);
      if (!force && st && Date.now() - st.mtimeMs < LISTS_MAX_AGE_S * 1000) return false;
      log(`apt: updating private package lists for ${release}`);
      await apt('-x', 'apt-get', [...base, 'update'], `apt-get update for the private ${release} lists`);
      await writeFile(stampFile, new Date().toISOString());
      return true;
    },
    async madison(names) {
      const res = await apt('-s', 'apt-cache', [...base, 'madison', ...names]);
      return parseMadison(res.stdout);
    },
    async packageNames(prefix) {
      const res = await apt('-s', 'apt-cache', [...base, 'pkgnames', prefix]);
      return res.stdout.split('\n').map((s) => s.trim()).filter(Boolean).sort();
    },
    async simulate(pkgs, pin) {
      const res = await withPin(pin, (prefs) => apt('-s', 'apt-get', [...base, ...prefs, '-s', '--no-install-recommends', 'install', ...pkgs], `resolving dependencies in ${release}`));
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
      await withPin(pin, (prefs) => apt('-s', 'apt-get', [...base, ...prefs, ...own, '-y', '--download-only', '--no-install-recommends', 'install', ...pkgs], `downloading packages from ${release}`));
    },
  };
}

/**
 * Parse `apt-cache madison` output.
 * @param {string} text
 * @returns {AptPackageVersion[]}
 */
export function parseMadison(text) {
  /** @type {AptPackageVersion[]} */
  const out = [];
  for (const line of text.split('\n')) {
    const parts = line.split('|').map((s) => s.trim());
    if (parts.length < 3 || !/ Packages$/.test(parts[2])) continue;
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
