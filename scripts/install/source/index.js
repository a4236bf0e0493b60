/**
 * `source` provider: build a release from its upstream git tag (or any ref) with cmake, as the
 * bare-metal runners do, into `<cacheDir>/<product>-<version>@source-<profile>[+ref-<ref>]/usr` (install-cache.js). The build profile (cmake
 * flags) comes from the product's `build:` section; tag, commit, profile, flags and compiler
 * are recorded. A failed build leaves nothing in the cache but its log (`.build-logs/`).
 * Two origins of the source tree: the git tag (default), or with `--suite <suite>` the upstream
 * release tarball inside Debian's source package of that suite (debian-source.js), for hosts
 * that reach a Debian mirror but not upstream. Both build with the same profiles and line flags,
 * and with ccache when it is installed.
 */
import { availableParallelism } from 'node:os';
import { copyFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UserError } from '../../errors.js';
import { COMMIT_RE } from '../install-cache.js';
import { installWithCache } from '../install-with-cache.js';
import { productConfig } from '../products.js';
import { describePrefix } from '../install-result.js';
import { runTool } from '../run-tool.js';
import { REF_RE, resolveBuildSettings, sourceCacheKey } from './build-settings.js';
import { buildAndInstall, ccacheDirOf, downloadDirOf, fetchSource, findCompilerLauncher } from './cmake-build.js';
import { planSourceBuild, renderSourcePlan } from './plan.js';
import { chooseDebianSource, fetchDebianSource, SUITE_RE } from './debian-source.js';
import { formatDuration } from './build-log.js';

/** Build log kept inside a finished prefix (compiler warnings are part of a build's story). */
const BUILD_LOG = '.tagbench-build.log';
/** The build log while the build runs, in the work folder. */
const BUILD_LOG_IN_WORK = 'build.log';
const PROFILE_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** @type {import('../types.js').InstallProvider} */
export const source = {
  name: 'source',
  summary: 'build the upstream git tag (or any ref; or with --suite the upstream tarball of Debian\'s source package) with cmake, flags from the product\'s build profile',

  validateOptions(spec) {
    /** @type {string[]} */
    const problems = [];
    if (spec.suite !== undefined && !SUITE_RE.test(spec.suite)) problems.push(`--suite '${spec.suite}' is not a Debian suite name (e.g. bookworm, trixie, sid)`);
    if (spec.suite !== undefined && (spec.ref !== undefined || spec.path !== undefined || spec.gitUrl !== undefined)) {
      problems.push('--suite builds the upstream tarball of a Debian source package; --ref, --path and gitUrl are for a build from git: give one origin');
    }
    if (spec.url !== undefined || spec.sha256 !== undefined) problems.push('url and sha256 are for the tarball provider');
    if (spec.path !== undefined && spec.gitUrl !== undefined) problems.push('give the repository once: --path or gitUrl, not both');
    const repo = spec.gitUrl ?? spec.path;
    if (repo !== undefined && (repo === '' || repo.startsWith('-'))) problems.push(`repository '${repo}' (--path / gitUrl) is not a repository URL or folder`);
    if (spec.commit !== undefined && !COMMIT_RE.test(spec.commit)) problems.push(`commit '${spec.commit}' is not a full git commit id (40 or 64 lower-case hex digits, as git ls-remote prints it)`);
    if (spec.commit !== undefined && spec.suite !== undefined) problems.push('--commit is a commit of the git repository; --suite builds Debian\'s source package: give one origin');
    if (spec.ref !== undefined && !REF_RE.test(spec.ref)) problems.push(`ref '${spec.ref}' is not a git tag, branch or commit name (letters, digits, . _ / + -; not starting with -)`);
    if (spec.profile !== undefined && !PROFILE_RE.test(spec.profile)) problems.push(`profile '${spec.profile}' is not a profile name (letters, digits, _ and -)`);
    if (spec.jobs !== undefined && !(Number.isInteger(spec.jobs) && spec.jobs >= 1 && spec.jobs <= 1024)) problems.push(`jobs ${spec.jobs} must be a whole number from 1 to 1024`);
    return problems;
  },

  dryRun(spec, ctx) {
    const plan = planSourceBuild(ctx.config, spec, { cacheDir: ctx.cacheDir, jobs: spec.jobs ?? jobsFromEnv() ?? availableParallelism() });
    return { plan, text: renderSourcePlan(plan) };
  },

  async install(spec, ctx) {
    /** @type {import('../types.js').InstallProductConfig} */
    const product = productConfig(ctx.config, spec.product);
    // A folder given on the command line is relative to where the user stands, not to git's -C.
    const local = spec.path !== undefined && !/^[\w+.-]+:\/\//.test(spec.path) && !/^[^/]+@[^/]+:/.test(spec.path);
    const settings = resolveBuildSettings(product, local ? { ...spec, path: resolve(/** @type {string} */ (spec.path)) } : spec);
    const debian = spec.suite === undefined ? null : chooseDebianSource(product, spec.version, spec.suite);
    /** What the build learns on the way, recorded by a failure too. */
    const learned = { commit: /** @type {string|null} */ (null), debianSource: /** @type {DebianSourceFacts|null} */ (null) };
    return installWithCache(spec, ctx, {
      provider: 'source',
      product,
      key: sourceCacheKey(product.name, spec.version, settings),
      checkCached: (hit) => {
        checkCachedBuild(hit.result, settings, spec, hit.prefix);
        return ` (${settings.ref}, profile ${settings.profileName})`;
      },
      prepare: () => findBuildTools(spec, debian !== null),
      build: (work) => buildFromSource({ work, ctx, product, version: spec.version, settings, debian, learned }),
      describeInstalled: (elapsedS, { finalPrefix }) => `${formatDuration(elapsedS)}; build log ${join(finalPrefix, BUILD_LOG)}`,
      // From here on a failure is a fact about this ref on this host (it does not compile, the
      // tag is missing upstream, the server does not run): record it, keep the log, go on.
      describeFailure: async (err, work) => {
        const kept = await keepFailedLog(ctx.cacheDir, work.label, join(work.workDir, BUILD_LOG_IN_WORK));
        return {
          summary: ` after ${formatDuration(work.elapsedS())}: ${err.message.split('\n')[0]}`,
          reason: `${err.message}${kept ? `\n  full log: ${kept}` : ''}`,
          provenance: {
            tag: settings.tag, commit: learned.commit, buildProfile: settings.profileName, buildFlags: settings.cmakeFlags,
            build: /** @type {SourceOriginFacts} */ (/** @type {unknown} */ ({ origin: debian ? 'debian-source' : 'git', ref: settings.ref, debianSource: learned.debianSource, ccache: work.prepared.ccache })),
          },
        };
      },
    });
  },
};

