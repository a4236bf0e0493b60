/**
 * Start one private server instance: render my.cnf, create the datadir, spawn (pinned when
 * the host class says so), wait until it answers, check the engine, create `sbtest`.
 */
import { spawn } from 'node:child_process';
import { access, constants, mkdir, open, readdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { UserError } from '../errors.js';
import { getFlavor } from '../config/index.js';
import { renderMycnf, parseMycnf, appendMycnfOptions } from './mycnf.js';
import { buildServerArgs, selectServerOptions } from './build-server-args.js';
import { checkPortFree } from './ports.js';
import { initDatadir } from './init-datadir.js';
import { readLogSize } from './error-log.js';
import { createServerHandle } from './server-handle.js';
import { registerServer } from './server-registry.js';
import { verifyEngine } from './verify-engine.js';
import { checkServerPid, waitUntilReady } from './wait-ready.js';

/** @typedef {import('../types.js').InstallResult} InstallResult */
/** @typedef {import('./types.js').ServerOptions} ServerOptions */
/** @typedef {import('./types.js').ServerHandle} ServerHandle */
/** @typedef {import('./types.js').RenderedMycnf} RenderedMycnf */
/** @typedef {import('./types.js').MycnfOption} MycnfOption */
/** @typedef {import('./build-server-args.js').InstancePaths} InstancePaths */
/** @typedef {import('./server-handle.js').StartingHandle} StartingHandle */

const ENGINES = ['innodb', 'rocksdb'];
/** sun_path is 108 bytes including the terminating NUL. */
const MAX_SOCKET_PATH = 107;

/**
 * Start one private server: check the request, prepare its work dir and datadir, spawn it
 * (under the wrapper and CPU pin when asked), wait until it answers, set it up for the clients.
 * @param {InstallResult} install the release to run (from scripts/install/)
 * @param {ServerOptions} options
 * @returns {Promise<ServerHandle>} a running server with an empty `sbtest` database
 * @throws {UserError} bad options, a missing binary or plugin, a port in use, a datadir
 *   that will not initialise, a server that will not start (with its error log), or the
 *   wrong engine; the server is stopped before any of these is thrown
 */
export async function startServer(install, options) {
  const log = options.log ?? ((m) => process.stderr.write(`[server] ${m}\n`));
  validateOptions(options);
  await checkInstall(install, options.engine);
  const instance = await prepareInstance(install, options, log);
  const { handle, offsets } = await spawnServer(install, options, instance, log);
  registerServer(handle);
  try {
    await waitUntilReady(handle, instance.paths, offsets, options.wrapper?.readyTimeoutS ?? options.startTimeoutS ?? 180);
    await checkServerPid(handle, instance.paths.pidFile, options.wrapper ?? null, options.stopTimeoutS ?? 300);
    await setUpServer(handle, install, options);
  } catch (err) {
    await handle.stop();
    throw err;
  }
  log(`ready: ${handle.version} pid ${handle.pid} port ${handle.port} socket ${handle.socket}`);
  return handle;
}

/**
 * @typedef {object} Instance a server's work dir, ready for the spawn
 * @property {string} workDir absolute
 * @property {InstancePaths & {serverOut: string}} paths
 * @property {RenderedMycnf} rendered the my.cnf the server runs with (the wrapper's options appended)
 * @property {MycnfOption[]} serverOptions the options of `rendered` this server reads
 * @property {boolean} asRoot whether tagbench runs as uid 0 (the server then needs --user=root)
 */

/**
 * Lay out the work dir, render the my.cnf, check the port, and initialise the datadir unless
 * one is reused.
 * @param {InstallResult} install
 * @param {ServerOptions} options
 * @param {(message: string) => void} log
 * @returns {Promise<Instance>}
 */
async function prepareInstance(install, options, log) {
  const workDir = resolve(options.workDir);
  const paths = instancePaths(workDir, install.prefix);
  const { rendered, serverOptions } = renderServerOptions(install, options, log);
  const reuse = await datadirInUse(paths.datadir);
  if (reuse && !options.reuseDatadir) {
    throw new UserError(`${paths.datadir} already holds a datadir: use a fresh workDir for every run, or pass reuseDatadir to start on it`);
  }
  await checkPortFree(options.port);

  for (const dir of [workDir, paths.tmpdir, paths.secureFileDir]) await mkdir(dir, { recursive: true });
  // For people reading the work dir; the server itself is given the options on its command line.
  await writeFile(join(workDir, 'my.cnf'), rendered.text);
  const asRoot = process.getuid?.() === 0;
  if (!reuse) {
    log(`initialising datadir ${paths.datadir} (${install.flavor} ${install.version})`);
    await initDatadir({ install, paths, options: serverOptions, initLog: join(workDir, 'init.log'), asRoot });
  }
  return { workDir, paths, rendered, serverOptions, asRoot };
}

/**
 * Where one instance keeps its files.
 * @param {string} workDir absolute
 * @param {string} prefix the install's prefix
 * @returns {Instance['paths']}
 * @throws {UserError} when the socket path would not fit a unix socket address
 */
function instancePaths(workDir, prefix) {
  const paths = {
    basedir: join(prefix, 'usr'),
    datadir: join(workDir, 'data'),
    socket: join(workDir, 'mysqld.sock'),
    pidFile: join(workDir, 'mysqld.pid'),
    errorLog: join(workDir, 'error.log'),
    tmpdir: join(workDir, 'tmp'),
    secureFileDir: join(workDir, 'files'),
    serverOut: join(workDir, 'server.out'),
  };
  if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH) {
    throw new UserError(`workDir ${workDir} is too long for a unix socket (${paths.socket} is over ${MAX_SOCKET_PATH} bytes): use a shorter work directory`);
  }
  return paths;
}

