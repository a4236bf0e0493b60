/**
 * Fetch one ref of a git repository and build it with cmake into a private folder:
 * fetch (shallow) -> configure -> build -> `cmake --install` with DESTDIR. The install prefix
 * compiled in is the final `<prefix>/usr` (the server stage runs releases with
 * `--basedir=<prefix>/usr`); DESTDIR keeps the files in the work folder until the cache moves
 * them into place, and catches rules with absolute destinations (systemd units, /etc) instead
 * of letting them write into the host.
 */
import { mkdir, readFile, readdir, rename, stat, utimes } from 'node:fs/promises';
import { accessSync, constants as fsConstants } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { UserError } from '../../errors.js';
import { runTool } from '../run-tool.js';
import { runLogged } from './run-logged.js';
import { describeProgress, excerptBuildLog, formatDuration, parseBuildProgress } from './build-log.js';
import { expandFlag } from './build-settings.js';
import { upstreamAuthEnv, UPSTREAM_TOKEN_VAR } from '../../upstream-auth.js';

/** Step time limits: generous, they only stop a hung tool (a cold MySQL build takes about 1 h on 2 cores). */
const LIMIT_MS = { fetch: 3600_000, configure: 1800_000, build: 8 * 3600_000, install: 1800_000 };
/** How often a running build reports progress (and touches its work folder, see makeWorkDir). */
const PROGRESS_EVERY_MS = 60_000;

/**
 * @typedef {object} BuildContext
 * @property {import('./build-settings.js').BuildSettings} settings
 * @property {string} workDir private folder (src/, build/, destdir/ and prefix/ go in it)
 * @property {string} logFile every tool's output is appended here
 * @property {string} label `<product> <version>` for progress lines
 * @property {(msg: string) => void} log
 */

/** English messages for the error excerpt; never wait for a password on a wrong URL. */
// Without the upstream's token: the configure and build commands (the fork's own CMake code)
// never see it.
const buildEnv = () => {
  const { [UPSTREAM_TOKEN_VAR]: _token, ...env } = process.env;
  return { ...env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' };
};

/**
 * Fetch the ref (shallow, with submodules) into `<workDir>/src`.
 * @param {BuildContext} c
 * @returns {Promise<{srcDir: string, commit: string}>} commit: full sha that was checked out
 * @throws {UserError} when git fails (unknown ref, unreachable repository), with git's message
 */
export async function fetchSource(c) {
  const { settings, workDir, label, log } = c;
  const src = join(workDir, 'src');
  // A private upstream's token (TAGBENCH_UPSTREAM_TOKEN) reaches these fetches alone, as a
  // header for the upstream's host: never the build's commands.
  const step = stepRunner({ ...c, env: { ...buildEnv(), ...upstreamAuthEnv(settings.gitUrl) } });
  const git = fetchCommands(settings.gitUrl, settings.commit ?? settings.ref, src);
  await mkdir(src, { recursive: true });
  for (const [i, argv] of git.fetch.entries()) {
    await step('fetch', argv[0], argv.slice(1), i === 2 ? `fetching ${settings.ref}${settings.commit ? ` at commit ${settings.commit}` : ''} from ${settings.gitUrl}` : undefined);
  }
  if (await stat(join(src, '.gitmodules')).then(() => true, () => false)) {
    await step('fetch', git.submodules[0], git.submodules.slice(1), 'fetching submodules');
  }
  const commit = (await runTool('git', ['-C', src, 'rev-parse', 'HEAD'])).stdout.trim();
  // The cache keys the build by the commit asked for: a tree of another commit must not land there.
  if (settings.commit && commit !== settings.commit) {
    throw new UserError(`${label}: asked to build commit ${settings.commit} of ${settings.ref}, but ${settings.gitUrl} gave ${commit}`);
  }
  log(`${label}: ${settings.ref} is commit ${commit}`);
  return { srcDir: src, commit };
}

/**
 * The git commands that fetch a ref into srcDir, as fetchSource runs them (the submodule step
 * only when the tree has a .gitmodules). Shared with the dry run so that it prints what runs.
 * @param {string} gitUrl
 * @param {string} ref ref name, or the full commit id to build
 * @param {string} srcDir
 * @returns {{fetch: string[][], submodules: string[]}}
 */
export function fetchCommands(gitUrl, ref, srcDir) {
  return {
    fetch: [
      ['git', 'init', '-q', srcDir],
      ['git', '-C', srcDir, 'remote', 'add', 'origin', gitUrl],
      ['git', '-C', srcDir, 'fetch', '--depth', '1', '--no-tags', 'origin', ref],
      ['git', '-C', srcDir, '-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', 'FETCH_HEAD'],
    ],
    submodules: ['git', '-C', srcDir, 'submodule', 'update', '--init', '--recursive', '--depth', '1'],
  };
}

/**
 * The configure, build and install commands of a build, as buildAndInstall runs them.
 * Shared with the dry run so that it prints what runs.
 * @param {{cmakeFlags: string[]}} settings
 * @param {{srcDir: string, buildDir: string, finalPrefix: string, downloadDir: string, jobs: number, launcher?: string|null}} where
 *   launcher: compiler launcher (ccache) cmake puts before every compile, none when null
 * @returns {{configure: string[], build: string[], install: string[], installPrefix: string}} argv each (cmake first)
 */
export function cmakeCommands(settings, where) {
  const installPrefix = join(where.finalPrefix, 'usr');
  const launcher = where.launcher ? [`-DCMAKE_C_COMPILER_LAUNCHER=${where.launcher}`, `-DCMAKE_CXX_COMPILER_LAUNCHER=${where.launcher}`] : [];
  return {
    configure: ['cmake', '-S', where.srcDir, '-B', where.buildDir, ...settings.cmakeFlags.map((f) => expandFlag(f, where)), ...launcher, `-DCMAKE_INSTALL_PREFIX=${installPrefix}`],
    build: ['cmake', '--build', where.buildDir, '--parallel', String(where.jobs)],
    install: ['cmake', '--install', where.buildDir],
    installPrefix,
  };
}

/**
 * The compiler launcher a build uses: ccache when it is on PATH, so that rebuilding a release
 * (another profile, a cache that was deleted) recompiles only what changed. TAGBENCH_CCACHE=0
 * turns it off (to measure a cold build). Looked up, not run: the dry run calls this too.
 * @returns {string|null} the ccache path, null when none is used
 */
export function findCompilerLauncher() {
  if (process.env.TAGBENCH_CCACHE === '0') return null;
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'ccache');
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}

