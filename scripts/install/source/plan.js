/**
 * The dry run of a source build (`tagbench install <product> <version> --provider source
 * --dry-run`): every step the provider would take, with the exact commands it would run, built by
 * the same functions the build uses (build-settings.js, cmake-build.js), so what is printed is
 * what would run. Nothing is fetched, built or written.
 */
import { resolve, join } from 'node:path';
import { prefixPathFor } from '../install-cache.js';
import { productConfig } from '../products.js';
import { resolveBuildSettings, sourceCacheKey } from './build-settings.js';
import { ccacheDirOf, ccacheEnv, cmakeCommands, downloadDirOf, fetchCommands, findCompilerLauncher } from './cmake-build.js';
import { chooseDebianSource, debianSourceSteps } from './debian-source.js';

/** Stands for the private work folder the build makes with mkdtemp (its suffix is random). */
const WORK_SUFFIX = 'XXXXXX';

/**
 * @typedef {object} SourceBuildPlan
 * @property {string} product
 * @property {string} version
 * @property {string|null} line release line whose build.lines flags apply
 * @property {string} profileName
 * @property {'git'|'debian-source'} origin where the source tree comes from (`--suite`: Debian's source package)
 * @property {import('./debian-source.js').DebianSourceChoice|null} debianSource which source package, for the Debian origin
 * @property {string} gitUrl
 * @property {string} ref
 * @property {string|null} commit the commit asked for (fetched instead of the ref), null = the ref's when fetched
 * @property {string|null} tag
 * @property {string[]} profileFlags flags of the profile as configured
 * @property {string[]} lineFlags flags `build.lines.<line>` adds or replaces
 * @property {string[]} recordedFlags recorded as the build flags (placeholders kept)
 * @property {string} workDir the private work folder (suffix random at build time)
 * @property {string} downloadDir what {downloadDir} becomes
 * @property {string} prefix where the release lands in the cache
 * @property {number} jobs
 * @property {string|null} launcher compiler launcher (ccache) when the build would use one
 * @property {{step: string, argv: string[], when?: string, env?: Record<string, string>, cwd?: string}[]} steps in order
 * @property {string[]} provenance what the install records, one line each
 */

/**
 * @param {import('../../types.js').Config} config
 * @param {import('../types.js').InstallSpec} spec
 * @param {{cacheDir: string, jobs: number, launcher?: string|null}} where launcher: ccache's path or
 *   null; default: found on PATH as the build finds it
 * @returns {SourceBuildPlan}
 * @throws {UserError} what resolveBuildSettings refuses (unknown profile, bad template...)
 */
export function planSourceBuild(config, spec, where) {
  /** @type {import('../types.js').InstallProductConfig} */
  const product = productConfig(config, spec.product);
  const local = spec.path !== undefined && !/^[\w+.-]+:\/\//.test(spec.path) && !/^[^/]+@[^/]+:/.test(spec.path);
  const settings = resolveBuildSettings(product, local ? { ...spec, path: resolve(/** @type {string} */ (spec.path)) } : spec);
  const prefix = prefixPathFor(where.cacheDir, sourceCacheKey(product.name, spec.version, settings));
  const workDir = join(where.cacheDir, `.work-${product.name}-${spec.version}-${WORK_SUFFIX}`);
  const srcDir = join(workDir, 'src');
  const downloadDir = downloadDirOf(where.cacheDir);
  const launcher = where.launcher === undefined ? findCompilerLauncher() : where.launcher;
  const debian = spec.suite === undefined ? null : chooseDebianSource(product, spec.version, spec.suite);
  const git = fetchCommands(settings.gitUrl, settings.commit ?? settings.ref, srcDir);
  const fetchSteps = debian ? debianSourceSteps({ cacheDir: where.cacheDir, workDir, choice: debian }).steps : [
    ...git.fetch.map((argv) => ({ step: 'fetch', argv })),
    { step: 'fetch', argv: git.submodules, when: 'the tree has a .gitmodules' },
  ];
  const cmake = cmakeCommands(settings, { srcDir, buildDir: join(workDir, 'build'), finalPrefix: prefix, downloadDir, jobs: where.jobs, launcher });
  const ccache = launcher ? ccacheEnv(ccacheDirOf(where.cacheDir), workDir) : undefined;
  const destdir = join(workDir, 'destdir');
  return {
    product: product.name,
    version: spec.version,
    line: settings.line,
    profileName: settings.profileName,
    origin: debian ? 'debian-source' : 'git',
    debianSource: debian,
    gitUrl: settings.gitUrl,
    ref: settings.ref,
    commit: settings.commit,
    tag: settings.tag,
    profileFlags: settings.profileFlags,
    lineFlags: settings.lineFlags,
    recordedFlags: settings.cmakeFlags,
    workDir,
    downloadDir,
    prefix,
    jobs: where.jobs,
    launcher,
    steps: [
      ...fetchSteps,
      { step: 'configure', argv: cmake.configure, ...(ccache ? { env: ccache } : {}) },
      { step: 'build', argv: cmake.build, ...(ccache ? { env: ccache } : {}) },
      { step: 'install', argv: cmake.install, env: { DESTDIR: destdir } },
      { step: 'move', argv: ['mv', join(destdir, cmake.installPrefix), join(workDir, 'prefix', 'usr')] },
      { step: 'commit', argv: ['mv', join(workDir, 'prefix'), prefix], when: 'the server binary is found and checksummed; the marker is written first' },
    ],
    provenance: [
      ...originProvenance(settings, debian),
      `buildProfile ${settings.profileName}`,
      `buildFlags ${settings.cmakeFlags.join(' ')}`,
      'compiler (first line of the compiler\'s --version), cmakeVersion, ccache (its --version, or null), the configure command as run, jobs, buildDurationS',
      'server version string and sha256 of the server binary',
      `build log ${join(prefix, '.tagbench-build.log')}; on failure the log goes to ${join(where.cacheDir, '.build-logs')}/ and the install is a failed result, nothing is cached`,
    ],
  };
}