/**
 * The template with the host class values, then the wrapper's options, and the part of it
 * this server reads.
 * @param {InstallResult} install
 * @param {ServerOptions} options
 * @param {(message: string) => void} log
 * @returns {{rendered: RenderedMycnf, serverOptions: MycnfOption[]}}
 */
function renderServerOptions(install, options, log) {
  const mycnfName = options.mycnfName ?? options.engine;
  const wrapper = options.wrapper ?? null;
  const fromTemplate = renderMycnf({ name: mycnfName, template: options.mycnfTemplate, overrides: options.mycnfOverrides ?? {} });
  if (fromTemplate.unusedOverrides.length > 0) {
    log(`host mycnf values not used by template '${mycnfName}' (no placeholder or option of that name): ${fromTemplate.unusedOverrides.join(', ')}`);
  }
  const rendered = wrapper ? appendMycnfOptions(fromTemplate, wrapper.mycnf ?? {}, wrapper.argv.join(' ')) : fromTemplate;
  const serverOptions = selectServerOptions(parseMycnf(rendered.text, `my.cnf template '${mycnfName}'`), install.flavor, install.version ?? '', mycnfName);
  return { rendered, serverOptions };
}

/**
 * Spawn the server (under taskset and the wrapper when asked) and wrap it in a handle.
 * @param {InstallResult} install
 * @param {ServerOptions} options
 * @param {Instance} instance
 * @param {(message: string) => void} log
 * @returns {Promise<{handle: StartingHandle, offsets: {logOffset: number, outOffset: number}}>} the
 *   handle, and where the error log and server.out stood before the spawn
 * @throws {UserError} when the command cannot be run at all
 */
