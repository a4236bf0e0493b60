/**
 * Load every YAML file under configs/ once, validate each against its JSON Schema and hand the
 * stages one frozen object. All errors of all files are collected before failing, each naming
 * the file, the field as a dot path, the bad value and what is allowed.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, basename } from 'node:path';
import { parseDocument } from 'yaml';
import { UserError } from '../errors.js';
import { validateAgainst } from './validate.js';
import { getFlavor } from './flavors.js';

/** @typedef {import('../types.js').Config} Config */

/** The YAML collections under configs/: folder -> schema id. */
const COLLECTIONS = /** @type {const} */ ({ products: 'product', hosts: 'host', suites: 'suite' });

/**
 * @param {string} root project root (the folder holding configs/)
 * @returns {Promise<Readonly<Config>>}
 * @throws {UserError} listing every invalid file and field
 */
export async function loadConfig(root) {
  /** @type {string[]} */
  const errors = [];
  /** @type {Record<string, any>} */
  const out = { root };
  for (const [folder, schemaId] of Object.entries(COLLECTIONS)) {
    out[folder] = await loadCollection(root, folder, schemaId, errors);
  }
  // The schema has checked each product's flavor; a product that names no dispatch function
  // has its flavor's.
  for (const product of Object.values(out.products)) product.dispatchFunction ??= getFlavor(product.flavor).dispatchFunction;
  out.mycnf = await loadTemplates(join(root, 'configs', 'mycnf'));
  out.thresholds = await loadOne(root, join('configs', 'thresholds.yml'), 'thresholds', errors);
  if (errors.length > 0) {
    throw new UserError(`invalid configuration (${errors.length} problem${errors.length > 1 ? 's' : ''}):\n  - ${errors.join('\n  - ')}`);
  }
  return deepFreeze(/** @type {Config} */ (out));
}

/**
 * @param {string} root
 * @param {string} folder
 * @param {string} schemaId
 * @param {string[]} errors collects problems
 */
async function loadCollection(root, folder, schemaId, errors) {
  const dir = join(root, 'configs', folder);
  /** @type {Record<string, any>} */
  const items = {};
  const files = (await readdir(dir).catch(() => [])).filter((f) => /\.ya?ml$/.test(f)).sort();
  for (const file of files) {
    const rel = join('configs', folder, file);
    const data = await loadOne(root, rel, schemaId, errors);
    if (data === undefined) continue;
    const stem = basename(file).replace(/\.ya?ml$/, '');
    if (data.name !== stem) {
      errors.push(`${rel}: field 'name' is ${JSON.stringify(data.name)} but must equal the file name '${stem}'`);
      continue;
    }
    items[stem] = data;
  }
  return items;
}

/**
 * Parse one YAML file and validate it; problems go to `errors`, the result is undefined then.
 * @param {string} root
 * @param {string} rel path relative to root, used in messages
 * @param {string} schemaId
 * @param {string[]} errors
 * @returns {Promise<any>}
 */
export async function loadOne(root, rel, schemaId, errors) {
  let text;
  try {
    text = await readFile(join(root, rel), 'utf8');
  } catch (err) {
    errors.push(`${rel}: cannot read (${/** @type {NodeJS.ErrnoException} */ (err).code ?? err})`);
    return undefined;
  }
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) {
    for (const e of doc.errors) errors.push(`${rel}: malformed YAML at line ${e.linePos?.[0].line ?? '?'}: ${e.message.split('\n')[0]}`);
    return undefined;
  }
  const data = doc.toJS();
  const problems = validateAgainst(schemaId, data);
  for (const p of problems) errors.push(`${rel}: ${p}`);
  return problems.length > 0 ? undefined : data;
}

/** @param {string} dir */
async function loadTemplates(dir) {
  /** @type {Record<string, string>} */
  const out = {};
  const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.cnf')).sort();
  for (const f of files) out[f.replace(/\.cnf$/, '')] = await readFile(join(dir, f), 'utf8');
  return out;
}

/**
 * @template T
 * @param {T} value
 * @returns {T}
 */
function deepFreeze(value) {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

