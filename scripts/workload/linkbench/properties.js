/**
 * The driver's properties file, written whole by us (not a copy of the fork's sample): the
 * connection, the scale and concurrency of the phase, fixed random seeds so that a load (and
 * the request stream) repeats exactly, and which latency histogram to keep. The fork's workload
 * file (operation mix, distributions) is used as shipped, from the cached build's config/.
 */
import { join } from 'node:path';
import { LINKBENCH_DATABASE } from './schema.js';

/**
 * @typedef {object} LinkbenchParams one LinkBench configuration (a suite's preset)
 * @property {number} maxid1 node ids 1..maxid1-1 at load (the seed posts: 20000001, 100000001)
 * @property {number} loaders link loader threads (`loaders`)
 * @property {number} requesters request threads (`requesters`)
 * @property {number} maxtimeS request phase time limit (`maxtime`)
 * @property {number} [warmupS] request warm-up before statistics (`warmup_time`), default 0
 * @property {number} [requestsPerRequester] `requests` per thread; default large enough that maxtime ends the phase
 * @property {number} [loadSeed] `load_random_seed`, default 1
 * @property {number} [requestSeed] `request_random_seed`, default 2
 * @property {boolean} [hdrHistogram] HDR latency histogram (µs percentiles) instead of the bucketed one (ms ranges)
 * @property {number} [bulkInsertBatch] `MySQL_bulk_insert_batch`, default the fork's 1024
 * @property {string} [onlyOperation] a counted request phase of one operation type (a key of
 *   OPERATION_PROPERTIES): its probability 100, every other type's 0
 * @property {{func: string, default: number, config: number}} [nlinks] links per node:
 *   `nlinks_func` (a built-in mode: const, multiples, exponential, perfect_squares, or a
 *   distribution class), `nlinks_default`, `nlinks_config`; absent = the workload file's `real`
 */

/**
 * @typedef {object} LinkbenchConnection
 * @property {string} host TCP host (the JDBC driver does not use unix sockets)
 * @property {number} port
 * @property {string} user
 * @property {string} [password]
 */

/**
 * The request mix's property of each operation type the driver reports (the fork's Config.PR_*
 * and the LinkBenchOp it counts under: `getlink` is MULTIGET_LINK). A counted phase of one type
 * sets its property to 100 and the others to 0 (the driver requires them to add up to 100).
 */
export const OPERATION_PROPERTIES = Object.freeze({
  ADD_LINK: 'addlink', DELETE_LINK: 'deletelink', UPDATE_LINK: 'updatelink', COUNT_LINK: 'countlink', MULTIGET_LINK: 'getlink',
  GET_LINKS_LIST: 'getlinklist', ADD_NODE: 'addnode', UPDATE_NODE: 'updatenode', DELETE_NODE: 'deletenode', GET_NODE: 'getnode',
});

/** Fixed seeds: the same graph is loaded every time, and every request phase draws the same stream. */
export const DEFAULT_LOAD_SEED = 1;
export const DEFAULT_REQUEST_SEED = 2;

/**
 * @param {string} value
 * @returns {string} escaped for a java.util.Properties value
 */
function escapeValue(value) {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/^\s/, (c) => `\\${c}`);
}

/**
 * The request mix of a phase of one operation type.
 * @param {string} op a key of OPERATION_PROPERTIES
 * @returns {[string, number][]}
 * @throws {Error} for a type the driver has no property for
 */
function operationMix(op) {
  if (!(op in OPERATION_PROPERTIES)) throw new Error(`linkbench: no request property for operation type ${op}; known: ${Object.keys(OPERATION_PROPERTIES).join(', ')}`);
  return Object.entries(OPERATION_PROPERTIES).map(([name, prop]) => [prop, name === op ? 100 : 0]);
}

/**
 * @param {LinkbenchParams} params
 * @param {LinkbenchConnection} connection
 * @param {string} home the cached build's folder (holds config/FBWorkload.properties and config/Distribution.dat)
 * @returns {string} the properties file's text
 */
export function linkbenchProperties(params, connection, home) {
  for (const key of /** @type {const} */ (['maxid1', 'loaders', 'requesters', 'maxtimeS'])) {
    if (!Number.isInteger(params[key]) || params[key] < 1) throw new Error(`linkbench: ${key} ${params[key]} must be a whole number >= 1`);
  }
  if (params.maxid1 < 2) throw new Error('linkbench: maxid1 must be at least 2 (ids start at 1, maxid1 is exclusive)');
  /** @type {[string, string|number|boolean][]} */
  const entries = [
    ['workload_file', join(home, 'config', 'FBWorkload.properties')],
    ['data_file', join(home, 'config', 'Distribution.dat')],
    ['linkstore', 'com.facebook.LinkBench.LinkStoreMysql'],
    ['nodestore', 'com.facebook.LinkBench.LinkStoreMysql'],
    ['host', connection.host],
    ['port', connection.port],
    ['user', connection.user],
    ['password', connection.password ?? ''],
    ['dbprefix', LINKBENCH_DATABASE.replace(/0$/, '')],
    ['dbcount', 1],
    ['linktable', 'linktable'],
    ['counttable', 'counttable'],
    ['nodetable', 'nodetable'],
    ['debuglevel', 'INFO'],
    // Progress every second of the request phase is what the per-interval rates are made of
    // (parse.js requestIntervals).
    ['progressfreq', 1],
    ['displayfreq', 3600],
    // Not a per-second source: the load reports progress only when a loader finishes a chunk of
    // loader_chunk_size id1s, and this interval merely filters those reports; the load phase
    // therefore records no per-second intervals (sequence.js).
    ['load_progress_interval', 50000],
    ['req_progress_interval', 1000],
    ['maxsamples', 10000],
    ['startid1', 1],
    ['maxid1', params.maxid1],
    ['loaders', params.loaders],
    ['generate_nodes', true],
    ['loader_chunk_size', 2048],
    ['load_random_seed', params.loadSeed ?? DEFAULT_LOAD_SEED],
    ['requesters', params.requesters],
    ['requests', params.requestsPerRequester ?? 1000000000],
    ['requestrate', 0],
    ['maxtime', params.maxtimeS],
    ['warmup_time', params.warmupS ?? 0],
    ['request_random_seed', params.requestSeed ?? DEFAULT_REQUEST_SEED],
    ['max_failed_requests', 100],
    ['MySQL_bulk_insert_batch', params.bulkInsertBatch ?? 1024],
    ['use_hdr_histogram', params.hdrHistogram === true],
    ['hdr_histogram_accuracy', 3],
    ['hdr_histogram_max_latency', 100000000],
    ...(params.onlyOperation ? operationMix(params.onlyOperation) : []),
    ...(params.nlinks ? /** @type {[string, string|number][]} */ ([
      ['nlinks_func', params.nlinks.func], ['nlinks_default', params.nlinks.default], ['nlinks_config', params.nlinks.config],
    ]) : []),
  ];
  return `# Written by tagbench (scripts/workload/linkbench/properties.js)\n${entries.map(([k, v]) => `${k} = ${escapeValue(String(v))}`).join('\n')}\n`;
}
