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
 * Numbers whose typical size (median of the non-zero magnitudes, per step and path) moved by a
 * factor of `scaleWarn` or more are listed as warnings (a unit change such as ms to s shows up
 * there), but do not fail: on a loaded host some figures (a maximum latency, a rare error count)
 * legitimately move by that much.
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
 * @typedef {object} Warning a number whose typical size moved a lot (not a shape difference)
 * @property {string} path
 * @property {string} step '' outside `steps`
 * @property {number} beforeMedian median of the non-zero magnitudes
 * @property {number} afterMedian
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
 * @property {Warning[]} warnings
 * @property {StepSummary[]} steps
 * @property {number} paths unified key paths seen in either record
 */

/**
 * @typedef {object} PathInfo what one record has at one path within one step
 * @property {Set<string>} types
 * @property {number[]} numbers
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
    if (!info) byStep.set(step, (info = { types: new Set(), numbers: [] }));
    const type = typeOf(value);
    info.types.add(type);
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
  for (const path of allPaths) {
    const pb = pathsBefore.get(path);
    const pa = pathsAfter.get(path);
    if (!pa || !pb) {
      const present = /** @type {Map<string, PathInfo>} */ (pb ?? pa);
      const types = new Set([...present.values()].flatMap((i) => [...i.types]));
      const where = [...present.keys()].filter((s) => s !== NO_STEP);
      differences.push({ kind: pa ? 'added-key' : 'missing-key', path, steps: where, before: pb ? describeTypes(types) : '(absent)', after: pa ? describeTypes(types) : '(absent)' });
      continue;
    }
    // the path exists in both; within the steps both have, who lost or gained it?
    const stepKeys = [...new Set([...pb.keys(), ...pa.keys()])].filter((s) => s === NO_STEP || common.has(s));
    /** @type {string[]} */ const lost = [];
    /** @type {string[]} */ const gained = [];
    /** @type {Map<string, string[]>} */ const typeChanges = new Map();
    /** @type {Map<string, string[]>} */ const nullableChanges = new Map();
    for (const step of stepKeys) {
      const ib = pb.get(step);
      const ia = pa.get(step);
      if (!ia) { lost.push(step); continue; }
      if (!ib) { gained.push(step); continue; }
      const tb = describeTypes(ib.types);
      const ta = describeTypes(ia.types);
      if (tb !== ta) {
        const changed = new Set([...ib.types, ...ia.types].filter((t) => !(ib.types.has(t) && ia.types.has(t))));
        const onlyNull = [...changed].every((t) => t === 'null' || t === 'number')
          && [...ib.types, ...ia.types].every((t) => t === 'null' || t === 'number');
        const map = onlyNull ? nullableChanges : typeChanges;
        const key = `${tb}\u0000${ta}`;
        map.set(key, [...(map.get(key) ?? []), step]);
      }
      checkNumbers(path, step, ib.numbers, ia.numbers, scaleWarn, differences, warnings);
    }
    if (lost.length > 0) differences.push({ kind: 'missing-key', path, steps: lost.filter((s) => s !== NO_STEP), before: 'present', after: '(absent)' });
    if (gained.length > 0) differences.push({ kind: 'added-key', path, steps: gained.filter((s) => s !== NO_STEP), before: '(absent)', after: 'present' });
    for (const [kind, map] of /** @type {const} */ ([['type', typeChanges], ['nullable', nullableChanges]])) {
      for (const [key, steps] of map) {
        const [tb, ta] = key.split('\u0000');
        differences.push({ kind, path, steps: steps.filter((s) => s !== NO_STEP), before: tb, after: ta });
      }
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
  return { before: head(before, stepsBefore), after: head(after, stepsAfter), differences, warnings, steps, paths: allPaths.length };
}

/**
 * Finite numbers, no new negatives; typical size moved by scaleWarn or more: a warning.
 * @param {string} path
 * @param {string} step
 * @param {number[]} nb
 * @param {number[]} na
 * @param {number} scaleWarn
 * @param {Difference[]} differences
 * @param {Warning[]} warnings
 */
function checkNumbers(path, step, nb, na, scaleWarn, differences, warnings) {
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
  const mb = median(nb.filter((x) => x !== 0).map(Math.abs));
  const ma = median(na.filter((x) => x !== 0).map(Math.abs));
  if (mb !== null && ma !== null) {
    const ratio = Math.max(mb, ma) / Math.min(mb, ma);
    if (ratio >= scaleWarn) warnings.push({ path, step, beforeMedian: mb, afterMedian: ma, ratio });
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
  if (result.warnings.length > 0) {
    lines.push(`${result.warnings.length} number(s) whose typical size moved by the warning factor or more (not a shape difference; check the unit):`, '');
    lines.push('| path | step | median before | median after | ratio |', '|---|---|---:|---:|---:|');
    for (const w of result.warnings) {
      lines.push(`| \`${cell(w.path)}\` | ${cell(w.step) || '–'} | ${formatNumber(w.beforeMedian)} | ${formatNumber(w.afterMedian)} | ${w.ratio.toFixed(1)} |`);
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
