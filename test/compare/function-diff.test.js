/**
 * diffProfiles and renderFunctionDiff on compact profiles made from real callgrind dumps
 * (test/fixtures/callgrind/: two MariaDB 10.11.18 server processes, 200 point selects each):
 * the release against itself, and a constructed candidate where known functions gain and lose
 * instructions.
 *
 * Known answer for the two real processes (bench/callgrind-fixtures/README.md): the query path
 * (dispatch_command and below) is 62,132.4 and 62,131.6 instructions per select, the totals
 * 63,529.4 and 71,140.8; the 7,611 more of the second process ran outside the statements, 94.7 %
 * of it in code without a name, the named part in glibc's allocator.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { diffProfiles, renderFunctionDiff, OTHER, DEFAULT_MAX_CHARS } from '../../scripts/compare/function-diff.js';
import { describeListedShare, describeUnnamed, listedShare, namingCommand } from '../../scripts/compare/unnamed-code.js';
import { parseCallgrind } from '../../scripts/metrics/parse-callgrind.js';
import { summarizeProfile, OTHER as METRICS_OTHER, isUnnamed } from '../../scripts/metrics/summarize-profile.js';

const FIXTURES = new URL('../fixtures/callgrind/', import.meta.url);
/** @param {string} name */
function profileOf(name) {
  const text = gunzipSync(readFileSync(new URL(name, FIXTURES))).toString('utf8');
  return summarizeProfile(parseCallgrind(text), { ops: 200, dispatchFunction: 'dispatch_command' });
}
const P1 = profileOf('callgrind-3.19.0-mariadb-10.11.18-point-select-200-p1.out.gz');
const P2 = profileOf('callgrind-3.19.0-mariadb-10.11.18-point-select-200-p2.out.gz');

/** @typedef {ReturnType<typeof profileOf>} Profile */

test('the compare side restates the profile\'s (other) name and unnamed rule the same way', () => {
  assert.equal(OTHER, METRICS_OTHER);
  const diff = diffProfiles([P1], [P2]);
  for (const f of diff.functions) {
    if (f.ranked) assert.equal(isUnnamed(f.name) || f.name === OTHER, false, `${f.name} is ranked`);
  }
  assert.ok(diff.functions.some((f) => isUnnamed(f.name) && f.selfDelta !== 0 && !f.ranked), 'unnamed functions change but are not ranked');
});

test('one profile against itself, and the same repeats in another order: no difference at all', () => {
  for (const [base, cand] of [[[P1], [P1]], [[P1, P2], [P2, P1]]]) {
    const d = diffProfiles(base, cand);
    assert.equal(d.totalDelta, 0);
    assert.equal(d.queryPathDelta, 0);
    assert.equal(d.unnamedDelta, 0);
    assert.equal(d.unnamedShare, null, 'no difference to share out');
    assert.deepEqual([d.added, d.removed], [[], []]);
    for (const f of d.functions) assert.deepEqual([f.selfDelta, f.inclusiveDelta], [0, 0], f.name);
    const text = renderFunctionDiff(d);
    assert.match(text, /Added the most instructions per operation \(0 of 0 functions\):\n\(none\)/);
    assert.match(text, /\nCode without a name: 0 instructions per operation\.\n$/, 'nothing unnamed moved: no advice on naming it');
    assert.doesNotMatch(text, /Note:/, 'no difference, no label on the list');
  }
  const two = diffProfiles([P1, P2], [P1, P2]);
  assert.equal(two.base.repeats, 2);
  assert.equal(two.base.totalPerOp, Math.round((P1.totalPerOp + P2.totalPerOp) / 2 * 10) / 10, 'a side is the mean of its repeats');
});

