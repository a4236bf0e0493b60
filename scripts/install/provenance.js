/**
 * Facts that prove which binary a result came from: checksums and the server's own word.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { runTool } from './run-tool.js';
import { UserError } from '../errors.js';

/**
 * sha256 of a file, streamed (server binaries are 50-100 MB).
 * @param {string} file
 * @returns {Promise<string>} lowercase hex
 */
export async function sha256File(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * Run `<server> --version` and return its first line.
 * @param {object} how
 * @param {string} how.cmd program to execute (the server, or a private dynamic loader)
 * @param {string[]} how.args
 * @param {Record<string, string>} how.env extra environment of the release
 * @param {string} how.argv0 what the server sees as its own path (the final install path)
 * @returns {Promise<string>} e.g. `/p/usr/sbin/mariadbd  Ver 10.11.18-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)`
 * @throws {UserError} when the binary does not run
 */
export async function readServerVersion(how) {
  const res = await runTool(how.cmd, how.args, { env: { ...process.env, ...how.env }, argv0: how.argv0, timeoutMs: 60_000 });
  const line = res.stdout.split('\n').find((l) => l.trim() !== '') ?? '';
  if (res.code !== 0 || !/\bVer\b/.test(line)) {
    const out = (res.stderr.trim() || res.stdout.trim()).split('\n').slice(-8).join('\n    ');
    throw new UserError(`the server binary does not run: ${how.argv0} --version exited ${res.code}\n    ${out}`);
  }
  return line.trim();
}

/**
 * Server family from a `--version` line.
 * @param {string} versionLine
 * @returns {'mariadb'|'mysql'}
 */
export function flavorOfVersionLine(versionLine) {
  return /mariadb/i.test(versionLine) ? 'mariadb' : 'mysql';
}

/**
 * Upstream version from a `--version` line (`Ver 10.11.18-MariaDB-0+deb12u1` -> `10.11.18`).
 * @param {string} versionLine
 * @returns {string|null}
 */
export function versionOfVersionLine(versionLine) {
  const m = /\bVer\s+(?:\S+\s+Distrib\s+)?(\d+\.\d+\.\d+)/.exec(versionLine);
  return m ? m[1] : null;
}
