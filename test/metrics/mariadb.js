/**
 * A real MariaDB 10.11.18 for the metrics integration test, started by hand from an installed
 * prefix (the server stage's startServer is not in git yet; switch to it once it is).
 * Prefix: $TAGBENCH_TEST_MARIADB_PREFIX, else the install stage's deb provider (cached under
 * $TAGBENCH_CACHE or .tagbench/installs), else /work/scratch/mariadb-10.11.18; findPrefix()
 * returns null with the reason when none works, so the test can skip and say why.
 */
import { spawn, execFile } from 'node:child_process';
import { mkdtemp, rm, access } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { installRelease } from '../../scripts/install/index.js';
import { loadConfig } from '../../scripts/config/index.js';

const run = promisify(execFile);

/** @returns {Promise<{prefix: string|null, env: Record<string, string>, why: string}>} */
export async function findPrefix() {
  const root = new URL('../../', import.meta.url).pathname;
  const has = (/** @type {string} */ p) => access(join(p, 'usr/sbin/mariadbd')).then(() => true, () => false);
  const override = process.env.TAGBENCH_TEST_MARIADB_PREFIX;
  if (override && (await has(override))) return { prefix: override, env: {}, why: 'TAGBENCH_TEST_MARIADB_PREFIX' };
  let why = '';
  try {
    const config = await loadConfig(root);
    const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
    const r = await installRelease({ product: 'mariadb', version: '10.11.18', provider: 'deb' }, { config, cacheDir, log: (m) => process.stderr.write(`${m}\n`) });
    if (r.status !== 'failed') return { prefix: r.prefix, env: r.env, why: `deb provider (${r.status})` };
    why = `deb install failed: ${r.reason}`;
  } catch (err) {
    why = `deb install failed: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (await has('/work/scratch/mariadb-10.11.18')) return { prefix: '/work/scratch/mariadb-10.11.18', env: {}, why };
  return { prefix: null, env: {}, why };
}

/**
 * A free port in the metrics area's range 23300-23399.
 * @returns {Promise<number>}
 */
async function freePort() {
  for (let port = 23300 + Math.floor(Math.random() * 50); port < 23400; port++) {
    const ok = await new Promise((resolve) => {
      const s = createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (ok) return port;
  }
  throw new Error('no free port in 23300-23399');
}

/**
 * @param {string} prefix install prefix holding usr/sbin/mariadbd
 * @param {Record<string, string>} [extraEnv] the release's extra environment (InstallResult.env)
 */
export async function startMariadb(prefix, extraEnv = {}) {
  const env = { ...process.env, ...extraEnv };
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-metrics-'));
  const datadir = join(dir, 'data');
  const tmp = join(dir, 'tmp');
  await run('mkdir', ['-p', tmp]);
  const socket = join(dir, 'mysqld.sock');
  const port = await freePort();
  await run(join(prefix, 'usr/bin/mariadb-install-db'), [
    '--no-defaults', `--basedir=${prefix}/usr`, `--datadir=${datadir}`, '--user=root',
    '--auth-root-authentication-method=normal', '--skip-test-db', `--tmpdir=${tmp}`,
  ], { maxBuffer: 16 << 20, env });
  const child = spawn(join(prefix, 'usr/sbin/mariadbd'), [
    '--no-defaults', '--user=root', `--basedir=${prefix}/usr`, `--datadir=${datadir}`,
    `--plugin-dir=${prefix}/usr/lib/mysql/plugin`, `--lc-messages-dir=${prefix}/usr/share/mysql`,
    `--character-sets-dir=${prefix}/usr/share/mysql/charsets`, `--socket=${socket}`, `--port=${port}`,
    '--bind-address=127.0.0.1', `--pid-file=${join(dir, 'mysqld.pid')}`, `--log-error=${join(dir, 'error.log')}`,
    `--tmpdir=${tmp}`, '--innodb-buffer-pool-size=128M', '--innodb-log-file-size=48M',
  ], { stdio: 'ignore', env });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  /** @type {import('mysql2/promise').Connection|null} */
  let conn = null;
  for (let i = 0; i < 120 && !conn; i++) {
    conn = await createConnection({ socketPath: socket, user: 'root' }).catch(() => null);
    if (!conn) await new Promise((r) => setTimeout(r, 250));
  }
  if (!conn) {
    child.kill('SIGKILL');
    throw new Error(`mariadbd did not accept connections on ${socket}; see ${join(dir, 'error.log')}`);
  }
  const c = conn;
  await c.query('CREATE DATABASE IF NOT EXISTS sbtest');
  return {
    pid: /** @type {number} */ (child.pid),
    datadir,
    socket,
    port,
    /** @param {string} sql */
    query: async (sql) => /** @type {any[]} */ ((await c.query(sql))[0]),
    async stop() {
      await c.end().catch(() => {});
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Run sysbench oltp_point_select / other stock script against the socket.
 * @param {string} socket
 * @param {string[]} args e.g. ['oltp_point_select', '--time=3', 'run']
 * @returns {Promise<string>} stdout
 */
export async function sysbench(socket, args) {
  const { stdout } = await run('sysbench', [
    '--db-driver=mysql', '--mysql-user=root', `--mysql-socket=${socket}`, '--mysql-db=sbtest',
    '--tables=1', '--table-size=10000', '--rand-type=uniform', ...args,
  ], { maxBuffer: 16 << 20 });
  return stdout;
}
