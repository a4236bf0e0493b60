/**
 * Start one private server instance: render my.cnf, create the datadir, spawn (pinned when
 * the host class says so), wait until it answers, check the engine, create `sbtest`.
 */
import { spawn } from 'node:child_process';
import { access, constants, mkdir, open, readdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { UserError } from '../errors.js';
import { renderMycnf, parseMycnf, appendMycnfOptions } from './mycnf.js';
import { buildServerArgs, selectServerOptions } from './build-server-args.js';
import { checkPortFree } from './ports.js';
import { initDatadir } from './init-datadir.js';
import { readLogFrom, readLogSize, readLogTail } from './error-log.js';
import { createServerHandle } from './server-handle.js';
import { registerServer } from './server-registry.js';
import { verifyEngine } from './verify-engine.js';

/** @typedef {import('../types.js').InstallResult} InstallResult */
/** @typedef {import('./types.js').ServerOptions} ServerOptions */
/** @typedef {import('./types.js').ServerHandle} ServerHandle */
/** @typedef {import('./types.js').ServerWrapper} ServerWrapper */

const ENGINES = ['innodb', 'rocksdb'];
/** sun_path is 108 bytes including the terminating NUL. */
const MAX_SOCKET_PATH = 107;

/**
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

  const workDir = resolve(options.workDir);
  const paths = {
    basedir: join(install.prefix, 'usr'),
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

  const mycnfName = options.mycnfName ?? options.engine;
  const wrapper = options.wrapper ?? null;
  const fromTemplate = renderMycnf({ name: mycnfName, template: options.mycnfTemplate, overrides: options.mycnfOverrides ?? {} });
  if (fromTemplate.unusedOverrides.length > 0) {
    log(`host mycnf values not used by template '${mycnfName}' (no placeholder or option of that name): ${fromTemplate.unusedOverrides.join(', ')}`);
  }
  const rendered = wrapper ? appendMycnfOptions(fromTemplate, wrapper.mycnf ?? {}, wrapper.argv.join(' ')) : fromTemplate;
  const serverOptions = selectServerOptions(parseMycnf(rendered.text, `my.cnf template '${mycnfName}'`), install.flavor, install.version ?? '', mycnfName);

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

  const args = buildServerArgs({
    flavor: install.flavor, paths, port: options.port, pluginDir: install.pluginDir,
    shareDir: install.shareDir, engine: options.engine, options: serverOptions, asRoot,
  });
  const pin = options.serverCpus ?? null;
  // taskset execs the wrapper, which runs the server in the same process (checked below
  // against the pid file): the pid we get is the server's and every thread inherits the mask.
  const command = [...(pin ? ['taskset', '-c', pin] : []), ...(wrapper?.argv ?? []), install.bin.server, ...args];
  const logOffset = await readLogSize(paths.errorLog);
  const outOffset = await readLogSize(paths.serverOut);
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
  registerServer(handle);
  try {
    await waitUntilReady(handle, paths, { logOffset, outOffset }, wrapper?.readyTimeoutS ?? options.startTimeoutS ?? 180);
    await checkServerPid(handle, paths.pidFile, wrapper, options.stopTimeoutS ?? 300);
    const setup = await createConnection({ socketPath: paths.socket, user: 'root', password: '' });
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
  } catch (err) {
    await handle.stop();
    throw err;
  }
  log(`ready: ${handle.version} pid ${handle.pid} port ${handle.port} socket ${handle.socket}`);
  return handle;
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
  if (install.flavor === 'mariadb') needed.push(['mariadb-install-db (bin.installDb)', install.bin?.installDb ?? null, constants.X_OK]);
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
        (install.flavor === 'mariadb'
          ? 'install the release with its rocksdb plugin package (mariadb-plugin-rocksdb), or run with engine innodb'
          : `this ${install.flavor} release ships no MyRocks plugin: run it with engine innodb`));
    }
  }
}

/**
 * The spawned pid must be the server's: stop(), crash detection and the samplers act on it.
 * taskset execs and valgrind is the process, but a wrapper such as `perf stat -- cmd` forks the
 * server as its child. The server writes its own getpid() to the pid file before it accepts
 * connections, so a different number there means the wrapper forked.
 * @param {ReturnType<typeof createServerHandle>} handle
 * @param {string} pidFile
 * @param {ServerWrapper|null} wrapper
 * @param {number} stopTimeoutS how long the forked server gets to shut down before SIGKILL
 * @throws {UserError} when the pid file names another process (stopped by then; the caller
 *   stops the wrapper)
 */
async function checkServerPid(handle, pidFile, wrapper, stopTimeoutS) {
  const text = await readFile(pidFile, 'utf8').catch(() => null);
  const serverPid = text === null ? null : Number(text.trim());
  if (serverPid === null || !(serverPid > 0) || serverPid === handle.pid) return;
  // Stopping the wrapper would orphan the server it forked: stop that server first, by the pid
  // it wrote, once /proc confirms it is a server on this datadir.
  const cmdline = await readFile(`/proc/${serverPid}/cmdline`, 'utf8').catch(() => '');
  if (cmdline.split('\0').includes(`--datadir=${handle.datadir}`)) await stopPid(serverPid, stopTimeoutS);
  throw new UserError(`the server's pid file ${pidFile} says pid ${text?.trim()}, but the process started was pid ${handle.pid} (${handle.command.slice(0, 3).join(' ')} ...): ` +
    (wrapper
      ? `the wrapper '${wrapper.argv.join(' ')}' runs the server as a child process, and tagbench must signal and sample the server itself. ` +
        'Use a wrapper that runs the server in its own process (valgrind, nice, env, chrt); attach perf with `perf stat -p <pid>` after the start instead of wrapping the server'
      : 'something between tagbench and the server forked it; start it directly'));
}

/**
 * SIGTERM a process that is not our child, wait until it is gone, SIGKILL after timeoutS.
 * @param {number} pid
 * @param {number} timeoutS
 */
async function stopPid(pid, timeoutS) {
  const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
  const send = (/** @type {NodeJS.Signals} */ sig) => { try { process.kill(pid, sig); } catch { /* gone */ } };
  send('SIGTERM');
  const deadline = Date.now() + timeoutS * 1000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (alive()) send('SIGKILL');
  while (alive()) await new Promise((r) => setTimeout(r, 100));
}

/** @param {string} datadir */
async function datadirInUse(datadir) {
  const entries = await readdir(datadir).catch(() => []);
  return entries.length > 0;
}

/**
 * Poll the socket until the server answers; stop early when the process dies.
 * @param {ReturnType<typeof createServerHandle>} handle
 * @param {{socket: string, errorLog: string, serverOut: string}} paths
 * @param {{logOffset: number, outOffset: number}} offsets sizes of the error log and server.out
 *   before the start: messages show only what this start wrote
 * @param {number} timeoutS
 */
async function waitUntilReady(handle, paths, { logOffset, outOffset }, timeoutS) {
  const deadline = Date.now() + timeoutS * 1000;
  /** @type {string} */
  let lastError = '';
  while (Date.now() < deadline) {
    const exit = handle.exited();
    if (exit) {
      const tail = await tailSince(paths.errorLog, logOffset);
      const errors = tail.split('\n').filter((l) => /\[ERROR\]/.test(l));
      throw new UserError(`server pid ${handle.pid} exited during startup (${exit.signal ?? `exit code ${exit.code}`})` +
        (errors.length ? `:\n${errors.join('\n')}\n` : '.\n') +
        'Check the option named there in the my.cnf template and the host class mycnf values.\n' +
        `Command: ${handle.command.join(' ')}\nLast lines of ${paths.errorLog}:\n${tail || '(empty)'}` +
        (await consoleOutput(paths.serverOut, outOffset)));
    }
    try {
      const conn = await createConnection({ socketPath: paths.socket, user: 'root', password: '', connectTimeout: 5000 });
      await conn.end();
      return;
    } catch (err) {
      lastError = /** @type {Error} */ (err).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new UserError(`server pid ${handle.pid} did not accept connections on ${paths.socket} within ${timeoutS} s (last error: ${lastError}).\n` +
    `Last lines of ${paths.errorLog}:\n${await tailSince(paths.errorLog, logOffset)}${await consoleOutput(paths.serverOut, outOffset)}`);
}

/**
 * What the process printed outside its error log (taskset's own errors, a missing library).
 * @param {string} path
 * @param {number} offset
 * @returns {Promise<string>} '' when nothing, else a titled block
 */
async function consoleOutput(path, offset) {
  const text = (await readLogFrom(path, offset)).trim().split('\n').slice(-15).join('\n');
  return text ? `\nOutput of the process (${path}):\n${text}` : '';
}

/**
 * @param {string} path
 * @param {number} offset
 */
async function tailSince(path, offset) {
  const text = (await readLogFrom(path, offset)).trimEnd();
  return text ? text.split('\n').slice(-30).join('\n') : await readLogTail(path, 30);
}

/**
 * The benchmark clients use TCP: prove root can log in that way too.
 * @param {number} port
 */
async function checkTcp(port) {
  const conn = await createConnection({ host: '127.0.0.1', port, user: 'root', password: '', database: 'sbtest', connectTimeout: 10_000 });
  await conn.end();
}