async function spawnServer(install, options, { workDir, paths, rendered, serverOptions, asRoot }, log) {
  const wrapper = options.wrapper ?? null;
  const args = buildServerArgs({
    flavor: install.flavor, paths, port: options.port, pluginDir: install.pluginDir,
    shareDir: install.shareDir, engine: options.engine, options: serverOptions, asRoot,
  });
  const pin = options.serverCpus ?? null;
  // taskset execs the wrapper, which runs the server in the same process (checked after the
  // start against the pid file): the pid we get is the server's and every thread inherits the mask.
  const command = [...(pin ? ['taskset', '-c', pin] : []), ...(wrapper?.argv ?? []), install.bin.server, ...args];
  const offsets = { logOffset: await readLogSize(paths.errorLog), outOffset: await readLogSize(paths.serverOut) };
  const out = await open(paths.serverOut, 'a');
  log(`starting ${install.flavor} ${install.version} on port ${options.port}${pin ? `, pinned to CPUs ${pin}` : ''} (${options.engine})${wrapper ? ` under ${wrapper.argv.join(' ')}` : ''}`);
  // detached: a Ctrl-C in the terminal reaches only tagbench, which then stops the server
  // cleanly through stopAllServers() instead of the server dying mid-write.
  const child = spawn(command[0], command.slice(1), {
    stdio: ['ignore', out.fd, out.fd], detached: true, env: { ...process.env, ...install.env, ...(options.env ?? {}), ...(wrapper?.env ?? {}) },
  });
  const spawned = new Promise((res) => {
    child.once('spawn', () => res(null));
    child.once('error', (e) => res(e));
  });
  await out.close();
  const spawnError = await spawned;
  if (spawnError) {
    const hint = pin ? ' (is util-linux taskset installed? see setup/server.sh)' : wrapper ? ' (is the wrapper installed? it is looked up in PATH)' : '';
    throw new UserError(`cannot run ${command[0]}: ${/** @type {Error} */ (spawnError).message}${hint}`);
  }
  const handle = createServerHandle({
    child, port: options.port, socket: paths.socket, engine: options.engine, flavor: install.flavor,
    workDir, datadir: paths.datadir, tmpdir: paths.tmpdir, errorLog: paths.errorLog, serverCpus: pin,
    command, mycnf: { name: rendered.name, text: rendered.text, sha256: rendered.sha256 },
    wrapper: wrapper ? { argv: [...wrapper.argv], env: { ...(wrapper.env ?? {}) } } : null,
    stopTimeoutS: options.stopTimeoutS ?? 300, log,
  });
  return { handle, offsets };
}

/**
 * What the benchmark clients need of a ready server: the `sbtest` database, root over TCP,
 * the engine asked for; then health checks start reading the error log from here.
 * @param {StartingHandle} handle
 * @param {InstallResult} install
 * @param {ServerOptions} options
 */
async function setUpServer(handle, install, options) {
  const setup = await createConnection({ socketPath: handle.socket, user: 'root', password: '' });
  try {
    await setup.query('CREATE DATABASE IF NOT EXISTS sbtest');
    // sysbench connects over TCP from 127.0.0.1; MySQL creates only root@localhost.
    await setup.query("CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY ''");
    await setup.query("GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION");
  } finally {
    await setup.end();
  }
  const [{ v }] = await handle.query('SELECT VERSION() AS v');
  handle.version = String(v);
  await verifyEngine(handle.query, options.engine, { pluginDir: install.pluginDir, version: handle.version });
  await checkTcp(options.port);
  await handle.markReady();
}

