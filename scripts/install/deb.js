/**
 * `deb` provider: an exact Debian package version of MariaDB or Oracle MySQL, from any Debian
 * suite this machine's mirror serves, extracted side by side into `<cacheDir>/<product>-<version>@deb/` (install-cache.js).
 * The apt work (private apt configuration, resolution, download, extraction, libraries, ELF
 * patching) is the apt library's (apt/); this file checks what it built and describes it.
 */
import { join, relative } from 'node:path';
import { UserError } from '../errors.js';
import { makeCacheKey } from './install-cache.js';
import { installWithCache } from './install-with-cache.js';
import { detectLayout } from './prefix-layout.js';
import { flavorOfVersionLine, readServerVersion } from './provenance.js';
import { buildPrefix, openAptEnv, releaseOfSuite, resolveRelease } from './apt/index.js';
import { describeAvailable, productConfig } from './products.js';
import { buildInstallResult } from './install-result.js';

/** @type {import('./types.js').InstallProvider} */
export const deb = {
  name: 'deb',
  summary: 'exact Debian package versions from any Debian suite, extracted side by side (no system install)',

  validateOptions(spec) {
    /** @type {string[]} */
    const problems = [];
    if (spec.path) problems.push(`--path is for the path provider; the deb provider downloads ${spec.product} ${spec.version} itself`);
    if (spec.commit !== undefined) problems.push(`--commit is for the source provider; the deb provider installs Debian's package of ${spec.product} ${spec.version}, built from no commit tagbench can choose`);
    if (spec.suite !== undefined && !/^[a-z]+(-[a-z]+)?$/.test(spec.suite)) problems.push(`suite '${spec.suite}' is not a Debian suite name (e.g. bookworm, bookworm-security, trixie, sid)`);
    return problems;
  },

  async install(spec, ctx) {
    const log = ctx.log ?? (() => {});
    const product = productConfig(ctx.config, spec.product);
    const entry = product.deb?.[spec.version];
    const suite = spec.suite ?? entry?.suite;
    const configFile = `configs/products/${product.name}.yml`;
    if (!suite) {
      throw new UserError(`unknown version '${spec.version}' of ${product.name} for the deb provider; available: ${describeAvailable(ctx.config, product.name)}. `
        + `Add it under deb: in ${configFile} (with its Debian suite), or pass --suite`);
    }
    return installWithCache(spec, ctx, {
      provider: 'deb',
      product,
      key: makeCacheKey({ product: product.name, version: spec.version, provider: 'deb' }),
      checkCached: ({ prefix, result: cached }) => {
        if (spec.suite && cached.provenance.debianSuite && releaseOfSuite(cached.provenance.debianSuite) !== releaseOfSuite(spec.suite)) {
          throw new UserError(`${product.name} ${spec.version} is already installed in ${prefix} from Debian ${cached.provenance.debianSuite}, not ${spec.suite}; `
            + 'delete that folder (or use another --cache-dir) to install it from another suite');
        }
        return '';
      },
      prepare: async () => {
        const apt = await openAptEnv(ctx.cacheDir, releaseOfSuite(suite), log);
        // A --suite other than the configured one makes the configured package version meaningless.
        const packageVersion = spec.suite && spec.suite !== entry?.suite ? null : entry?.packageVersion ?? null;
        const resolved = await resolveRelease(apt, { product: product.name, flavor: product.flavor, version: spec.version, suite, packageVersion, configFile }, log);
        return { apt, resolved };
      },
      build: ({ prepared: { apt, resolved }, finalPrefix, workDir }) => buildRelease({ product, version: spec.version, resolved, apt, finalPrefix, workDir, configFile, log }),
      // The release is known and resolvable, so a failure from here on is a fact about that
      // release on this host (a missing library, a binary that does not start): record it.
      describeFailure: async (err, { prepared }) => ({ summary: `: ${err.message}`, debianSuite: prepared.resolved.suite }),
    });
  },
};

/**
 * Build, check and describe the prefix in the work folder (not yet moved into place).
 * @param {object} a
 * @param {import('../types.js').ProductConfig} a.product
 * @param {string} a.version
 * @param {import('./apt/index.js').ResolvedRelease} a.resolved
 * @param {import('./apt/index.js').AptEnv} a.apt
 * @param {string} a.finalPrefix
 * @param {string} a.workDir
 * @param {string} a.configFile
 * @param {(msg: string) => void} a.log
 * @returns {Promise<{builtDir: string, result: import('../types.js').InstallResult}>} the built prefix (in the work folder) and its result: final paths, status 'installed'
 * @throws {UserError} when the built release is incomplete or does not run
 */
async function buildRelease({ product, version, resolved, apt, finalPrefix, workDir, configFile, log }) {
  const built = await buildPrefix({ apt, resolved, workDir, finalPrefix, log });
  const layout = await detectLayout(built.dir);
  if (!layout) throw new UserError(`the packages ${resolved.requests.join(' ')} hold no server binary (usr/sbin/mariadbd or mysqld)`);
  if (layout.missing.length) throw new UserError(`${product.name} ${version} from ${resolved.suite} lacks ${layout.missing.join(', ')}`);
  const toFinal = (/** @type {string} */ p) => join(finalPrefix, relative(built.dir, p));

  /** @type {string[]} */
  const problems = [];
  for (const b of [layout.bin.server, layout.bin.client, layout.bin.admin]) problems.push(...(await built.checkLibraries(b)));
  if (problems.length) throw new UserError(`${product.name} ${version} would not run from ${finalPrefix}:\n    ${problems.join('\n    ')}`);

  const run = built.runInWorkDir(layout.bin.server, toFinal(layout.bin.server));
  const versionLine = await readServerVersion({ cmd: run.cmd, args: [...run.args, '--version'], env: run.env, argv0: toFinal(layout.bin.server) });
  const flavor = flavorOfVersionLine(versionLine);
  if (flavor !== product.flavor) throw new UserError(`${configFile} says flavor ${product.flavor} but the installed server says: ${versionLine}`);
  log(`check: ${versionLine}`);
  const result = await buildInstallResult({
    builtDir: built.dir, finalPrefix, layout, product, version, flavor, provider: 'deb', env: built.env, versionLine,
    provenance: { debianSuite: resolved.suite, packages: built.packages, patchedElf: built.patchedElf },
  });
  return { builtDir: built.dir, result };
}