/**
 * What {downloadDir} in a build flag means: a folder of the cache kept between builds, so that
 * a download cmake makes (MySQL 8.0's boost) happens once per host, not once per build.
 * @param {string} cacheDir
 * @returns {string}
 */
export function downloadDirOf(cacheDir) {
  return join(cacheDir, '.downloads');
}

/**
 * Where ccache keeps its objects for a build: $CCACHE_DIR when set, else `<cache>/.ccache`,
 * beside the install cache, so that every build of a host shares it and it is removed with it.
 * @param {string} cacheDir install cache root
 * @returns {string}
 */
export function ccacheDirOf(cacheDir) {
  return process.env.CCACHE_DIR || join(cacheDir, '.ccache');
}

/**
 * The ccache settings of a build. Every build compiles in a new work folder with a random name,
 * and ccache hashes absolute paths and, for debug info, the build folder: without these a
 * rebuild of the same release would miss on every file. CCACHE_BASEDIR makes paths under the
 * work folder relative in the hash, CCACHE_NOHASHDIR leaves the build folder out of it (the
 * debug info of a hit then names the first build's folder, which is gone anyway). A value the
 * user set in the environment wins.
 * @param {string} ccacheDir CCACHE_DIR
 * @param {string} workDir the build's work folder
 * @returns {Record<string, string>}
 */
export function ccacheEnv(ccacheDir, workDir) {
  return {
    CCACHE_DIR: ccacheDir,
    CCACHE_BASEDIR: process.env.CCACHE_BASEDIR || workDir,
    CCACHE_NOHASHDIR: process.env.CCACHE_NOHASHDIR || 'true',
  };
}

/**
 * Configure with the profile's flags, build, and install into `<workDir>/prefix/usr`.
 * @param {BuildContext & {srcDir: string, finalPrefix: string, jobs: number, downloadDir: string, launcher?: string|null, ccacheDir?: string}} c
 *   finalPrefix: where the cache will put the release; jobs: parallel compile jobs; downloadDir:
 *   what {downloadDir} in a flag becomes (created here when a flag uses it); launcher: ccache's
 *   path or null; ccacheDir: its CCACHE_DIR (with the settings of {@link ccacheEnv})
 * @returns {Promise<{prefixDir: string, compiler: string|null, outside: string[], configure: string[]}>} prefixDir: the
 *   folder holding the installed `usr/`; compiler: first line of its `--version`; outside: files
 *   the install wrote outside the prefix (dropped), relative to /; configure: the cmake command that ran
 * @throws {UserError} when a step fails, naming the step and command, with the log's first error lines and tail
 */
