/** `tagbench publish`: the CLI face of publishToBranch. */
import { resolve } from 'node:path';
import { UserError, EXIT } from '../errors.js';
import { publishToBranch } from './publish-to-branch.js';

/**
 * @param {Record<string, any>} options commander options: {store: string, repo?: string, branch: string, logs?: boolean, maxLogKb: number, attempts: number, json?: boolean}
 * @returns {Promise<number>} exit code
 * @throws {UserError} see publishToBranch
 */
export async function run(options) {
  if (!options.repo) throw new UserError('tagbench publish needs --repo <git URL or path> (the repository holding the results branch)');
  const result = await publishToBranch(resolve(options.store), {
    repo: options.repo,
    branch: options.branch,
    logs: Boolean(options.logs),
    maxLogBytes: options.maxLogKb * 1024,
    attempts: options.attempts,
  });
  if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(`${result.status}: ${result.added.length} file(s) added${result.replaced.length > 0 ? `, ${result.replaced.length} change-point file(s) replaced` : ''} to ${result.branch} at ${result.commit ?? '(no commit)'}\n`);
  return EXIT.ok;
}
