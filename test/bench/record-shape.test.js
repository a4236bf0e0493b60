/**
 * bench/record-shape/compare-record-shapes.js on two real run records of the same command (the
 * demo suite, one release), written by the code before the workload/run restructure (0a43d30)
 * and after it: their shapes match. Doctored copies of the after record must be flagged, each
 * with the kind of difference it has.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compareRecordShapes, collectPaths, renderMarkdown, typeOf, median, differingLeaves } from '../../bench/record-shape/compare-record-shapes.js';
import { validateRecord } from '../../scripts/store/validate-record.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/bench/record-shape/', import.meta.url));
const SCRIPT = fileURLToPath(new URL('../../bench/record-shape/compare-record-shapes.js', import.meta.url));
const BEFORE_FILE = `${FIXTURES}before-mariadb-10.11.18.json`;
const AFTER_FILE = `${FIXTURES}after-mariadb-10.11.18.json`;

/**
 * @param {string} file
 * @returns {any} a parsed run record (tests poke into it freely)
 */
function load(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * The first step of a kind that has repeats.
 * @param {any} record
 * @param {string} kind
 * @returns {any}
 */
function stepOfKind(record, kind) {
  const step = record.steps.find((/** @type {any} */ s) => s.kind === kind && s.repeats.length > 0);
  assert.ok(step, `the fixture has a ${kind} step with repeats`);
  return step;
}

/**
 * @param {ReturnType<typeof compareRecordShapes>} result
 * @param {string} kind
 * @param {string} path
 * @returns {import('../../bench/record-shape/compare-record-shapes.js').Difference}
 */
function findDifference(result, kind, path) {
  const d = result.differences.find((x) => x.kind === kind && x.path === path);
  assert.ok(d, `expected a ${kind} difference at ${path}; got ${JSON.stringify(result.differences)}`);
  return d;
}

test('the fixtures are real, schema-valid records of the same release from the old and the new code', () => {
  const before = load(BEFORE_FILE);
  const after = load(AFTER_FILE);
  assert.deepEqual(validateRecord(before), []);
  assert.deepEqual(validateRecord(after), []);
  assert.equal(before.release.version, after.release.version);
  assert.notEqual(before.id, after.id);
  // the three benchmarks of the demo suite are there
  for (const kind of ['sysbench', 'ibench', 'linkbench']) stepOfKind(before, kind);
});

test('the old and the new code write records of the same shape', () => {
  const result = compareRecordShapes(load(BEFORE_FILE), load(AFTER_FILE));
  assert.deepEqual(result.differences, []);
  assert.ok(result.paths > 50, `many key paths compared, got ${result.paths}`);
  assert.equal(result.before.steps, result.after.steps);
  assert.match(renderMarkdown(result), /\*\*No shape difference\.\*\*/);
});

test('a record compared with itself has no difference and no warning', () => {
  const record = load(AFTER_FILE);
  const result = compareRecordShapes(record, structuredClone(record));
  assert.deepEqual(result.differences, []);
  assert.deepEqual(result.warnings, []);
});

test('a key dropped from one step only is found, with the step named', () => {
  const before = load(BEFORE_FILE);
  const after = structuredClone(before);
  const step = stepOfKind(after, 'sysbench');
  for (const r of step.repeats) delete r.efficiency.cpuUsPerOp;
  const d = findDifference(compareRecordShapes(before, after), 'missing-key', 'steps[].repeats[].efficiency.cpuUsPerOp');
  assert.deepEqual(d.steps, [step.name]);
});

test('a key gone from every record is reported once, under its unified path', () => {
  const before = load(BEFORE_FILE);
  const after = structuredClone(before);
  for (const s of after.steps) for (const r of s.repeats) delete r.mysqldRssKb;
  const result = compareRecordShapes(before, after);
  const d = findDifference(result, 'missing-key', 'steps[].repeats[].mysqldRssKb');
  assert.equal(d.after, '(absent)');
  assert.equal(result.differences.filter((x) => x.path === 'steps[].repeats[].mysqldRssKb').length, 1);
});

test('an added key, a type change and number/null are told apart', () => {
  const before = load(BEFORE_FILE);
  const after = structuredClone(before);
  const sys = stepOfKind(after, 'sysbench');
  sys.repeats[0].efficiency.extraPerOp = 1.5;
  sys.repeats[0].durationS = String(sys.repeats[0].durationS);
  sys.repeats[1].mysqldRssKb = null;
  const result = compareRecordShapes(before, after);
  assert.deepEqual(findDifference(result, 'added-key', 'steps[].repeats[].efficiency.extraPerOp').steps, [sys.name]);
  const type = findDifference(result, 'type', 'steps[].repeats[].durationS');
  assert.equal(type.before, 'number');
  assert.equal(type.after, 'number|string');
  const nullable = findDifference(result, 'nullable', 'steps[].repeats[].mysqldRssKb');
  assert.deepEqual(nullable.steps, [sys.name]);
  assert.equal(nullable.before, 'number');
  assert.match(nullable.after, /^null\|number \(null ×1 of \d+\)$/);
  assert.ok(!result.differences.some((d) => d.kind === 'type' && d.path === 'steps[].repeats[].mysqldRssKb'));
});

test('the real pair: null or empty in some repeats of the short insert-benchmark steps is a note, not a difference', () => {
  const result = compareRecordShapes(load(BEFORE_FILE), load(AFTER_FILE));
  // l.i2 lasted under a second in both repeats of the old run, and over a second in one of the new
  const note = result.notes.find((n) => n.kind === 'nullable-per-step' && n.path === 'steps[].repeats[].details.ibench.ratesPerS.inserts');
  assert.ok(note, JSON.stringify(result.notes));
  assert.deepEqual(note.steps, ['l.i2']);
  assert.ok(result.notes.some((n) => n.kind === 'empty-array' && n.path === 'steps[].repeats[].intervals[]'));
  assert.match(renderMarkdown(result), /null in one step, not in the other/);
});

test('a step null in every repeat of one record and in none of the other is a difference, though the path is nullable elsewhere', () => {
  const before = load(BEFORE_FILE);
  const after = structuredClone(before);
  const sys = stepOfKind(after, 'sysbench');
  for (const r of sys.repeats) r.efficiency = null;
  const result = compareRecordShapes(before, after);
  const d = findDifference(result, 'nullable', 'steps[].repeats[].efficiency');
  assert.deepEqual(d.steps, [sys.name]);
  // the keys below it are not listed one by one
  assert.ok(!result.differences.some((x) => x.path === 'steps[].repeats[].efficiency.cpuUsPerOp'));
});

test('per-second intervals dropped from every repeat of a step are a difference', () => {
  const before = load(BEFORE_FILE);
  const after = structuredClone(before);
  const sys = stepOfKind(after, 'sysbench');
  for (const r of sys.repeats) r.intervals = [];
  const result = compareRecordShapes(before, after);
  assert.deepEqual(findDifference(result, 'missing-key', 'steps[].repeats[].intervals[]').steps, [sys.name]);
  assert.deepEqual(findDifference(result, 'missing-key', 'steps[].repeats[].intervals[].qps').steps, [sys.name]);
});

test('a timestamp written as epoch milliseconds is a type change', () => {
  const before = load(BEFORE_FILE);
  const after = structuredClone(before);
  after.startedAt = Date.parse(after.startedAt);
  const d = findDifference(compareRecordShapes(before, after), 'type', 'startedAt');
  assert.equal(d.before, 'date-time');
  assert.equal(d.after, 'number');
});

test('steps moved, renamed or changed in kind, metric or params are flagged', () => {
  const before = load(BEFORE_FILE);
  const after = structuredClone(before);
  const [a, b] = [after.steps[1], after.steps[2]];
  after.steps[1] = b;
  after.steps[2] = a;
  const ib = stepOfKind(after, 'ibench');
  ib.metric = 'rows/s';
  const lb = stepOfKind(after, 'linkbench');
  const lbName = lb.name;
  lb.name = `${lbName}.renamed`;
  const sys = stepOfKind(after, 'sysbench');
  sys.params = { ...sys.params, extra: 1 };
  const result = compareRecordShapes(before, after);
  findDifference(result, 'steps-order', 'steps[].name');
  assert.deepEqual(findDifference(result, 'step-field', 'steps[].metric').steps, [ib.name]);
  assert.deepEqual(findDifference(result, 'step-field', 'steps[].params').steps, [sys.name]);
  assert.ok(result.differences.some((d) => d.kind === 'step-missing' && d.path === lbName));
  assert.ok(result.differences.some((d) => d.kind === 'step-added' && d.path === `${lbName}.renamed`));
});

test('repeats dropped, renumbered or failed, and a changed record status, are flagged', () => {
  const before = load(BEFORE_FILE);
  const after = structuredClone(before);
  const steps = after.steps.filter((/** @type {any} */ s) => s.repeats.length >= 2);
  steps[0].repeats.pop();
  steps[1].repeats[1].index = 7;
  steps[2].repeats[0].status = 'failed';
  steps[2].status = 'failed';
  after.status = 'failed';
  const result = compareRecordShapes(before, after);
  const count = findDifference(result, 'repeat-count', 'steps[].repeats');
  assert.deepEqual(count.steps, [steps[0].name]);
  assert.deepEqual(findDifference(result, 'repeat-field', 'steps[].repeats[].index').steps, [steps[1].name]);
  assert.deepEqual(findDifference(result, 'status', 'steps[].repeats[].status').steps, [steps[2].name]);
  assert.deepEqual(findDifference(result, 'status', 'steps[].status').steps, [steps[2].name]);
  findDifference(result, 'status', 'status');
});

test('a changed config value is named down to its leaf', () => {
  const before = load(BEFORE_FILE);
  const after = structuredClone(before);
  after.config.scale.tableSize += 1;
  const d = findDifference(compareRecordShapes(before, after), 'value', 'config.scale.tableSize');
  assert.equal(Number(d.after), before.config.scale.tableSize + 1);
});

test('non-finite and newly negative numbers are differences; a unit change is a warning', () => {
  const before = load(BEFORE_FILE);
  const after = structuredClone(before);
  const sys = stepOfKind(after, 'sysbench');
  sys.repeats[0].throughput = Number.NaN;
  sys.repeats[0].errors = -1;
  // ms written as µs, in every step: a unit change
  for (const s of after.steps) for (const r of s.repeats) if (r.latencyMs) r.latencyMs.avg *= 1000;
  const result = compareRecordShapes(before, after);
  assert.deepEqual(findDifference(result, 'non-finite', 'steps[].repeats[].throughput').steps, [sys.name]);
  assert.deepEqual(findDifference(result, 'sign', 'steps[].repeats[].errors').steps, [sys.name]);
  const w = result.warnings.find((x) => x.path === 'steps[].repeats[].latencyMs.avg');
  assert.ok(w, JSON.stringify(result.warnings));
  assert.ok(Math.abs(w.ratio - 1000) < 1e-6);
  assert.ok(!result.differences.some((d) => d.path === 'steps[].repeats[].latencyMs.avg'));
});

test('collectPaths unifies array elements and keeps step paths under the step name', () => {
  const paths = collectPaths({
    a: [{ x: 1 }, { x: null, y: 'z' }],
    steps: [{ name: 's1', repeats: [{ t: 1 }] }, { name: 's2', repeats: [] }],
  });
  assert.deepEqual([...paths.keys()].sort(), ['a', 'a[]', 'a[].x', 'a[].y', 'steps', 'steps[]', 'steps[].name', 'steps[].repeats', 'steps[].repeats[]', 'steps[].repeats[].t']);
  assert.deepEqual([.../** @type {any} */ (paths.get('a[].x')).get('').types].sort(), ['null', 'number']);
  assert.deepEqual([.../** @type {any} */ (paths.get('steps[].repeats')).keys()], ['s1', 's2']);
  assert.deepEqual([.../** @type {any} */ (paths.get('steps[].repeats[].t')).keys()], ['s1']);
});

test('helpers: typeOf, median, differingLeaves', () => {
  assert.equal(typeOf('2026-11-26T14:04:16.123Z'), 'date-time');
  assert.equal(typeOf('10.11.18'), 'string');
  assert.equal(typeOf([]), 'array');
  assert.equal(typeOf(null), 'null');
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  assert.equal(median([]), null);
  assert.deepEqual(differingLeaves({ a: { b: 1, c: [1] } }, { a: { b: 1, c: [2] }, d: 0 }, 'x'), [
    { path: 'x.a.c', before: '[1]', after: '[2]' },
    { path: 'x.d', before: '(absent)', after: '0' },
  ]);
});

test('the CLI prints Markdown and exits 0 on equal shapes, 1 on a difference, 2 on bad input', () => {
  const same = spawnSync(process.execPath, [SCRIPT, BEFORE_FILE, AFTER_FILE], { encoding: 'utf8' });
  assert.equal(same.status, 0, same.stderr);
  assert.match(same.stdout, /No shape difference/);
  assert.match(same.stdout, /\| step \| kind \| metric \|/);

  const doctored = load(AFTER_FILE);
  for (const s of doctored.steps) for (const r of s.repeats) if (r.efficiency) delete r.efficiency.cpuUsPerOp;
  const dir = mkdtempSync(join(tmpdir(), 'record-shape-'));
  const file = join(dir, 'doctored.json');
  writeFileSync(file, JSON.stringify(doctored));
  const diff = spawnSync(process.execPath, [SCRIPT, BEFORE_FILE, file], { encoding: 'utf8' });
  assert.equal(diff.status, 1, diff.stderr);
  assert.match(diff.stdout, /missing-key \| `steps\[\]\.repeats\[\]\.efficiency\.cpuUsPerOp`/);
  const json = spawnSync(process.execPath, [SCRIPT, BEFORE_FILE, file, '--json'], { encoding: 'utf8' });
  assert.equal(json.status, 1);
  assert.ok(JSON.parse(json.stdout).differences.length > 0);
  rmSync(dir, { recursive: true, force: true });

  const bad = spawnSync(process.execPath, [SCRIPT, BEFORE_FILE], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  const missing = spawnSync(process.execPath, [SCRIPT, BEFORE_FILE, `${FIXTURES}no-such.json`], { encoding: 'utf8' });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot read a run record/);
});
