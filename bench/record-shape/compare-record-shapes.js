#!/usr/bin/env node
/**
 * Do two run records have the same SHAPE? Written to check a restructure of the workload and run
 * stages that promised "no change in records or numbers' shape": the same command run with the
 * old and the new code gives two records whose values differ (noise) but whose shape must not.
 *
 * What counts as shape (each difference found makes the CLI exit 1):
 *  - key paths: every path to a value, array elements unified (`steps[].repeats[].efficiency.cpuUsPerOp`),
 *    present in one record and not in the other; inside `steps` the comparison is also made
 *    step by step (steps matched by name), so a key that only some steps lost is found too;
 *  - types per path (number, string, date-time string, boolean, object, array, null); a path that
 *    is null in one record where the other has a number is reported as `nullable`, apart from
 *    other type changes;
 *  - the steps: names and their order, kind, group, reported, metric (the unit of `throughput`),
 *    params, status; per step the number of repeats, their indexes, instances and statuses;
 *  - the record's status, schemaVersion, release and config (which must be the same command's);
 *  - numbers: every number finite; a path that was never negative and now is.
 * Numbers whose typical size (geometric mean of the non-zero magnitudes of a path, pooled
 * over the steps) moved by a factor of `scaleWarn` or more are listed as warnings (a unit change such as
 * ms to s shows up there), but do not fail: on a loaded host some figures legitimately move by
 * that much.
 * A value that is null (or an array that is empty) in one record's step and not in the other's,
 * at a path where both records have nulls and values, and where one of the two records has that
 * step null in some repeats and not in others, is listed as a note, not a difference: which
 * repeats come out null is data (e.g. an insert-benchmark step shorter than one second has no
 * per-second rates, nor per-op figures), so are the keys below it. Likewise for an array empty
 * in every repeat of a step in one record and empty in some of that step's repeats in the other.
 *
 * Usage: node bench/record-shape/compare-record-shapes.js BEFORE.json AFTER.json [--json]
 *          [--scale-warn 10]
 * Prints a Markdown report (or the result as JSON) and exits 0 when the shapes match, 1 when
 * they differ, 2 on bad input.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

/**
 * @typedef {'missing-key'|'added-key'|'type'|'nullable'|'steps-order'|'step-missing'|'step-added'|'step-field'|'repeat-count'|'repeat-field'|'status'|'value'|'non-finite'|'sign'} DifferenceKind
 */

/**
 * @typedef {object} Difference one way the two records' shapes differ
 * @property {DifferenceKind} kind
 * @property {string} path unified key path (`steps[].repeats[].tps`), or the step's name for step checks
 * @property {string[]} steps the steps concerned (empty for paths outside `steps`, or when every step is)
 * @property {string} before what the before record has there
 * @property {string} after what the after record has there
 */

/**
 * @typedef {object} Note a null/value difference that is data, not shape
 * @property {'nullable-per-step'|'below-null'|'empty-array'} kind nullable-per-step: a path both
 *   records have both null and not null somewhere is null in one record's step and not in the
 *   other's (which repeats come out null is data); below-null: paths under `path` missing in
 *   steps where `path` is null (they cannot be there); empty-array: `path` is the elements of an
 *   array that is empty in those steps of one record, so they and the paths below are missing
 * @property {string} path
 * @property {string[]} steps
 * @property {string} before
 * @property {string} after
 * @property {string[]} paths below-null: the paths below
 */

/**
 * @typedef {object} Warning a number whose typical size moved a lot (not a shape difference)
 * @property {string} path pooled over the steps both records have
 * @property {number} beforeTypical geometric mean of the non-zero magnitudes
 * @property {number} afterTypical
 * @property {number} ratio larger over smaller
 */

/**
 * @typedef {object} StepSummary one step as both records have it
 * @property {string} name
 * @property {string|null} kind
 * @property {string|null} metric
 * @property {boolean|null} reported
 * @property {number|null} beforeRepeats null when the record lacks the step
 * @property {number|null} afterRepeats
 * @property {string|null} beforeStatus
 * @property {string|null} afterStatus
 * @property {number|null} beforeMedian median throughput of the ok repeats
 * @property {number|null} afterMedian
 */

