/**
 * Unpack an upstream binary tarball into a work folder as `prefix/usr`: its one top folder
 * (`mariadb-10.11.18-linux-systemd-x86_64/` holding bin/, scripts/, lib/plugin/, share/)
 * becomes `usr/`, because the server stage runs every release with `--basedir=<prefix>/usr`.
 * GNU tar detects the compression (gz, xz, zst) itself and refuses members with `..`.
 */
import { mkdir, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { runToolChecked } from '../run-tool.js';

/**
 * @param {string} file tarball
 * @param {string} workDir private work folder; `extract/` and `prefix/` are made in it
 * @returns {Promise<string>} the prefix folder (`<workDir>/prefix`, holding `usr/`)
 * @throws {UserError} when tar fails (not a tarball, truncated) or the tarball is empty
 */
export async function unpackTarball(file, workDir) {
  const extract = join(workDir, 'extract');
  const prefix = join(workDir, 'prefix');
  await mkdir(extract);
  await mkdir(prefix);
  // --no-same-owner: as root, tar would otherwise keep the packager's uids.
  await runToolChecked('tar', ['-xf', file, '-C', extract, '--no-same-owner'], { what: `unpacking ${file}`, timeoutMs: 1800_000 });
  const entries = await readdir(extract, { withFileTypes: true });
  if (entries.length === 0) throw new UserError(`${file} is an empty tarball`);
  // Upstream tarballs have one top folder; anything else is taken as the release root itself.
  const top = entries.length === 1 && entries[0].isDirectory() ? join(extract, entries[0].name) : extract;
  await rename(top, join(prefix, 'usr'));
  return prefix;
}
