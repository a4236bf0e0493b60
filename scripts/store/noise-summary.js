/**
 * The noise summary: what engineers answered on tagbench's official regression issues, counted
 * per metric (noise = a false alarm). `tagbench triage --out FILE` writes it; the site is meant
 * to read it (`site --noise-summary FILE`, like `--issues FILE`) and show the false alarms
 * found in service beside each host class's calibration figures. A file passed between
 * commands, not kept in the results store, like the issue list; this module is its only
 * reader and writer. Schema: schemas/noise-summary.schema.json.
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { registerSchema, validateAgainst } from '../config/index.js';
import { UserError } from '../errors.js';
import { replaceFileAtomic } from './write-file-once.js';

const require = createRequire(import.meta.url);
const SCHEMA = /** @type {{$id: string, properties: {schemaVersion: {const: number}}}} */ (require('./schemas/noise-summary.schema.json'));
registerSchema(SCHEMA);

/** Newest schemaVersion of noise summaries this tagbench reads and writes. */
export const NOISE_SUMMARY_SCHEMA_VERSION = SCHEMA.properties.schemaVersion.const;

/**
 * @typedef {object} MetricAnswers
 * @property {number} issues issues listing a regression of the metric
 * @property {number} noise judged noise (false alarms)
 * @property {number} confirmedBug
 * @property {number} expectedChange
 * @property {number} unanswered
 */

/**
 * @typedef {object} NoiseSummary
 * @property {1} schemaVersion
 * @property {string} createdAt ISO 8601
 * @property {string} repo owner/name
 * @property {number} issues official regression issues looked at (ad-hoc runs are left out)
 * @property {{'confirmed-bug': number, 'expected-change': number, noise: number, unanswered: number}} answers issues per answer
 * @property {Record<string, MetricAnswers>} metrics per metric
 * @property {{number: number, url: string, product: string, line: string, version: string, hostClass: string, suite: string, tests: string[]}[]} noise
 *   the issues judged noise; tests as `<test>:<metric>`
 */

/**
 * @param {unknown} summary parsed JSON
 * @returns {string[]} one message per problem (field as a dot path); empty when valid
 */
export function validateNoiseSummary(summary) {
  const problems = validateAgainst(SCHEMA.$id, summary);
  if (problems.length > 0) return problems;
  // Counts must add up: an answer per issue, and no metric with more judged than listed.
  const s = /** @type {NoiseSummary} */ (summary);
  const answered = Object.values(s.answers).reduce((a, b) => a + b, 0);
  if (answered !== s.issues) problems.push(`answers add up to ${answered}, but issues is ${s.issues}`);
  for (const [metric, m] of Object.entries(s.metrics)) {
    const judged = m.noise + m.confirmedBug + m.expectedChange + m.unanswered;
    if (judged !== m.issues) problems.push(`metrics.${metric}: noise + confirmedBug + expectedChange + unanswered is ${judged}, but issues is ${m.issues}`);
  }
  if (s.noise.length !== s.answers.noise) problems.push(`noise lists ${s.noise.length} issue(s), but answers.noise is ${s.answers.noise}`);
  return problems;
}

/**
 * Read a noise summary.
 * @param {string} file
 * @returns {Promise<NoiseSummary>}
 * @throws {UserError} when the file is missing, won't parse, is newer than this tagbench, or a field is wrong
 */
export async function readNoiseSummary(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`noise summary ${file}: cannot read (${/** @type {Error} */ (err).message}); pass the JSON \`tagbench triage --out FILE\` writes`, { cause: err });
  }
  /** @type {any} */
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file}: not valid JSON (${/** @type {Error} */ (err).message}); write it again with \`tagbench triage --out FILE\``, { cause: err });
  }
  if (typeof doc?.schemaVersion === 'number' && doc.schemaVersion > NOISE_SUMMARY_SCHEMA_VERSION) {
    throw new UserError(`${file}: noise summary schemaVersion ${doc.schemaVersion} is newer than this tagbench reads (${NOISE_SUMMARY_SCHEMA_VERSION}); update tagbench`);
  }
  const problems = validateNoiseSummary(doc);
  if (problems.length > 0) throw new UserError(`${file}: not a noise summary: ${problems.join('; ')}`);
  return doc;
}

/**
 * Write (replace) a noise summary atomically, after checking it.
 * @param {string} file
 * @param {NoiseSummary} summary
 * @returns {Promise<void>}
 * @throws {UserError} when the summary is invalid (every problem listed)
 */
export async function writeNoiseSummary(file, summary) {
  const problems = validateNoiseSummary(summary);
  if (problems.length > 0) throw new UserError(`noise summary for ${file} is invalid: ${problems.join('; ')}`);
  await replaceFileAtomic(file, `${JSON.stringify(summary, null, 2)}\n`);
}