/**
 * @typedef {object} ShapeComparison
 * @property {{id: string, version: string, status: string, steps: number}} before
 * @property {{id: string, version: string, status: string, steps: number}} after
 * @property {Difference[]} differences
 * @property {Note[]} notes null/value differences that are data, not shape (not a failure)
 * @property {Warning[]} warnings
 * @property {StepSummary[]} steps
 * @property {number} paths unified key paths seen in either record
 */

/**
 * @typedef {object} PathInfo what one record has at one path within one step
 * @property {Set<string>} types
 * @property {number[]} numbers
 * @property {number} values how many values the path has in this step
 * @property {number} nulls how many of them are null
 * @property {number} empties how many of them are empty arrays
 */

/** Outside `steps`, a path's "step" is this key. */
const NO_STEP = '';
/** Step fields that must be equal in both records (params compared as JSON). */
const STEP_FIELDS = /** @type {const} */ (['kind', 'group', 'reported', 'metric', 'params', 'status']);
/** Record fields whose values (not only types) must be equal: both records come from the same command. */
const SAME_VALUE_PATHS = [
  ['schemaVersion'], ['status'],
  ['release', 'product'], ['release', 'line'], ['release', 'version'], ['release', 'provider'],
  ['release', 'binarySha256'], ['release', 'packages'],
  ['host', 'class'], ['host', 'cores'], ['host', 'pinning'],
  ['config'],
];
const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/**
 * The type name a value counts as. Strings holding an ISO 8601 date-time are their own type, so
 * a timestamp turned into a number or a free text is caught.
 * @param {unknown} value
 * @returns {string}
 */
export function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return ISO_DATE.test(value) ? 'date-time' : 'string';
  return typeof value;
}

/**
 * Every key path of a record with the types (and numbers) found there, per step: paths inside
 * `steps[]` are kept under the step's name, the rest under ''. Array elements are unified (`[]`).
 * @param {unknown} record
 * @returns {Map<string, Map<string, PathInfo>>} path -> step -> info
 */
export function collectPaths(record) {
  /** @type {Map<string, Map<string, PathInfo>>} */
  const paths = new Map();
  /**
   * @param {unknown} value
   * @param {string} path
   * @param {string} step
   */
  const walk = (value, path, step) => {
    let byStep = paths.get(path);
    if (!byStep) paths.set(path, (byStep = new Map()));
    let info = byStep.get(step);
    if (!info) byStep.set(step, (info = { types: new Set(), numbers: [], values: 0, nulls: 0, empties: 0 }));
    const type = typeOf(value);
    info.types.add(type);
    info.values += 1;
    if (type === 'null') info.nulls += 1;
    if (Array.isArray(value) && value.length === 0) info.empties += 1;
    if (type === 'number') info.numbers.push(/** @type {number} */ (value));
    if (Array.isArray(value)) {
      for (const element of value) {
        const stepOfElement = path === 'steps' && step === NO_STEP ? stepName(element) : step;
        walk(element, `${path}[]`, stepOfElement);
      }
    } else if (type === 'object') {
      for (const [key, child] of Object.entries(/** @type {Record<string, unknown>} */ (value))) {
        walk(child, path === '' ? key : `${path}.${key}`, step);
      }
    }
  };
  walk(record, '', NO_STEP);
  paths.delete('');
  return paths;
}

/**
 * @param {Map<string, PathInfo>} byStep
 * @returns {Set<string>} the types of a path over the whole record
 */
function unionTypes(byStep) {
  return new Set([...byStep.values()].flatMap((i) => [...i.types]));
}

/**
 * Some values null and some not (in one step).
 * @param {PathInfo|undefined} info
 * @returns {boolean}
 */
function isMixed(info) {
  return info !== undefined && info.nulls > 0 && info.nulls < info.values;
}

/**
 * Do two type sets differ only in null?
 * @param {Set<string>} a
 * @param {Set<string>} b
 * @returns {boolean}
 */
function sameButNull(a, b) {
  const strip = (/** @type {Set<string>} */ t) => [...t].filter((x) => x !== 'null').sort().join('|');
  const sa = strip(a);
  const sb = strip(b);
  return (sa === sb && a.has('null') !== b.has('null')) || (sa === '' && a.has('null')) || (sb === '' && b.has('null'));
}

