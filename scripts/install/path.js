/**
 * `path` provider: a release that is already on disk (a cmake install, an unpacked tarball, a
 * prefix another tool built). Nothing is copied; the prefix is checked and described.
 */
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { detectLayout } from './prefix-layout.js';
import { flavorOfVersionLine, readServerVersion, sha256File, versionOfVersionLine } from './provenance.js';
import { MARKER } from './install-cache.js';

/** @type {import('./types.js').InstallProvider} */
export const path = {
  name: 'path',
  summary: 'a release already installed under --path (cmake install, tarball, another prefix)',

  validateOptions(spec) {
    return spec.path ? [] : ['the path provider needs --path <prefix> (the folder holding usr/sbin/mariadbd, sbin/mysqld or bin/mysqld)'];
  },

  async install(spec, ctx) {
    const log = ctx.log ?? (() => {});
    const prefix = resolve(/** @type {string} */ (spec.path));
    const st = await stat(prefix).catch(() => null);
    if (!st?.isDirectory()) throw new UserError(`--path ${spec.path}: no such folder; give the install prefix of ${spec.product} ${spec.version}`);
    const layout = await detectLayout(prefix);
    if (!layout) {
      throw new UserError(`--path ${prefix}: no server binary found (looked for mariadbd or mysqld in usr/sbin, sbin, bin, libexec, under the prefix and its usr/); give the install prefix, not the bin folder`);
    }
    if (layout.missing.length) throw new UserError(`--path ${prefix}: found ${layout.bin.server} but not ${layout.missing.join(', ')}`);

    // A prefix the deb provider made knows its own environment and packages: keep them.
    const marker = await readFile(join(prefix, MARKER), 'utf8').then((t) => JSON.parse(t).result, () => null);
    /** @type {Record<string, string>} */
    const env = marker?.env && typeof marker.env === 'object' ? marker.env : {};
    const versionLine = await readServerVersion({ cmd: layout.bin.server, args: ['--version'], env, argv0: layout.bin.server });
    const flavor = flavorOfVersionLine(versionLine);
    const found = versionOfVersionLine(versionLine);
    if (found && found !== spec.version) {
      throw new UserError(`--path ${prefix} holds ${flavor} ${found} (${versionLine}), not ${spec.product} ${spec.version}: fix the version argument or the path`);
    }
    const product = ctx.config.products[spec.product];
    if (product && product.flavor !== flavor) {
      throw new UserError(`--path ${prefix} holds a ${flavor} server but configs/products/${spec.product}.yml says flavor ${product.flavor}`);
    }
    const serverSha256 = await sha256File(layout.bin.server);
    const sameBuild = marker?.provenance?.serverSha256 === serverSha256;
    log(`${spec.product} ${spec.version}: using ${prefix} (${versionLine})`);
    return {
      status: 'installed',
      product: spec.product,
      flavor,
      version: spec.version,
      provider: 'path',
      prefix,
      bin: layout.bin,
      pluginDir: layout.pluginDir,
      shareDir: layout.shareDir,
      env,
      provenance: {
        product: spec.product,
        version: spec.version,
        provider: 'path',
        debianSuite: sameBuild ? marker.provenance.debianSuite ?? null : null,
        packages: sameBuild && Array.isArray(marker.provenance.packages) ? marker.provenance.packages : [],
        serverSha256,
        serverVersionString: versionLine,
        tag: null,
        commit: null,
        buildProfile: null,
        buildFlags: null,
        patchedElf: sameBuild && Array.isArray(marker.provenance.patchedElf) ? marker.provenance.patchedElf : [],
      },
    };
  },
};

