/**
 * The LinkBench steps against one server: create the schema, the load phase, the timed
 * secondary index, a request phase, and the database's size between them. The driver is run
 * as `java -cp <jar> LinkBenchDriver -c <our properties> -l|-r -csvstats <file>`; its console
 * output and CSV statistics are kept whole and parsed by parse.js.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSysbench as spawnTool } from '../spawn-sysbench.js';
import { parseLinkbenchOutput, parseCsvStats } from './parse.js';
import { linkbenchProperties } from './properties.js';
import { LINKBENCH_DATABASE, createIndexStatement, createSchemaStatements } from './schema.js';

/**
 * A requester that gave up (more than max_failed_requests failures) or a phase the driver says
 * did not complete cleanly. Other ERROR lines are requests the driver retried or counted as
 * failed within its limit (MyRocks snapshot conflicts, lock wait timeouts): the phase stands,
 * and they are counted in the outcome's `errors`.
 */
const ABORTED = /aborting: \d+ failed requests|did not complete cleanly|Unrecoverable exception/;

/**
 * @typedef {object} LinkbenchTarget the server (a scripts/server handle or a test server fits)
 * @property {string} host
 * @property {number} port
 * @property {string} user
 * @property {string} [password]
 * @property {(sql: string) => Promise<any>} query runs one statement (names here are fully qualified)
 */

/**
 * @typedef {object} PhaseOptions
 * @property {string|null} [clientCpus] taskset CPU list for the JVM; null = not pinned
 * @property {number} [timeoutS] kill the driver after this many seconds (load default 3600;
 *   request default maxtime + warm-up + 120 s for JVM start and connection setup)
 * @property {number} [heapMb] JVM heap (-Xmx), default 1000 as the fork's own launcher
 * @property {string} [javaBin]
 * @property {AbortSignal} [signal]
 * @property {(line: string) => void} [onProgress] each output line as it arrives
 */

/**
 * @typedef {object} PhaseResult
 * @property {'ok'|'failed'} status
 * @property {string|null} reason why it failed, null when ok
 * @property {'load'|'request'} phase
 * @property {string} startedAt
 * @property {number} wallS wall-clock seconds of the driver process (JVM start included)
 * @property {import('./parse.js').LinkbenchParsed} parsed from the console output
 * @property {import('./parse.js').CsvOperation[]} csvStats the -csvstats file, parsed ([] when absent)
 * @property {string} csvStatsText the -csvstats file as written
 * @property {string} properties the properties file the driver ran with (password removed)
 * @property {string[]} argv
 * @property {string} rawOutput
 */

/**
 * Drop and create linkdb0 with its tables (no secondary index yet).
 * @param {LinkbenchTarget} target
 * @param {import('./schema.js').SchemaOptions} schema
 * @returns {Promise<string[]>} the statements run
 */
export async function createLinkbenchSchema(target, schema) {
  const statements = createSchemaStatements(schema);
  for (const sql of statements) await target.query(sql);
  return statements;
}

/**
 * Add id1_type to linktable and time it.
 * @param {LinkbenchTarget} target
 * @param {import('./schema.js').SchemaOptions} schema
 * @returns {Promise<{durationS: number, statement: string}>}
 */
export async function createLinkbenchIndex(target, schema) {
  const statement = createIndexStatement(schema);
  const started = process.hrtime.bigint();
  await target.query(statement);
  return { durationS: Number(process.hrtime.bigint() - started) / 1e9, statement };
}

/**
 * Logical size of linkdb0 (data + indexes as information_schema reports them) and its rows.
 * @param {LinkbenchTarget} target
 * @returns {Promise<{bytes: number, tables: Record<string, {rows: number, dataBytes: number, indexBytes: number}>}>}
 */
export async function linkbenchDatabaseSize(target) {
  const rows = await target.query(`SELECT TABLE_NAME AS t, TABLE_ROWS AS r, DATA_LENGTH AS d, INDEX_LENGTH AS i FROM information_schema.TABLES WHERE TABLE_SCHEMA = '${LINKBENCH_DATABASE}'`);
  /** @type {Record<string, {rows: number, dataBytes: number, indexBytes: number}>} */
  const tables = {};
  let bytes = 0;
  for (const row of rows) {
    tables[row.t] = { rows: Number(row.r), dataBytes: Number(row.d), indexBytes: Number(row.i) };
    bytes += Number(row.d) + Number(row.i);
  }
  return { bytes, tables };
}

