/**
 * Turn the user's run options into a fully resolved plan, checking every name against the
 * configuration. Pure: config in, plan out; every error says what was given and what exists.
 */
import { resolve as resolvePath } from 'node:path';
import { UserError } from '../errors.js';
import { parseList } from '../command-spec.js';
import { COMMIT_RE } from '../install/index.js';
import { findCellSuite } from '../workload/index.js';

/** Host classes that do not say: two instances is the least that shows a per-instance offset. */
const DEFAULT_INSTANCES = 2;

/**
 * @typedef {object} ResolvedRelease
 * @property {string} product
 * @property {string} version
 * @property {string} line
 * @property {string} provider
 * @property {string} [path]
 * @property {string} [label] tells apart two servers of the same release in one run (A/A
 *   calibration; one server per engine when a run compares engines)
 * @property {'innodb'|'rocksdb'} engine storage engine of this release's server
 * @property {string} mycnfName my.cnf template of this release's server (configs/mycnf)
 * @property {string} mycnfTemplate its text
 */

/**
 * @typedef {object} ResolvedRun
 * @property {ResolvedRelease[]} releases
 * @property {import('../types.js').SuiteConfig} suite with `only` applied
 * @property {import('../types.js').HostClass} host
 * @property {'innodb'|'rocksdb'} engine the run's engine: the releases' own when they agree,
 *   else the first release's (each release's is in `releases[i].engine`)
 * @property {string} mycnfName the template of the first release (as `engine`)
 * @property {string} mycnfTemplate
 * @property {number} repeats
 * @property {number} instances server instances the repeats are spread over (1..repeats)
 */

/**
 * The run's options, each release with an optional engine of its own (else the run's).
 * enginePerRelease: the caller starts each server with its release's `engine`, `mycnfName` and
 * `mycnfTemplate` (else releases of different engines are refused). A release's `mycnf` names
 * its own template (a calibration's server with performance_schema turned on), else the run's.
 * @typedef {Omit<import('./run-releases.js').RunOptions, 'releases'> & {releases: (import('./run-releases.js').RunOptions['releases'][number] & {engine?: string, preinstalled?: boolean, mycnf?: string})[], enginePerRelease?: boolean}} ResolveOptions
 */

/**
 * Repeats per test and the server instances they are spread over: the options', else the host
 * class's (instances: else 2, never more than the repeats). Calibrate resolves them here too, to
 * record what its runs used.
 * @param {import('../types.js').HostClass} host
 * @param {{repeats?: number, instances?: number}} options
 * @returns {{repeats: number, instances: number}}
 * @throws {UserError} repeats not a positive integer, instances not from 1 to the repeats
 */
export function resolveRepeats(host, options) {
  const repeats = options.repeats ?? host.repeats;
  if (!Number.isInteger(repeats) || repeats < 1) throw new UserError(`--repeats must be a positive integer, got ${repeats}`);
  const instances = options.instances ?? Math.min(host.instances ?? DEFAULT_INSTANCES, repeats);
  if (!Number.isInteger(instances) || instances < 1 || instances > repeats) {
    throw new UserError(`--instances must be an integer from 1 to the repeats (${repeats}), got ${instances}: each instance runs at least one repeat of every test`);
  }
  return { repeats, instances };
}

/**
 * @param {import('../types.js').Config} config
 * @param {ResolveOptions} options
 * @returns {ResolvedRun}
 * @throws {UserError}
 */