/**
 * What the build records about where its source came from, one line each.
 * @param {import('./build-settings.js').BuildSettings} settings
 * @param {import('./debian-source.js').DebianSourceChoice|null} debian the Debian origin, null for git
 * @returns {string[]}
 */
function originProvenance(settings, debian) {
  return debian
    ? [
      `origin debian-source: Debian ${debian.suite} source package of ${debian.packageName}, version ${debian.packageVersion ?? '(the highest of this upstream version)'}; `
        + 'suite, source package, version, sha256 of the .dsc, orig tarball name and sha256, upstream signature check (checked, or why not)',
    ]
    : [
      `tag ${settings.tag ?? '(none: not a release tag)'}, ref ${settings.ref}, commit ${settings.commit ?? '(the fetched commit\'s sha)'}`,
      `gitUrl ${settings.gitUrl}`,
    ];
}

/**
 * One argument as a POSIX shell would need it quoted to paste the command.
 * @param {string} arg
 * @returns {string}
 */
function shellQuote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}

/**
 * The plan as text: a header of facts, then the numbered commands.
 * @param {SourceBuildPlan} plan
 * @returns {string}
 */
export function renderSourcePlan(plan) {
  const out = [
    `${plan.product} ${plan.version}: dry run of a source build (nothing is fetched, built or written)`,
    `  line       ${plan.line ?? '(none: the version matches no line)'}`,
    `  profile    ${plan.profileName}: ${plan.profileFlags.join(' ') || '(no flags)'}`,
    `  line flags ${plan.lineFlags.join(' ') || '(none)'}`,
    plan.debianSource
      ? `  source     the orig tarball (upstream's release tarball) of Debian ${plan.debianSource.suite}'s source package of ${plan.debianSource.packageName}, `
        + `version ${plan.debianSource.packageVersion ?? '(the highest of this upstream version)'}; release tag ${plan.tag ?? plan.ref}`
      : `  source     ${plan.gitUrl} ${plan.tag ? `tag ${plan.tag}` : `ref ${plan.ref}`}${plan.commit ? ` at commit ${plan.commit}` : ''} (shallow fetch, submodules included)`,
    `  ccache     ${plan.launcher ?? '(none: ccache is not on PATH, or TAGBENCH_CCACHE=0)'}`,
    `  downloads  {downloadDir} = ${plan.downloadDir}`,
    `  jobs       ${plan.jobs}`,
    `  work dir   ${plan.workDir} (removed afterwards)`,
    `  installs   ${plan.prefix}`,
    '',
    'steps:',
  ];
  plan.steps.forEach((s, i) => {
    const env = s.env ? `${Object.entries(s.env).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ')} ` : '';
    const cwd = s.cwd ? `(cd ${shellQuote(s.cwd)}) ` : '';
    out.push(`  ${String(i + 1).padStart(2)}. [${s.step}] ${cwd}${env}${s.argv.map(shellQuote).join(' ')}${s.when ? `    # only when ${s.when}` : ''}`);
  });
  out.push('', 'records (provenance):', ...plan.provenance.map((p) => `  ${p}`));
  return `${out.join('\n')}\n`;
}
