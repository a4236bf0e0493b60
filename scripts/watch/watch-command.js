/** `tagbench watch`: the CLI face of discoverTags. */
import { resolve } from 'node:path';
import { appendFile } from 'node:fs/promises';
import { loadConfig } from '../config/index.js';
import { readIndex } from '../store/index.js';
import { UserError, EXIT } from '../errors.js';
import { discoverTags } from './discover-tags.js';

/**
 * @param {Record<string, any>} options commander options: {store: string, products?: string,
 *   hostClass?: string[], suite?: string, max: number, retryFailed?: boolean,
 *   remoteOverride?: string[], json?: boolean, githubOutput?: string (default: $GITHUB_OUTPUT)};
 *   root: project root holding configs/ (default: this checkout; tests pass a fixture)
 * @returns {Promise<number>} exit code
 * @throws {UserError} on a bad option, config or store
 */
export async function run(options) {
  const root = options.root ?? resolve(new URL('../..', import.meta.url).pathname);
  const config = await loadConfig(root);
  /** @type {Record<string, string>} */
  const remoteOverrides = {};
  for (const item of options.remoteOverride ?? []) {
    const at = item.indexOf('=');
    if (at <= 0 || at === item.length - 1) throw new UserError(`--remote-override ${JSON.stringify(item)}: expected <product>=<git URL or path>, e.g. mariadb=/srv/mirrors/server.git`);
    const url = item.slice(at + 1);
    remoteOverrides[item.slice(0, at)] = /^[a-z+]+:\/\/|^[^/]+@[^:]+:/.test(url) ? url : resolve(url);
  }
  const result = await discoverTags(config, {
    products: options.products ? String(options.products).split(',').map((s) => s.trim()).filter(Boolean) : undefined,
    hostClasses: options.hostClass,
    suite: options.suite,
    remoteOverrides,
    index: await readIndex(resolve(options.store ?? 'results')),
    max: options.max ?? 10,
    retryFailed: Boolean(options.retryFailed),
  });
  const matrix = JSON.stringify(result.matrix);
  // In GitHub Actions the step outputs file is the natural destination; the flag overrides it.
  const githubOutput = options.githubOutput ?? process.env.GITHUB_OUTPUT;
  if (githubOutput) await appendFile(githubOutput, `matrix=${matrix}\ncount=${result.matrix.include.length}\n`);
  if (options.json) {
    process.stdout.write(`${matrix}\n`);
  } else {
    for (const e of result.matrix.include) process.stdout.write(`${e.hostClass}\t${e.product}\t${e.line}\t${e.version}\t${e.tag}\t${e.suite}\n`);
    if (result.matrix.include.length === 0) process.stdout.write('nothing new to benchmark\n');
    if (result.pending > result.matrix.include.length) process.stdout.write(`(${result.pending - result.matrix.include.length} more left for later runs: --max ${options.max ?? 10})\n`);
  }
  return EXIT.ok;
}
