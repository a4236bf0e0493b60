/**
 * Validation of the files in the results store against their JSON Schemas
 * (scripts/store/schemas/). Messages name the field as a dot path (`steps.3.repeats.0.tps`),
 * the bad value and what is allowed, through the shared validator of scripts/config/.
 */
import { createRequire } from 'node:module';
import { registerSchema, validateAgainst } from '../config/index.js';

const require = createRequire(import.meta.url);
/** The schemas, by file kind. Their `schemaVersion` const is the newest version this code writes. */
export const SCHEMAS = Object.freeze({
  'run-record': /** @type {object & {$id: string, properties: {schemaVersion: {const: number}}}} */ (require('./schemas/run-record.schema.json')),
  comparison: /** @type {object & {$id: string, properties: {schemaVersion: {const: number}}}} */ (require('./schemas/comparison.schema.json')),
  'change-points': /** @type {object & {$id: string, properties: {schemaVersion: {const: number}}}} */ (require('./schemas/change-points.schema.json')),
});
for (const schema of Object.values(SCHEMAS)) registerSchema(schema);

/** Newest schemaVersion of run records this tagbench reads and writes. */
export const RECORD_SCHEMA_VERSION = SCHEMAS['run-record'].properties.schemaVersion.const;
/** Newest schemaVersion of comparisons this tagbench reads and writes. */
export const COMPARISON_SCHEMA_VERSION = SCHEMAS.comparison.properties.schemaVersion.const;
/** Newest schemaVersion of change-point files this tagbench reads and writes. */
export const CHANGE_POINTS_SCHEMA_VERSION = SCHEMAS['change-points'].properties.schemaVersion.const;

/**
 * Check a run record against the run-record schema.
 * @param {unknown} record parsed JSON
 * @returns {string[]} one message per problem (field as a dot path); empty when valid
 */
export function validateRecord(record) {
  const problems = validateKind('run-record', record);
  return problems.length > 0 ? problems : checkConsistency(/** @type {import('../types.js').RunRecord} */ (record));
}

/**
 * Rules across fields that a JSON Schema cannot say (readers such as compare look steps up by
 * name, so a duplicate would silently hide one of them).
 * @param {import('../types.js').RunRecord} record schema-valid
 * @returns {string[]}
 */
function checkConsistency(record) {
  /** @type {string[]} */
  const problems = [];
  /** @type {Map<string, number>} */
  const names = new Map();
  record.steps.forEach((step, i) => {
    const first = names.get(step.name);
    if (first !== undefined) problems.push(`field 'steps.${i}.name' (got ${JSON.stringify(step.name)}) repeats steps.${first}.name: step names must be unique in a record`);
    else names.set(step.name, i);
    if (record.status === 'ok' && step.status === 'failed') {
      problems.push(`field 'status' is "ok" but step '${step.name}' (steps.${i}) failed: a record with a failed step has status "failed"`);
    }
    /** @type {Set<number>} */
    const seen = new Set();
    step.repeats.forEach((rep, j) => {
      if (seen.has(rep.index)) problems.push(`field 'steps.${i}.repeats.${j}.index' (got ${rep.index}) is used twice in step '${step.name}'`);
      seen.add(rep.index);
    });
  });
  return problems;
}

/**
 * Check a comparison (verdicts of one candidate against one base) against its schema.
 * @param {unknown} comparison parsed JSON
 * @returns {string[]} one message per problem; empty when valid
 */
export function validateComparison(comparison) {
  return validateKind('comparison', comparison);
}

/**
 * Check a change-point file against its schema, then the rules across fields that the site
 * relies on to place each change point on its release.
 * @param {unknown} cp parsed JSON
 * @returns {string[]} one message per problem; empty when valid
 */
export function validateChangePoints(cp) {
  const problems = validateKind('change-points', cp);
  if (problems.length > 0) return problems;
  const data = /** @type {import('../types.js').ChangePoints} */ (cp);
  const order = data.releases.map((r) => r.version);
  /** @type {string[]} */
  const out = [];
  order.forEach((v, i) => {
    if (order.indexOf(v) !== i) out.push(`field 'releases.${i}.version' (got ${JSON.stringify(v)}) repeats releases.${order.indexOf(v)}: a release is in the series once`);
  });
  /** @type {Set<string>} */
  const seen = new Set();
  data.tests.forEach((t, i) => {
    const key = `${t.test}|${t.metric}`;
    if (seen.has(key)) out.push(`field 'tests.${i}' repeats test ${JSON.stringify(t.test)} metric ${JSON.stringify(t.metric)}`);
    seen.add(key);
    const versions = t.releases.map((r) => r.version);
    const positions = versions.map((v) => order.indexOf(v));
    positions.forEach((p, j) => {
      if (p === -1) out.push(`field 'tests.${i}.releases.${j}.version' (got ${JSON.stringify(versions[j])}) is not one of 'releases'`);
      else if (j > 0 && p <= positions[j - 1]) out.push(`field 'tests.${i}.releases' is not in the order of 'releases' at ${j}`);
    });
    // The release of each point of the series, so that index, version and previousVersion
    // can be checked against each other.
    const pointVersions = t.releases.flatMap((r) => Array.from({ length: r.n }, () => r.version));
    t.changePoints.forEach((c, j) => {
      const at = `tests.${i}.changePoints.${j}`;
      if (c.index >= pointVersions.length) out.push(`field '${at}.index' (got ${c.index}) is beyond the series' ${pointVersions.length} points`);
      else if (pointVersions[c.index] !== c.version || pointVersions[c.index - 1] !== c.previousVersion) {
        out.push(`field '${at}' says ${JSON.stringify(c.previousVersion)} -> ${JSON.stringify(c.version)} but points ${c.index - 1} and ${c.index} of the series belong to ${pointVersions[c.index - 1]} and ${pointVersions[c.index]}`);
      }
      if (c.atReleaseBoundary !== (c.version !== c.previousVersion)) out.push(`field '${at}.atReleaseBoundary' (got ${c.atReleaseBoundary}) must say whether version and previousVersion differ`);
    });
  });
  return out;
}

/**
 * @param {'run-record'|'comparison'|'change-points'} kind
 * @param {unknown} data
 * @returns {string[]}
 */
function validateKind(kind, data) {
  const newest = SCHEMAS[kind].properties.schemaVersion.const;
  const version = /** @type {any} */ (data)?.schemaVersion;
  // A newer file is not "invalid": its fields are unknown to us. Say so instead of listing
  // every unknown field as an error.
  if (typeof version === 'number' && version > newest) {
    return [`field 'schemaVersion' is ${version} but this tagbench reads ${kind} files up to version ${newest}: upgrade tagbench`];
  }
  return validateAgainst(SCHEMAS[kind].$id, data);
}