/**
 * `null|object (null ×3 of 8)`: the types, and how many values were null.
 * @param {Set<string>} types
 * @param {Map<string, PathInfo>} byStep
 * @returns {string}
 */
function describeInfo(types, byStep) {
  if (!types.has('null')) return describeTypes(types);
  let nulls = 0;
  let values = 0;
  for (const info of byStep.values()) { nulls += info.nulls; values += info.values; }
  return `${describeTypes(types)} (null ×${nulls} of ${values})`;
}

/**
 * The nearest ancestor of `path` that is null in `steps` of a record (so `path` cannot be
 * there), or null when there is none. With `emptyArrays`, an array that is empty in those steps
 * counts too (its elements cannot be there): `intervals[]` of a repeat too short for one interval.
 * @param {Map<string, Map<string, PathInfo>>} paths one record's paths
 * @param {string} path
 * @param {string[]} steps
 * @param {Map<string, Map<string, PathInfo>>} [other] the other record's paths: when given, an
 *   array empty in every repeat of a step counts when the other record has it empty in that
 *   step too, in some repeats (so emptiness there is data, not a change)
 * @returns {{path: string, why: 'null'|'empty'}|null} the ancestor (for an empty array: its
 *   elements' path, which may be `path` itself)
 */
function nullAncestor(paths, path, steps, other) {
  if (steps.length === 0) return null;
  for (const ancestor of [path, ...ancestorsOf(path)]) {
    const byStep = paths.get(ancestor);
    if (ancestor !== path && byStep && steps.every((st) => byStep.get(st)?.types.has('null'))) return { path: ancestor, why: 'null' };
    if (other && ancestor.endsWith('[]')) {
      const arrays = paths.get(ancestor.slice(0, -2));
      const otherArrays = other.get(ancestor.slice(0, -2));
      if (arrays && steps.every((st) => arrays.get(st)?.types.has('array') && !byStep?.has(st) && (otherArrays?.get(st)?.empties ?? 0) > 0)) {
        return { path: ancestor, why: 'empty' };
      }
    }
  }
  return null;
}

/**
 * `a.b[].c` -> `a.b[]`, `a.b`, `a` (nearest first).
 * @param {string} path
 * @returns {string[]}
 */
export function ancestorsOf(path) {
  /** @type {string[]} */
  const out = [];
  let rest = path;
  for (;;) {
    const cut = rest.endsWith('[]') ? rest.length - 2 : rest.lastIndexOf('.');
    if (cut <= 0) return out;
    rest = rest.slice(0, cut);
    out.push(rest);
  }
}

/**
 * Count a path that is missing in a step only because a value above it is null there, or an
 * array above it (or itself) is empty there.
 * @param {Note[]} notes
 * @param {{path: string, why: 'null'|'empty'}} parent
 * @param {string} path
 * @param {string[]} steps
 */
function addBelowNull(notes, parent, path, steps) {
  const kind = parent.why === 'null' ? 'below-null' : 'empty-array';
  let note = notes.find((n) => n.kind === kind && n.path === parent.path);
  if (!note) notes.push((note = { kind, path: parent.path, steps: [], before: '', after: '', paths: [] }));
  if (!note.paths.includes(path)) note.paths.push(path);
  for (const st of steps) if (st !== NO_STEP && !note.steps.includes(st)) note.steps.push(st);
}

/**
 * @param {unknown} step
 * @returns {string}
 */
function stepName(step) {
  const name = step !== null && typeof step === 'object' ? /** @type {{name?: unknown}} */ (step).name : undefined;
  return typeof name === 'string' ? name : '(unnamed step)';
}

/**
 * @param {Set<string>} types
 * @returns {string}
 */
function describeTypes(types) {
  return [...types].sort().join('|') || '(absent)';
}

/**
 * @param {number[]} values
 * @returns {number|null}
 */
export function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * @param {unknown} root
 * @param {string[]} keys
 * @returns {unknown}
 */
function at(root, keys) {
  /** @type {unknown} */
  let value = root;
  for (const key of keys) {
    if (value === null || typeof value !== 'object') return undefined;
    value = /** @type {Record<string, unknown>} */ (value)[key];
  }
  return value;
}

/**
 * JSON with object keys sorted, so that two equal values print the same whatever their key order.
 * @param {unknown} value
 * @returns {string}
 */
