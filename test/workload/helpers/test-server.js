/**
 * A real MariaDB server for the bench stage's tests and fixture captures: a private datadir,
 * socket, port and tmpdir under a temp folder, started from an extracted release prefix.
 * The prefix comes from TAGBENCH_TEST_MARIADB_PREFIX, else the install cache's 10.11.18 (installed
 * when missing). The server is started here rather than through scripts/server so that the
 * workload tests exercise the workload stage alone.
 */
import { spawn, execFile } from 'node:child_process';
import { mkdtemp, rm, mkdir, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { getInstall } from '../../server/helpers.js';

const run = promisify(execFile);

/**
 * The release prefix the workload tests run against: $TAGBENCH_TEST_MARIADB_PREFIX, else MariaDB
 * 10.11.18 from the install cache, installed there with the deb provider when missing (as the
 * server and run tests do), so that these tests run on a fresh CI machine instead of skipping.
 * @returns {Promise<string>} a prefix holding usr/sbin/mariadbd
 */
export async function findTestPrefix() {
  const fromEnv = process.env.TAGBENCH_TEST_MARIADB_PREFIX;
  if (fromEnv) {
    await access(join(fromEnv, 'usr/sbin/mariadbd'));
    return fromEnv;
  }
  return (await getInstall('mariadb', '10.11.18')).prefix;
}

/**
 * @typedef {object} TestServer
 * @property {number} pid
 * @property {string} host
 * @property {number} port
 * @property {string} socket
 * @property {string} user
 * @property {string} password
 * @property {string} database
 * @property {string} dir
 * @property {string} datadir as a scripts/server handle has it (sequence benchmarks measure sizes there)
 * @property {(sql: string) => Promise<any>} query one statement on a fresh connection
 * @property {() => Promise<void>} kill SIGKILL, no cleanup of the datadir
 * @property {() => Promise<void>} stop SIGTERM, wait, remove the temp folder
 */

/**
 * @param {{prefix: string, port: number, rocksdb?: boolean, bufferPoolMb?: number}} opts
 * @returns {Promise<TestServer>}
 */
export async function startTestServer({ prefix, port, rocksdb = false, bufferPoolMb = 128 }) {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-bench-'));
  const datadir = join(dir, 'data');
  const tmp = join(dir, 'tmp');
  await mkdir(tmp);
  const usr = join(prefix, 'usr');
  await run(join(usr, 'bin/mariadb-install-db'), [
    '--no-defaults', `--basedir=${usr}`, `--datadir=${datadir}`, '--user=root',
    '--auth-root-authentication-method=normal', '--skip-test-db', `--tmpdir=${tmp}`,
  ]);
  const socket = join(dir, 'mysqld.sock');
  const args = [
    '--no-defaults', '--user=root', `--basedir=${usr}`, `--datadir=${datadir}`,
    `--plugin-dir=${join(usr, 'lib/mysql/plugin')}`, `--lc-messages-dir=${join(usr, 'share/mysql')}`,
    `--character-sets-dir=${join(usr, 'share/mysql/charsets')}`, `--socket=${socket}`, `--port=${port}`,
    '--bind-address=127.0.0.1', `--pid-file=${join(dir, 'mysqld.pid')}`, `--log-error=${join(dir, 'error.log')}`,
    `--tmpdir=${tmp}`, `--innodb-buffer-pool-size=${bufferPoolMb}M`, '--innodb-log-file-size=64M',
    ...(rocksdb ? ['--plugin-load-add=ha_rocksdb.so'] : []),
  ];
  const child = spawn(join(usr, 'sbin/mariadbd'), args, { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => { exited = true; });
  const target = { host: '127.0.0.1', port, socket, user: 'root', password: '', database: 'sbtest' };
  /** @param {string} sql @param {string|null} db */
  const query = async (sql, db) => {
    const c = await createConnection({ socketPath: socket, user: 'root', ...(db ? { database: db } : {}) });
    try { const [rows] = await c.query(sql); return rows; } finally { await c.end(); }
  };
  for (let i = 0; ; i += 1) {
    if (exited) throw new Error(`test server exited at start; see ${join(dir, 'error.log')}`);
    try { await query('CREATE DATABASE IF NOT EXISTS sbtest', null); break; } catch (err) {
      if (i > 300) { child.kill('SIGKILL'); throw err; }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const waitExit = () => new Promise((r) => (exited ? r(undefined) : child.once('exit', () => r(undefined))));
  return {
    ...target,
    pid: /** @type {number} */ (child.pid),
    dir,
    datadir,
    query: (sql) => query(sql, target.database),
    kill: async () => { child.kill('SIGKILL'); await waitExit(); },
    stop: async () => {
      if (!exited) { child.kill('SIGTERM'); await waitExit(); }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
