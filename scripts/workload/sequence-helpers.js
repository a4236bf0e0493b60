/**
 * What the ddl, reload and loops sequence benchmarks share: their plug-in object planned from
 * their suite block (sequenceBenchmark), the block's check (the insert benchmark and LinkBench
 * use it too), the sysbench plug-in's table load,
 * outcomes of a one-shot timed step, a connection to a database of the server, the release's own client binaries, a client run
 * whose CPU time is measured apart from the server's, and the server's own CPU time.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createConnection } from 'mysql2/promise';
import { UserError } from '../errors.js';
import { prepareTables, runSysbenchVersion } from './sysbench/index.js';
import { releaseClients } from '../server/index.js';

/** @typedef {import('./types.js').StepOutcome} StepOutcome */
/** @typedef {import('./types.js').BenchTarget} BenchTarget */

/**
 * A measured step made of statements timed as one: rows/s is the step's rate (higher is
 * better), and its duration is the latency of its one operation (lower is better), so compare's
 * `throughput` and `latencyP95Ms` judge it as they judge any test.
 * @param {{seconds: number, rows: number, statements: number, details: Record<string, object>, log: string[]}} m
 * @returns {StepOutcome}
 */
export function timedOutcome({ seconds, rows, statements, details, log }) {
  const ms = round3(seconds * 1000);
  return {
    status: 'ok', stateValid: true, durationS: seconds, throughput: round3(rows / seconds), tps: round3(statements / seconds),
    latencyMs: { avg: ms, p95: ms, p99: ms, max: ms }, errors: 0, reconnects: 0, intervals: [],
    details, rawOutput: `${log.join('\n')}\n`,
  };
}

/**
 * @param {string} reason
 * @param {number} seconds
 * @param {string[]} log
 * @param {boolean} stateValid
 * @returns {StepOutcome}
 */
export function failedOutcome(reason, seconds, log, stateValid) {
  log.push(`failed: ${reason}`);
  return {
    status: 'failed', reason, stateValid, durationS: seconds, throughput: null, tps: null, latencyMs: null,
    errors: 0, reconnects: 0, intervals: [], rawOutput: `${log.join('\n')}\n`,
  };
}

/**
 * A setup step (load, dump) that went well.
 * @param {number} seconds
 * @param {string[]} log
 * @returns {StepOutcome}
 */
export function setupOutcome(seconds, log) {
  return {
    status: 'ok', stateValid: true, durationS: seconds, throughput: null, tps: null, latencyMs: null,
    errors: 0, reconnects: 0, intervals: [], rawOutput: `${log.join('\n')}\n`,
  };
}

/**
 * A connection of its own to the target's server (no default database when `database` is null).
 * @param {BenchTarget} target
 * @param {string|null} database
 */
export async function connectTo(target, database) {
  return createConnection({
    ...(target.socket ? { socketPath: target.socket } : { host: target.host ?? '127.0.0.1', port: target.port ?? 3306 }),
    user: target.user, password: target.password ?? '', ...(database ? { database } : {}),
  });
}

/**
 * A database name the benchmarks put into SQL and command lines unquoted.
 * @param {string} name
 */
export function isPlainIdentifier(name) {
  return /^[A-Za-z0-9_]+$/.test(name);
}

/**
 * A plug-in's settings block of the suite (`ddl:`, `reload:`, ...), checked beyond the schema:
 * the block must be there, and a `database` the plug-in defaults must be a plain identifier, as
 * the plug-ins put it into SQL and command lines unquoted.
 * @param {import('../types.js').SuiteConfig} suite
 * @param {string} name the plug-in's name, which is also the block's key
 * @param {{fields: string, defaults: Record<string, unknown>}} shape `fields`: the block's
 *   required fields, named in the error; `defaults`: the values of the fields the block may omit
 * @returns {Record<string, unknown>} the block with the defaults filled in
 * @throws {UserError} when the block is missing or its database is not a plain identifier
 */
