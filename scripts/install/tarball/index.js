/**
 * `tarball` provider: an official binary tarball (MySQL `mysql-<v>-linux-glibc2.28-x86_64.tar.xz`,
 * MariaDB `mariadb-<v>-linux-systemd-x86_64.tar.gz`), from a local file or a URL, checked
 * against its sha256 when one is known, unpacked into `<cacheDir>/<product>-<version>@tarball/usr` (install-cache.js).
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { commitPrefix, lookupInstall, makeCacheKey, makeWorkDir, prefixPathFor } from '../install-cache.js';
import { productConfig } from '../products.js';
import { describePrefix, failedResult } from '../install-result.js';
import { sha256File } from '../provenance.js';
import { resolveTarballOrigin } from './tarball-origin.js';
import { downloadFile } from './download-file.js';
import { unpackTarball } from './unpack-tarball.js';

/** @type {import('../types.js').InstallProvider} */
export const tarball = {
  name: 'tarball',
  summary: 'an upstream binary tarball (--path <file> or the product\'s tarball.urlTemplate), sha256-checked',

  validateOptions(spec) {
    /** @type {string[]} */
    const problems = [];
    if (spec.suite !== undefined) problems.push('--suite is for the deb provider; the tarball provider unpacks an upstream tarball');
    if (spec.ref !== undefined || spec.gitUrl !== undefined || spec.profile !== undefined || spec.jobs !== undefined) problems.push('ref, gitUrl, profile and jobs are for the source provider');
    if (spec.path !== undefined && spec.url !== undefined) problems.push('give the tarball once: --path <file> or a URL, not both');
    if (spec.path === '') problems.push('--path is empty; give the tarball file');
    if (spec.sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(spec.sha256)) problems.push(`sha256 '${spec.sha256}' is not 64 hex digits (sha256sum output)`);
    return problems;
  },

  async install(spec, ctx) {
    const log = ctx.log ?? (() => {});
    /** @type {import('../types.js').InstallProductConfig} */
    const product = productConfig(ctx.config, spec.product);
    const origin = resolveTarballOrigin(product, spec);
    const label = `${product.name} ${spec.version}`;
    const key = makeCacheKey({ product: product.name, version: spec.version, provider: 'tarball' });
    const finalPrefix = prefixPathFor(ctx.cacheDir, key);

    const hit = await lookupInstall(ctx.cacheDir, key, log);
    if (hit) {
      checkCachedTarball(hit.result, origin, spec, hit.prefix);
      log(`${label}: already installed in ${hit.prefix}`);
      return { ...hit.result, status: 'skipped' };
    }
    if (origin.file && !(await stat(origin.file).then((s) => s.isFile(), () => false))) {
      throw new UserError(`${origin.file}: no such file; give the path of the ${product.name} ${spec.version} tarball`);
    }

    const started = Date.now();
    const workDir = await makeWorkDir(ctx.cacheDir, `${product.name}-${spec.version}`);
    /** @type {string|null} */
    let sha256 = null;
    try {
      let file = origin.file;
      if (!file) {
        file = join(workDir, origin.name);
        log(`${label}: downloading ${origin.url}`);
        const bytes = await downloadFile(/** @type {string} */ (origin.url), file, log);
        log(`${label}: downloaded ${(bytes / 1e6).toFixed(1)} MB`);
      }
      sha256 = await sha256File(file);
      if (origin.sha256 && sha256 !== origin.sha256) {
        throw new UserError(`${origin.url ?? file}: sha256 is ${sha256} but ${origin.sha256From} says ${origin.sha256}; `
          + 'the file is damaged or not the release meant: download it again, or correct the checksum');
      }
      if (!origin.sha256) log(`${label}: no sha256 configured for ${origin.name}; recording ${sha256}`);
      log(`${label}: unpacking ${origin.name}`);
      const prefixDir = await unpackTarball(file, workDir);
      const result = await describePrefix({
        builtDir: prefixDir,
        finalPrefix,
        product,
        version: spec.version,
        provider: 'tarball',
        origin: origin.name,
        provenance: { packages: [{ name: origin.name, version: spec.version, sha256 }] },
        log,
      });
      const committed = await commitPrefix(prefixDir, finalPrefix, result, key);
      if (!committed.won) {
        log(`${label}: another process installed it first; using that one`);
        return { ...committed.result, status: 'skipped' };
      }
      log(`${label}: installed in ${finalPrefix} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      return result;
    } catch (err) {
      // A download that fails, a wrong checksum, a tarball that does not unpack or whose server
      // does not run here: a fact about this release and host, recorded as a failed install.
      if (!(err instanceof UserError)) throw err;
      log(`${label}: FAILED: ${err.message.split('\n')[0]}`);
      const failed = failedResult({ spec: { ...spec, provider: 'tarball' }, flavor: product.flavor, prefix: finalPrefix, debianSuite: null, reason: err.message });
      if (sha256) failed.provenance = { ...failed.provenance, packages: [{ name: origin.name, version: spec.version, sha256 }] };
      return failed;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  },
};

/**
 * A cached prefix is reused only when it came from a tarball with the expected checksum.
 * @param {import('../../types.js').InstallResult} cached
 * @param {import('./tarball-origin.js').TarballOrigin} origin
 * @param {import('../types.js').InstallSpec} spec
 * @param {string} prefix
 * @throws {UserError} naming what differs and what to do
 */
function checkCachedTarball(cached, origin, spec, prefix) {
  const what = `${spec.product} ${spec.version} is already installed in ${prefix}`;
  const fix = 'delete that folder (or use another --cache-dir) to install it from the tarball';
  if (cached.provider !== 'tarball') throw new UserError(`${what} by the ${cached.provider} provider; ${fix}`);
  const had = cached.provenance.packages[0]?.sha256;
  if (origin.sha256 && had && had !== origin.sha256) {
    throw new UserError(`${what} from ${cached.provenance.packages[0].name} with sha256 ${had}, but ${origin.sha256From} says ${origin.sha256}; ${fix}`);
  }
}
