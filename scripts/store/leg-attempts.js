/**
 * Failed leg attempts: a benchmark leg whose bench job failed, timed out or was cancelled leaves
 * no run record, so without these files nothing would remember it and watch would propose it
 * again every cycle, ahead of newer work. Stored once each at
 * `attempts/<host-class>/<product>/<version>/<suite>/<id>.json` (append-only like comparisons:
 * publishers on several runners never rewrite each other's), summarised in index.json for
 * watch's back-off. This module is their only reader and writer.
 * Schema: schemas/leg-attempt.schema.json.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import { registerSchema, validateAgainst } from '../config/index.js';
import { UserError } from '../errors.js';
import { writeFileOnce } from './write-file-once.js';
import { renderJson, contentId } from './store-paths.js';

const require = createRequire(import.meta.url);
const SCHEMA = /** @type {{$id: string, properties: {schemaVersion: {const: number}}}} */ (require('./schemas/leg-attempt.schema.json'));
registerSchema(SCHEMA);

/** Newest schemaVersion of leg attempts this tagbench reads and writes. */
export const LEG_ATTEMPT_SCHEMA_VERSION = SCHEMA.properties.schemaVersion.const;
const TOP = 'attempts';

/**
 * @typedef {object} LegAttempt
 * @property {1} schemaVersion
 * @property {string} at
 * @property {string} hostClass
 * @property {string} product
 * @property {string} version
 * @property {string} suite
 * @property {'failure'|'cancelled'} outcome
 * @property {string} reason
 * @property {string|null} runUrl
 */

/**
 * @typedef {object} LegAttempts what index.json keeps of one leg's failed attempts
 * @property {string} hostClass
 * @property {string} product
 * @property {string} version
 * @property {string} suite
 * @property {number} count
 * @property {string} firstAt
 * @property {string} lastAt
 * @property {'failure'|'cancelled'} lastOutcome
 * @property {string} lastReason
 * @property {string|null} lastRunUrl
 * @property {string[]} [runUrls] the distinct workflow runs the attempts name, oldest first (absent
 *   in indexes written before it): watch counts only those of its own repository's runs
 */

/**
 * Store one failed attempt; its id comes from its time and content.
 * @param {string} storeDir results store root
 * @param {LegAttempt} attempt
 * @returns {Promise<{id: string, path: string}>}
 * @throws {UserError} when invalid (every problem listed)
 */
export async function writeLegAttempt(storeDir, attempt) {
  const problems = validateAgainst(SCHEMA.$id, attempt);
  if (problems.length > 0) throw new UserError(`leg attempt of ${attempt?.product ?? '?'} ${attempt?.version ?? '?'} is invalid, not stored:\n  - ${problems.join('\n  - ')}`);
  const id = contentId('attempt', attempt.at, attempt);
  const path = join(storeDir, legAttemptPath({ ...attempt, id }));
  await writeFileOnce(path, renderJson(attempt), { json: true, what: 'leg attempt' });
  return { id, path };
}

/**
 * @param {{hostClass: string, product: string, version: string, suite: string, id: string}} attempt
 * @returns {string} path relative to the store root
 */
export function legAttemptPath(attempt) {
  return join(TOP, attempt.hostClass, attempt.product, attempt.version, attempt.suite, `${attempt.id}.json`);
}

/**
 * Every failed attempt of a store, oldest first.
 * @param {string} storeDir results store root (missing = none)
 * @returns {Promise<(LegAttempt & {id: string, relPath: string})[]>}
 * @throws {UserError} naming the file that does not parse, is newer than this tagbench, is
 *   invalid, or sits at a path its content does not match
 */
export async function readLegAttempts(storeDir) {
  /** @type {(LegAttempt & {id: string, relPath: string})[]} */
  const out = [];
  /** @param {string} rel @param {number} depth */
  const walk = async (rel, depth) => {
    for (const e of await readdir(join(storeDir, rel), { withFileTypes: true }).catch(() => [])) {
      const child = join(rel, e.name);
      if (depth < 4 && e.isDirectory()) await walk(child, depth + 1);
      else if (depth === 4 && e.isFile() && e.name.endsWith('.json')) out.push(await readOne(storeDir, child));
    }
  };
  await walk(TOP, 0);
  return out.sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
}

