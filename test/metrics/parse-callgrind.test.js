/**
 * parseCallgrind and summarizeProfile on real callgrind output (test/fixtures/callgrind/, made by
 * bench/callgrind-fixtures/make-fixtures.js): a tiny C program checked by hand and against
 * callgrind_annotate, and MariaDB 10.11.18 serving 200 point selects, checked against
 * callgrind_annotate as an independent reader of the same files; damaged and cut copies of the
 * real files must fail naming the line.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { parseCallgrind } from '../../scripts/metrics/parse-callgrind.js';
import { summarizeProfile, bareFunctionName, isUnnamed, OTHER } from '../../scripts/metrics/summarize-profile.js';

const execFileP = promisify(execFile);
const FIXTURES = new URL('../fixtures/callgrind/', import.meta.url);
const TINY = 'callgrind-3.19.0-tiny.out';
const TINY_INSTR = 'callgrind-3.19.0-tiny-instr-jumps.out';
const P1 = 'callgrind-3.19.0-mariadb-10.11.18-point-select-200-p1.out.gz';
const P2 = 'callgrind-3.19.0-mariadb-10.11.18-point-select-200-p2.out.gz';
const OPS = 200;

/** @param {string} name */
function fixtureText(name) {
  const raw = readFileSync(new URL(name, FIXTURES));
  return name.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
}

// --version exits 255 after printing it; only a missing program counts.
const annotateMissing = await execFileP('callgrind_annotate', ['--version']).then(() => false, (/** @type {any} */ e) => (e.code === 'ENOENT' ? 'callgrind_annotate is not installed (Debian: apt-get install valgrind)' : false));
const work = await mkdtemp(join(tmpdir(), 'tb-cgtest-'));
after(() => rm(work, { recursive: true, force: true }));

/**
 * callgrind_annotate's per-function figures, summed per function name over source files
 * (it splits a function's cost by the file of inlined code, and prints those parts without the
 * object), with its PROGRAM TOTALS.
 * @param {string} fixture
 * @param {boolean} inclusive
 * @returns {Promise<{total: number, byName: Map<string, number>}>}
 */
async function annotate(fixture, inclusive) {
  const path = join(work, fixture.replace(/\.gz$/, ''));
  await writeFile(path, fixtureText(fixture));
  const { stdout } = await execFileP('callgrind_annotate', [`--inclusive=${inclusive ? 'yes' : 'no'}`, '--threshold=100', '--auto=no', path], { cwd: '/', maxBuffer: 256 * 1024 * 1024 });
  /** @type {Map<string, number>} */
  const byName = new Map();
  let total = NaN;
  for (const line of stdout.split('\n')) {
    const t = /^\s*([\d,]+)(?: \([^)]*\))?\s+PROGRAM TOTALS$/.exec(line);
    if (t) total = Number(t[1].replaceAll(',', ''));
    const m = /^\s*([\d,]+) \([^)]*\)\s+(?!=>)[^:\s][^:]*:(.*?)(?: \[[^\]]*\])?$/.exec(line);
    if (!m) continue;
    byName.set(m[2], (byName.get(m[2]) ?? 0) + Number(m[1].replaceAll(',', '')));
  }
  assert.ok(byName.size > 0 && Number.isFinite(total), `could not read callgrind_annotate's output:\n${stdout.slice(0, 2000)}`);
  return { total, byName };
}

/**
 * @param {import('../../scripts/metrics/parse-callgrind.js').ParsedCallgrind} p
 * @param {string} name
 * @param {string} [object]
 */
function fn(p, name, object) {
  const found = p.functions.filter((f) => f.name === name && (object === undefined || f.object === object));
  assert.equal(found.length, 1, `expected one function ${name}${object ? ` in ${object}` : ''}, found ${found.length}`);
  return found[0];
}