/** @typedef {import('../types.js').DebianSourceFacts} DebianSourceFacts */

/**
 * @typedef {object} BuildTools what a source build needs before it starts, found once
 * @property {number} jobs parallel compile jobs
 * @property {string} cmakeVersion first line of `cmake --version`
 * @property {string|null} launcher ccache's path when the build uses it
 * @property {string|null} ccache first line of its `--version`
 */

/**
 * Check the tools a build needs are there, before a work folder is made.
 * @param {import('../types.js').InstallSpec} spec
 * @param {boolean} fromDebian the Debian origin needs no git
 * @returns {Promise<BuildTools>}
 * @throws {UserError} a tool is missing, or $TAGBENCH_BUILD_JOBS is not a number
 */
async function findBuildTools(spec, fromDebian) {
  const jobs = spec.jobs ?? jobsFromEnv() ?? availableParallelism();
  const cmakeVersion = await toolVersion('cmake');
  if (!fromDebian) await toolVersion('git');
  const launcher = findCompilerLauncher();
  const ccache = launcher ? await toolVersion(launcher) : null;
  return { jobs, cmakeVersion, launcher, ccache };
}

/**
 * Fetch, configure, build and install a release in the work folder, and describe it.
 * @param {object} a
 * @param {import('../install-with-cache.js').WorkFolder<BuildTools>} a.work
 * @param {import('../types.js').InstallContext} a.ctx
 * @param {import('../types.js').InstallProductConfig} a.product
 * @param {string} a.version
 * @param {import('./build-settings.js').BuildSettings} a.settings
 * @param {import('./debian-source.js').DebianSourceChoice|null} a.debian the Debian origin, null for git
 * @param {{commit: string|null, debianSource: DebianSourceFacts|null}} a.learned filled in as the build learns them
 * @returns {Promise<{builtDir: string, result: import('../../types.js').InstallResult}>}
 * @throws {UserError} the fetch, the build or the check of the built server fails
 */