export function suiteBlock(suite, name, { fields, defaults }) {
  const block = /** @type {Record<string, Record<string, unknown>|undefined>} */ (/** @type {unknown} */ (suite))[name];
  if (!block) throw new UserError(`configs/suites/${suite.name}.yml: 'benchmarks' names ${name} but the suite has no '${name}' block (${fields}; see scripts/config/schemas/suite.schema.json)`);
  /** @type {Record<string, unknown>} */
  const settings = { ...block };
  for (const [key, value] of Object.entries(defaults)) settings[key] = block[key] ?? value;
  if ('database' in defaults && !isPlainIdentifier(String(settings.database))) {
    throw new UserError(`configs/suites/${suite.name}.yml: ${name}.database = ${JSON.stringify(settings.database)} must be a plain identifier (letters, digits, _)`);
  }
  return settings;
}

/**
 * The plug-in object of a sequence benchmark whose tables sysbench prepare loads (ddl, reload,
 * loops): its steps are planned from its suite block, checked by suiteBlock, and its run
 * records sysbench's version. One declaration instead of three copies of the same object and
 * planSteps prologue.
 * @param {object} def
 * @param {string} def.name the plug-in's name, which is also its suite block's key
 * @param {{fields: string, defaults: Record<string, unknown>}} def.block the block's shape (suiteBlock)
 * @param {(settings: any, suite: import('../types.js').SuiteConfig, engine: 'innodb'|'rocksdb') => import('./types.js').StepPlan[]} def.plan
 *   the steps of one pass from the checked block (defaults filled in)
 * @param {import('./types.js').Benchmark['runStep']} def.runStep
 * @returns {import('./types.js').Benchmark}
 * @throws {UserError} (from planSteps) when the suite has no such block or its database is not a plain identifier
 */
export function sequenceBenchmark({ name, block, plan, runStep }) {
  return Object.freeze({
    name,
    planSteps: (/** @type {import('../types.js').SuiteConfig} */ suite, /** @type {{engine: 'innodb'|'rocksdb'}} */ { engine }) => plan(suiteBlock(suite, name, block), suite, engine),
    runStep,
    toolVersions: runSysbenchVersion,
  });
}

/** Seconds since `startNs` (process.hrtime.bigint()). @param {bigint} startNs */
export function secondsSince(startNs) {
  return Number(process.hrtime.bigint() - startNs) / 1e9;
}

/**
 * The release's client binaries, found beside the server binary the target runs (the server
 * stage knows each flavor's names: MariaDB's mariadb and mariadb-dump, MySQL's mysql and mysqldump).
 * @param {BenchTarget & {command?: string[], flavor?: string}} target a scripts/server handle
 * @returns {{client: string, dump: string}}
 * @throws {Error} when the target is not a server handle with its command line
 */
export function clientBinaries(target) {
  const clients = releaseClients(target.command ?? []);
  if (!clients) throw new Error(`cannot find the server binary in the target's command (${JSON.stringify(target.command ?? null)}): the release's client binaries are found beside it`);
  return clients;
}

/**
 * Connection options of the release's client binaries for the target.
 * @param {BenchTarget} target
 * @returns {string[]}
 */
export function clientConnectionArgs(target) {
  return [
    '--no-defaults', `--user=${target.user}`, ...(target.password ? [`--password=${target.password}`] : []),
    ...(target.socket ? [`--socket=${target.socket}`] : [`--host=${target.host ?? '127.0.0.1'}`, `--port=${target.port ?? 3306}`, '--protocol=TCP']),
  ];
}

/**
 * @typedef {object} ClientRun
 * @property {number|null} exitCode null when killed
 * @property {string} stderr the client's stderr (bash's `times` lines removed)
 * @property {number} wallS
 * @property {number|null} cpuS user + system CPU seconds of the client process (and its
 *   children), from bash's `times`; null when they could not be read
 * @property {string|null} spawnError
 */