test('tiny.c: self, inclusive and calls as counted by hand from the program and its machine code', () => {
  const p = parseCallgrind(fixtureText(TINY));
  assert.deepEqual(p.events, ['Ir']);
  assert.equal(p.parts, 1);
  assert.equal(p.totalIr, 126_802);
  assert.equal(p.summaryIr, 126_802, 'a whole run: summary and totals agree');
  assert.equal(p.functions.reduce((s, f) => s + f.selfIr, 0), p.totalIr, 'self costs add up to the total');
  const pick = (/** @type {string} */ n) => {
    const f = fn(p, n, 'tiny');
    return { self: f.selfIr, incl: f.inclusiveIr, calls: f.calls };
  };
  // leaf is `lea 0x1(%rdi,%rdi,2),%rax; ret` at -O1: 2 instructions, called 10 times by each of
  // the 10 chain_b calls (5 chain_a calls x 2).
  assert.deepEqual(pick('leaf'), { self: 200, incl: 200, calls: 100 });
  // chain_b: its own loop plus the 100 leaf calls below it; chain_a: itself plus chain_b.
  assert.deepEqual(pick('chain_b'), { self: 710, incl: 710 + 200, calls: 10 });
  assert.deepEqual(pick('chain_a'), { self: 55, incl: 55 + 910, calls: 5 });
  // fact(12) runs 12 times: once from main (fact), 11 times recursively (callgrind's fact'2,
  // merged). All its instructions are its own, and the recursive calls are not counted again.
  assert.deepEqual(pick('fact'), { self: 114, incl: 114, calls: 12 });
  assert.equal(p.functions.some((f) => f.name.includes("'")), false, 'no recursion-level names left');
  // main: itself, chain_a, fact and printf (libc, through its own calls).
  const main = pick('main');
  assert.equal(main.self, 51);
  assert.equal(main.calls, 1);
  assert.equal(main.incl, 4422);
  assert.ok(p.functions.some((f) => f.object === 'libc.so.6' && f.name === 'printf' && f.calls === 1), 'printf of libc.so.6, by object file name');
});

test('tiny.c with --dump-instr=yes --collect-jumps=yes (positions: instr line, jump lines): the same functions', () => {
  const plain = parseCallgrind(fixtureText(TINY));
  const instr = parseCallgrind(fixtureText(TINY_INSTR));
  assert.match(fixtureText(TINY_INSTR), /^positions: instr line$/m);
  assert.match(fixtureText(TINY_INSTR), /^jcnd=/m);
  assert.equal(instr.totalIr, plain.totalIr);
  /** @param {typeof plain} p */
  const key = (p) => new Map(p.functions.map((f) => [`${f.object} ${f.name}`, [f.selfIr, f.inclusiveIr, f.calls]]));
  assert.deepEqual(key(instr), key(plain));
});

test('tiny.c: every figure of tiny.c\'s functions equals callgrind_annotate\'s', { skip: annotateMissing }, async () => {
  const p = parseCallgrind(fixtureText(TINY));
  const self = await annotate(TINY, false);
  const incl = await annotate(TINY, true);
  assert.equal(self.total, p.totalIr);
  for (const name of ['main', 'chain_a', 'chain_b', 'leaf']) {
    assert.equal(fn(p, name, 'tiny').selfIr, self.byName.get(name), `self ${name}`);
    assert.equal(fn(p, name, 'tiny').inclusiveIr, incl.byName.get(name), `inclusive ${name}`);
  }
  // callgrind_annotate keeps the recursion levels apart: merged, their self costs add up.
  assert.equal(fn(p, 'fact', 'tiny').selfIr, /** @type {number} */ (self.byName.get('fact')) + /** @type {number} */ (self.byName.get("fact'2")));
  assert.equal(fn(p, 'fact', 'tiny').inclusiveIr, incl.byName.get('fact'));
  // It adds fact'2's calls to itself on top of the calls into it, counting them twice: more than
  // the whole of fact. Skipping self-recursive calls is what keeps inclusive <= the outer call.
  assert.ok(/** @type {number} */ (incl.byName.get("fact'2")) > fn(p, 'fact', 'tiny').inclusiveIr);
});

