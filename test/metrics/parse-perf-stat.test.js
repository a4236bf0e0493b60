/**
 * parsePerfStat on perf 6.1's CSV and JSON output: captured software-event runs on this VM
 * (no PMU) and hardware-counter files written from the documented format
 * (test/fixtures/metrics/perf-stat/README.md says which is which).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parsePerfStat } from '../../scripts/metrics/parse-perf-stat.js';
import { assertGolden, fixture } from './golden.js';

/** @typedef {import('../../scripts/metrics/parse-perf-stat.js').PerfStatEvent} PerfStatEvent */

/**
 * @type {{file: string, format: 'csv'|'json', separator?: string, check: (events: PerfStatEvent[]) => void}[]}
 */
const cases = [
  {
    file: '6.1-csv-semicolon-busy.txt', format: 'csv', separator: ';',
    check(events) {
      assert.deepEqual(events.map((e) => e.name), ['task-clock', 'context-switches', 'page-faults', 'instructions', 'cycles', 'branch-misses', 'cache-misses', 'LLC-load-misses']);
      const clock = events[0];
      assert.equal(clock.unit, 'msec');
      assert.ok(clock.value !== null && clock.value > 1000, 'a busy loop enabled for 1.5 s runs > 1 s of task-clock');
      assert.ok(events.slice(3).every((e) => e.notSupported && e.value === null), 'no PMU on this VM');
    },
  },
  {
    file: '6.1-csv-semicolon-sleeping.txt', format: 'csv', separator: ';',
    check(events) {
      assert.deepEqual(events.map((e) => [e.name, e.notCounted, e.notSupported]), [
        ['task-clock', true, false], ['context-switches', true, false], ['page-faults', true, false], ['instructions', false, true],
      ]);
    },
  },
  {
    file: '6.1-json-busy.txt', format: 'json',
    check(events) {
      assert.equal(events.length, 5);
      assert.equal(events[2].name, 'page-faults');
      assert.equal(events[2].value, 1718);
      assert.equal(events[0].runningPct, 100);
      assert.ok(events[3].notSupported && events[4].notSupported);
    },
  },
  {
    file: '6.1-csv-comma-output-file.txt', format: 'csv',
    check(events) {
      assert.equal(events.length, 5, 'the # started on comment and the blank line are skipped');
      assert.equal(events[0].value, 0.89);
    },
  },
  {
    file: 'doc-csv-comma-hardware.txt', format: 'csv',
    check(events) {
      assert.deepEqual(events.map((e) => [e.name, e.value, e.runningPct]), [
        ['instructions', 52345678901, 100], ['cycles', 40123456789, 100], ['branch-misses', 123456789, 100],
        ['cache-misses', 98765432, 100], ['LLC-load-misses', 23456789, 100],
      ]);
    },
  },
  {
    file: 'doc-csv-semicolon-multiplexed.txt', format: 'csv', separator: ';',
    check(events) {
      assert.equal(events.length, 5, 'the extra-metric line (all earlier fields empty) is not an event');
      assert.deepEqual(events.map((e) => e.runningPct), [50, 50, 66.67, 66.67, 0]);
      assert.equal(events[4].notCounted, true);
    },
  },
  {
    file: 'doc-csv-comma-user-only.txt', format: 'csv',
    check(events) {
      assert.ok(events.every((e) => e.name.endsWith(':u')));
      assert.equal(events[4].notSupported, true);
    },
  },
  {
    file: 'doc-json-multiplexed.txt', format: 'json',
    check(events) {
      assert.deepEqual(events.map((e) => e.name), ['instructions', 'cycles', 'branch-misses', 'cache-misses', 'LLC-load-misses']);
      assert.deepEqual(events.map((e) => e.runningPct), [50, 50, 0, 66.67, 100]);
      assert.equal(events[0].value, 52345678901);
      assert.ok(events[2].notCounted && events[4].notSupported);
    },
  },
];

for (const c of cases) {
  test(`parsePerfStat ${c.file}`, async () => {
    const url = fixture(`perf-stat/${c.file}`);
    const { events } = parsePerfStat(await readFile(url, 'utf8'), { format: c.format, separator: c.separator });
    c.check(events);
    await assertGolden(url, events);
  });
}

