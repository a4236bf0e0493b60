/**
 * `discover` stage: which upstream release tags have not been benchmarked yet, per host class.
 */
import { UserError } from '../errors.js';
import { fetchRemoteTags } from './list-remote-tags.js';
import { matchTags } from './match-tags.js';
import { planMatrix } from './plan-matrix.js';

/**
 * @typedef {object} DiscoverOptions
 * @property {string[]} [products] product names (default: every product with a gitUrl)
 * @property {string[]} [hostClasses] host classes (default: every host class with runner labels)
 * @property {string} [suite] suite of the runs to look for and to plan (default: each host class's `scale`)
 * @property {Record<string, string>} [remoteOverrides] product -> git URL or path used instead of its gitUrl
 * @property {{runs: {id: string, hostClass: string, product: string, version: string, suite: string, status: string}[]}} index
 *   what is already benchmarked (the results index; readIndex() of scripts/store/)
 * @property {number} [max] most matrix entries (default 10)
 * @property {boolean} [retryFailed] propose again versions whose runs failed
 * @property {(line: string) => void} [progress] progress lines (default: stderr)
 */

/**
 * List upstream tags of each product, match them to the product lines, drop versions below each
 * line's floor and those already benchmarked, and plan the workflow matrix.
 * @param {Pick<import('../types.js').Config, 'products'|'hosts'>} config loaded configuration
 * @param {DiscoverOptions} options
 * @returns {Promise<import('./types.js').DiscoverResult>} matrix plus what was left out and why
 * @throws {UserError} on an unknown product or host class, a product without gitUrl, or an
 *   unreachable repository
 */
export async function discoverTags(config, options) {
  const progress = options.progress ?? ((/** @type {string} */ line) => process.stderr.write(`${line}\n`));
  const products = selectProducts(config, options);
  const hostClasses = selectHostClasses(config, options);
  /** @type {import('./types.js').TagCandidate[]} */
  const candidates = [];
  /** @type {import('./types.js').DiscoverResult['skipped']} */
  const belowFloorSkips = [];
  for (const product of products) {
    const url = options.remoteOverrides?.[product.name] ?? product.gitUrl;
    if (!url) throw new UserError(`configs/products/${product.name}.yml has no gitUrl: add one, or pass --remote-override ${product.name}=<url>`);
    progress(`watch: listing tags of ${product.name} (${url})`);
    const tags = await fetchRemoteTags(url);
    const { candidates: matched, belowFloor } = matchTags(product, tags);
    progress(`watch: ${product.name}: ${tags.length} tags, ${matched.length} release${matched.length === 1 ? '' : 's'} of its lines, ${belowFloor.length} below a line floor`);
    candidates.push(...matched);
    for (const c of belowFloor) {
      for (const h of hostClasses) belowFloorSkips.push({ product: c.product, line: c.line, version: c.version, hostClass: h.name, reason: 'older than the line\'s floor (minVersion or baseVersion)' });
    }
  }
  const max = options.max ?? 10;
  const result = planMatrix({ candidates, hostClasses, runs: options.index.runs, max, retryFailed: options.retryFailed });
  progress(`watch: ${result.pending} job${result.pending === 1 ? '' : 's'} not benchmarked yet; proposing ${result.matrix.include.length} (--max ${max})`);
  return { ...result, skipped: [...result.skipped, ...belowFloorSkips] };
}

/**
 * @param {Pick<import('../types.js').Config, 'products'>} config
 * @param {DiscoverOptions} options
 */
function selectProducts(config, options) {
  const known = Object.keys(config.products);
  for (const name of [...(options.products ?? []), ...Object.keys(options.remoteOverrides ?? {})]) {
    if (!config.products[name]) throw new UserError(`unknown product '${name}'; known: ${known.join(', ') || '(none: add configs/products/<name>.yml)'}`);
  }
  const names = options.products ?? known.filter((n) => config.products[n].gitUrl || options.remoteOverrides?.[n]);
  return names.map((n) => config.products[n]);
}

/**
 * @param {Pick<import('../types.js').Config, 'hosts'>} config
 * @param {DiscoverOptions} options
 * @returns {{name: string, suite: string}[]}
 */
function selectHostClasses(config, options) {
  const known = Object.keys(config.hosts);
  for (const name of options.hostClasses ?? []) {
    if (!config.hosts[name]) throw new UserError(`unknown host class '${name}'; known: ${known.join(', ') || '(none: add configs/hosts/<name>.yml)'}`);
  }
  const names = options.hostClasses?.length ? options.hostClasses : known.filter((n) => config.hosts[n].labels.length > 0);
  if (names.length === 0) throw new UserError(`no host class has runner labels (configs/hosts/*.yml 'labels'); pass --host-class, one of: ${known.join(', ')}`);
  return names.map((n) => ({ name: n, suite: options.suite ?? config.hosts[n].scale }));
}