test('MariaDB 10.11.18, 200 point selects: the totals, the objects, the query path', () => {
  const p = parseCallgrind(fixtureText(P1));
  assert.equal(p.totalIr, 12_705_876, 'the totals: line');
  assert.equal(p.summaryIr, 12_628_468, 'the summary: line (per-thread counters since zeroing; lower)');
  assert.equal(p.functions.reduce((s, f) => s + f.selfIr, 0), p.totalIr);
  assert.equal(p.functions.length, 1003);
  const objects = new Set(p.functions.map((f) => f.object));
  for (const o of ['mariadbd', 'libc.so.6', 'libstdc++.so.6.0.30', 'ld-linux-x86-64.so.2', '???']) assert.ok(objects.has(o), `object ${o}`);
  const dispatch = fn(p, 'dispatch_command(enum_server_command, THD*, char*, unsigned int, bool)', 'mariadbd');
  assert.equal(dispatch.calls, 201, '200 selects and the COM_QUIT');
  assert.equal(dispatch.inclusiveIr, 12_426_488);
  assert.equal(fn(p, 'mysql_parse(THD*, char*, unsigned int, Parser_state*)').calls, 200);
  // Threads that were already running when the counters were zeroed have calls=0 arcs whose
  // cost is since zeroing: start_thread has no cost of its own here, all of it is inclusive.
  const start = fn(p, 'start_thread', 'libc.so.6');
  assert.equal(start.selfIr, 0);
  assert.ok(start.inclusiveIr > 0.99 * p.totalIr);
  assert.ok(start.inclusiveIr <= p.totalIr);
  for (const f of p.functions) assert.ok(f.inclusiveIr >= f.selfIr && f.inclusiveIr <= p.totalIr, `${f.name}: ${f.selfIr} <= ${f.inclusiveIr} <= total`);
});

test('MariaDB 10.11.18: self costs equal callgrind_annotate\'s, inclusive costs of the top functions too', { skip: annotateMissing }, async () => {
  const p = parseCallgrind(fixtureText(P1));
  const self = await annotate(P1, false);
  assert.equal(self.total, p.summaryIr, 'callgrind_annotate prints the summary: line as PROGRAM TOTALS');
  // The 100 largest self costs, exactly. (callgrind_annotate reads a `calls=0` arc, a call that
  // was running when the counters were zeroed, as the caller's own cost: start_thread then has
  // 12.6 M self. Those functions have no self cost here and are not among these.)
  const bySelf = [...p.functions].sort((a, b) => b.selfIr - a.selfIr).slice(0, 100);
  for (const f of bySelf) assert.equal(f.selfIr, self.byName.get(f.name), `self of ${f.name}`);

  const incl = await annotate(P1, true);
  // callgrind_annotate's inclusive cost is the sum of the calls INTO a function; ours is the
  // cost INSIDE it, self plus its calls out. Callgrind books both, and they differ slightly where
  // a function ends in a jump to another (a tail call): dispatch_command's 201 calls cost
  // 12,426,248, its own cost and its calls out 12,426,488 (0.002 %). The 30 largest agree to
  // 0.02 %, most of them exactly.
  const byIncl = [...p.functions].sort((a, b) => b.inclusiveIr - a.inclusiveIr).slice(0, 30);
  let exact = 0;
  for (const f of byIncl) {
    const theirs = /** @type {number} */ (incl.byName.get(f.name));
    assert.ok(Math.abs(f.inclusiveIr - theirs) <= 2e-4 * theirs, `inclusive of ${f.name}: ${f.inclusiveIr} vs callgrind_annotate ${theirs}`);
    if (f.inclusiveIr === theirs) exact++;
  }
  assert.ok(exact >= 25, `${exact} of the 30 largest inclusive costs equal callgrind_annotate's exactly`);
  assert.equal(fn(p, 'do_command(THD*, bool)').inclusiveIr, incl.byName.get('do_command(THD*, bool)'));
});