test('10.11.18 against itself, two server processes: the query path agrees, the rest is background work in unnamed code', () => {
  const d = diffProfiles([P1], [P2]);
  assert.equal(d.dispatchFunction, 'dispatch_command');
  assert.equal(d.base.queryPathPerOp, 62_132.4);
  assert.equal(d.candidate.queryPathPerOp, 62_131.6);
  assert.ok(Math.abs(/** @type {number} */ (d.queryPathDelta)) < 1e-4 * /** @type {number} */ (d.base.queryPathPerOp));
  assert.equal(d.totalDelta, 7611.4);
  assert.ok(/** @type {number} */ (d.unnamedShare) > 0.9, `unnamed share ${d.unnamedShare}`);
  assert.equal(d.unnamedDelta, Math.round((P2.unnamedSelfPerOp - P1.unnamedSelfPerOp) * 10) / 10);
  // Every named function that really changed, in either direction, changed by less than 0.2 % of
  // the total: same binary, same statements.
  for (const f of [...d.added, ...d.removed]) assert.ok(Math.abs(f.selfDelta) < 0.002 * d.base.totalPerOp, `${f.name} ${f.selfDelta}`);
  assert.deepEqual(d.added.slice(0, 3).map((f) => f.name), ['_int_free', '_int_malloc', 'malloc']);
  for (let i = 1; i < d.functions.length; i++) assert.ok(Math.abs(d.functions[i - 1].selfDelta) >= Math.abs(d.functions[i].selfDelta), 'functions by |selfDelta|');

  // A function just above the cut in one process and just below it in the other is not a change
  // the profiles can show: 35.0 per select in the first, under 35.6 (0.05 % of 71,141) in the second.
  const jtbm = d.functions.find((f) => f.name.startsWith('setup_degenerate_jtbm_semi_joins('));
  assert.ok(jtbm, 'setup_degenerate_jtbm_semi_joins is in the first profile');
  assert.deepEqual([jtbm.base.selfPerOp, jtbm.candidate.selfPerOp, jtbm.selfDelta, jtbm.missingRepeats, jtbm.ranked], [35, 0, -35, 1, false]);
  assert.equal(d.removed.includes(jtbm), false);
  // ...while one that is absent from the first but well above that cut in the second is.
  const intMalloc = d.functions.find((f) => f.name === '_int_malloc');
  assert.deepEqual([intMalloc?.base.selfPerOp, intMalloc?.missingRepeats, intMalloc?.ranked], [0, 1, true]);
});

/**
 * A candidate made from a real profile: the named functions given gain (or lose) self and
 * inclusive instructions per operation, one unnamed function gains `unnamed`, and the total and
 * query path move with them.
 * @param {Profile} p
 * @param {Record<string, number>} changes bare-name prefix -> delta per operation
 * @param {number} unnamed
 * @returns {Profile}
 */
function withChanges(p, changes, unnamed) {
  let moved = 0;
  const functions = p.functions.map((f) => {
    const hit = Object.keys(changes).find((k) => f.name.startsWith(k));
    if (!hit) return f;
    moved += changes[hit];
    return { ...f, selfPerOp: f.selfPerOp + changes[hit], inclusivePerOp: f.inclusivePerOp + changes[hit] };
  });
  assert.equal(Object.keys(changes).length, p.functions.filter((f) => Object.keys(changes).some((k) => f.name.startsWith(k))).length, 'each change names one function');
  const u = functions.findIndex((f) => isUnnamed(f.name));
  functions[u] = { ...functions[u], selfPerOp: functions[u].selfPerOp + unnamed, inclusivePerOp: functions[u].inclusivePerOp + unnamed };
  const object = functions[u].object;
  return {
    ...p,
    unnamedByObject: { ...p.unnamedByObject, [object]: (p.unnamedByObject[object] ?? 0) + unnamed },
    totalPerOp: p.totalPerOp + moved + unnamed,
    queryPathPerOp: /** @type {number} */ (p.queryPathPerOp) + moved + unnamed,
    unnamedSelfPerOp: p.unnamedSelfPerOp + unnamed,
    functions,
  };
}

const GAINS = {
  'JOIN::optimize_inner(': 1500, 'mysql_parse(': -40, 'open_table(': 300, 'MYSQLparse(': 200,
  'JOIN::exec_inner(': 150, 'Item_func_eq::build_equal_items(': 120, 'handle_select(': -70, 'lex_start(': 80,
  'mysql_execute_command(': 70, 'setup_fields(': 60, 'close_thread_tables(': -60,
};

