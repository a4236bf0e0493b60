/**
 * A release as `tagbench compare --releases` names it: `version`, or `version#label` for one
 * server kind of a release (an engine, or a run label such as the `#b` of an A/A run), and the
 * run records such an entry stands for. A column of a table is one release on one engine from
 * one build: records of two engines or two builds are refused rather than pooled into a median
 * that compares nothing.
 */
import { UserError } from '../errors.js';
import { runIdLabel } from '../run-id.js';
import { splitSuperseded } from '../compare/index.js';

/** Engines a label may name (a run on one of them is selected by its config, not by its id). */
const ENGINES = /** @type {const} */ (['innodb', 'rocksdb']);

/**
 * @typedef {object} ReleaseEntry
 * @property {string} version
 * @property {string} [label] engine or run label
 */

/**
 * A release named in --releases: `version` or `version#label`. Pure.
 * @param {string} item e.g. `10.11.18`, `10.11.18#rocksdb`
 * @returns {ReleaseEntry}
 * @throws {UserError} on an empty version or a label that no run could have given
 */
export function parseReleaseEntry(item) {
  const m = /^([^#\s]+)(?:#(.*))?$/.exec(item);
  if (!m) throw new UserError(`release '${item}' in --releases: write a version (10.11.18) or a labelled release (10.11.18#rocksdb)`);
  if (m[2] === undefined) return { version: m[1] };
  // The labels `tagbench run` gives (scripts/run/resolve-run.js): engines, or A/A server labels.
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/.test(m[2])) {
    throw new UserError(`bad label '${m[2]}' in --releases '${item}': a label is an engine (${ENGINES.join(', ')}) or a run label of up to 32 letters, digits, '_' or '-'`);
  }
  return { version: m[1], label: m[2] };
}

/**
 * How an entry is written back in columns and messages. Pure.
 * @param {ReleaseEntry} entry
 * @returns {string} `version` or `version#label`
 * @throws nothing
 */
export function releaseEntryKey(entry) {
  return `${entry.version}${entry.label ? `#${entry.label}` : ''}`;
}

/**
 * The records a release entry stands for. An engine label selects by the engine the record ran
 * (so `#rocksdb` also finds a run of `--engine rocksdb` alone, which has no label); another label
 * selects the records whose id carries it, as run-releases.js writes ids
 * (`<stamp>-<host>-<product>-<version>-<label>-<suite>-<tag>`). Pure.
 * @param {import('../types.js').RunRecord[]} records
 * @param {ReleaseEntry} entry
 * @returns {import('../types.js').RunRecord[]} those of the entry, in the order given
 * @throws nothing
 */
export function selectEntryRecords(records, entry) {
  // A moved tag's release is its new commit: runs of the commit it named before do not count.
  const ofVersion = splitSuperseded(records.filter((r) => r.release.version === entry.version)).records;
  const { label } = entry;
  // A plain version is the release's own server: the runs of another labelled server of that
  // version beside it (our source build `#ours` next to Debian's) are a column of their own.
  if (label === undefined) return ofVersion.filter((r) => { const l = runIdLabel(r); return l === null || ENGINES.includes(/** @type {any} */ (l)); });
  if (/** @type {readonly string[]} */ (ENGINES).includes(label)) return ofVersion.filter((r) => r.config.engine === label);
  return ofVersion.filter((r) => runIdLabel(r) === label);
}

/**
 * Refuse a column whose records come from different builds of the release (a Debian package
 * and our source build, or two build profiles): a median over both compares nothing. Two
 * builds of one version are two columns: run the second with a label
 * (`tagbench run --releases P@V,P@V#ours:source`) and compare `V` with `V#ours`.
 * @param {import('../types.js').RunRecord[]} records one column's
 * @param {ReleaseEntry} entry
 * @param {string} product
 * @returns {void}
 * @throws {UserError} naming the builds and their runs
 */
export function checkOneBuild(records, entry, product) {
  const buildOf = (/** @type {import('../types.js').RunRecord} */ r) => `${r.release.provider}${r.release.buildProfile ? ` (profile ${r.release.buildProfile})` : ''}`;
  const builds = [...new Set(records.map(buildOf))].sort();
  if (builds.length <= 1) return;
  const runs = builds.map((b) => `${b}: ${records.filter((r) => buildOf(r) === b).map((r) => r.id).join(', ')}`).join('; ');
  throw new UserError(`${product} ${releaseEntryKey(entry)} has run records of ${builds.length} builds (${runs}); a release column is one build: run the other build under a label (tagbench run --releases ${product}@${entry.version},${product}@${entry.version}#ours:source) and compare ${entry.version} with ${entry.version}#ours, or keep the builds in separate stores`);
}

/**
 * Refuse a column whose records ran on two engines: InnoDB and MyRocks figures pooled into one
 * median compare nothing.
 * @param {import('../types.js').RunRecord[]} records one column's
 * @param {ReleaseEntry} entry
 * @param {string} product
 * @returns {void}
 * @throws {UserError} naming the engines, their runs and the labelled form to use
 */
export function checkOneEngine(records, entry, product) {
  const engines = [...new Set(records.map((r) => r.config.engine))].sort();
  if (engines.length <= 1) return;
  const runs = engines.map((e) => `${e}: ${records.filter((r) => r.config.engine === e).map((r) => r.id).join(', ')}`).join('; ');
  const version = entry.version;
  throw new UserError(`${product} ${releaseEntryKey(entry)} has run records of ${engines.length} engines (${runs}); a release is compared on one engine: name each engine as version#engine, e.g. --releases ${engines.map((e) => `${version}#${e}`).join(',')} (or ${engines.map((e) => `${product}@${version}#${e}`).join(',')} in a table across products)`);
}