test('parsePerfStat: CSV and JSON captured from the same kind of run read alike', async () => {
  const csv = parsePerfStat(await readFile(fixture('perf-stat/6.1-csv-semicolon-busy.txt'), 'utf8'), { format: 'csv', separator: ';' }).events;
  const json = parsePerfStat(await readFile(fixture('perf-stat/6.1-json-busy.txt'), 'utf8'), { format: 'json' }).events;
  for (const e of json) {
    const same = csv.find((x) => x.name === e.name);
    assert.ok(same, e.name);
    assert.deepEqual([same.unit, same.notSupported, same.notCounted], [e.unit, e.notSupported, e.notCounted]);
  }
});

test('parsePerfStat refuses decimal commas from the locale (captured under de_DE.UTF-8), naming the line', async () => {
  const comma = await readFile(fixture('perf-stat/6.1-csv-comma-de_DE.txt'), 'utf8');
  assert.throws(() => parsePerfStat(comma, { format: 'csv' }),
    /^Error: perf stat -x',' output line 1: expected 5 to 7 ','-separated fields .* got 9: a decimal comma \(run perf under LC_ALL=C\).*"1,34,msec,task-clock/);
  const semicolon = await readFile(fixture('perf-stat/6.1-csv-semicolon-de_DE.txt'), 'utf8');
  assert.throws(() => parsePerfStat(semicolon, { format: 'csv', separator: ';' }),
    /output line 1: the counter value of task-clock is neither a plain number nor <not supported> \/ <not counted>: "1,17"/);
  // The line numbers count perf's comment and blank lines too.
  assert.throws(() => parsePerfStat(`# started on x\n\n${semicolon}`, { format: 'csv', separator: ';' }), /output line 3:/);
});

test('parsePerfStat refuses a separator inside an event name, and -r/-I layouts', () => {
  const pmuTerm = '1234,,cpu/event=0x3c,umask=0x0/,1000,100.00,,';
  assert.throws(() => parsePerfStat(pmuTerm, { format: 'csv' }), /got 8: .*the separator inside an event name/);
  assert.deepEqual(parsePerfStat('1234;;cpu/event=0x3c,umask=0x0/;1000;100.00;;', { format: 'csv', separator: ';' }).events[0].name, 'cpu/event=0x3c,umask=0x0/');
  // Captured here: -r 3 puts the variance after the event name, -I a timestamp first.
  assert.throws(() => parsePerfStat('0.76,msec,task-clock,2.14%,756928,100.00,1.188,CPUs utilized', { format: 'csv' }), /got 8/);
  assert.throws(() => parsePerfStat('     0.100159236,1.00,msec,task-clock,995143,100.00,0.010,CPUs utilized', { format: 'csv' }), /got 8/);
});

test('parsePerfStat: perf\'s usage text, a bad percentage and broken JSON are errors naming the line', () => {
  assert.throws(() => parsePerfStat('1,,cycles,0,100.00,,\n Usage: perf stat [<options>] [<command>]\n', { format: 'csv' }), /output line 2: expected 5 to 7 ','-separated fields .* got 1: " Usage: perf stat/);
  assert.throws(() => parsePerfStat('1,,cycles,0,n/a,,', { format: 'csv' }), /% running of cycles is not a plain number: "n\/a"/);
  assert.throws(() => parsePerfStat('12,,,0,100.00,,', { format: 'csv' }), /no event name in the third field/);
  assert.throws(() => parsePerfStat('{"counter-value" : "1.0", "event" : "cycles"\n', { format: 'json' }), /perf stat -j output line 1: not a JSON object \(/);
  assert.throws(() => parsePerfStat('[1, 2]', { format: 'json' }), /line 1: not a JSON object: "\[1, 2\]"/);
  assert.throws(() => parsePerfStat('{"unit" : "msec"}', { format: 'json' }), /neither "event" nor "counter-value"/);
  assert.throws(() => parsePerfStat('{"counter-value" : "1.0", "event" : "cycles", "pcnt-running" : "50"}', { format: 'json' }), /"pcnt-running" must be a number/);
  assert.throws(() => parsePerfStat('', { format: /** @type {any} */ ('text') }), /format must be 'csv' or 'json'/);
});

test('parsePerfStat: empty output and older perf without the metric fields', () => {
  assert.deepEqual(parsePerfStat('', { format: 'csv' }), { events: [] });
  assert.deepEqual(parsePerfStat('\r\n# comment\r\n', { format: 'json' }), { events: [] });
  assert.deepEqual(parsePerfStat('42,,cycles,1000,75.00\r\n', { format: 'csv' }).events, [
    { name: 'cycles', value: 42, unit: '', runningPct: 75, notSupported: false, notCounted: false },
  ]);
});
