/**
 * `tagbench baseline promote`: make a release the accepted baseline of a product line, suite
 * and host class, naming the run records that stand for it. Writes the baseline file locally
 * (in CI a workflow commits it through a pull request); nothing else ever changes a baseline.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import { UserError, EXIT } from '../errors.js';
import { readRecords } from '../store/index.js';
import { readBaseline, writeBaseline } from './baseline-file.js';

/**
 * @param {Record<string, any>} options hostClass, product, line, suite, version, runs (ids), store, baselines, note, root, now (ISO time)
 * @returns {Promise<number>} 0
 * @throws {UserError} missing options, unknown product or line, runs that are not in the store
 *   or do not match the release, host class and suite
 */
export async function run(options) {
  const root = options.root ?? resolve(new URL('../..', import.meta.url).pathname);
  const config = await loadConfig(root);
  for (const k of /** @type {const} */ (['product', 'line', 'version'])) {
    if (!options[k]) throw new UserError(`missing --${k}: tagbench baseline promote --product P --line L --version V [--suite S] [--host-class H] [--runs id,id]`);
  }
  const product = config.products[/** @type {string} */ (options.product)];
  if (!product) throw new UserError(`unknown --product '${options.product}'; known: ${Object.keys(config.products).join(', ')}`);
  if (!product.lines.some((l) => l.name === options.line)) throw new UserError(`product ${product.name} has no line '${options.line}'; lines: ${product.lines.map((l) => l.name).join(', ')} (configs/products/${product.name}.yml)`);
  const hostClass = options.hostClass ?? 'local';
  const suite = options.suite ?? 'smoke';
  const storeDir = resolve(options.store ?? 'results');
  const version = /** @type {string} */ (options.version);
  const line = /** @type {string} */ (options.line);
  const records = await readRecords(storeDir, { hostClass, product: product.name, suite, version });
  /** @type {string[]|undefined} */
  const wanted = typeof options.runs === 'string' ? options.runs.split(',').map((s) => s.trim()).filter(Boolean) : options.runs;
  let runIds;
  if (wanted && wanted.length > 0) {
    const missing = wanted.filter((id) => !records.some((r) => r.id === id));
    if (missing.length > 0) throw new UserError(`--runs ${missing.join(', ')}: no such run record of ${product.name} ${version} (host class '${hostClass}', suite '${suite}') in ${storeDir}; available: ${records.map((r) => r.id).join(', ') || 'none'}`);
    runIds = wanted;
  } else {
    runIds = records.filter((r) => r.status === 'ok').map((r) => r.id);
    if (runIds.length === 0) throw new UserError(`no complete (status ok) run record of ${product.name} ${version} for host class '${hostClass}' and suite '${suite}' in ${storeDir}: run \`tagbench run\` for it first, or name runs with --runs`);
  }
  const wrongLine = records.filter((r) => runIds.includes(r.id) && r.release.line !== line);
  if (wrongLine.length > 0) throw new UserError(`run ${wrongLine[0].id} is of line ${wrongLine[0].release.line}, not ${line}`);
  const dir = resolve(options.baselines ?? 'baselines');
  const key = { hostClass, product: product.name, line, suite };
  const previous = await readBaseline(dir, key);
  const path = await writeBaseline(dir, {
    schemaVersion: 1,
    ...key,
    version,
    runIds,
    promotedAt: options.now ?? new Date().toISOString(),
    previous: previous ? { version: previous.version, runIds: previous.runIds } : null,
    ...(options.note ? { note: options.note } : {}),
  });
  process.stderr.write(`baseline of ${product.name} ${line} (${suite}, ${hostClass}) is now ${version} (runs ${runIds.join(', ')})${previous ? `, was ${previous.version}` : ''}: ${path}\n`);
  return EXIT.ok;
}
