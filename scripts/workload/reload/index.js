/**
 * Bulk reload of a dump (seed 004: the time to reload a mysqldump, shown as relative
 * performance), a sequence benchmark (README.md "Sequence benchmarks"). Every pass runs
 *
 *   reload.load -> reload.dump -> reload.extended-insert -> reload.single-row
 *
 * reload.load fills sbtest1..N (`reload.tables` x `reload.tableSize`, sysbench prepare) in a
 * database of their own (`reload.database`, default tagbench_reload); reload.dump dumps it with
 * the release's own dump tool (mariadb-dump or mysqldump, found beside the server binary) twice:
 * with multi-row INSERTs (the default, --extended-insert) and with one row per INSERT
 * (--skip-extended-insert), into files under the server's work dir. Each measured step drops and
 * recreates the database (not timed), then times the release's own client (mariadb / mysql)
 * reading one dump on stdin, and checks every row came back.
 *
 * Figures: `throughput` = rows reloaded / seconds (rows/s, higher is better), `latencyMs` = the
 * reload's seconds in ms (lower is better, judged by latencyP95Ms), `tps` = INSERT statements/s.
 * `details.reload`: rows, statements, dump bytes, seconds, the client's CPU seconds (its own
 * process CPU time, from bash's `times`) and the server's (mysqld's /proc/<pid>/stat over the
 * same window), apart; the repeat's `efficiency` (vmstat) stays the whole host's.
 */
import { createReadStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import {
  clientBinaries, clientConnectionArgs, connectTo, failedOutcome, loadSysbenchTables, processCpuSeconds,
  round3, runClientTimed, secondsSince, sequenceBenchmark, setupOutcome, timedOutcome,
} from '../sequence-helpers.js';

/** @typedef {import('../types.js').StepPlan} StepPlan */
/** @typedef {import('../types.js').BenchTarget} BenchTarget */
/** @typedef {import('../types.js').StepOutcome} StepOutcome */
/** @typedef {BenchTarget & {command?: string[], workDir?: string, pid?: number}} ServerTarget */

/**
 * @typedef {object} ReloadSettings the suite's `reload` block (scripts/config/schemas/suite.schema.json)
 * @property {number} tables
 * @property {number} tableSize rows per table
 * @property {string} [database] default tagbench_reload
 */

export const DEFAULT_RELOAD_DATABASE = 'tagbench_reload';

/** The two dump forms: the dump tool's option and the dump file's name. */
export const DUMP_FORMS = Object.freeze({
  'extended-insert': { option: '--extended-insert', file: 'extended-insert.sql' },
  'single-row': { option: '--skip-extended-insert', file: 'single-row.sql' },
});

export const reload = sequenceBenchmark({ name: 'reload', block: { fields: 'tables, tableSize', defaults: { database: DEFAULT_RELOAD_DATABASE } }, plan: planReload, runStep });

/**
 * The steps of one pass: the load, the two dumps, one reload per dump form.
 * @param {Required<ReloadSettings>} s the suite's checked `reload` block
 * @param {import('../../types.js').SuiteConfig} _suite
 * @param {'innodb'|'rocksdb'} engine
 * @returns {StepPlan[]}
 */
function planReload(s, _suite, engine) {
  /**
   * @param {string} name
   * @param {Record<string, string>} params
   * @returns {StepPlan}
   */
  const step = (name, params) => {
    const setup = !params.form;
    return {
      name, kind: 'reload', benchmark: 'reload', sequence: 'reload', measured: !setup, group: setup ? 'setup' : 'write', reported: !setup, runOnce: false,
      metric: 'rows/s', script: null, scriptSource: null, params: { database: s.database, ...params },
      durationS: 0, warmupS: 0, threads: 1, tables: s.tables, tableSize: s.tableSize, engine, rowsPerEvent: 0,
      postwriteAfter: false, restS: 0,
    };
  };
  return [
    step('reload.load', { load: 'sysbench prepare' }),
    step('reload.dump', { dump: Object.keys(DUMP_FORMS).join(',') }),
    ...Object.keys(DUMP_FORMS).map((form) => step(`reload.${form}`, { form })),
  ];
}

/**
 * @param {ServerTarget} target
 * @param {string} database
 */
export function dumpDir(target, database) {
  if (!target.workDir) throw new Error('reload needs the server\'s work dir to keep its dumps (a scripts/server handle has it)');
  return join(target.workDir, 'reload-dumps', database);
}

/**
 * @param {StepPlan} step
 * @param {ServerTarget} target
 * @param {import('../types.js').StepContext} ctx
 * @returns {Promise<StepOutcome>}
 */
async function runStep(step, target, ctx) {
  const database = String(step.params.database);
  const log = [`${step.name} pass ${ctx.pass + 1}: ${step.tables} table(s) of ${step.tableSize} rows in ${database}`];
  const started = process.hrtime.bigint();
  try {
    if (step.params.load) {
      const out = await loadSysbenchTables(target, ctx, { database, tables: step.tables, tableSize: step.tableSize });
      log.push(`sysbench prepare: ${out.status} in ${out.durationS.toFixed(3)} s`, out.rawOutput);
      if (out.status !== 'ok') return failedOutcome(`${step.name}: ${out.reason}`, secondsSince(started), log, false);
      return setupOutcome(secondsSince(started), log);
    }
    if (step.params.dump) return await dump(target, ctx, database, log, started);
    return await replay(step, target, ctx, database, log);
  } catch (err) {
    const reason = ctx.signal?.aborted ? 'interrupted' : `${step.name}: ${err instanceof Error ? err.message : String(err)}`;
    return failedOutcome(reason, secondsSince(started), log, false);
  }
}

/**
 * reload.dump: both dump files, with the release's own dump tool.
 * @param {ServerTarget} target
 * @param {import('../types.js').StepContext} ctx
 * @param {string} database
 * @param {string[]} log
 * @param {bigint} started
 */
async function dump(target, ctx, database, log, started) {
  const bins = clientBinaries(target);
  const dir = dumpDir(target, database);
  await mkdir(dir, { recursive: true });
  for (const form of Object.values(DUMP_FORMS)) {
    const argv = [bins.dump, ...clientConnectionArgs(target), '--single-transaction', '--skip-dump-date', form.option, database];
    const out = join(dir, form.file);
    const run = await runClientTimed(argv, { stdoutFile: out, clientCpus: ctx.clientCpus, signal: ctx.signal, timeoutS: 3600 });
    log.push(`$ ${argv.join(' ')} > ${out}`, `dump: exit ${run.exitCode} in ${run.wallS.toFixed(3)} s, client CPU ${run.cpuS} s, ${(await stat(out)).size} bytes`);
    if (run.spawnError || run.exitCode !== 0) throw new Error(`${bins.dump} ${form.option} failed (${run.spawnError ?? `exit ${run.exitCode}`}): ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
  return setupOutcome(secondsSince(started), log);
}

/**
 * A measured reload of one dump form.
 * @param {StepPlan} step
 * @param {ServerTarget} target
 * @param {import('../types.js').StepContext} ctx
 * @param {string} database
 * @param {string[]} log
 * @returns {Promise<StepOutcome>}
 */
async function replay(step, target, ctx, database, log) {
  const form = DUMP_FORMS[/** @type {keyof typeof DUMP_FORMS} */ (String(step.params.form))];
  const file = join(dumpDir(target, database), form.file);
  const statements = await countInserts(file);
  const dumpBytes = (await stat(file)).size;
  const rows = step.tables * step.tableSize;
  const conn = await connectTo(target, null);
  try {
    // Not timed: the reload starts from an empty database, as after CREATE DATABASE on a new host.
    await conn.query(`DROP DATABASE IF EXISTS ${database}`);
    await conn.query(`CREATE DATABASE ${database}`);
    const bins = clientBinaries(target);
    const argv = [bins.client, ...clientConnectionArgs(target), `--database=${database}`];
    const serverBefore = await processCpuSeconds(target.pid);
    const run = await runClientTimed(argv, { stdinFile: file, clientCpus: ctx.clientCpus, signal: ctx.signal, timeoutS: 3600 });
    const serverAfter = await processCpuSeconds(target.pid);
    log.push(`$ ${argv.join(' ')} < ${file}`, `reload: exit ${run.exitCode} in ${run.wallS.toFixed(3)} s, client CPU ${run.cpuS} s`);
    if (run.spawnError || run.exitCode !== 0) {
      return failedOutcome(`${step.name}: ${bins.client} failed (${run.spawnError ?? `exit ${run.exitCode}`}): ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`, run.wallS, log, false);
    }
    let back = 0;
    for (let t = 1; t <= step.tables; t++) {
      const [r] = /** @type {any} */ (await conn.query(`SELECT COUNT(*) AS n FROM ${database}.sbtest${t}`));
      back += Number(r[0].n);
    }
    if (back !== rows) return failedOutcome(`${step.name}: ${back} rows after the reload, expected ${rows}`, run.wallS, log, false);
    const serverCpuS = serverBefore === null || serverAfter === null ? null : round3(serverAfter - serverBefore);
    const seconds = run.wallS;
    log.push(`${step.name}: ${rows} rows, ${statements} INSERT statements in ${seconds.toFixed(3)} s = ${(rows / seconds).toFixed(1)} rows/s; CPU client ${run.cpuS} s, server ${serverCpuS} s`);
    return timedOutcome({
      seconds, rows, statements, log,
      details: {
        reload: {
          form: String(step.params.form), rows, statements, dumpBytes, seconds: round3(seconds),
          clientCpuS: run.cpuS, serverCpuS,
          clientCpuShare: run.cpuS === null ? null : round3(run.cpuS / seconds),
          serverCpuShare: serverCpuS === null ? null : round3(serverCpuS / seconds),
        },
      },
    });
  } finally {
    await conn.end().catch(() => {});
  }
}

/**
 * INSERT statements in a dump file (each starts a line), read as a stream: dumps of runner
 * sizes do not fit in memory.
 * @param {string} file
 */
export async function countInserts(file) {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line.startsWith('INSERT INTO ')) n++;
  }
  return n;
}
