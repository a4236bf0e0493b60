/**
 * `tarball` provider: an official binary tarball (MySQL `mysql-<v>-linux-glibc2.28-x86_64.tar.xz`,
 * MariaDB `mariadb-<v>-linux-systemd-x86_64.tar.gz`), from a local file or a URL, checked
 * against its sha256 when one is known, unpacked into `<cacheDir>/<product>-<version>@tarball/usr` (install-cache.js).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { makeCacheKey } from '../install-cache.js';
import { installWithCache } from '../install-with-cache.js';
import { productConfig } from '../products.js';
import { describePrefix } from '../install-result.js';
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
    if (spec.ref !== undefined || spec.commit !== undefined || spec.gitUrl !== undefined || spec.profile !== undefined || spec.jobs !== undefined) problems.push('ref, commit, gitUrl, profile and jobs are for the source provider');
    if (spec.path !== undefined && spec.url !== undefined) problems.push('give the tarball once: --path <file> or a URL, not both');
    if (spec.path === '') problems.push('--path is empty; give the tarball file');
    if (spec.sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(spec.sha256)) problems.push(`sha256 '${spec.sha256}' is not 64 hex digits (sha256sum output)`);
    return problems;
  },

  async install(spec, ctx) {
    /** @type {import('../types.js').InstallProductConfig} */
    const product = productConfig(ctx.config, spec.product);
    const origin = resolveTarballOrigin(product, spec);
    /** @type {string|null} the tarball's checksum once known: a failure after that records it too */
    let sha256 = null;
    return installWithCache(spec, ctx, {
      provider: 'tarball',
      product,
      key: makeCacheKey({ product: product.name, version: spec.version, provider: 'tarball' }),
      checkCached: (hit) => { checkCachedTarball(hit.result, origin, spec, hit.prefix); return ''; },
      prepare: async () => {
        if (origin.file && !(await stat(origin.file).then((s) => s.isFile(), () => false))) {
          throw new UserError(`${origin.file}: no such file; give the path of the ${product.name} ${spec.version} tarball`);
        }
      },
      build: async (work) => {
        const file = origin.file || await downloadTarball(origin, work);
        sha256 = await sha256File(file);
        checkTarball(file, sha256, origin, work);
        work.log(`${work.label}: unpacking ${origin.name}`);
        const prefixDir = await unpackTarball(file, work.workDir);
        const result = await describePrefix({
          builtDir: prefixDir,
          finalPrefix: work.finalPrefix,
          product,
          version: spec.version,
          provider: 'tarball',
          origin: origin.name,
          provenance: { packages: [{ name: origin.name, version: spec.version, sha256 }] },
          log: work.log,
        });
        return { builtDir: prefixDir, result };
      },
      // A download that fails, a wrong checksum, a tarball that does not unpack or whose server
      // does not run here: a fact about this release and host, recorded as a failed install.
      describeFailure: async (err) => ({
        summary: `: ${err.message.split('\n')[0]}`,
        provenance: sha256 ? { packages: [{ name: origin.name, version: spec.version, sha256 }] } : undefined,
      }),
    });
  },
};

/**
 * Download the tarball of a URL origin into the work folder.
 * @param {import('./tarball-origin.js').TarballOrigin} origin with a url
 * @param {import('../install-with-cache.js').WorkFolder<void>} work
 * @returns {Promise<string>} the downloaded file
 * @throws {UserError} when the download fails
 */
async function downloadTarball(origin, work) {
  const file = join(work.workDir, origin.name);
  work.log(`${work.label}: downloading ${origin.url}`);
  const bytes = await downloadFile(/** @type {string} */ (origin.url), file, work.log);
  work.log(`${work.label}: downloaded ${(bytes / 1e6).toFixed(1)} MB`);
  return file;
}

/**
 * Check a tarball's sha256 against the one its origin expects, or log it when none is configured.
 * @param {string} file
 * @param {string} sha256 the file's
 * @param {import('./tarball-origin.js').TarballOrigin} origin
 * @param {import('../install-with-cache.js').WorkFolder<void>} work
 * @returns {void}
 * @throws {UserError} when it differs from the expected one
 */
function checkTarball(file, sha256, origin, work) {
  if (origin.sha256 && sha256 !== origin.sha256) {
    throw new UserError(`${origin.url ?? file}: sha256 is ${sha256} but ${origin.sha256From} says ${origin.sha256}; `
      + 'the file is damaged or not the release meant: download it again, or correct the checksum');
  }
  if (!origin.sha256) work.log(`${work.label}: no sha256 configured for ${origin.name}; recording ${sha256}`);
}

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