function canonical(value) {
  if (value === undefined) return '(absent)';
  return JSON.stringify(value, (_key, v) => (v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v));
}

/**
 * The places where two values differ, down to the first level where one side is not a plain
 * object (arrays are compared whole).
 * @param {unknown} b
 * @param {unknown} a
 * @param {string} path
 * @returns {{path: string, before: string, after: string}[]}
 */
export function differingLeaves(b, a, path) {
  const isObject = (/** @type {unknown} */ v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObject(b) && isObject(a)) {
    const ob = /** @type {Record<string, unknown>} */ (b);
    const oa = /** @type {Record<string, unknown>} */ (a);
    const keys = [...new Set([...Object.keys(ob), ...Object.keys(oa)])].sort();
    return keys.flatMap((k) => differingLeaves(ob[k], oa[k], `${path}.${k}`));
  }
  const cb = canonical(b);
  const ca = canonical(a);
  return cb === ca ? [] : [{ path, before: cb, after: ca }];
}

/**
 * `5 (ok×4, failed×1)`
 * @param {Array<Record<string, unknown>>} repeats
 * @returns {string}
 */
function describeRepeats(repeats) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const r of repeats) counts.set(String(r.status), (counts.get(String(r.status)) ?? 0) + 1);
  return `${repeats.length}${repeats.length > 0 ? ` (${[...counts].map(([s, n]) => `${s}×${n}`).join(', ')})` : ''}`;
}

/**
 * @param {string} text
 * @param {number} [max]
 * @returns {string}
 */
function clip(text, max = 120) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * @typedef {object} StepLike what this comparison reads of a step
 * @property {string} name
 * @property {Record<string, unknown>} fields
 * @property {Array<Record<string, unknown>>} repeats
 */

/**
 * @param {unknown} record
 * @returns {StepLike[]}
 */
function stepsOf(record) {
  const steps = at(record, ['steps']);
  if (!Array.isArray(steps)) return [];
  return steps.map((s) => {
    const fields = s !== null && typeof s === 'object' ? /** @type {Record<string, unknown>} */ (s) : {};
    const repeats = Array.isArray(fields.repeats) ? fields.repeats.filter((r) => r !== null && typeof r === 'object') : [];
    return { name: stepName(s), fields, repeats: /** @type {Array<Record<string, unknown>>} */ (repeats) };
  });
}

/**
 * Median throughput of a step's ok repeats.
 * @param {StepLike|undefined} step
 * @returns {number|null}
 */
function medianThroughput(step) {
  if (!step) return null;
  const values = step.repeats
    .filter((r) => r.status === 'ok' && typeof r.throughput === 'number')
    .map((r) => /** @type {number} */ (r.throughput));
  return median(values);
}

/**
 * Compare the shapes of two run records.
 * @param {unknown} before the record written by the old code
 * @param {unknown} after the record written by the new code, same command
 * @param {{scaleWarn?: number}} [options] scaleWarn: the factor between typical sizes that is listed as a warning (default 10)
 * @returns {ShapeComparison}
 */