export function resolveRun(config, options) {
  // A matrix cell's series (`<suite>--<cell>`) runs as that cell: confirm and adaptive repeats
  // rerun a cell's tests by its series name.
  const suite = findCellSuite(config.suites, options.suite) ?? pick(config.suites, options.suite, 'suite', 'configs/suites/');
  // Run as one suite, a matrix would store every cell's settings-free run under the suite's name.
  const matrix = /** @type {{matrix?: Record<string, Record<string, unknown>>}} */ (suite).matrix;
  if (matrix) {
    const first = Object.entries(matrix).map(([dim, values]) => `${dim}-${Object.keys(values)[0]}`).join('--');
    throw new UserError(`suite '${suite.name}' has a config matrix: run it with \`tagbench run\` (each cell in turn), or name one cell's series, e.g. --suite ${suite.name}--${first}`);
  }
  const host = pick(config.hosts, options.hostClass, 'host class', 'configs/hosts/');
  // The suite's engine (a MyRocks suite) unless the run names one.
  const runEngine = checkEngine(options.engine ?? suite.engine ?? 'innodb', options.engine === undefined && suite.engine !== undefined ? `suite ${suite.name}` : 'the run');
  if (!options.releases?.length) throw new UserError('no release given: use --releases product@version[,product@version...], e.g. mariadb@10.11.18');
  const engines = new Set(options.releases.map((r) => r.engine ?? runEngine));
  // A caller that starts every server with the run's engine would run them all on the first
  // release's engine under the others' labels: it must say it reads each release's engine.
  if (engines.size > 1 && options.enginePerRelease !== true) {
    throw new UserError(`the releases ask for different engines (${[...engines].join(', ')}), but this caller starts every server with one engine; run one engine at a time`);
  }
  // One template for servers of different engines would run one of them on the other's settings.
  if (engines.size > 1 && options.mycnf !== undefined) {
    throw new UserError(`--mycnf ${options.mycnf} names one template, but the releases run ${[...engines].join(' and ')}: leave --mycnf out (each engine takes configs/mycnf/<engine>.cnf)`);
  }
  const releases = options.releases.map((r) => {
    const engine = checkEngine(r.engine ?? runEngine, releaseKey(r));
    const mycnfName = r.mycnf ?? options.mycnf ?? engine;
    const mycnfTemplate = config.mycnf[mycnfName];
    if (mycnfTemplate === undefined) {
      throw new UserError(`unknown my.cnf template '${mycnfName}'; known: ${Object.keys(config.mycnf).join(', ') || '(none)'} (files configs/mycnf/<name>.cnf)`);
    }
    return { ...resolveRelease(config, r, engine), engine, mycnfName, mycnfTemplate };
  });
  const { engine, mycnfName, mycnfTemplate } = releases[0];
  const keys = releases.map(releaseKey);
  const dup = keys.find((k, i) => keys.indexOf(k) !== i);
  if (dup) throw new UserError(`release ${dup} is listed twice in --releases`);
  const { repeats, instances } = resolveRepeats(host, options);
  const only = options.only?.length ? options.only : suite.only;
  return { releases, suite: only ? { ...suite, only: [...only] } : suite, host, engine, mycnfName, mycnfTemplate, repeats, instances };
}

/** Storage engines a server can be asked for. */
export const ENGINES = /** @type {const} */ (['innodb', 'rocksdb']);

/**
 * @param {string} engine
 * @param {string} whose for the message
 * @returns {'innodb'|'rocksdb'}
 * @throws {UserError} when unknown
 */
function checkEngine(engine, whose) {
  if (!ENGINES.includes(/** @type {any} */ (engine))) throw new UserError(`unknown engine '${engine}' for ${whose}; known: ${ENGINES.join(', ')}`);
  return /** @type {'innodb'|'rocksdb'} */ (engine);
}

/**
 * One server per engine of each release, labelled by its engine (`mariadb@10.11.18#rocksdb`):
 * what `tagbench run --engine innodb,rocksdb` runs, so that the engines alternate on one
 * release like two releases do. With one engine the releases are returned as given.
 * @template {{product: string, version: string, label?: string}} R
 * @param {R[]} releases
 * @param {string[]} engines
 * @returns {(R & {engine?: 'innodb'|'rocksdb'})[]}
 * @throws {UserError} on an unknown or repeated engine, or a release that already has a label
 */
export function expandEngines(releases, engines) {
  for (const e of engines) checkEngine(e, '--engine');
  const dup = engines.find((e, i) => engines.indexOf(e) !== i);
  if (dup) throw new UserError(`engine ${dup} is listed twice in --engine`);
  if (engines.length <= 1) return releases.map((r) => (engines.length ? { ...r, engine: checkEngine(engines[0], '--engine') } : r));
  const labelled = releases.find((r) => r.label !== undefined);
  if (labelled) throw new UserError(`${releaseKey(labelled)} already has a label; with several engines each server is labelled by its engine`);
  return releases.flatMap((r) => engines.map((e) => ({ ...r, engine: checkEngine(e, '--engine'), label: e })));
}

/**
 * @template T
 * @param {Readonly<Record<string, T>>} map
 * @param {string} name
 * @param {string} what
 * @param {string} where
 * @returns {T}
 */
function pick(map, name, what, where) {
  const found = map[name];
  if (found === undefined) {
    throw new UserError(`unknown ${what} '${name}'; known: ${Object.keys(map).join(', ') || '(none)'} (files ${where}<name>.yml)`);
  }
  return found;
}

/**
 * @param {import('../types.js').Config} config
 * @param {{product: string, version: string, provider?: string, path?: string, label?: string, preinstalled?: boolean}} r
 *   preinstalled: already in the install cache, so no provider has to be able to fetch it
 * @param {string} engine
 * @returns {Omit<ResolvedRelease, 'engine'|'mycnfName'|'mycnfTemplate'>}
 */
