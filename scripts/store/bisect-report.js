/**
 * Bisect reports: what `tagbench bisect` found (or why it stopped) between a good and a bad
 * release, with every probe's evidence. Stored once at
 * `bisects/<host-class>/<product>/<suite>/<id>.json` and never rewritten, like a comparison;
 * this module is their only reader and writer. Schema: schemas/bisect-report.schema.json.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import { registerSchema, validateAgainst } from '../config/index.js';
import { UserError } from '../errors.js';
import { writeFileOnce } from './write-file-once.js';
import { renderJson, contentId } from './store-paths.js';

const require = createRequire(import.meta.url);
const SCHEMA = /** @type {{$id: string, properties: {schemaVersion: {const: number}}}} */ (require('./schemas/bisect-report.schema.json'));
registerSchema(SCHEMA);

/** Newest schemaVersion of bisect reports this tagbench reads and writes. */
export const BISECT_REPORT_SCHEMA_VERSION = SCHEMA.properties.schemaVersion.const;
const TOP = 'bisects';

/**
 * @typedef {object} BisectRelease
 * @property {string} name version, or version#label for a labelled install
 * @property {string} version
 * @property {string} provider
 * @property {string} [label]
 * @property {string} [path]
 */

/**
 * @typedef {object} BisectProbe
 * @property {string} candidate name of the candidate probed
 * @property {number} index its place among the candidates (0-based)
 * @property {'good'|'bad'|'undecided'} call
 * @property {string} reason
 * @property {number} seconds
 * @property {{good: string[], candidate: string[]}} runIds the run records behind the probe
 * @property {Record<string, any>|null} adaptive what the adaptive repeats did
 * @property {{test: string, metric: string, call: 'good'|'bad'|'undecided', verdict: string|null, level: 'warn'|'issue'|null,
 *   ratio: number|null, ci: [number, number]|null, mde: number|null, instances: [number, number], pairedRounds?: number,
 *   reason: string}[]} evidence pairedRounds: set when the verdict was paired by round
 */

/**
 * @typedef {object} BisectReport
 * @property {1} schemaVersion
 * @property {string} createdAt
 * @property {string} finishedAt
 * @property {string} hostClass
 * @property {string} product
 * @property {string} suite
 * @property {BisectRelease} good
 * @property {BisectRelease} bad
 * @property {{comparisonId: string|null, testsFrom: 'comparison'|'option'}} source
 * @property {{test: string, metric: string}[]} targets
 * @property {BisectRelease[]} candidates oldest first
 * @property {BisectProbe[]} probes in the order they ran
 * @property {{status: 'found'|'stopped'|'interrupted', lastGood: string, firstBad: string, suspects: string[], message: string}} outcome
 * @property {string[]} notes
 */

/**
 * @param {unknown} report parsed JSON
 * @returns {string[]} one message per problem (field as a dot path); empty when valid
 */
export function validateBisectReport(report) {
  return validateAgainst(SCHEMA.$id, report);
}

/**
 * Store a bisect report; the id comes from its start time and content, so the same report
 * always lands on the same path.
 * @param {string} storeDir results store root
 * @param {BisectReport} report
 * @returns {Promise<{id: string, path: string}>}
 * @throws {UserError} when invalid (every problem listed), or a different report has that id
 */
export async function writeBisectReport(storeDir, report) {
  const problems = validateBisectReport(report);
  if (problems.length > 0) throw new UserError(`bisect report ${report?.good?.name ?? '?'}..${report?.bad?.name ?? '?'} is invalid, not stored:\n  - ${problems.join('\n  - ')}`);
  const id = contentId('bisect', report.createdAt, report);
  const path = join(storeDir, bisectReportPath({ ...report, id }));
  await writeFileOnce(path, renderJson(report), { json: true, what: 'bisect report' });
  return { id, path };
}

/**
 * Where a bisect report lives in a results store (the local directory and the results branch).
 * @param {{hostClass: string, product: string, suite: string, id: string}} report
 * @returns {string} path relative to the store root
 */
export function bisectReportPath(report) {
  return join(TOP, report.hostClass, report.product, report.suite, `${report.id}.json`);
}

/**
 * Read the bisect reports of a store, oldest first.
 * @param {string} storeDir results store root (missing = none)
 * @param {{hostClass?: string, product?: string, suite?: string}} [filter]
 * @returns {Promise<(BisectReport & {id: string})[]>}
 * @throws {UserError} naming the file that does not parse, is newer than this tagbench, or is invalid
 */
export async function readBisectReports(storeDir, filter = {}) {
  const levels = [filter.hostClass, filter.product, filter.suite];
  /** @type {string[]} */
  let dirs = [join(storeDir, TOP)];
  for (const wanted of levels) {
    /** @type {string[]} */
    const next = [];
    for (const dir of dirs) {
      if (wanted) next.push(join(dir, wanted));
      else for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) if (e.isDirectory()) next.push(join(dir, e.name));
    }
    dirs = next;
  }
  /** @type {(BisectReport & {id: string})[]} */
  const reports = [];
  for (const dir of dirs) {
    for (const name of (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.json'))) {
      const file = join(dir, name);
      let data;
      try {
        data = JSON.parse(await readFile(file, 'utf8'));
      } catch (err) {
        throw new UserError(`${file}: not valid JSON (${/** @type {Error} */ (err).message})`, { cause: err });
      }
      if (typeof data?.schemaVersion === 'number' && data.schemaVersion > BISECT_REPORT_SCHEMA_VERSION) {
        throw new UserError(`${file}: bisect report schemaVersion ${data.schemaVersion} is newer than this tagbench reads (${BISECT_REPORT_SCHEMA_VERSION}); update tagbench`);
      }
      const problems = validateBisectReport(data);
      if (problems.length > 0) throw new UserError(`${file} is not a valid bisect report:\n  - ${problems.join('\n  - ')}`);
      reports.push({ ...data, id: name.replace(/\.json$/, '') });
    }
  }
  return reports.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}