test('a constructed candidate: the function that gained most is first, the unnamed share is computed', () => {
  const changes = GAINS;
  const cand = withChanges(P1, changes, 500);
  const d = diffProfiles([P1, P1], [cand, cand]);
  const gained = Object.values(changes).filter((v) => v > 0).reduce((a, v) => a + v, 0);
  const lost = Object.values(changes).filter((v) => v < 0).reduce((a, v) => a + v, 0);
  assert.equal(d.totalDelta, gained + lost + 500);
  assert.equal(d.unnamedDelta, 500);
  assert.equal(d.unnamedShare, 500 / (gained + lost + 500));
  assert.equal(d.queryPathDelta, gained + lost + 500);
  assert.equal(d.added[0].name, 'JOIN::optimize_inner()');
  assert.equal(d.added[0].selfDelta, 1500);
  assert.equal(d.added[0].inclusiveDelta, 1500);
  assert.deepEqual(d.added.map((f) => f.selfDelta), [1500, 300, 200, 150, 120, 80, 70, 60]);
  assert.deepEqual(d.removed.map((f) => [f.name.split('(')[0], f.selfDelta]), [['handle_select', -70], ['close_thread_tables', -60], ['mysql_parse', -40]]);
  assert.equal(d.functions[0].name, 'JOIN::optimize_inner()', 'the full list is by |selfDelta| too');
  assert.equal(diffProfiles([P1], [cand], { top: 2 }).added.length, 2);
});