/**
 * The driver's argv for one phase (without taskset).
 * @param {'load'|'request'} phase
 * @param {{jar: string, home: string}} build
 * @param {string} propertiesFile
 * @param {string} csvStatsFile
 * @param {{javaBin?: string, heapMb?: number}} [opts]
 * @returns {string[]}
 */
export function linkbenchCommand(phase, build, propertiesFile, csvStatsFile, { javaBin = 'java', heapMb = 1000 } = {}) {
  return [
    'env', `LINKBENCH_HOME=${build.home}`, javaBin, `-Xmx${heapMb}m`, '-cp', build.jar, 'com.facebook.LinkBench.LinkBenchDriver',
    '-c', propertiesFile, phase === 'load' ? '-l' : '-r', '-csvstats', csvStatsFile,
  ];
}

/**
 * Run one phase of the driver and parse what it printed. Never rejects for a failed run: the
 * result says `failed` with the reason (exit code, timeout, missing COMPLETED line, error lines).
 * @param {'load'|'request'} phase
 * @param {{jar: string, home: string}} build from ensureLinkbench
 * @param {import('./properties.js').LinkbenchConnection} connection
 * @param {import('./properties.js').LinkbenchParams} params
 * @param {PhaseOptions} [opts]
 * @returns {Promise<PhaseResult>}
 */
export async function runLinkbenchPhase(phase, build, connection, params, opts = {}) {
  const dir = await mkdtemp(join(tmpdir(), `tagbench-linkbench-${phase}-`));
  try {
    const properties = linkbenchProperties(params, connection, build.home);
    const propertiesFile = join(dir, 'linkbench.properties');
    const csvStatsFile = join(dir, 'stats.csv');
    await writeFile(propertiesFile, properties, { mode: 0o600 });
    const argv = linkbenchCommand(phase, build, propertiesFile, csvStatsFile, opts);
    const timeoutS = opts.timeoutS ?? (phase === 'load' ? 3600 : params.maxtimeS + (params.warmupS ?? 0) + 120);
    const startedAt = new Date().toISOString();
    const res = await spawnTool(argv, { clientCpus: opts.clientCpus ?? null, timeoutS, signal: opts.signal, onLine: opts.onProgress });
    const csvStatsText = await readFile(csvStatsFile, 'utf8').catch(() => '');
    const parsed = parseLinkbenchOutput(res.output);
    /** @type {string|null} */
    let reason = null;
    if (res.spawnError) reason = `cannot start the driver: ${res.spawnError}`;
    else if (res.aborted) reason = 'aborted';
    else if (res.timedOut) reason = `timed out after ${timeoutS} s`;
    else if (res.exitCode !== 0) reason = `driver exited ${res.exitCode ?? res.signal}${parsed.errors.length ? `: ${parsed.errors[0]}` : ''}`;
    else if (parsed.errors.some((e) => ABORTED.test(e))) reason = parsed.errors.find((e) => ABORTED.test(e)) ?? null;
    else if (phase === 'load' && !parsed.load) reason = parsed.errors[0] ?? 'no LOAD PHASE COMPLETED line';
    else if (phase === 'load' && parsed.load && parsed.load.nodes !== parsed.load.expectedNodes) reason = `loaded ${parsed.load.nodes} nodes of ${parsed.load.expectedNodes}`;
    else if (phase === 'request' && !parsed.request) reason = parsed.errors[0] ?? 'no REQUEST PHASE COMPLETED line';
    else if (phase === 'request' && parsed.request && parsed.request.requests === 0) reason = 'request phase completed 0 requests';
    return {
      status: reason ? 'failed' : 'ok', reason, phase, startedAt, wallS: res.elapsedS, parsed,
      csvStats: csvStatsText ? parseCsvStats(csvStatsText) : [], csvStatsText,
      properties: properties.replace(/^password = .*$/m, 'password = (removed)'), argv: res.argv, rawOutput: res.output,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