/**
 * @param {string} storeDir
 * @param {string} relPath
 * @returns {Promise<LegAttempt & {id: string, relPath: string}>}
 */
async function readOne(storeDir, relPath) {
  const file = join(storeDir, relPath);
  let data;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UserError(`${file}: not valid JSON (${/** @type {Error} */ (err).message})`, { cause: err });
  }
  if (typeof data?.schemaVersion === 'number' && data.schemaVersion > LEG_ATTEMPT_SCHEMA_VERSION) {
    throw new UserError(`${file}: leg attempt schemaVersion ${data.schemaVersion} is newer than this tagbench reads (${LEG_ATTEMPT_SCHEMA_VERSION}); update tagbench`);
  }
  const problems = validateAgainst(SCHEMA.$id, data);
  if (problems.length > 0) throw new UserError(`${file} is not a valid leg attempt:\n  - ${problems.join('\n  - ')}`);
  const id = relPath.split('/').at(-1)?.replace(/\.json$/, '') ?? '';
  if (legAttemptPath({ ...data, id }) !== relPath) throw new UserError(`${file}: a leg attempt of ${data.hostClass}/${data.product}/${data.version}/${data.suite} belongs at ${legAttemptPath({ ...data, id })}`);
  return { ...data, id, relPath };
}

/**
 * One entry per leg (host class, product, version, suite) with failed attempts, for index.json.
 * Pure.
 * @param {LegAttempt[]} attempts oldest first
 * @returns {LegAttempts[]} sorted by leg
 */
export function summarizeLegAttempts(attempts) {
  /** @type {Map<string, LegAttempts>} */
  const legs = new Map();
  for (const a of attempts) {
    const key = [a.hostClass, a.product, a.version, a.suite].join('/');
    const seen = legs.get(key);
    const runUrls = seen?.runUrls ?? [];
    legs.set(key, {
      hostClass: a.hostClass, product: a.product, version: a.version, suite: a.suite,
      count: (seen?.count ?? 0) + 1, firstAt: seen?.firstAt ?? a.at,
      lastAt: a.at, lastOutcome: a.outcome, lastReason: a.reason, lastRunUrl: a.runUrl,
      runUrls: a.runUrl && !runUrls.includes(a.runUrl) ? [...runUrls, a.runUrl] : runUrls,
    });
  }
  return [...legs.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, v]) => v);
}

/**
 * A leg's key: `<host-class>/<product>/<version>/<suite>`, as the failed-leg filter matches
 * runs and comparisons to attempts.
 * @param {{hostClass: string, product: string, version: string, suite: string}} leg
 * @returns {string}
 */
export function legKey(leg) {
  return [leg.hostClass, leg.product, leg.version, leg.suite].join('/');
}

/**
 * @typedef {object} LegsBenchmarked what the store holds of the legs' work since their failures
 * @property {Set<string>} compared legKey of legs whose release has a comparison
 * @property {Map<string, string>} lastFinishedAt legKey -> start of its newest finished (not partial) run
 */

/**
 * Failed legs that nothing has benchmarked since (watch's back-off list, shown on the site): a
 * leg is done when its release has a comparison, or a run finished after its last failure. The
 * records a failed attempt published before it died (checkpoints, partial runs) do not end it:
 * watch resumes from them. Pure.
 * @param {LegAttempts[]} legs summarizeLegAttempts' entries
 * @param {LegsBenchmarked} benchmarked
 * @returns {LegAttempts[]} the legs still failed, in the given order
 */
export function openFailedLegs(legs, benchmarked) {
  return legs.filter((a) => {
    const leg = legKey(a);
    return !benchmarked.compared.has(leg) && !((benchmarked.lastFinishedAt.get(leg) ?? '') > a.lastAt);
  });
}
