/**
 * Baseline files: baselines/<host-class>/<product>/<line>/<suite>.yml name the accepted
 * reference release of a product line and the run records that stand for it. This module is
 * their only reader and writer: `compare`, `plan` and the site read them through it, and
 * `tagbench baseline promote` (promoteBaseline) is the only way one changes — locally, or in CI
 * through a pull request. A run never changes a baseline.
 */
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import { UserError } from '../errors.js';
import { registerSchema, validateAgainst } from '../config/index.js';
import { replaceFileAtomic } from './write-file-once.js';
import { readRecords } from './read-records.js';

/** @import { Baseline } from '../types.js' */

const require = createRequire(import.meta.url);
registerSchema(require('./schemas/baseline.schema.json'));

/** @typedef {{hostClass: string, product: string, line: string, suite: string}} BaselineKey */

/** A path part of a baseline file: what the schema allows, and never `..` or a slash. */
const PATH_PART = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * @param {string} dir the baselines folder
 * @param {BaselineKey} key
 * @returns {string} `<dir>/<host-class>/<product>/<line>/<suite>.yml`
 * @throws {UserError} when a part would leave the folder (`..`, `/`)
 */
export function baselinePath(dir, key) {
  for (const [name, value] of Object.entries({ hostClass: key.hostClass, product: key.product, line: key.line, suite: key.suite })) {
    if (!PATH_PART.test(value)) throw new UserError(`baseline ${name} ${JSON.stringify(value)} is not usable in a path: use letters, digits, '.', '_' and '-'`);
  }
  return join(dir, key.hostClass, key.product, key.line, `${key.suite}.yml`);
}

/**
 * Read one baseline file.
 * @param {string} dir the baselines folder
 * @param {BaselineKey} key
 * @returns {Promise<Baseline|null>} null when there is no baseline file
 * @throws {UserError} when the file does not parse, is invalid or names another key
 */
export async function readBaseline(dir, key) {
  const path = baselinePath(dir, key);
  let text;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return null;
    throw err;
  }
  return parseBaseline(path, text, key);
}

/**
 * Read every baseline under a baselines folder (the site shows them all). Files are found by
 * the layout `<host-class>/<product>/<line>/<suite>.yml`; anything else there (a README) is not
 * a baseline and is left alone. A missing folder means "no baselines".
 * @param {string} dir the baselines folder
 * @returns {Promise<Baseline[]>} sorted by path
 * @throws {UserError} naming every file that does not parse, is invalid, or sits at a path that
 *   does not match its content
 */
export async function readBaselines(dir) {
  /** @type {import('node:fs').Dirent[]} */
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return [];
    throw err;
  }
  const files = entries.filter((e) => e.isFile() && e.name.endsWith('.yml'))
    .map((e) => join(e.parentPath ?? /** @type {any} */ (e).path, e.name))
    .filter((path) => path.slice(dir.length).split('/').filter(Boolean).length === 4)
    .sort();
  /** @type {Baseline[]} */
  const out = [];
  /** @type {string[]} */
  const problems = [];
  for (const path of files) {
    const [hostClass, product, line, file] = path.slice(dir.length).split('/').filter(Boolean);
    try {
      out.push(parseBaseline(path, await readFile(path, 'utf8'), { hostClass, product, line, suite: file.replace(/\.yml$/, '') }));
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      problems.push(err.message);
    }
  }
  if (problems.length > 0) throw new UserError(`${problems.length} baseline file(s) in ${dir} cannot be used:\n  ${problems.join('\n  ')}`);
  return out;
}

/**
 * @param {string} path for messages
 * @param {string} text
 * @param {BaselineKey} key what the file's path says
 * @returns {Baseline}
 * @throws {UserError}
 */
function parseBaseline(path, text, key) {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new UserError(`${path}: malformed YAML: ${doc.errors[0].message.split('\n')[0]}; fix it or promote again with \`tagbench baseline promote\``);
  const data = doc.toJS();
  const problems = validateAgainst('baseline', data);
  for (const [k, v] of Object.entries(key)) if (data?.[k] !== v) problems.push(`field '${k}' is ${JSON.stringify(data?.[k])} but the file's path says ${JSON.stringify(v)}`);
  if (problems.length > 0) throw new UserError(`${path}: invalid baseline: ${problems.join('; ')}`);
  return data;
}