test('rendering: totals, the table of each direction, the unnamed line; text and Markdown', () => {
  const cand = withChanges(P1, { 'JOIN::optimize_inner(': 1500, 'mysql_parse(': -40 }, 500);
  const d = diffProfiles([P1], [cand]);
  const text = renderFunctionDiff(d, { title: 'mariadb 10.11.18 → constructed', baseLabel: '10.11.18', candidateLabel: 'constructed' });
  assert.match(text, /^mariadb 10\.11\.18 → constructed\n\n/);
  assert.match(text, /Instructions per operation: 10\.11\.18 63,529 → constructed 65,489 \(\+1,960, \+3\.1 %\); means over 1 and 1 repeat\n/);
  assert.match(text, /In dispatch_command and what it calls: 62,132 → 64,092 \(\+1,960, \+3\.2 %\)/);
  const lines = text.split('\n');
  const addedAt = lines.findIndex((l) => l.startsWith('Added the most'));
  assert.equal(lines[addedAt], 'Added the most instructions per operation (1 of 1 functions):');
  assert.match(lines[addedAt + 1], /^function\s+object\s+self\/op\s+Δ self\s+Δ % of base total\s+inclusive\/op\s+Δ inclusive$/);
  assert.match(lines[addedAt + 2], /^JOIN::optimize_inner\(\)\s+mariadbd\s+\S+ → \S+\s+\+1,500\s+\+2\.4 %\s+\S+ → \S+\s+\+1,500$/);
  assert.match(text, /Removed the most instructions per operation \(1 of 1 functions\):\n.*\nmysql_parse\(THD\*, char\*, unsigned int, Parser_state\*\)\s+mariadbd\s+91\.00 → 51\.00\s+-40\.00\s+-0\.1 %\s+60,160 → 60,120\s+-40\.00\n/);
  assert.match(text, /Code without a name: \+500\.0 instructions per operation \(25\.5 % of the difference\), in mariadbd \+500\.0\. Debian's binaries carry symbols for their exported functions only, .*A source build with symbols \(the source provider\) names every function\.\n$/);
  assert.doesNotMatch(text, /Note:/, 'the named functions explain 74.5 %: no label');
  assert.doesNotMatch(text, /left out/);

  const md = renderFunctionDiff(d, { format: 'markdown', title: 'Where the instructions went' });
  assert.match(md, /^### Where the instructions went\n\n- Instructions per operation: base 63,529 → candidate 65,489/);
  assert.match(md, /\| function \| object \| self\/op \| Δ self \| Δ % of base total \| inclusive\/op \| Δ inclusive \|\n\| --- \| --- \| ---: \| ---: \| ---: \| ---: \| ---: \|\n\| `JOIN::optimize_inner\(\)` \| `mariadbd` \| .* \| \+1,500 \| \+2\.4 % \| .* \| \+1,500 \|\n/);
});

test('bounded rendering: at most `limit` rows per direction, rows dropped whole to fit maxChars, and it says how many', () => {
  const cand = withChanges(P1, GAINS, 500);
  const d = diffProfiles([P1], [cand]);
  const tableRows = (/** @type {string} */ md) => md.split('\n').filter((l) => l.startsWith('| `'));

  const all = renderFunctionDiff(d, { format: 'markdown' });
  assert.equal(tableRows(all).length, 11, '8 added and 3 removed');
  assert.ok(all.length <= DEFAULT_MAX_CHARS);

  const limited = renderFunctionDiff(d, { format: 'markdown', limit: 3 });
  assert.equal(tableRows(limited).length, 6);
  assert.match(limited, /Added the most instructions per operation \(3 of 8 functions\)/);
  assert.doesNotMatch(limited, /left out/, 'the limit is not the size cap');

  const maxChars = all.length - 400;
  const capped = renderFunctionDiff(d, { format: 'markdown', maxChars });
  assert.ok(capped.length <= maxChars, `${capped.length} > ${maxChars}`);
  const rows = tableRows(capped);
  const dropped = 11 - rows.length;
  assert.ok(dropped >= 2 && dropped < 11, `${dropped} rows dropped`);
  assert.match(capped, new RegExp(`\\n${dropped} more rows left out to keep this under ${maxChars.toLocaleString('en-US')} characters\\.\\n$`));
  for (const r of rows) assert.equal(r.split(/(?<!\\)\|/).length, 9, `a whole row: ${r}`);
  // The smallest changes went first: the largest gain and loss are still there.
  assert.match(capped, /`JOIN::optimize_inner\(\)`/);
  assert.match(capped, /`handle_select\(/);
  assert.doesNotMatch(capped, /`setup_fields\(/, 'the smallest gain (+60) is among the dropped');

  // Too small for any row: header and summary lines only, still whole, and the count of all rows.
  const bare = renderFunctionDiff(d, { maxChars: 200 });
  assert.match(bare, /\n11 more rows left out to keep this under 200 characters\.\n$/);
  assert.match(bare, /\(left out to fit, see below\)/);
  assert.match(bare, /Code without a name: \+500\.0/);
});

test('Markdown escapes a pipe in a function name so the table keeps its columns', () => {
  const p = { ...P1, functions: [...P1.functions, { name: 'operator|(Bitmap<64u> const&, Bitmap<64u> const&)', object: 'mariadbd', selfPerOp: 0, inclusivePerOp: 0 }] };
  const cand = withChanges(p, { 'operator|(': 700 }, 0);
  const md = renderFunctionDiff(diffProfiles([p], [cand]), { format: 'markdown' });
  const row = md.split('\n').find((l) => l.startsWith('| `operator'));
  assert.ok(row);
  assert.equal(row.split(/(?<!\\)\|/).length, 9, row);
  assert.match(row, /`operator\\\|\(Bitmap<64u> const&, Bitmap<64u> const&\)`/);
});

test('a side without profiles is refused', () => {
  assert.throws(() => diffProfiles([], [P1]), /the base side has no profile/);
  assert.throws(() => diffProfiles([P1], []), /the candidate side has no profile/);
});

test('where the code without a name is: per ELF object from the profiles, summing to the unnamed change', () => {
  // The two real processes: 94.7 % of the 7,611 more is in code without a name.
  const d = diffProfiles([P1], [P2]);
  const objects = /** @type {{object: string, delta: number}[]} */ (d.unnamedByObject);
  assert.ok(objects.length >= 1);
  assert.ok(objects.every((o) => o.object !== ''), 'profiles that keep the split name every object');
  assert.ok(Math.abs(objects.reduce((s, o) => s + o.delta, 0) - d.unnamedDelta) < 0.1 * objects.length + 0.01, 'the objects add up to the unnamed change');
  for (let i = 1; i < objects.length; i++) assert.ok(Math.abs(objects[i - 1].delta) >= Math.abs(objects[i].delta), 'largest first');
  const kept = Object.keys(P1.unnamedByObject);
  assert.ok(kept.includes('mariadbd'), `the stripped server binary holds unnamed code: ${kept.join(', ')}`);

  // A profile stored before the split: the address-named rows say what they can, the rest is ''.
  const old = (/** @type {Profile} */ p) => { const { unnamedByObject: _split, ...rest } = p; return /** @type {Profile} */ (rest); };
  const legacy = diffProfiles([old(P1)], [old(P2)]);
  const legacyObjects = /** @type {{object: string, delta: number}[]} */ (legacy.unnamedByObject);
  assert.ok(Math.abs(legacyObjects.reduce((s, o) => s + o.delta, 0) - legacy.unnamedDelta) < 0.1 * legacyObjects.length + 0.01);
  assert.match(describeUnnamed(legacy), /objects below the profiles' share|in [a-z]/);
});

test('a named list that explains under half of the difference is labelled so, in text and Markdown, before its tables', () => {
  const d = diffProfiles([P1], [P2]);
  const share = /** @type {number} */ (listedShare(d));
  assert.ok(Math.abs(share) < 0.5, `the named functions explain ${share}`);
  const label = /** @type {string} */ (describeListedShare(d));
  assert.match(label, /^(The named functions that moved the most \(\d+, together\) explain only -?\d+\.\d % of the difference \(under half\)|No named function moved beyond what the profiles' cut can explain); 94\.\d % is in code without a name, in mariadbd [+-]/);
  assert.match(label, /the list is not where most of the instructions went\.$/);

  const command = namingCommand({ product: 'mariadb', hostClass: 'local', suite: 'demo', base: { version: '10.11.18' }, candidate: { version: '10.11.19' } });
  assert.equal(command, 'tagbench run --releases mariadb@10.11.18:source,mariadb@10.11.19:source --meter instructions --suite demo --host-class local --store results-with-symbols'
    + ' && tagbench compare --product mariadb --suite demo --host-class local --store results-with-symbols --functions');
  const text = renderFunctionDiff(d, { namingCommand: command });
  const lines = text.split('\n');
  const noteAt = lines.findIndex((l) => l.startsWith('Note: '));
  assert.ok(noteAt > 0 && noteAt < lines.findIndex((l) => l.startsWith('Added the most')), 'the label comes before the tables');
  assert.equal(lines[noteAt], `Note: ${label}`);
  assert.match(text, new RegExp(`A source build with symbols names every function: \`${command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`\\.\\n$`));
  const md = renderFunctionDiff(d, { format: 'markdown', namingCommand: command });
  assert.ok(md.includes(`**${label}**`), 'Markdown: the label in bold');
  assert.ok(md.includes(`names every function: \`${command}\`.`), 'Markdown: the command in a code span');

  // Most of a constructed change is in named functions: no label.
  const most = diffProfiles([P1], [withChanges(P1, GAINS, 500)]);
  assert.ok(/** @type {number} */ (listedShare(most)) > 0.5);
  assert.equal(describeListedShare(most), null);
  assert.equal(listedShare(diffProfiles([P1], [P1])), null, 'no difference: no share');
});

test('a real comparison (10.11.18 vs 10.11.19, Debian packages, recorded): its named lists explain little and are labelled so in the terminal and the Markdown', async () => {
  const { readComparisons } = await import('../../scripts/store/index.js');
  const { renderComparison } = await import('../../scripts/compare/index.js');
  const [stored] = await readComparisons(new URL('../fixtures/compare/time-and-work/', import.meta.url).pathname);
  const update = /** @type {any} */ (stored.tests.find((t) => t.test === 'update-index' && t.metric === 'instructionsPerOp'));
  // The recorded figures: -327.8 instructions per update in all, -274.7 of it without a name.
  assert.deepEqual([update.functions.totalDelta, update.functions.unnamedDelta], [-327.8, -274.7]);
  assert.equal(describeListedShare(update.functions),
    'The named functions that moved the most (20, together) explain only 5.7 % of the difference (under half); 83.8 % is in code without a name: the list is not where most of the instructions went.');
  assert.match(describeUnnamed(update.functions), /\(83\.8 % of the difference\) \(in which objects: not kept in this comparison, made before tagbench kept them; compare again to see them\)\./,
    'a comparison stored before the objects were kept says so instead of naming none');
  const terminal = renderComparison(/** @type {any} */ (stored), { format: 'terminal', functions: 'all' });
  assert.match(terminal, /\nNote: The named functions that moved the most \(20, together\) explain only 5\.7 % /);
  assert.ok(terminal.includes(`names every function: \`${namingCommand(stored)}\`.`), 'the terminal gives the command with the run\'s own releases, suite and host class');
  const markdown = renderComparison(/** @type {any} */ (stored), { format: 'markdown', functions: 'all' });
  assert.match(markdown, /\n\*\*The named functions that moved the most \(20, together\) explain only 5\.7 % of the difference \(under half\); 83\.8 % is in code without a name: the list is not where most of the instructions went\.\*\*\n/);
});