test('a 5 MB file of 40 parts: parts add up, parsed in well under 3 s', () => {
  const one = fixtureText(P1);
  const text = one.repeat(40);
  assert.ok(text.length > 5_000_000);
  const t0 = performance.now();
  const p = parseCallgrind(text);
  const ms = performance.now() - t0;
  assert.equal(p.parts, 40);
  assert.equal(p.totalIr, 40 * 12_705_876);
  assert.equal(p.summaryIr, 40 * 12_628_468);
  assert.equal(p.functions.length, 1003);
  // About 0.15 s on the 2-CPU VM; a per-line regex or a quadratic join would take many times that.
  assert.ok(ms < 3000, `took ${ms.toFixed(0)} ms`);
});

/**
 * @param {string} text
 * @param {string} from
 * @param {string} to
 */
function replaceOnce(text, from, to) {
  const at = text.indexOf(from);
  assert.ok(at >= 0, `fixture lacks ${JSON.stringify(from)}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/**
 * Where to cut a file inside a cost line's count, past its middle.
 * @param {string} text
 */
function midCostLine(text) {
  const re = /\n[+-]?\d+ \d{3,}\n/g;
  re.lastIndex = Math.floor(text.length / 2);
  const m = re.exec(text);
  assert.ok(m, 'a cost line with a count of 3+ digits past the middle');
  return m.index + m[0].length - 2;
}

/** @param {string} text @param {string} needle 1-based line number of the first line holding needle */
function lineOf(text, needle) {
  return text.slice(0, text.indexOf(needle)).split('\n').length;
}

test('damaged and cut files fail, naming the line and what was expected', () => {
  const tiny = fixtureText(TINY);
  const real = fixtureText(P1);
  const lines = real.split('\n');
  const cases = [
    { what: 'empty', text: '', error: /callgrind output is empty/ },
    { what: 'cut mid-line', text: real.slice(0, Math.floor(real.length * 0.6)), error: /Error: callgrind output is truncated: .*line \d+/ },
    { what: 'cut mid-line, in a cost line', text: real.slice(0, midCostLine(real)), error: /callgrind output is truncated: it ends at line \d+ without the 'totals:' line callgrind writes last/ },
    { what: 'cut at a line end before totals', text: `${lines.slice(0, lines.length - 3).join('\n')}\n`, error: new RegExp(`truncated: it ends at line ${lines.length - 3} without the 'totals:'`) },
    {
      what: 'cut right after a calls= line',
      text: real.slice(0, real.indexOf('\n', real.indexOf('\ncalls=') + 1) + 1),
      error: new RegExp(`truncated: the 'calls=' line ${lineOf(real, '\ncalls=') + 1} is not followed by the call's cost line \\(the file ends at line ${lineOf(real, '\ncalls=') + 1}\\)`),
    },
    { what: 'totals cut short', text: real.replace(/totals: 12705876\n$/, 'totals: 1270\n'), error: new RegExp(`line ${lines.length - 1}: 'totals:' says 1270 Ir but the cost lines before it add up to 12705876`) },
    { what: 'a cost line lost in the middle', text: replaceOnce(tiny, '\nfn=(540)\n11 40\n', '\nfn=(540)\n'), error: /'totals:' says 126802 Ir but the cost lines before it add up to 126762: the file is damaged or cut/ },
    { what: 'a name defined nowhere', text: replaceOnce(tiny, 'cfn=(538) chain_a', 'cfn=(538)'), error: new RegExp(`line ${lineOf(tiny, 'cfn=(538) chain_a')}: 'cfn=\\(538\\)' refers to name id 538, which no earlier line defined`) },
    { what: 'no events line', text: tiny.replace('events: Ir\n', ''), error: new RegExp(`line ${lineOf(tiny, 'summary:') - 1}: 'summary:' before an 'events:' line`) },
    { what: 'no events or summary line', text: tiny.replace('events: Ir\nsummary: 126802\n', ''), error: new RegExp(`line ${lineOf(tiny, '\n21 4\n') - 1}: cost line '21 4' before an 'events:' line naming the Ir event`) },
    { what: 'events without Ir', text: tiny.replace('events: Ir\n', 'events: Dr Dw\n'), error: new RegExp(`line ${lineOf(tiny, 'events: Ir')}: 'events:' lists Dr Dw, expected the Ir event`) },
    { what: 'a count that is not a number', text: replaceOnce(tiny, '\n21 4\n', '\n21 4x\n'), error: new RegExp(`line ${lineOf(tiny, '\n21 4\n') + 1}: expected an event count, got '4x'`) },
    { what: 'a line of another format', text: replaceOnce(tiny, '\n21 4\n', '\n21 4\nhello world\n'), error: new RegExp(`line ${lineOf(tiny, '\n21 4\n') + 2}: expected a cost line, a 'key=value' line or a 'key: value' header, got 'hello world'`) },
    { what: 'a call without its cost line', text: replaceOnce(tiny, 'calls=1 -6 \n* 193\n* 8\n', 'calls=1 -6 \n'), error: new RegExp(`line ${lineOf(tiny, 'calls=1 -6') + 1}: expected the cost line of the call announced on line ${lineOf(tiny, 'calls=1 -6')}, got 'cfn=\\(538\\)'`) },
    { what: 'an unknown specification', text: replaceOnce(tiny, 'fn=(536) main', 'fx=(536) main'), error: /unknown specification 'fx=': expected one of ob, cob, fl, fi, fe/ },
    { what: 'a newer format', text: tiny.replace('version: 1\n', 'version: 2\n'), error: /line 2: callgrind format version 2; this parser reads version 1/ },
  ];
  for (const c of cases) assert.throws(() => parseCallgrind(c.text), c.error, c.what);
});

