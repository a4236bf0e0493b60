/**
 * CLI commands of the install stage: install (one release, or list what can be installed).
 * The handler imports the stage only when it runs, so `--help` stays light.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError, EXIT } from '../errors.js';
import { dryRunProviderNames, getProvider, providerNames } from './registry.js';
import { cacheDirFrom } from '../run-options.js';
import { collect } from '../command-spec.js';
import { parseRemoteOverrides } from '../upstream-remote.js';

/** Project root: configs/ and the default .tagbench/ live there. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `tagbench install`: install one release, or list what can be installed.
 * @param {{args?: string[], provider?: string, path?: string, suite?: string, ref?: string, commit?: string, remoteOverride?: string[], profile?: string, jobs?: string|number, url?: string, sha256?: string, cacheDir?: string, list?: boolean, json?: boolean, dryRun?: boolean, root?: string}} options
 * @returns {Promise<number>} 0 installed or cached (or the dry run printed), 1 failed
 * @throws {UserError} for bad arguments, unknown product / version / provider
 */
export async function installCommand(options) {
  const [product, version] = options.args ?? [];
  const { loadConfig } = await import('../config/index.js');
  const { installRelease } = await import('./index.js');
  const config = await loadConfig(options.root ?? ROOT);
  const cacheDir = resolve(cacheDirFrom(options.cacheDir));
  if (options.list) {
    if (!product) throw new UserError('install --list needs a product, e.g. `tagbench install --list mariadb`');
    const { listAvailable, listSuiteVersions } = await import('./products.js');
    const { lookupInstall, makeCacheKey } = await import('./install-cache.js');
    const log = (/** @type {string} */ msg) => process.stderr.write(`[install] ${msg}\n`);
    const available = options.suite ? await listSuiteVersions(config, product, options.suite, cacheDir, log) : listAvailable(config, product);
    const rows = await Promise.all(available.map(async (r) => {
      try {
        return { ...r, cached: Boolean(await lookupInstall(cacheDir, makeCacheKey({ product: r.product, version: r.version, provider: r.provider }))), cacheProblem: null };
      } catch (err) {
        // A damaged install is a fact to list, not a reason to hide the other rows.
        if (!(err instanceof UserError)) throw err;
        return { ...r, cached: false, cacheProblem: err.message };
      }
    }));
    if (options.json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else process.stdout.write(renderList(rows));
    return EXIT.ok;
  }
  if (!product || !version) throw new UserError('install needs <product> <version>, e.g. `tagbench install mariadb 10.11.18` (or --list <product>)');
  // A mirror named for this product is where a source build fetches from (watch read the tag
  // there); an explicit --path wins, and other providers have nothing to fetch.
  const mirror = (options.provider ?? 'deb') === 'source' && options.path === undefined ? parseRemoteOverrides(options.remoteOverride ?? [])[product] : undefined;
  if (mirror !== undefined) options = { ...options, path: mirror };
  if (options.dryRun) return printDryRun(config, cacheDir, { ...options, product, version });
  const started = Date.now();
  const result = await installRelease(
    {
      product, version, provider: options.provider ?? 'deb', path: options.path, suite: options.suite,
      ref: options.ref, commit: options.commit, profile: options.profile, jobs: options.jobs === undefined ? undefined : Number(options.jobs),
      url: options.url, sha256: options.sha256,
    },
    { config, cacheDir, log: (msg) => process.stderr.write(`[install ${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}\n`) },
  );
  process.stdout.write(options.json ? `${JSON.stringify(result, null, 2)}\n` : renderResult(result));
  return result.status === 'failed' ? EXIT.userError : EXIT.ok;
}

/**
 * `install --dry-run`: print the steps of a build without taking them (the providers that have
 * a dry run: registry.js).
 * @param {import('../types.js').Config} config
 * @param {string} cacheDir
 * @param {{product: string, version: string, provider?: string, path?: string, suite?: string, ref?: string, commit?: string, profile?: string, jobs?: string|number, url?: string, sha256?: string, json?: boolean}} options
 * @returns {Promise<number>} 0
 * @throws {UserError} a provider without a dry run, or what the provider refuses
 */
async function printDryRun(config, cacheDir, options) {
  const name = options.provider ?? 'deb';
  const planners = dryRunProviderNames();
  const provider = planners.includes(name) ? getProvider(name) : null;
  if (!provider?.dryRun) {
    throw new UserError(`--dry-run prints the steps of a ${planners.join(' or ')} build; use it with --provider ${planners.join(' or --provider ')} (got --provider ${name})`);
  }
  /** @type {import('./types.js').InstallSpec} */
  const spec = {
    product: options.product, version: options.version, provider: name, path: options.path, suite: options.suite, ref: options.ref, commit: options.commit,
    profile: options.profile, jobs: options.jobs === undefined ? undefined : Number(options.jobs), url: options.url, sha256: options.sha256,
  };
  const problems = provider.validateOptions(spec);
  if (problems.length) throw new UserError(`install ${options.product} ${options.version} --provider ${name}: ${problems.join('; ')}`);
  const { plan, text } = provider.dryRun(spec, { config, cacheDir });
  process.stdout.write(options.json ? `${JSON.stringify(plan, null, 2)}\n` : text);
  return EXIT.ok;
}

/**
 * @param {(import('./types.js').AvailableVersion & {cached: boolean, cacheProblem: string|null})[]} rows
 * @returns {string}
 */
function renderList(rows) {
  if (rows.length === 0) return 'no versions found (configured versions are under deb: in the product file; --suite asks Debian)\n';
  const lines = rows.map((r) => [r.product, r.version, r.suite ?? '', r.packageVersion ?? '(resolved from apt)', r.cached ? 'cached' : r.cacheProblem ? 'DAMAGED' : '']);
  const problems = rows.filter((r) => r.cacheProblem).map((r) => `${r.product} ${r.version}: ${r.cacheProblem}\n`);
  const head = ['product', 'version', 'suite', 'debian version', 'cache'];
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  return [head, ...lines].map((l) => l.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n') + '\n' + problems.join('');
}

/**
 * @param {import('../types.js').InstallResult} r
 * @returns {string}
 */
function renderResult(r) {
  if (r.status === 'failed') return `${r.product} ${r.version}: FAILED (${r.provider})\n${r.reason ?? ''}\n`;
  const env = Object.entries(r.env).map(([k, v]) => `${k}=${v}`).join(' ') || '(none)';
  return [
    `${r.product} ${r.version}: ${r.status} (${r.provider}${r.provenance.debianSuite ? `, Debian ${r.provenance.debianSuite}` : ''})`,
    `  prefix     ${r.prefix}`,
    `  server     ${r.bin.server}`,
    `  installDb  ${r.bin.installDb ?? '(none: initialise with --initialize-insecure)'}`,
    `  client     ${r.bin.client}`,
    `  admin      ${r.bin.admin}`,
    `  pluginDir  ${r.pluginDir}`,
    `  shareDir   ${r.shareDir}`,
    `  env        ${env}`,
    `  version    ${r.provenance.serverVersionString}`,
    `  sha256     ${r.provenance.serverSha256}`,
    `  packages   ${r.provenance.packages.map((p) => `${p.name}=${p.version}`).join(' ') || '(none)'}`,
    r.provenance.patchedElf.length ? `  patchelf   ${r.provenance.patchedElf.length} files` : '',
  ].filter(Boolean).join('\n') + '\n';
}

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'install',
    summary: 'install one release (cached) and print where its binaries are',
    help: [
      'Examples:',
      '  tagbench install mariadb 10.11.18',
      '  tagbench install mysql 9.7.4 --json',
      '  tagbench install mariadb 10.11.18 --provider path --path /opt/mariadb-10.11.18',
      '  tagbench install mariadb 10.11.19 --provider source   (cmake build of the tag from build.tagTemplate; about 1 h)',
      '  tagbench install mariadb 10.11.19 --provider source --path /srv/git/mariadb-server.git   (build from a local mirror)',
      '  tagbench install mysql 8.0.40 --provider source --dry-run   (print the fetch, cmake, build and install commands; run nothing)',
      '  tagbench install mariadb 10.11.18 --provider source --suite bookworm --profile reduced   (upstream tarball from Debian\'s source package, signature checked)',
      '  tagbench install mysql 9.1.0 --provider tarball --path mysql-9.1.0-linux-glibc2.28-x86_64.tar.xz',
      '  tagbench install --list mariadb',
      '  tagbench install --list mariadb --suite trixie   (what Debian trixie offers, to add under deb:)',
      'The cache folder defaults to $TAGBENCH_CACHE, else .tagbench/installs in the project. Each install has',
      'its own folder, <product>-<version>@<provider>[-<profile>][+ref-<ref>][+commit-<12 hex>], reused only for that key and only',
      'while its server binary has the sha256 recorded at install time (otherwise: an error saying what to delete).',
      'Folders of older tagbench versions (<product>-<version>) are reused in place for the provider that made them.',
      'Source builds use the product\'s build.defaultProfile (configs/products/<product>.yml) and',
      '$TAGBENCH_BUILD_JOBS parallel jobs (default: the CPU count); a failed build\'s log stays in <cache>/.build-logs/.',
      'Progress goes to stderr; the result (InstallResult) to stdout. Exit 1 when the install failed.',
    ].join('\n'),
    args: [
      { name: '[product]', description: 'product id (configs/products/<product>.yml)' },
      { name: '[version]', description: 'exact upstream version, e.g. 10.11.18' },
    ],
    options: [
      { flags: '--provider <name>', description: `how to get the release: ${providerNames().join(', ')}`, default: 'deb' },
      { flags: '--path <path>', description: 'where the release is on disk: install prefix (path provider), tarball file (tarball), git repository or mirror to build from (source)' },
      { flags: '--suite <suite>', description: 'Debian suite: the deb provider takes its packages from it (overriding the product config); the source provider builds the upstream release tarball (orig) of its Debian source package' },
      { flags: '--ref <ref>', description: 'git tag, branch or commit to build (source provider; default: the tag of <version> from build.tagTemplate)' },
      { flags: '--commit <sha>', description: 'full commit id to build (source provider): exactly this commit is fetched, even when the ref (the version\'s tag) points elsewhere by now, and it is part of the cache key (a moved tag is built again); benchmark.yml passes the commit watch saw. Default: the commit the ref points at when fetched, keyed by the version' },
      { flags: '--remote-override <product=url>', description: 'source provider: fetch <product> from this mirror or fork (URL or path) instead of its gitUrl, unless --path is given; repeatable or comma-separated, entries for other products are ignored (benchmark.yml passes TAGBENCH_WATCH_REMOTE_OVERRIDES, where watch read the tag)', parse: collect },
      { flags: '--profile <name>', description: 'build profile from the product config build.profiles (source provider; default: build.defaultProfile)' },
      { flags: '--jobs <n>', description: 'parallel compile jobs (source provider; default: $TAGBENCH_BUILD_JOBS, else the CPU count)' },
      { flags: '--url <url>', description: 'tarball to download (tarball provider; default: tarball.urlTemplate)' },
      { flags: '--sha256 <hex>', description: 'expected sha256 of the tarball (tarball provider; default: tarball.sha256.<version>)' },
      { flags: '--cache-dir <dir>', description: 'folder of installed prefixes (default $TAGBENCH_CACHE or .tagbench/installs)' },
      { flags: '--list', description: 'list the versions configured for <product> (with --suite: the versions that Debian suite offers), and which are cached' },
      { flags: '--dry-run', description: 'source provider: print every step (source, exact cmake command with the profile\'s and the line\'s flags, build, install, cache folder, provenance) and run none' },
      { flags: '--json', description: 'print JSON instead of text' },
    ],
    run: installCommand,
  },
];
