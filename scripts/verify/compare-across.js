/**
 * `tagbench compare --releases product@version,...`: one table of releases of any product lines
 * and products run on the same host class and suite, with ratios to the chosen base (seed post
 * 003's form). A view: no verdict is made or stored, since verdicts against a baseline belong to
 * one product line.
 */
import { resolve } from 'node:path';
import { findProduct } from '../config/index.js';
import { UserError, EXIT } from '../errors.js';
import { readRecords, replaceFileAtomic } from '../store/index.js';
import { computeCrossTable, renderCrossTable, releaseKey } from '../compare/index.js';
import { compareVersions } from '../version-order.js';
import { parseReleaseEntry, releaseEntryKey, selectEntryRecords, checkOneBuild, checkOneEngine } from './release-entry.js';

/** @typedef {{product: string, version: string, label?: string}} CrossEntry */

/**
 * The table across lines and products (see the module comment).
 * @param {Record<string, any> & {releases: string[]}} options see CompareOptions in
 *   compare-releases.js; releases as `product@version`, or plain versions of --product
 * @param {Pick<import('./load-verify-context.js').VerifyContext, 'config'|'out'|'color'>} ctx
 * @returns {Promise<number>} 0
 * @throws {UserError} bad options, or a release with no run record on the host class and suite
 */
export async function compareAcross(options, { config, out, color }) {
  if (options.line) throw new UserError(`--line ${options.line}: a table of releases named product@version spans lines and takes no --line; to judge releases of one line against its base, give --product and plain versions`);
  if (options.adaptive) throw new UserError('--adaptive runs more instances of undecided verdicts; a table of releases named product@version makes no verdicts: give --product and plain versions of one line');
  const hostClass = options.hostClass ?? 'local';
  const suite = options.suite ?? 'smoke';
  const storeDir = resolve(options.store ?? 'results');
  const named = parseCrossEntries(options.releases, options.product, config);
  const keys = named.map(releaseKey);
  const base = chooseCrossBase(options.base, named, options.product);
  /** @type {import('../compare/index.js').CrossRelease[]} */
  const releases = [];
  for (const entry of named) releases.push(await readCrossRelease(entry, { hostClass, suite, storeDir, keys, config }));
  const table = computeCrossTable({ hostClass, suite, base: base.key, releases });
  const baseLabel = table.columns.find((c) => c.key === base.key)?.label;
  const runs = table.columns.map((c, i) => `${c.label} (line ${c.line}): ${releases[i].records.map((r) => r.id).join(', ')}`).join('; ');
  const baseNote = `base ${baseLabel} (${base.source === 'option' ? '--base' : 'first release'}); runs: ${runs}`;
  out(renderCrossTable(table, { format: 'terminal', color }));
  out(`\n${baseNote}\n`);
  const createdAt = new Date().toISOString();
  if (options.markdown) {
    const md = [`# Across lines and products: ${suite} on ${hostClass}\n\n`, `Compared ${createdAt}; ${baseNote}.\n\n`, renderCrossTable(table, { format: 'markdown' })].join('');
    await replaceFileAtomic(resolve(options.markdown), md);
  }
  if (options.json) await replaceFileAtomic(resolve(options.json), `${JSON.stringify({ base, table }, null, 2)}\n`);
  return EXIT.ok;
}

/**
 * The releases of --releases as product, version and label, each product configured, none twice.
 * @param {string[]} items `product@version[#label]`, or `version[#label]` of --product
 * @param {string|undefined} product --product
 * @param {Readonly<import('../types.js').Config>} config
 * @returns {CrossEntry[]} in the order given
 * @throws {UserError} an entry without a product, an unknown product, a release named twice
 */
function parseCrossEntries(items, product, config) {
  const named = items.map((item) => {
    const m = /^([a-z][a-z0-9-]*)@(\S+)$/.exec(item);
    const name = m ? m[1] : product;
    if (!name) throw new UserError(`release '${item}' in --releases names no product: write product@version (e.g. mariadb@${item}), or give --product`);
    findProduct(config, name, 'product', `--releases '${item}'`);
    return { product: name, ...parseReleaseEntry(m ? m[2] : item) };
  });
  const keys = named.map(releaseKey);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice) throw new UserError(`--releases names ${twice} twice`);
  return named;
}

/**
 * One column of the table: the entry's run records on the host class and suite.
 * @param {CrossEntry} entry
 * @param {{hostClass: string, suite: string, storeDir: string, keys: string[], config: Readonly<import('../types.js').Config>}} where
 *   keys: every release of the table, for the `tagbench run` the message suggests
 * @returns {Promise<import('../compare/index.js').CrossRelease>}
 * @throws {UserError} no run record of the entry, or records of two engines or builds
 */
async function readCrossRelease(entry, { hostClass, suite, storeDir, keys, config }) {
  const { product, version } = entry;
  const records = selectEntryRecords(await readRecords(storeDir, { hostClass, product, version, suite, status: ['ok', 'failed'] }), entry);
  if (records.length === 0) {
    const versions = [...new Set((await readRecords(storeDir, { hostClass, product, suite })).map((r) => r.release.version))].sort(compareVersions);
    throw new UserError(`no run record of ${product} ${releaseEntryKey(entry)} for host class '${hostClass}' and suite '${suite}' in ${storeDir}; ${product} versions with records there: ${versions.join(', ') || 'none'} (run \`tagbench run --releases ${keys.join(',')}\` first, or check --store, --host-class, --suite)`);
  }
  checkOneEngine(records, entry, product);
  checkOneBuild(records, entry, product);
  // The newest run's line: a release belongs to one line, unless the product's lines were redrawn.
  const line = records.at(-1)?.release.line ?? '';
  return { product, productName: config.products[product].displayName, line, version, ...(entry.label ? { label: entry.label } : {}), records };
}

/**
 * The base of a cross table: --base as product@version, or as a plain version that names one
 * of the releases (of --product when given); else the first release.
 * @param {string|undefined} option --base
 * @param {CrossEntry[]} releases
 * @param {string|undefined} product --product
 * @returns {{key: string, source: 'option'|'first'}}
 * @throws {UserError} when --base names none of the releases, or several
 */
function chooseCrossBase(option, releases, product) {
  const keys = releases.map(releaseKey);
  if (!option) return { key: keys[0], source: 'first' };
  const matches = option.includes('@') ? keys.filter((k) => k === option)
    : releases.filter((r) => releaseEntryKey(r) === option && (!product || r.product === product)).map(releaseKey);
  if (matches.length === 1) return { key: matches[0], source: 'option' };
  throw new UserError(matches.length === 0
    ? `--base ${option} is none of --releases ${keys.join(', ')}; give one of them`
    : `--base ${option} names ${matches.join(' and ')}: write it as product@version`);
}
