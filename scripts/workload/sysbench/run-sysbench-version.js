/**
 * The sysbench version a run records (`config.tools.sysbench`): the sysbench plug-in's
 * toolVersions member, shared by the plug-ins that run sysbench too (ddl, reload, loops).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { UserError } from '../../errors.js';

const execFileP = promisify(execFile);

/**
 * Run `sysbench --version` and return what it prints without the leading `sysbench `.
 * @returns {Promise<{sysbench: string}>} e.g. `{sysbench: '1.0.20'}`
 * @throws {UserError} when sysbench is not on PATH: the suite cannot run without it
 */
export async function runSysbenchVersion() {
  try {
    const { stdout } = await execFileP('sysbench', ['--version']);
    return { sysbench: stdout.trim().replace(/^sysbench\s+/, '') };
  } catch (err) {
    throw new UserError(
      'sysbench not found on PATH: the suite\'s benchmarks run it. Install it with `bash setup/bench.sh` (Debian package `sysbench`, 1.0.x), then check with `tagbench doctor`.',
      { cause: err },
    );
  }
}