test('summarizeProfile: per-operation totals, query path, unnamed code, rows above the share and (other)', () => {
  const p = parseCallgrind(fixtureText(P1));
  const s = summarizeProfile(p, { ops: OPS, dispatchFunction: 'dispatch_command' });
  assert.equal(s.totalPerOp, 63_529.4);
  assert.equal(s.queryPathPerOp, 62_132.4, 'dispatch_command inclusive / 200, matched by its bare name');
  assert.equal(s.dispatchFunction, 'dispatch_command');
  const unnamed = p.functions.filter((f) => /^0x[0-9a-f]+$/.test(f.name)).reduce((a, f) => a + f.selfIr, 0);
  assert.ok(unnamed > 0.2 * p.totalIr, 'stripped Debian binary: much of the code has no name');
  assert.equal(s.unnamedSelfPerOp, Math.round(unnamed / OPS * 10) / 10);
  assert.equal(s.minShare, 0.0005);

  const rows = s.functions.filter((f) => f.name !== OTHER);
  const other = s.functions.at(-1);
  assert.equal(other?.name, OTHER, '(other) is the last row');
  const cut = 0.0005 * p.totalIr / OPS;
  for (const f of rows) assert.ok(f.selfPerOp >= cut - 0.05 || f.inclusivePerOp >= cut - 0.05, `${f.name} is above the share`);
  const keptNames = new Set(rows.map((f) => `${f.object} ${f.name}`));
  const left = p.functions.filter((f) => !keptNames.has(`${f.object} ${f.name}`));
  assert.ok(left.length > 400, 'most functions are below the share');
  for (const f of left) assert.ok(f.selfIr < 0.0005 * p.totalIr && f.inclusiveIr < 0.0005 * p.totalIr, `${f.name} left out but above the share`);
  assert.ok(Math.abs(/** @type {number} */ (other?.selfPerOp) - left.reduce((a, f) => a + f.selfIr, 0) / OPS) < 0.05 * rows.length, '(other) holds what was left out');
  const selfSum = s.functions.reduce((a, f) => a + f.selfPerOp, 0);
  assert.ok(Math.abs(selfSum - s.totalPerOp) < 1e-6, `self costs add up to the total: ${selfSum} vs ${s.totalPerOp}`);
  for (let i = 1; i < rows.length; i++) assert.ok(rows[i - 1].inclusivePerOp >= rows[i].inclusivePerOp, 'sorted by inclusive');
  for (const f of s.functions) {
    assert.equal(Math.round(f.selfPerOp * 10) / 10, f.selfPerOp, 'rounded to 0.1');
    assert.equal(Math.round(f.inclusivePerOp * 10) / 10, f.inclusivePerOp, 'rounded to 0.1');
  }
  const parse = rows.find((f) => f.name.startsWith('mysql_parse('));
  assert.deepEqual(parse, { name: 'mysql_parse(THD*, char*, unsigned int, Parser_state*)', object: 'mariadbd', selfPerOp: 91, inclusivePerOp: 60_160 });

  // A bigger share keeps fewer rows; the total and (other) still add up.
  const coarse = summarizeProfile(p, { ops: OPS, dispatchFunction: 'dispatch_command', minShare: 0.05 });
  assert.ok(coarse.functions.length < 40 && coarse.functions.length < s.functions.length);
  assert.ok(Math.abs(coarse.functions.reduce((a, f) => a + f.selfPerOp, 0) - coarse.totalPerOp) < 1e-6);
});