export function compareRecordShapes(before, after, options = {}) {
  const scaleWarn = options.scaleWarn ?? 10;
  /** @type {Difference[]} */
  const differences = [];
  /** @type {Warning[]} */
  const warnings = [];

  // --- steps: names, order, fields, repeats ---
  const stepsBefore = stepsOf(before);
  const stepsAfter = stepsOf(after);
  const byNameBefore = new Map(stepsBefore.map((s) => [s.name, s]));
  const byNameAfter = new Map(stepsAfter.map((s) => [s.name, s]));
  for (const s of stepsBefore) {
    if (!byNameAfter.has(s.name)) differences.push({ kind: 'step-missing', path: s.name, steps: [s.name], before: `${String(s.fields.kind)} step, ${s.repeats.length} repeats`, after: '(absent)' });
  }
  for (const s of stepsAfter) {
    if (!byNameBefore.has(s.name)) differences.push({ kind: 'step-added', path: s.name, steps: [s.name], before: '(absent)', after: `${String(s.fields.kind)} step, ${s.repeats.length} repeats` });
  }
  const commonBefore = stepsBefore.filter((s) => byNameAfter.has(s.name)).map((s) => s.name);
  const commonAfter = stepsAfter.filter((s) => byNameBefore.has(s.name)).map((s) => s.name);
  const firstMoved = commonBefore.findIndex((name, i) => commonAfter[i] !== name);
  if (firstMoved >= 0) {
    differences.push({
      kind: 'steps-order', path: 'steps[].name', steps: [commonBefore[firstMoved], commonAfter[firstMoved]],
      before: `position ${firstMoved}: ${commonBefore[firstMoved]} (then ${commonBefore.slice(firstMoved + 1, firstMoved + 3).join(', ')})`,
      after: `position ${firstMoved}: ${commonAfter[firstMoved]} (then ${commonAfter.slice(firstMoved + 1, firstMoved + 3).join(', ')})`,
    });
  }
  for (const name of commonBefore) {
    const b = /** @type {StepLike} */ (byNameBefore.get(name));
    const a = /** @type {StepLike} */ (byNameAfter.get(name));
    for (const field of STEP_FIELDS) {
      const vb = canonical(b.fields[field]);
      const va = canonical(a.fields[field]);
      if (vb !== va) differences.push({ kind: field === 'status' ? 'status' : 'step-field', path: `steps[].${field}`, steps: [name], before: clip(vb), after: clip(va) });
    }
    if (b.repeats.length !== a.repeats.length) {
      differences.push({ kind: 'repeat-count', path: 'steps[].repeats', steps: [name], before: describeRepeats(b.repeats), after: describeRepeats(a.repeats) });
      continue;
    }
    for (const field of ['index', 'instance', 'status']) {
      const vb = canonical(b.repeats.map((r) => r[field]));
      const va = canonical(a.repeats.map((r) => r[field]));
      if (vb !== va) differences.push({ kind: field === 'status' ? 'status' : 'repeat-field', path: `steps[].repeats[].${field}`, steps: [name], before: clip(vb), after: clip(va) });
    }
  }

  // --- record-level values that the same command must reproduce ---
  for (const keys of SAME_VALUE_PATHS) {
    for (const leaf of differingLeaves(at(before, keys), at(after, keys), keys.join('.'))) {
      differences.push({ kind: keys[0] === 'status' ? 'status' : 'value', path: leaf.path, steps: [], before: clip(leaf.before), after: clip(leaf.after) });
    }
  }

  // --- key paths and types, step by step ---
  const pathsBefore = collectPaths(before);
  const pathsAfter = collectPaths(after);
  const allPaths = [...new Set([...pathsBefore.keys(), ...pathsAfter.keys()])].sort();
  const common = new Set(commonBefore);
  /** @type {Note[]} */
  const notes = [];
  for (const path of allPaths) {
    const pb = pathsBefore.get(path);
    const pa = pathsAfter.get(path);
    if (!pa || !pb) {
      const present = /** @type {Map<string, PathInfo>} */ (pb ?? pa);
      const absentFrom = pb ? pathsAfter : pathsBefore;
      const where = [...present.keys()];
      // below a value that is null in the record lacking the path (in every step that has it elsewhere)?
      const parent = where.every((step) => step !== NO_STEP && !common.has(step)) ? null : nullAncestor(absentFrom, path, where.filter((st) => st === NO_STEP || common.has(st)));
      if (parent !== null) {
        addBelowNull(notes, parent, path, where);
        continue;
      }
      const types = new Set([...present.values()].flatMap((i) => [...i.types]));
      differences.push({ kind: pa ? 'added-key' : 'missing-key', path, steps: where.filter((st) => st !== NO_STEP), before: pb ? describeTypes(types) : '(absent)', after: pa ? describeTypes(types) : '(absent)' });
      continue;
    }
    // the whole record's types at this path
    const allB = unionTypes(pb);
    const allA = unionTypes(pa);
    const nullableInBoth = allB.has('null') && allA.has('null') && allB.size > 1 && allA.size > 1;
    if (describeTypes(allB) !== describeTypes(allA)) {
      const kind = sameButNull(allB, allA) ? 'nullable' : 'type';
      const steps = [...new Set([...pb.keys(), ...pa.keys()])].filter((st) => st !== NO_STEP && describeTypes(pb.get(st)?.types ?? new Set()) !== describeTypes(pa.get(st)?.types ?? new Set()));
      differences.push({ kind, path, steps, before: describeInfo(allB, pb), after: describeInfo(allA, pa) });
    }
    // within the steps both have: who lost or gained the path, or changed its types?
    const stepKeys = [...new Set([...pb.keys(), ...pa.keys()])].filter((st) => st === NO_STEP || common.has(st));
    /** @type {string[]} */ const lost = [];
    /** @type {string[]} */ const gained = [];
    /** @type {Map<string, string[]>} */ const typeChanges = new Map();
    /** @type {Map<string, string[]>} */ const nullChanges = new Map();
    /** @type {number[]} */ const pooledB = [];
    /** @type {number[]} */ const pooledA = [];
    for (const step of stepKeys) {
      const ib = pb.get(step);
      const ia = pa.get(step);
      if (!ia || !ib) {
        const parent = nullAncestor(ia ? pathsBefore : pathsAfter, path, [step], ia ? pathsAfter : pathsBefore);
        if (parent !== null) addBelowNull(notes, parent, path, [step]);
        else (ia ? gained : lost).push(step);
        continue;
      }
      const tb = describeTypes(ib.types);
      const ta = describeTypes(ia.types);
      if (tb !== ta && describeTypes(allB) === describeTypes(allA)) {
        const map = sameButNull(ib.types, ia.types) ? nullChanges : typeChanges;
        const key = `${describeInfo(ib.types, new Map([[step, ib]]))}\u0000${describeInfo(ia.types, new Map([[step, ia]]))}`;
        map.set(key, [...(map.get(key) ?? []), step]);
      }
      checkNumbers(path, step, ib.numbers, ia.numbers, differences);
      pooledB.push(...ib.numbers);
      pooledA.push(...ia.numbers);
    }
    checkScale(path, pooledB, pooledA, scaleWarn, warnings);
    if (lost.length > 0) differences.push({ kind: 'missing-key', path, steps: lost.filter((st) => st !== NO_STEP), before: 'present', after: '(absent)' });
    if (gained.length > 0) differences.push({ kind: 'added-key', path, steps: gained.filter((st) => st !== NO_STEP), before: '(absent)', after: 'present' });
    for (const [key, steps] of typeChanges) {
      const [tb, ta] = key.split('\u0000');
      differences.push({ kind: 'type', path, steps: steps.filter((st) => st !== NO_STEP), before: tb, after: ta });
    }
    for (const [key, steps] of nullChanges) {
      const [tb, ta] = key.split('\u0000');
      // null here and a value there in the same step, while both records have both at this path:
      // which repeats came out null is data (e.g. a repeat too short for a per-second figure)
      // only when one side of the step has both (some repeats null, some not): a step null in
      // every repeat of one record and in none of the other's is a difference
      const mixed = steps.some((st) => isMixed(pb.get(st)) || isMixed(pa.get(st)));
      if (nullableInBoth && mixed) notes.push({ kind: 'nullable-per-step', path, steps: steps.filter((st) => st !== NO_STEP), before: tb, after: ta, paths: [] });
      else differences.push({ kind: 'nullable', path, steps: steps.filter((st) => st !== NO_STEP), before: tb, after: ta });
    }
  }

  // --- per-step summary (with throughput medians, for information) ---
  /** @type {StepSummary[]} */
  const steps = [];
  const order = [...stepsBefore.map((s) => s.name), ...stepsAfter.map((s) => s.name).filter((n) => !byNameBefore.has(n))];
  for (const name of order) {
    const b = byNameBefore.get(name);
    const a = byNameAfter.get(name);
    const f = (b ?? a)?.fields ?? {};
    steps.push({
      name,
      kind: typeof f.kind === 'string' ? f.kind : null,
      metric: typeof f.metric === 'string' ? f.metric : null,
      reported: typeof f.reported === 'boolean' ? f.reported : null,
      beforeRepeats: b ? b.repeats.length : null,
      afterRepeats: a ? a.repeats.length : null,
      beforeStatus: b && typeof b.fields.status === 'string' ? b.fields.status : null,
      afterStatus: a && typeof a.fields.status === 'string' ? a.fields.status : null,
      beforeMedian: medianThroughput(b),
      afterMedian: medianThroughput(a),
    });
  }

  /**
   * @param {unknown} record
   * @param {StepLike[]} list
   */
  const head = (record, list) => ({
    id: String(at(record, ['id'])),
    version: String(at(record, ['release', 'version'])),
    status: String(at(record, ['status'])),
    steps: list.length,
  });
  return { before: head(before, stepsBefore), after: head(after, stepsAfter), differences, notes, warnings, steps, paths: allPaths.length };
}

