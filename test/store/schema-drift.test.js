// Keeps scripts/store/schemas/*.json and the typedefs of scripts/types.js in step: same field
// names, same required/optional split, same JSON types (including null) and enum values. A field added to
// one side only fails here, naming the typedef and the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

/** The typedef files, shared contracts first. */
const TYPE_FILES = ['../../scripts/types.js', '../../scripts/types/record.js', '../../scripts/types/comparison.js', '../../scripts/types/change-points.js'].map((p) => new URL(p, import.meta.url));
const schemaUrl = (/** @type {string} */ name) => new URL(`../../scripts/store/schemas/${name}.schema.json`, import.meta.url);

/** typedef name -> [schema file, path of the node inside it] @type {Record<string, [string, string[]]>} */
const MAPPING = {
  RunRecord: ['run-record', []],
  RecordRelease: ['run-record', ['$defs', 'RecordRelease']],
  RecordHost: ['run-record', ['$defs', 'RecordHost']],
  RecordConfig: ['run-record', ['$defs', 'RecordConfig']],
  Step: ['run-record', ['$defs', 'Step']],
  Repeat: ['run-record', ['$defs', 'Repeat']],
  StepMeterRun: ['run-record', ['$defs', 'StepMeterRun']],
  CountedRepeat: ['run-record', ['$defs', 'CountedRepeat']],
  InstructionFigures: ['run-record', ['$defs', 'InstructionFigures']],
  MeterSetup: ['run-record', ['$defs', 'MeterSetup']],
  MeterMetric: ['run-record', ['$defs', 'MeterMetric']],
  CounterFigures: ['run-record', ['$defs', 'CounterFigures']],
  TimedWorkFigures: ['run-record', ['$defs', 'TimedWorkFigures']],
  CounterPerOp: ['run-record', ['$defs', 'CounterPerOp']],
  CounterEvent: ['run-record', ['$defs', 'CounterEvent']],
  Interval: ['run-record', ['$defs', 'Interval']],
  RecordSamples: ['run-record', ['$defs', 'RecordSamples']],
  Efficiency: ['run-record', ['$defs', 'Efficiency']],
  DbSize: ['run-record', ['$defs', 'DbSize']],
  RocksdbFigures: ['run-record', ['$defs', 'RocksdbFigures']],
  RecordRef: ['run-record', ['$defs', 'RecordRef']],
  RefBase: ['run-record', ['$defs', 'RefBase']],
  ComparisonRef: ['comparison', ['$defs', 'ComparisonRef']],
  Comparison: ['comparison', []],
  TestVerdict: ['comparison', ['$defs', 'TestVerdict']],
  RocksdbComparison: ['comparison', ['$defs', 'RocksdbComparison']],
  WarmupExclusion: ['comparison', ['$defs', 'WarmupExclusion']],
  RocksdbSide: ['comparison', ['$defs', 'RocksdbSide']],
  TimedWorkComparison: ['comparison', ['$defs', 'TimedWorkComparison']],
  TimedWorkCounter: ['comparison', ['$defs', 'TimedWorkCounter']],
  CountedTypeComparison: ['comparison', ['$defs', 'CountedTypeComparison']],
  CountedTypeRow: ['comparison', ['$defs', 'CountedTypeRow']],
  ChangePoints: ['change-points', []],
  ChangePointMethod: ['change-points', ['$defs', 'ChangePointMethod']],
  ChangePointRelease: ['change-points', ['$defs', 'ChangePointRelease']],
  ChangePointSeries: ['change-points', ['$defs', 'ChangePointSeries']],
  ChangePointSeriesRelease: ['change-points', ['$defs', 'ChangePointSeriesRelease']],
  DetectedChangePoint: ['change-points', ['$defs', 'DetectedChangePoint']],
  Calibration: ['calibration', []],
};

/** Typedefs of every TYPE_FILES file (a name defined twice is itself drift). */
async function readTypedefs() {
  /** @type {Map<string, {name: string, type: string, optional: boolean}[]>} */
  const all = new Map();
  for (const url of TYPE_FILES) {
    for (const [name, props] of parseTypedefs(await readFile(url, 'utf8'))) {
      assert.ok(!all.has(name), `typedef ${name} is defined twice (${url.pathname})`);
      all.set(name, props);
    }
  }
  return all;
}