/**
 * Run a client binary with stdin and stdout redirected to files, measuring its own CPU time:
 * bash runs it as a child and prints `times` (CPU of the shell, then of its children) after it.
 * @param {string[]} argv binary and arguments
 * @param {{stdinFile?: string, stdoutFile?: string, clientCpus?: string|null, signal?: AbortSignal, timeoutS: number}} opts
 * @returns {Promise<ClientRun>}
 */
export function runClientTimed(argv, opts) {
  const script = '"$@" <"$TAGBENCH_IN" >"$TAGBENCH_OUT"; rc=$?; times >&2; exit $rc';
  const bash = ['bash', '-c', script, 'bash', ...argv];
  const full = opts.clientCpus ? ['taskset', '-c', opts.clientCpus, ...bash] : bash;
  const env = { ...process.env, LC_ALL: 'C', TAGBENCH_IN: opts.stdinFile ?? '/dev/null', TAGBENCH_OUT: opts.stdoutFile ?? '/dev/null' };
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(full[0], full.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], env, signal: opts.signal });
    let stderr = '';
    /** @type {string|null} */
    let spawnError = null;
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutS * 1000);
    child.on('error', (err) => { spawnError = err.message; });
    child.on('close', (code) => {
      clearTimeout(timer);
      const parsed = parseBashTimes(stderr);
      resolve({ exitCode: code, stderr: parsed.rest, wallS: secondsSince(started), cpuS: parsed.childrenCpuS, spawnError });
    });
  });
}

/**
 * Split bash's `times` output (two lines `XmY.YYYs XmY.YYYs`: the shell, then its children)
 * from the end of a stderr text.
 * @param {string} text
 * @returns {{childrenCpuS: number|null, rest: string}}
 */
export function parseBashTimes(text) {
  const lines = text.trimEnd().split('\n');
  const pattern = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/;
  const last = lines.at(-1)?.match(pattern);
  const before = lines.at(-2)?.match(pattern);
  if (!last || !before) return { childrenCpuS: null, rest: text };
  const seconds = (/** @type {string} */ m, /** @type {string} */ s) => Number(m) * 60 + Number(s);
  return { childrenCpuS: round3(seconds(last[1], last[2]) + seconds(last[3], last[4])), rest: lines.slice(0, -2).join('\n') };
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on every Linux we run on). */
const USER_HZ = 100;

/**
 * CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat.
 * @param {number|undefined} pid
 * @returns {Promise<number|null>} null without a pid or when the process is gone
 */
export async function processCpuSeconds(pid) {
  if (!pid) return null;
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return text === null ? null : parseProcStatCpuS(text);
}

/**
 * @param {string} text contents of /proc/<pid>/stat
 * @returns {number|null} utime + stime in seconds
 */
export function parseProcStatCpuS(text) {
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? round3((utime + stime) / USER_HZ) : null;
}

/**
 * Load sysbench-style tables sbtest1..N (sysbench prepare, checked like the sysbench suite's
 * load) into `database`, creating it when missing (a DROP DATABASE may have removed it).
 * @param {BenchTarget} target
 * @param {import('./types.js').StepContext} ctx
 * @param {{database: string, tables: number, tableSize: number}} size
 * @returns {Promise<import('./types.js').PrepareResult>}
 */
export async function loadSysbenchTables(target, ctx, { database, tables, tableSize }) {
  // Without `query`, prepareTables opens its own connection and creates the database.
  const own = { ...target, database, query: undefined };
  // The sysbench plug-in's load step, sized by this benchmark's own block.
  const suite = { ...ctx.suite, only: undefined, tables, tableSize };
  return prepareTables(suite, own, { engine: ctx.engine, clientCpus: ctx.clientCpus, signal: ctx.signal, onProgress: () => {} });
}

/** @param {number} x */
export function round3(x) {
  return Math.round(x * 1000) / 1000;
}