test('summarizeProfile: the two server processes agree on the query path to 0.01 %, not on the total', () => {
  const a = summarizeProfile(parseCallgrind(fixtureText(P1)), { ops: OPS, dispatchFunction: 'dispatch_command' });
  const b = summarizeProfile(parseCallgrind(fixtureText(P2)), { ops: OPS, dispatchFunction: 'dispatch_command' });
  assert.equal(b.queryPathPerOp, 62_131.6);
  const qa = /** @type {number} */ (a.queryPathPerOp);
  const qb = /** @type {number} */ (b.queryPathPerOp);
  assert.ok(Math.abs(qa - qb) / qa < 1e-4, `query path ${qa} vs ${qb}`);
  // The totals include the server's own threads, which did more during the second run.
  assert.ok(b.totalPerOp / a.totalPerOp > 1.1, `totals ${a.totalPerOp} vs ${b.totalPerOp}`);
});

test('summarizeProfile: no dispatch function or none matching gives a null query path; bad options are refused', () => {
  const p = parseCallgrind(fixtureText(TINY));
  assert.equal(summarizeProfile(p, { ops: 1 }).queryPathPerOp, null);
  assert.equal(summarizeProfile(p, { ops: 1, dispatchFunction: 'dispatch_command' }).queryPathPerOp, null);
  assert.equal(summarizeProfile(p, { ops: 1, dispatchFunction: 'chain_a' }).queryPathPerOp, 965);
  assert.throws(() => summarizeProfile(p, { ops: 0 }), /ops must be a positive number of operations, got 0/);
  assert.throws(() => summarizeProfile(p, { ops: 1, minShare: 1 }), /minShare must be a share in \[0, 1\), got 1/);
});

test('bareFunctionName and isUnnamed on names as callgrind prints them', () => {
  const cases = [
    ['dispatch_command(enum_server_command, THD*, char*, unsigned int, bool)', 'dispatch_command'],
    ['dispatch_command', 'dispatch_command'],
    ['Sql_cmd_dml::execute(THD*)', 'execute'],
    ['JOIN::optimize_inner()', 'optimize_inner'],
    ['(anonymous namespace)::dispatch_command(int)', 'dispatch_command'],
    ['std::vector<std::pair<int, int>, std::allocator<std::pair<int, int> > >::_M_realloc_insert(int)', '_M_realloc_insert'],
    ['bool Foo<int>::get<char>(char) const', 'get<char>'],
    ['pthread_mutex_lock@@GLIBC_2.2.5', 'pthread_mutex_lock@@GLIBC_2.2.5'],
  ];
  for (const [name, bare] of cases) assert.equal(bareFunctionName(name), bare, name);
  assert.equal(isUnnamed('0x0000000000c73f20'), true);
  assert.equal(isUnnamed('0x'), false);
  assert.equal(isUnnamed('0xfoo'), false);
  assert.equal(isUnnamed('main'), false);
});