function resolveRelease(config, r, engine) {
  const product = pick(config.products, r.product, 'product', 'configs/products/');
  const provider = r.provider ?? (r.path ? 'path' : 'deb');
  if (provider === 'deb' && !r.preinstalled && !product.deb?.[r.version]) {
    const known = Object.keys(product.deb ?? {}).join(', ') || '(none)';
    throw new UserError(`${r.product} ${r.version} is not available from the deb provider; available: ${known} (add it under 'deb:' in configs/products/${r.product}.yml, build it first with \`tagbench install ${r.product} ${r.version} --provider source\`, or use --provider path --path PREFIX)`);
  }
  const engines = product.engines ?? ['innodb'];
  if (!engines.includes(/** @type {any} */ (engine))) {
    throw new UserError(`engine '${engine}' is not available for ${r.product}; configs/products/${r.product}.yml lists: ${engines.join(', ')}`);
  }
  if (r.label !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/.test(r.label)) {
    throw new UserError(`bad label '${r.label}' for ${r.product} ${r.version}: use up to 32 letters, digits, '_' or '-'`);
  }
  return { product: r.product, version: r.version, line: lineOf(product, r.version), provider, ...(r.path ? { path: r.path } : {}), ...(r.label ? { label: r.label } : {}) };
}

/**
 * How a run names a release: `product@version`, with `#label` when two servers of one release
 * take part (an A/A calibration).
 * @param {{product: string, version: string, label?: string}} r
 * @returns {string}
 */
export function releaseKey(r) {
  return `${r.product}@${r.version}${r.label ? `#${r.label}` : ''}`;
}

/**
 * The release line a version belongs to: the longest line name that is a dotted prefix of it.
 * @param {import('../types.js').ProductConfig} product
 * @param {string} version
 * @returns {string}
 * @throws {UserError} when no line matches
 */
export function lineOf(product, version) {
  const matches = product.lines.filter((l) => version === l.name || version.startsWith(`${l.name}.`));
  if (matches.length === 0) {
    throw new UserError(`version ${version} belongs to no release line of ${product.name}; lines: ${product.lines.map((l) => l.name).join(', ')} (configs/products/${product.name}.yml)`);
  }
  return matches.sort((a, b) => b.name.length - a.name.length)[0].name;
}

/** Install providers a release of --releases may name for itself (scripts/install/). */
const RELEASE_PROVIDERS = ['deb', 'path', 'source', 'tarball'];

/**
 * Parse `product@version[#label][:provider[@commit]|=prefix][,...]`. A label tells apart two
 * servers of one version (our source build beside Debian's: `mariadb@10.11.18,mariadb@10.11.18#ours:source`);
 * `:provider` takes that release from that provider, `=prefix` from an installed prefix (the path
 * provider); `:source@<commit>` the source build of exactly that commit (a moved tag's install
 * cache holds a build of each). A release that names neither gets --provider / --path.
 * @param {string} text
 * @returns {{product: string, version: string, label?: string, provider?: string, commit?: string, path?: string}[]}
 * @throws {UserError}
 */
export function parseReleaseList(text) {
  return parseList(text).map((item) => {
    const m = /^([a-z][a-z0-9-]*)@([0-9][0-9A-Za-z.+~-]*)(?:#([^:=]*))?(?::([^=@]*)(?:@([^=]*))?|=(.+))?$/.exec(item);
    if (!m) throw new UserError(`bad release '${item}' in --releases: expected product@version, e.g. mariadb@10.11.18 (optionally #label, then :provider or =prefix: mariadb@10.11.18#ours:source)`);
    const [, product, version, label, provider, commit, path] = m;
    if (commit !== undefined && (provider !== 'source' || !COMMIT_RE.test(commit))) {
      throw new UserError(`bad release '${item}' in --releases: @<commit> follows :source and is a full commit id (40 or 64 hex digits), e.g. mariadb@10.11.19:source@${'0'.repeat(40)}`);
    }
    if (label !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/.test(label)) {
      throw new UserError(`bad label '${label}' in --releases '${item}': use up to 32 letters, digits, '_' or '-'`);
    }
    if (provider !== undefined && !RELEASE_PROVIDERS.includes(provider)) {
      throw new UserError(`unknown provider '${provider}' in --releases '${item}'; known: ${RELEASE_PROVIDERS.join(', ')} (use =PREFIX for an installed prefix)`);
    }
    return {
      product, version,
      ...(label !== undefined ? { label } : {}),
      ...(provider !== undefined ? { provider } : {}),
      ...(commit !== undefined ? { commit } : {}),
      ...(path !== undefined ? { provider: 'path', path: resolvePath(path) } : {}),
    };
  });
}