async function buildFromSource({ work, ctx, product, version, settings, debian, learned }) {
  const { workDir, finalPrefix, label, log, prepared: tools } = work;
  const logFile = join(workDir, BUILD_LOG_IN_WORK);
  const from = debian ? `the upstream tarball of Debian ${debian.suite}'s source package` : `${settings.ref} from ${settings.gitUrl}`;
  log(`${label}: building ${from}${tools.ccache ? `, with ${tools.ccache}` : ', without ccache'} (a full server build takes one to three hours on 2 cores)`);
  let srcDir;
  if (debian) {
    // etcApt: where the machine's apt sources are read; only tests set it on the context (a local signed archive).
    const { etcApt } = /** @type {{etcApt?: string}} */ (ctx);
    ({ srcDir, facts: learned.debianSource } = await fetchDebianSource({ cacheDir: ctx.cacheDir, workDir, choice: debian, version, logFile, label, log, etcApt }));
  } else {
    ({ srcDir, commit: learned.commit } = await fetchSource({ settings, workDir, logFile, label, log }));
  }
  const ccacheDir = ccacheDirOf(ctx.cacheDir);
  const built = await buildAndInstall({ settings, workDir, logFile, label, log, srcDir, finalPrefix, jobs: tools.jobs, downloadDir: downloadDirOf(ctx.cacheDir), launcher: tools.launcher, ccacheDir });
  /** @type {SourceOriginFacts} */
  const build = {
    origin: debian ? 'debian-source' : 'git',
    gitUrl: debian ? null : settings.gitUrl,
    ref: settings.ref,
    debianSource: learned.debianSource,
    compiler: built.compiler,
    cmakeVersion: tools.cmakeVersion,
    ccache: tools.ccache,
    ccacheDir: tools.launcher ? ccacheDir : null,
    configure: built.configure,
    jobs: tools.jobs,
    buildDurationS: Math.round(work.elapsedS()),
  };
  const result = await describePrefix({
    builtDir: built.prefixDir,
    finalPrefix,
    product,
    version,
    provider: 'source',
    origin: `the build of ${learned.debianSource ? learned.debianSource.origTarball : settings.ref}`,
    provenance: { tag: settings.tag, commit: learned.commit, buildProfile: settings.profileName, buildFlags: settings.cmakeFlags, build },
    log,
  });
  await copyFile(logFile, join(built.prefixDir, BUILD_LOG));
  return { builtDir: built.prefixDir, result };
}

/** @typedef {import('../types.js').SourceBuildFacts} SourceOriginFacts what a source build records under `provenance.build` */

/**
 * A cached prefix is reused only when it is this build: same provider, profile, flags and ref.
 * @param {import('../../types.js').InstallResult} cached
 * @param {import('./build-settings.js').BuildSettings} settings
 * @param {import('../types.js').InstallSpec} spec
 * @param {string} prefix
 * @throws {UserError} naming what differs and what to do
 */
function checkCachedBuild(cached, settings, spec, prefix) {
  const what = `${spec.product} ${spec.version} is already installed in ${prefix}`;
  const fix = 'delete that folder (or use another --cache-dir) to build it again';
  if (cached.provider !== 'source') throw new UserError(`${what} by the ${cached.provider} provider, not built from source; ${fix}`);
  const p = /** @type {import('../types.js').InstallProvenance} */ (cached.provenance);
  const asked = `profile ${settings.profileName} (${settings.cmakeFlags.join(' ')})`;
  const have = `profile ${p.buildProfile} (${(p.buildFlags ?? []).join(' ')})`;
  if (asked !== have) throw new UserError(`${what}, built with ${have}, not ${asked}; ${fix}`);
  const ref = p.build?.ref ?? p.tag;
  if (ref && ref !== settings.ref) throw new UserError(`${what}, built from ${ref}, not ${settings.ref}; ${fix}`);
}

/**
 * @returns {number|null} $TAGBENCH_BUILD_JOBS when set
 * @throws {UserError} when it is set to something else than a positive whole number
 */
function jobsFromEnv() {
  const v = process.env.TAGBENCH_BUILD_JOBS;
  if (v === undefined || v === '') return null;
  if (!/^[1-9]\d{0,3}$/.test(v)) throw new UserError(`TAGBENCH_BUILD_JOBS is '${v}'; expected a whole number of parallel compile jobs, e.g. 2`);
  return Number(v);
}

/**
 * First line of `<tool> --version`.
 * @param {string} tool
 * @returns {Promise<string>}
 * @throws {UserError} when the tool is missing
 */
async function toolVersion(tool) {
  const res = await runTool(tool, ['--version'], { timeoutMs: 30_000 });
  if (res.code !== 0) throw new UserError(`'${tool} --version' failed (exit ${res.code}); the source provider needs git, cmake and a C/C++ compiler (setup/install.sh), and a real server build its libraries (setup/source-build.sh)`);
  return res.stdout.split('\n')[0].trim();
}

/**
 * Copy a failed build's log out of the work folder (which is removed) into `<cacheDir>/.build-logs/`.
 * @param {string} cacheDir
 * @param {string} label
 * @param {string} logFile
 * @returns {Promise<string|null>} where it was kept, null when there was no log yet
 */
async function keepFailedLog(cacheDir, label, logFile) {
  const dir = join(cacheDir, '.build-logs');
  const dest = join(dir, `${label.replace(/ /g, '-')}-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
  try {
    await mkdir(dir, { recursive: true });
    await copyFile(logFile, dest);
    return dest;
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return null;
    throw err;
  }
}