/**
 * Parse every `@typedef {object} Name` block of a JSDoc file into its properties.
 * @param {string} text
 * @returns {Map<string, {name: string, type: string, optional: boolean}[]>}
 */
function parseTypedefs(text) {
  /** @type {Map<string, {name: string, type: string, optional: boolean}[]>} */
  const out = new Map();
  for (const block of text.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
    const defAt = block.indexOf('@typedef {');
    if (defAt >= 0 && !block.startsWith('@typedef {object}', defAt)) {
      const [type, end] = readBraced(block, defAt + '@typedef '.length);
      const name = /^\s+(\w+)/.exec(block.slice(end));
      if (name) aliases.set(name[1], type);
    }
    const head = /@typedef \{object\} (\w+)/.exec(block);
    if (!head) continue;
    const props = [];
    let at = block.indexOf('@property ');
    while (at >= 0) {
      const [type, end] = readBraced(block, block.indexOf('{', at));
      const nameMatch = /^\s+(\[?)(\w+)\]?/.exec(block.slice(end));
      assert.ok(nameMatch, `cannot parse @property of ${head[1]} near ${block.slice(at, at + 60)}`);
      props.push({ name: nameMatch[2], type, optional: nameMatch[1] === '[' });
      at = block.indexOf('@property ', end);
    }
    out.set(head[1], props);
  }
  return out;
}

/**
 * @param {string} s
 * @param {number} open index of `{`
 * @returns {[string, number]} inner text and the index after the closing brace
 */
function readBraced(s, open) {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return [s.slice(open + 1, i).trim(), i + 1];
  }
  throw new Error(`unbalanced braces at ${open}`);
}

/** Split on `sep` at nesting depth 0. @param {string} s @param {string} sep */
function splitTop(s, sep) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if ('{[(<'.includes(s[i])) depth++;
    else if ('}])>'.includes(s[i])) depth--;
    else if (s[i] === sep && depth === 0) { parts.push(s.slice(start, i).trim()); start = i + 1; }
  }
  parts.push(s.slice(start).trim());
  return parts;
}

/** Non-object typedefs (`@typedef {'a'|'b'} Name`), filled by parseTypedefs. @type {Map<string, string>} */
const aliases = new Map();

/**
 * JSON types and string literals a JSDoc type allows.
 * @param {string} type
 * @returns {{types: Set<string>, literals: Set<string>}}
 */
function jsdocTypes(type) {
  const types = new Set();
  const literals = new Set();
  for (const alt of splitTop(type, '|')) {
    const alias = aliases.get(alt);
    if (alias) {
      const sub = jsdocTypes(alias);
      sub.types.forEach((t) => types.add(t));
      sub.literals.forEach((l) => literals.add(l));
    } else if (alt === 'string' || alt === 'boolean' || alt === 'null') types.add(alt);
    else if (alt === 'number') types.add('number');
    else if (/^'.*'$/.test(alt)) { types.add('string'); literals.add(alt.slice(1, -1)); }
    else if (alt.endsWith('[]') || alt.startsWith('[')) types.add('array');
    else types.add('object'); // {…}, Record<…>, or a typedef name
  }
  return { types, literals };
}

/**
 * JSON types a schema node allows, following $ref within the same file.
 * @param {any} node
 * @param {any} root
 */
function schemaTypes(node, root) {
  const types = new Set();
  /** @type {Set<unknown>|null} */
  let literals = null;
  const visit = (/** @type {any} */ n) => {
    if (n.type) (Array.isArray(n.type) ? n.type : [n.type]).forEach((/** @type {string} */ t) => types.add(t === 'integer' ? 'number' : t));
    if (n.enum) { literals = new Set(n.enum); n.enum.forEach((/** @type {unknown} */ v) => types.add(v === null ? 'null' : typeof v)); }
    if ('const' in n) types.add(typeof n.const);
    // A $ref only adds types when the referring node declares none (nullable-object pattern).
    if (n.$ref && !n.type) visit(resolve(root, n.$ref));
  };
  visit(node);
  return { types, literals };
}

/** @param {any} root @param {string} ref */
function resolve(root, ref) {
  assert.ok(ref.startsWith('#/'), `only local $ref expected, got ${ref}`);
  return ref.slice(2).split('/').reduce((n, k) => n[k], root);
}