/**
 * Write (replace) a baseline file atomically.
 * @param {string} dir the baselines folder
 * @param {Baseline} baseline
 * @returns {Promise<string>} the path written
 * @throws {UserError} when the baseline is invalid
 */
export async function writeBaseline(dir, baseline) {
  const problems = validateAgainst('baseline', baseline);
  if (problems.length > 0) throw new UserError(`baseline for ${baseline.product} ${baseline.line} ${baseline.suite} on ${baseline.hostClass} is invalid, not written: ${problems.join('; ')}`);
  const path = baselinePath(dir, baseline);
  const head = `# Accepted baseline of ${baseline.product} ${baseline.line}, suite ${baseline.suite}, host class ${baseline.hostClass}.\n# Written by \`tagbench baseline promote\`; never changed by a run. Format: scripts/store/schemas/baseline.schema.json\n`;
  await replaceFileAtomic(path, head + stringify(baseline));
  return path;
}

/**
 * @typedef {object} Promotion what `tagbench baseline promote` asks for
 * @property {import('../types.js').ProductConfig} product
 * @property {string} line a line of the product
 * @property {string} version the release to accept
 * @property {string} hostClass
 * @property {string} suite
 * @property {string} storeDir results store holding its run records
 * @property {string} baselinesDir
 * @property {string[]} [runIds] the runs that stand for it; default: every complete run of it
 * @property {string} promotedAt ISO 8601
 * @property {string} [note]
 */

/**
 * Make a release the accepted baseline of a product line, suite and host class.
 * @param {Promotion} p
 * @returns {Promise<{path: string, baseline: Baseline, previous: Baseline|null}>}
 * @throws {UserError} an unknown line; runs that are not in the store or not of that release,
 *   line, host class and suite; no complete run when none are named
 */
export async function promoteBaseline(p) {
  const { product, line, version, hostClass, suite, storeDir } = p;
  if (!product.lines.some((l) => l.name === line)) throw new UserError(`product ${product.name} has no line '${line}'; lines: ${product.lines.map((l) => l.name).join(', ')} (configs/products/${product.name}.yml)`);
  const records = await readRecords(storeDir, { hostClass, product: product.name, suite, version });
  let runIds;
  if (p.runIds && p.runIds.length > 0) {
    const missing = p.runIds.filter((id) => !records.some((r) => r.id === id));
    if (missing.length > 0) throw new UserError(`--runs ${missing.join(', ')}: no such run record of ${product.name} ${version} (host class '${hostClass}', suite '${suite}') in ${storeDir}; available: ${records.map((r) => r.id).join(', ') || 'none'}`);
    runIds = p.runIds;
  } else {
    runIds = records.filter((r) => r.status === 'ok').map((r) => r.id);
    if (runIds.length === 0) throw new UserError(`no complete (status ok) run record of ${product.name} ${version} for host class '${hostClass}' and suite '${suite}' in ${storeDir}: run \`tagbench run\` for it first, or name runs with --runs`);
  }
  const wrongLine = records.filter((r) => runIds.includes(r.id) && r.release.line !== line);
  if (wrongLine.length > 0) throw new UserError(`run ${wrongLine[0].id} is of line ${wrongLine[0].release.line}, not ${line}`);
  const key = { hostClass, product: product.name, line, suite };
  const previous = await readBaseline(p.baselinesDir, key);
  /** @type {Baseline} */
  const baseline = {
    schemaVersion: 1,
    ...key,
    version,
    runIds,
    promotedAt: p.promotedAt,
    previous: previous ? { version: previous.version, runIds: previous.runIds } : null,
    ...(p.note ? { note: p.note } : {}),
  };
  return { path: await writeBaseline(p.baselinesDir, baseline), baseline, previous };
}