/** @param {ServerOptions} o */
function validateOptions(o) {
  /** @type {string[]} */
  const problems = [];
  if (typeof o.workDir !== 'string' || o.workDir === '') problems.push('workDir must be a non-empty path');
  if (!Number.isInteger(o.port) || o.port < 1024 || o.port > 65535) problems.push(`port ${JSON.stringify(o.port)} must be an integer in 1024-65535`);
  if (!ENGINES.includes(o.engine)) problems.push(`engine ${JSON.stringify(o.engine)} must be one of ${ENGINES.join(', ')}`);
  if (typeof o.mycnfTemplate !== 'string') problems.push('mycnfTemplate must be the text of a my.cnf template (configs/mycnf/<name>.cnf)');
  const pin = o.serverCpus ?? null;
  if (pin !== null) {
    if (typeof pin !== 'string' || !/^[0-9]+([-,][0-9]+)*$/.test(pin)) {
      problems.push(`serverCpus ${JSON.stringify(pin)} (host class pinning.serverCpus) must be a taskset CPU list such as "1" or "0-3,6", or null`);
    } else {
      const max = Math.max(...pin.split(/[-,]/).map(Number));
      const n = cpus().length;
      if (max >= n) problems.push(`serverCpus "${pin}" (host class pinning.serverCpus) names CPU ${max} but this machine has CPUs 0-${n - 1}`);
    }
  }
  if (o.env !== undefined && (typeof o.env !== 'object' || o.env === null || !Object.values(o.env).every((v) => typeof v === 'string'))) {
    problems.push('env must map variable names to string values');
  }
  const w = o.wrapper ?? null;
  if (w !== null) {
    if (typeof w !== 'object' || !Array.isArray(w.argv) || w.argv.length === 0 || !w.argv.every((a) => typeof a === 'string' && a !== '')) {
      problems.push(`wrapper.argv ${JSON.stringify(w?.argv)} must be a non-empty list of non-empty strings (the wrapper command before the server binary, e.g. ["valgrind", "--tool=callgrind"])`);
    }
    if (w.env !== undefined && (typeof w.env !== 'object' || w.env === null || !Object.values(w.env).every((v) => typeof v === 'string'))) {
      problems.push('wrapper.env must map variable names to string values');
    }
    if (w.readyTimeoutS !== undefined && !(typeof w.readyTimeoutS === 'number' && w.readyTimeoutS > 0 && Number.isFinite(w.readyTimeoutS))) {
      problems.push(`wrapper.readyTimeoutS ${JSON.stringify(w.readyTimeoutS)} must be a positive number of seconds`);
    }
    if (w.mycnf !== undefined && (typeof w.mycnf !== 'object' || w.mycnf === null)) problems.push('wrapper.mycnf must map server option names to values');
  }
  if (problems.length > 0) throw new UserError(`startServer: invalid options:\n  - ${problems.join('\n  - ')}`);
}

/**
 * @param {InstallResult} install
 * @param {'innodb'|'rocksdb'} engine
 */
async function checkInstall(install, engine) {
  if (install.status === 'failed') {
    throw new UserError(`cannot start ${install.product} ${install.version}: its install failed (${install.reason ?? 'no reason given'}); fix the install first (tagbench install)`);
  }
  /** @type {[string, string|null, number][]} */
  const needed = [
    ['server binary (bin.server)', install.bin?.server ?? null, constants.X_OK],
    ['plugin dir (pluginDir)', install.pluginDir ?? null, constants.R_OK],
    ['share dir (shareDir)', install.shareDir ?? null, constants.R_OK],
  ];
  const flavor = getFlavor(install.flavor);
  if (flavor.init === 'install-db') needed.push([`${flavor.installDbNames[0]} (bin.installDb)`, install.bin?.installDb ?? null, constants.X_OK]);
  /** @type {string[]} */
  const missing = [];
  for (const [what, path, mode] of needed) {
    if (!path) missing.push(`${what}: not set`);
    else if (!(await access(path, mode).then(() => true, () => false))) missing.push(`${what}: ${path} is missing or not usable`);
  }
  if (missing.length > 0) {
    throw new UserError(`install of ${install.product ?? install.flavor} ${install.version ?? ''} at ${install.prefix} is incomplete:\n  - ${missing.join('\n  - ')}\nReinstall it (tagbench install) or check the InstallResult.`);
  }
  if (engine === 'rocksdb') {
    const plugin = join(install.pluginDir, 'ha_rocksdb.so');
    if (!(await access(plugin, constants.R_OK).then(() => true, () => false))) {
      throw new UserError(`engine rocksdb needs the MyRocks plugin, but ${plugin} does not exist (searched plugin dir ${install.pluginDir}): ` +
        (flavor.rocksdbPluginPackage
          ? `install the release with its rocksdb plugin package (${flavor.rocksdbPluginPackage}), or run with engine innodb`
          : `this ${install.flavor} release ships no MyRocks plugin: run it with engine innodb`));
    }
  }
}

/** @param {string} datadir */
async function datadirInUse(datadir) {
  const entries = await readdir(datadir).catch(() => []);
  return entries.length > 0;
}

/**
 * The benchmark clients use TCP: prove root can log in that way too.
 * @param {number} port
 */
async function checkTcp(port) {
  const conn = await createConnection({ host: '127.0.0.1', port, user: 'root', password: '', database: 'sbtest', connectTimeout: 10_000 });
  await conn.end();
}
