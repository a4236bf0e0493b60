/**
 * Versions of the tools that shape the numbers, recorded in every run record.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile } from 'node:fs/promises';
import { UserError } from '../errors.js';

const run = promisify(execFile);

/**
 * @returns {Promise<Record<string, string>>} tool -> version
 * @throws {UserError} when sysbench is missing (it is required for every run)
 */
export async function readToolVersions() {
  let sysbench;
  try {
    sysbench = (await run('sysbench', ['--version'])).stdout.trim().replace(/^sysbench\s+/, '');
  } catch (err) {
    throw new UserError(
      'sysbench not found on PATH: every run needs it. Install it with `bash setup/bench.sh` (Debian package `sysbench`, 1.0.x), then check with `tagbench doctor`.',
      { cause: err },
    );
  }
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
  return { sysbench, node: process.version, tagbench: pkg.version };
}
