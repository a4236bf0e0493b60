/**
 * `tagbench doctor`: check tools, configs, disk and the host's noise sources; print a ✓/✗ line
 * per check (or JSON with --json). Exit 1 when a required check fails.
 */
import { resolve } from 'node:path';
import { EXIT } from '../errors.js';
import { runDoctor } from './run-doctor.js';
import { renderDoctor } from './render-doctor.js';

/**
 * @param {{json?: boolean, workDir?: string, configRoot?: string}} options from the CLI
 * @returns {Promise<number>} 0 when every required check passes, 1 otherwise
 */
export async function run(options) {
  const report = await runDoctor({
    path: process.env.PATH ?? '',
    configRoot: options.configRoot ?? resolve(new URL('../..', import.meta.url).pathname),
    workDir: options.workDir ?? '.tagbench/work',
    nodeVersion: process.versions.node,
  });
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : renderDoctor(report));
  return report.ok ? EXIT.ok : EXIT.userError;
}
