/**
 * Where the tarball of a release comes from and which checksum it must have: a local file
 * (`--path`), an explicit URL, or the product's `tarball.urlTemplate`; the sha256 from the spec or
 * the product's `tarball.sha256.<version>`. Pure: config and spec in, origin out.
 */
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../../errors.js';

/**
 * @typedef {object} TarballOrigin
 * @property {string|null} file absolute path of a local tarball, null when it must be downloaded
 * @property {string|null} url download URL, null for a local file
 * @property {string} name file name (`mariadb-10.11.18-linux-systemd-x86_64.tar.gz`)
 * @property {string|null} sha256 expected lowercase hex sha256, null when none is configured
 * @property {string} sha256From where the expected sha256 came from, for messages
 */

const SHA256_RE = /^[0-9a-f]{64}$/;
const PLACEHOLDER_RE = /\{([a-z]+)\}/g;

/**
 * @param {import('../types.js').InstallProductConfig} product
 * @param {import('../types.js').InstallSpec} spec
 * @returns {TarballOrigin}
 * @throws {UserError} when there is neither a file, a URL nor a urlTemplate, or a template or checksum is malformed
 */
export function resolveTarballOrigin(product, spec) {
  const file = `configs/products/${product.name}.yml`;
  const configured = product.tarball?.sha256?.[spec.version];
  const sha256 = spec.sha256?.toLowerCase() ?? configured?.toLowerCase() ?? null;
  const sha256From = spec.sha256 !== undefined ? 'the sha256 given' : `tarball.sha256."${spec.version}" in ${file}`;
  if (sha256 !== null && !SHA256_RE.test(sha256)) throw new UserError(`${sha256From} is '${sha256}'; expected 64 hex digits (sha256sum output)`);

  let url = spec.url ?? null;
  if (spec.path === undefined && url === null) {
    const template = product.tarball?.urlTemplate;
    if (!template) {
      throw new UserError(`no tarball for ${product.name} ${spec.version}: pass the file (--path <file.tar.gz>) or set tarball.urlTemplate in ${file}`);
    }
    url = renderUrlTemplate(template, spec.version, `tarball.urlTemplate in ${file}`);
  }
  if (url !== null && url.startsWith('file:')) return { file: fileURLToPath(url), url: null, name: basename(fileURLToPath(url)), sha256, sha256From };
  if (url !== null) {
    if (!/^https?:\/\//.test(url)) throw new UserError(`tarball URL '${url}' must start with https://, http:// or file://`);
    return { file: null, url, name: basename(new URL(url).pathname) || `${product.name}-${spec.version}.tar`, sha256, sha256From };
  }
  const path = resolve(/** @type {string} */ (spec.path));
  return { file: path, url: null, name: basename(path), sha256, sha256From };
}

/**
 * Fill `{version}`, `{major}`, `{minor}`, `{patch}` (upstream archives sort by minor line:
 * `.../mysql-{major}.{minor}/mysql-{version}-linux-glibc2.28-x86_64.tar.xz`).
 * @param {string} template
 * @param {string} version e.g. `8.4.3`, `8.0.39-30`
 * @param {string} where config key and file, for messages
 * @returns {string}
 * @throws {UserError} for an unknown placeholder
 */
export function renderUrlTemplate(template, version, where) {
  const [major = '', minor = '', patch = ''] = version.split(/[.-]/);
  /** @type {Record<string, string>} */
  const values = { version, major, minor, patch };
  return template.replace(PLACEHOLDER_RE, (whole, name) => {
    if (!Object.hasOwn(values, name)) throw new UserError(`${where}: unknown placeholder ${whole}; known: ${Object.keys(values).map((k) => `{${k}}`).join(', ')}`);
    return values[name];
  });
}
