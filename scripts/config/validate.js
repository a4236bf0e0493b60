/**
 * JSON Schema validation (ajv) with messages a person can act on: the field as a dot path,
 * the bad value, and what would be valid.
 */
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);
/** @type {Record<string, object>} */
const SCHEMAS = {
  product: require('./schemas/product.schema.json'),
  host: require('./schemas/host.schema.json'),
  suite: require('./schemas/suite.schema.json'),
  thresholds: require('./schemas/thresholds.schema.json'),
};

const ajv = new Ajv.default({ allErrors: true, strict: false, verbose: true });
addFormats.default(ajv);
ajv.addFormat('regex', { validate: (/** @type {string} */ s) => { try { new RegExp(s); return true; } catch { return false; } } });
for (const schema of Object.values(SCHEMAS)) ajv.addSchema(schema);

/**
 * Register another schema (stages with their own file formats, e.g. baselines).
 * @param {object & {$id: string}} schema
 */
export function registerSchema(schema) {
  if (!ajv.getSchema(schema.$id)) ajv.addSchema(schema);
}

/**
 * @param {string} schemaId
 * @param {unknown} data
 * @returns {string[]} one message per problem; empty when valid
 */
export function validateAgainst(schemaId, data) {
  const validate = ajv.getSchema(schemaId);
  if (!validate) throw new Error(`no schema registered as '${schemaId}'`);
  if (validate(data)) return [];
  return (validate.errors ?? []).map((e) => describeError(e, data));
}

/**
 * @param {import('ajv').ErrorObject} e
 * @param {unknown} data
 */
function describeError(e, data) {
  const path = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const field = path.length ? path.join('.') : '(top level)';
  const value = path.reduce((/** @type {any} */ v, k) => (v == null ? v : v[k]), data);
  const shown = value === undefined ? '' : ` (got ${JSON.stringify(value)})`;
  switch (e.keyword) {
    case 'required':
      return `${prefix(field)}missing required field '${e.params.missingProperty}'`;
    case 'additionalProperties':
      return `${prefix(field)}unknown field '${e.params.additionalProperty}'; allowed: ${allowedKeys(e)}`;
    case 'enum':
      return `field '${field}'${shown} must be one of: ${e.params.allowedValues.map((/** @type {unknown} */ v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `field '${field}'${shown} ${e.message}`;
  }
}

/** @param {string} field */
function prefix(field) {
  return field === '(top level)' ? '' : `in '${field}': `;
}

/** @param {import('ajv').ErrorObject} e */
function allowedKeys(e) {
  const props = /** @type {any} */ (e.parentSchema)?.properties;
  return props ? Object.keys(props).join(', ') : '(see the schema)';
}