/**
 * Properties node of a schema node (following a $ref to a $defs entry).
 * @param {any} node
 * @param {any} root
 * @returns {any}
 */
function objectNode(node, root) {
  return node.properties ? node : node.$ref ? objectNode(resolve(root, node.$ref), root) : node;
}

/**
 * @param {string} where for messages
 * @param {{name: string, type: string, optional: boolean}[]} props
 * @param {any} node schema object node
 * @param {any} root
 */
function compare(where, props, node, root) {
  const schemaKeys = Object.keys(node.properties ?? {}).sort();
  assert.deepEqual(schemaKeys, props.map((p) => p.name).sort(), `${where}: field names differ between the typedef and the schema`);
  assert.deepEqual([...(node.required ?? [])].sort(), props.filter((p) => !p.optional).map((p) => p.name).sort(), `${where}: required fields differ`);
  for (const p of props) {
    const field = node.properties[p.name];
    const want = jsdocTypes(p.type);
    const got = schemaTypes(field, root);
    assert.deepEqual([...got.types].sort(), [...want.types].sort(), `${where}.${p.name}: JSON types differ (typedef {${p.type}})`);
    if (want.literals.size > 0) {
      // null is a type (checked above), not a literal of the typedef's string union.
      assert.deepEqual([...(got.literals ?? [])].filter((v) => v !== null).sort(), [...want.literals].sort(), `${where}.${p.name}: enum values differ`);
    }
    // One level of inline object types, e.g. {afterLoad: DbSize|null, atEnd: DbSize|null}.
    const inline = /^\{(.*)\}$/.exec(p.type.replace(/\|null$/, ''));
    if (inline) {
      const inner = splitTop(inline[1], ',').map((kv) => {
        const m = /^(\w+)(\?)?:\s*(.*)$/.exec(kv);
        assert.ok(m, `${where}.${p.name}: cannot parse inline type ${kv}`);
        return { name: m[1], type: m[3], optional: Boolean(m[2]) };
      });
      compare(`${where}.${p.name}`, inner, objectNode(field, root), root);
    }
  }
}

test('every mapped typedef matches its schema node field by field', async () => {
  const typedefs = await readTypedefs();
  /** @type {Record<string, any>} */
  const schemas = {};
  for (const [name, [file, path]] of Object.entries(MAPPING)) {
    schemas[file] ??= JSON.parse(await readFile(schemaUrl(file), 'utf8'));
    const props = typedefs.get(name);
    assert.ok(props, `typedef ${name} not found in scripts/types.js or scripts/types/`);
    const node = path.reduce((n, k) => n?.[k], schemas[file]);
    assert.ok(node?.properties, `schema ${file}: no object node at ${path.join('.') || '(root)'} for typedef ${name}`);
    compare(name, props, node, schemas[file]);
  }
});

test('every $defs entry named like a typedef is mapped (no orphan shapes)', async () => {
  const typedefs = await readTypedefs();
  for (const file of ['run-record', 'comparison', 'change-points']) {
    const schema = JSON.parse(await readFile(schemaUrl(file), 'utf8'));
    for (const def of Object.keys(schema.$defs ?? {})) {
      if (typedefs.has(def)) assert.ok(def in MAPPING, `${file}.$defs.${def} mirrors a typedef but is not checked`);
    }
  }
});

test('the drift check itself notices a missing field', () => {
  const props = [{ name: 'a', type: 'string', optional: false }, { name: 'b', type: 'number|null', optional: true }];
  const node = { properties: { a: { type: 'string' } }, required: ['a'] };
  assert.throws(() => compare('X', props, node, node), /field names differ/);
  const typed = { properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] };
  assert.throws(() => compare('X', props, typed, typed), /X\.b: JSON types differ/);
});

test('the base of a ref run has one shape in records and comparisons', async () => {
  const record = JSON.parse(await readFile(schemaUrl('run-record'), 'utf8'));
  const comparison = JSON.parse(await readFile(schemaUrl('comparison'), 'utf8'));
  assert.deepEqual(comparison.$defs.RefBase, record.$defs.RefBase, 'comparison.$defs.RefBase is a copy of run-record.$defs.RefBase (typedef RefBase)');
});
