// Planning of the ddl, reload and loops sequence benchmarks and the parsers they use (pure).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../scripts/config/index.js';
import { planSuite } from '../../scripts/workload/index.js';
import { maintenanceError } from '../../scripts/workload/ddl/index.js';
import { loopStepName, parseLoopStepName } from '../../scripts/workload/loops/index.js';
import { clientBinaries, parseBashTimes, parseProcStatCpuS, timedOutcome } from '../../scripts/workload/sequence-helpers.js';
import { UserError } from '../../scripts/errors.js';

const root = new URL('../..', import.meta.url).pathname;
const { suites } = await loadConfig(root);

test('ddl plans loads before each destructive step and every timed statement as a reported write step', () => {
  const plan = planSuite(suites['ddl-smoke']);
  assert.deepEqual(plan.map((s) => `${s.name}:${s.group}`), [
    'ddl.load:setup', 'ddl.create-index:write', 'ddl.analyze-table:write', 'ddl.optimize-table:write', 'ddl.truncate-table:write',
    'ddl.reload-1:setup', 'ddl.drop-table:write', 'ddl.reload-2:setup', 'ddl.drop-database:write']);
  for (const s of plan) {
    assert.equal(s.kind, 'ddl');
    assert.equal(s.sequence, 'ddl');
    assert.equal(s.reported, s.group !== 'setup');
    assert.equal(s.tables, 2);
    assert.equal(s.tableSize, 30000);
    assert.equal(s.params.database, 'tagbench_ddl');
  }
  assert.equal(plan[6].params.statement, 'DROP TABLE {t}');
});

test('a suite naming a benchmark without its block, or with a bad database name, is refused naming the file', () => {
  const bare = { ...suites['ddl-smoke'], name: 'x', ddl: undefined };
  assert.throws(() => planSuite(bare), (e) => e instanceof UserError && /configs\/suites\/x\.yml: 'benchmarks' names ddl but the suite has no 'ddl' block/.test(e.message));
  const bad = { ...suites['reload-smoke'], name: 'y', reload: { tables: 1, tableSize: 10, database: 'a-b' } };
  assert.throws(() => planSuite(bad), /configs\/suites\/y\.yml: reload\.database = "a-b" must be a plain identifier/);
  const loops = { ...suites['loops-smoke'], name: 'z', loops: { loops: 2, loopDurationS: 1, test: 'ddl.load' } };
  assert.throws(() => planSuite(loops), /loops\.test = 'ddl\.load' is not a measured test of the sysbench suite; valid: .*read-write\.range10/);
});

test('reload dumps once and reloads each dump form as a measured step', () => {
  const plan = planSuite(suites['reload-smoke']);
  assert.deepEqual(plan.map((s) => [s.name, s.reported]), [['reload.load', false], ['reload.dump', false], ['reload.extended-insert', true], ['reload.single-row', true]]);
  assert.deepEqual(plan.map((s) => s.params.form ?? null), [null, null, 'extended-insert', 'single-row']);
});

test('loops splits the request phase into N steps <test>.loopk of the sysbench test, without warm-up', () => {
  const plan = planSuite(suites['loops-smoke']);
  const [load, ...loops] = plan;
  assert.equal(load.name, 'loops.load');
  assert.equal(load.reported, false);
  assert.deepEqual(loops.map((s) => s.name), [1, 2, 3, 4, 5, 6].map((k) => `read-write.range10.loop${k}`));
  const sysbench = planSuite(/** @type {any} */ ({ ...suites['loops-smoke'], benchmarks: ['sysbench'] })).find((s) => s.name === 'read-write.range10');
  for (const [i, s] of loops.entries()) {
    assert.equal(s.kind, 'loops');
    assert.equal(s.script, 'oltp_read_write');
    assert.equal(s.durationS, /** @type {any} */ (suites['loops-smoke']).loops.loopDurationS);
    assert.equal(s.warmupS, 0);
    assert.equal(s.params.loop, i + 1);
    assert.deepEqual({ ...s.params, loop: undefined, loops: undefined }, { ...sysbench?.params, loop: undefined, loops: undefined }, 'the sysbench test\'s own options');
  }
  assert.deepEqual(parseLoopStepName(loopStepName('point-query', 12)), { test: 'point-query', loop: 12 });
  assert.equal(parseLoopStepName('read-write.range10'), null);
});

test('a timed step reports rows/s as throughput and its duration as the latency compare judges lower-is-better', () => {
  const out = timedOutcome({ seconds: 0.25, rows: 1000, statements: 2, details: { ddl: {} }, log: ['x'] });
  assert.equal(out.throughput, 4000);
  assert.equal(out.tps, 8);
  assert.deepEqual(out.latencyMs, { avg: 250, p95: 250, p99: 250, max: 250 });
});

test('ANALYZE/OPTIMIZE result rows with Msg_type error are failures, notes are not', () => {
  assert.equal(maintenanceError([{ Table: 'd.t', Op: 'optimize', Msg_type: 'note', Msg_text: 'Table does not support optimize, doing recreate + analyze instead' }, { Table: 'd.t', Msg_type: 'status', Msg_text: 'OK' }]), null);
  assert.equal(maintenanceError([{ Table: 'd.t', Msg_type: 'Error', Msg_text: 'Table \'d.t\' doesn\'t exist' }]), 'd.t: Table \'d.t\' doesn\'t exist');
  assert.equal(maintenanceError({ affectedRows: 0 }), null);
});

test('bash times: the children\'s line gives the client CPU, the rest of stderr is kept', () => {
  assert.deepEqual(parseBashTimes('ERROR 1 at line 3\n0m0.004s 0m0.002s\n1m2.500s 0m0.250s\n'), { childrenCpuS: 62.75, rest: 'ERROR 1 at line 3' });
  assert.equal(parseBashTimes('no times here\n').childrenCpuS, null);
});

test('/proc/<pid>/stat: utime + stime after the command name, even one with spaces and parentheses', () => {
  const fields = ['S', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '250', '50', '0', '0'];
  assert.equal(parseProcStatCpuS(`1234 (my (od) d) ${fields.join(' ')}`), 3);
});

test('client binaries are the release\'s own, beside its server binary', () => {
  const mariadb = clientBinaries(/** @type {any} */ ({ command: ['taskset', '-c', '1', '/c/mariadb-10.11.18/usr/sbin/mariadbd', '--defaults-file=x'] }));
  assert.deepEqual(mariadb, { client: '/c/mariadb-10.11.18/usr/bin/mariadb', dump: '/c/mariadb-10.11.18/usr/bin/mariadb-dump' });
  const mysql = clientBinaries(/** @type {any} */ ({ command: ['/c/mysql-9.7.4/usr/sbin/mysqld'] }));
  assert.deepEqual(mysql, { client: '/c/mysql-9.7.4/usr/bin/mysql', dump: '/c/mysql-9.7.4/usr/bin/mysqldump' });
  assert.throws(() => clientBinaries(/** @type {any} */ ({ command: ['/bin/true'] })), /cannot find the server binary/);
});

test('every planned step name is usable in the store\'s log file names (<step>.r<pass>.txt: letters, digits, . _ -)', () => {
  for (const name of ['ddl-smoke', 'reload-smoke', 'loops-smoke']) {
    for (const step of planSuite(suites[name])) assert.match(`${step.name}.r0.txt`, /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, `${name}: ${step.name}`);
  }
});