export async function buildAndInstall(c) {
  const { settings, workDir, srcDir, finalPrefix, jobs, label, log, downloadDir, launcher = null } = c;
  const build = join(workDir, 'build');
  const destdir = join(workDir, 'destdir');
  const env = { ...buildEnv(), ...(launcher && c.ccacheDir ? ccacheEnv(c.ccacheDir, workDir) : {}) };
  const step = stepRunner({ ...c, env });

  const commands = cmakeCommands(settings, { srcDir, buildDir: build, finalPrefix, downloadDir, jobs, launcher });
  const { installPrefix } = commands;
  if (settings.cmakeFlags.some((f) => f.includes('{downloadDir}'))) await mkdir(downloadDir, { recursive: true });
  await step('configure', 'cmake', commands.configure.slice(1),
    `configuring (profile ${settings.profileName}${settings.line ? `, line ${settings.line}` : ''}: ${settings.cmakeFlags.join(' ') || 'no flags'})`);
  const compiler = await readCompiler(build);
  if (compiler) log(`${label}: compiler ${compiler}`);
  await step('build', 'cmake', commands.build.slice(1), `building with ${jobs} job${jobs > 1 ? 's' : ''}`);
  await step('install', 'cmake', commands.install.slice(1), 'installing', { ...env, DESTDIR: destdir });

  const installed = join(destdir, installPrefix);
  if (!(await stat(installed).then((s) => s.isDirectory(), () => false))) {
    throw new UserError(`${label}: cmake --install put nothing under ${installPrefix} (CMAKE_INSTALL_PREFIX); found only: ${(await listFiles(destdir)).slice(0, 5).join(', ') || 'nothing'}`);
  }
  const prefixDir = join(workDir, 'prefix');
  await mkdir(prefixDir);
  await rename(installed, join(prefixDir, 'usr'));
  const outside = (await listFiles(destdir)).map((f) => `/${f}`);
  if (outside.length) log(`${label}: dropped ${outside.length} file(s) installed outside the prefix, e.g. ${outside.slice(0, 3).join(', ')}`);
  return { prefixDir, compiler, outside, configure: commands.configure };
}

/**
 * A function that runs one logged step, reports progress, and throws a UserError with the log
 * excerpt of that step when it fails.
 * @param {{logFile: string, label: string, log: (msg: string) => void, env: Record<string, string|undefined>, workDir: string}} c
 */
function stepRunner({ logFile, label, log, env, workDir }) {
  /**
   * @param {keyof typeof LIMIT_MS} name
   * @param {string} cmd
   * @param {string[]} args
   * @param {string} [what] progress line at the start; none when omitted
   * @param {Record<string, string|undefined>} [stepEnv]
   */
  return async (name, cmd, args, what, stepEnv = env) => {
    const started = Date.now();
    const logStart = await stat(logFile).then((s) => s.size, () => 0);
    if (what) log(`${label}: ${what}`);
    let lastReport = started;
    const onLine = (/** @type {string} */ line) => {
      const fraction = parseBuildProgress(line);
      if (fraction === null || Date.now() - lastReport < PROGRESS_EVERY_MS) return;
      lastReport = Date.now();
      log(`${label}: ${name} ${describeProgress(fraction, (lastReport - started) / 1000)}`);
      // A work folder untouched for hours looks abandoned to makeWorkDir of another install.
      utimes(workDir, new Date(), new Date()).catch(() => {});
    };
    const res = await runLogged(cmd, args, { logFile, env: stepEnv, timeoutMs: LIMIT_MS[name], onLine });
    const took = formatDuration((Date.now() - started) / 1000);
    if (res.code !== 0) {
      const text = (await readFile(logFile, 'utf8')).slice(logStart);
      const why = res.timedOut ? `stopped after the ${formatDuration(LIMIT_MS[name] / 1000)} limit` : `exit ${res.code}`;
      throw new UserError(`${label}: ${name} failed (${why}, after ${took}): ${cmd} ${args.join(' ')}\n${excerptBuildLog(text)}`);
    }
    if (what) log(`${label}: ${name} done in ${took}`);
  };
}

/**
 * The compiler cmake chose (C++, else C), as its `--version` names itself.
 * @param {string} buildDir
 * @returns {Promise<string|null>}
 */
async function readCompiler(buildDir) {
  const cache = parseCmakeCache(await readFile(join(buildDir, 'CMakeCache.txt'), 'utf8').catch(() => ''));
  const path = cache.CMAKE_CXX_COMPILER || cache.CMAKE_C_COMPILER;
  if (!path) return null;
  const res = await runTool(path, ['--version'], { timeoutMs: 30_000 }).catch(() => null);
  const first = res?.code === 0 ? res.stdout.split('\n')[0].trim() : '';
  return first || path;
}

/**
 * `NAME:TYPE=value` entries of a CMakeCache.txt.
 * @param {string} text
 * @returns {Record<string, string>}
 */
export function parseCmakeCache(text) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_][\w.-]*):[A-Z]+=(.*)$/.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

/**
 * Every file (not folder) under dir, relative to it.
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
async function listFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => !e.isDirectory()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}