/**
 * Finite numbers, no new negatives.
 * @param {string} path
 * @param {string} step
 * @param {number[]} nb
 * @param {number[]} na
 * @param {Difference[]} differences
 */
function checkNumbers(path, step, nb, na, differences) {
  if (nb.length === 0 && na.length === 0) return;
  const steps = step === NO_STEP ? [] : [step];
  const badB = nb.filter((x) => !Number.isFinite(x));
  const badA = na.filter((x) => !Number.isFinite(x));
  if (badB.length > 0 || badA.length > 0) {
    differences.push({ kind: 'non-finite', path, steps, before: badB.length > 0 ? badB.map(String).join(', ') : 'finite', after: badA.length > 0 ? badA.map(String).join(', ') : 'finite' });
    return;
  }
  if (nb.length > 0 && nb.every((x) => x >= 0) && na.some((x) => x < 0)) {
    differences.push({ kind: 'sign', path, steps, before: `never negative (min ${Math.min(...nb)})`, after: `negative (min ${Math.min(...na)})` });
  }
}

/**
 * @param {number[]} values
 * @returns {number|null} geometric mean of the finite non-zero magnitudes; null when there are none
 */
function geometricMean(values) {
  const logs = values.filter((x) => x !== 0 && Number.isFinite(x)).map((x) => Math.log(Math.abs(x)));
  return logs.length === 0 ? null : Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length);
}

