/**
 * Baseline files: baselines/<host-class>/<product>/<line>/<suite>.yml name the accepted
 * reference release and the run records that stand for it. Read by compare; written only by
 * `tagbench baseline promote` (atomically: a temporary file renamed over the old one).
 */
import { readFile, writeFile, rename, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import { UserError } from '../errors.js';
import { registerSchema, validateAgainst } from '../config/index.js';

const require = createRequire(import.meta.url);
registerSchema(require('./schemas/baseline.schema.json'));

/**
 * @typedef {object} Baseline
 * @property {1} schemaVersion
 * @property {string} hostClass
 * @property {string} product
 * @property {string} line
 * @property {string} suite
 * @property {string} version
 * @property {string[]} runIds
 * @property {string} promotedAt ISO 8601
 * @property {{version: string, runIds: string[]}|null} [previous]
 * @property {string} [note]
 */

/**
 * @param {string} dir the baselines folder
 * @param {{hostClass: string, product: string, line: string, suite: string}} key
 * @returns {string}
 * @throws {UserError} when a part would leave the folder (`..`, `/`)
 */
export function baselinePath(dir, key) {
  for (const [name, value] of Object.entries({ hostClass: key.hostClass, product: key.product, line: key.line, suite: key.suite })) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value)) throw new UserError(`baseline ${name} ${JSON.stringify(value)} is not usable in a path: use letters, digits, '.', '_' and '-'`);
  }
  return join(dir, key.hostClass, key.product, key.line, `${key.suite}.yml`);
}

/**
 * @param {string} dir the baselines folder
 * @param {{hostClass: string, product: string, line: string, suite: string}} key
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
  await mkdir(dirname(path), { recursive: true });
  const head = `# Accepted baseline of ${baseline.product} ${baseline.line}, suite ${baseline.suite}, host class ${baseline.hostClass}.\n# Written by \`tagbench baseline promote\`; never changed by a run. Format: scripts/compare/schemas/baseline.schema.json\n`;
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, head + stringify(baseline));
  await rename(tmp, path);
  return path;
}