/**
 * A path's typical size (geometric mean of the non-zero magnitudes over every step both records have)
 * moved by scaleWarn or more: a warning. Pooled over steps, a unit change (every step x1000)
 * stands out, while one step's noisy figure (a per-op read count on a busy host) does not.
 * @param {string} path
 * @param {number[]} nb
 * @param {number[]} na
 * @param {number} scaleWarn
 * @param {Warning[]} warnings
 */
function checkScale(path, nb, na, scaleWarn, warnings) {
  const mb = geometricMean(nb);
  const ma = geometricMean(na);
  if (mb !== null && ma !== null) {
    const ratio = Math.max(mb, ma) / Math.min(mb, ma);
    if (ratio >= scaleWarn) warnings.push({ path, beforeTypical: mb, afterTypical: ma, ratio });
  }
}

/**
 * @param {number|null} x
 * @returns {string}
 */
function formatNumber(x) {
  if (x === null) return '–';
  if (Math.abs(x) >= 100) return Math.round(x).toLocaleString('en-US');
  return x.toPrecision(3);
}

/**
 * @param {string} text
 * @returns {string}
 */
function cell(text) {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * The comparison as Markdown: verdict, differences, warnings, then the steps side by side.
 * @param {ShapeComparison} result
 * @param {{before?: string, after?: string, medians?: boolean}} [labels] file names to show; medians: add the throughput columns (default true)
 * @returns {string}
 */
export function renderMarkdown(result, labels = {}) {
  const lines = [];
  const nameB = labels.before ?? result.before.id;
  const nameA = labels.after ?? result.after.id;
  lines.push(`### Record shapes: ${result.before.version} before vs after`, '');
  lines.push(`- before: \`${nameB}\` (id ${result.before.id}, status ${result.before.status}, ${result.before.steps} steps)`);
  lines.push(`- after: \`${nameA}\` (id ${result.after.id}, status ${result.after.status}, ${result.after.steps} steps)`);
  lines.push(`- key paths compared (array elements unified, step by step): ${result.paths}`);
  lines.push('');
  if (result.differences.length === 0) {
    lines.push('**No shape difference.**');
  } else {
    lines.push(`**${result.differences.length} shape difference(s):**`, '');
    lines.push('| kind | path | steps | before | after |', '|---|---|---|---|---|');
    for (const d of result.differences) {
      const steps = d.steps.length > 4 ? `${d.steps.slice(0, 4).join(', ')} and ${d.steps.length - 4} more` : d.steps.join(', ');
      lines.push(`| ${d.kind} | \`${cell(d.path)}\` | ${cell(steps) || '–'} | ${cell(d.before)} | ${cell(d.after)} |`);
    }
  }
  lines.push('');
  if (result.notes.length > 0) {
    lines.push('Null or not, by the data (not a shape difference): both records have these paths both null and not null; which steps or repeats came out null differs.', '');
    lines.push('| note | path | steps | before | after |', '|---|---|---|---|---|');
    for (const n of result.notes) {
      if (n.kind === 'below-null' || n.kind === 'empty-array') {
        const below = n.paths.filter((x) => x !== n.path).map((x) => x.slice(n.path.length));
        const list = `${below.slice(0, 3).join(', ')}${below.length > 3 ? ', …' : ''}`;
        const what = n.kind === 'below-null' ? `${below.length} path(s) below a null` : 'array empty in one record\'s step';
        lines.push(`| ${what} | \`${cell(n.path)}\` | ${cell(n.steps.join(', ')) || '–'} | missing in the steps where ${n.kind === 'below-null' ? 'it is null' : 'the array is empty'}${list ? ` (${cell(list)})` : ''} | |`);
      } else {
        lines.push(`| null in one step, not in the other | \`${cell(n.path)}\` | ${cell(n.steps.join(', ')) || '–'} | ${cell(n.before)} | ${cell(n.after)} |`);
      }
    }
    lines.push('');
  }
  if (result.warnings.length > 0) {
    lines.push(`${result.warnings.length} number(s) whose typical size moved by the warning factor or more (not a shape difference; check the unit):`, '');
    lines.push('| path (pooled over steps) | typical before | typical after | ratio |', '|---|---:|---:|---:|');
    for (const w of result.warnings) {
      lines.push(`| \`${cell(w.path)}\` | ${formatNumber(w.beforeTypical)} | ${formatNumber(w.afterTypical)} | ${w.ratio.toFixed(1)} |`);
    }
    lines.push('');
  }
  const withMedians = labels.medians ?? true;
  lines.push(withMedians
    ? '| step | kind | metric | repeats before/after | status before/after | median throughput before | after |'
    : '| step | kind | metric | repeats before/after | status before/after |');
  lines.push(withMedians ? '|---|---|---|---|---|---:|---:|' : '|---|---|---|---|---|');
  for (const s of result.steps) {
    const row = `| ${cell(s.name)} | ${s.kind ?? '–'} | ${s.metric ?? '–'} | ${s.beforeRepeats ?? '–'} / ${s.afterRepeats ?? '–'} | ${s.beforeStatus ?? '–'} / ${s.afterStatus ?? '–'} |`;
    lines.push(withMedians ? `${row} ${formatNumber(s.beforeMedian)} | ${formatNumber(s.afterMedian)} |` : row);
  }
  lines.push('');
  return lines.join('\n');
}

/**
 * The CLI: read both files, print the report, exit 1 on a difference.
 * @param {string[]} argv
 * @returns {number} exit code
 */
export function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' }, 'scale-warn': { type: 'string' } } });
  } catch (err) {
    process.stderr.write(`${/** @type {Error} */ (err).message}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 2) {
    process.stderr.write('usage: node bench/record-shape/compare-record-shapes.js BEFORE.json AFTER.json [--json] [--scale-warn 10]\n');
    return 2;
  }
  const scaleWarn = values['scale-warn'] === undefined ? undefined : Number(values['scale-warn']);
  if (scaleWarn !== undefined && !(scaleWarn > 1)) {
    process.stderr.write(`--scale-warn must be a number above 1, got ${values['scale-warn']}\n`);
    return 2;
  }
  /** @type {unknown[]} */
  const records = [];
  for (const file of positionals) {
    try {
      records.push(JSON.parse(readFileSync(file, 'utf8')));
    } catch (err) {
      process.stderr.write(`cannot read a run record from ${file}: ${/** @type {Error} */ (err).message}\n`);
      return 2;
    }
  }
  const result = compareRecordShapes(records[0], records[1], { scaleWarn });
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : renderMarkdown(result, { before: positionals[0], after: positionals[1] }));
  return result.differences.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
