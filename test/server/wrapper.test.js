/**
 * A real MariaDB 10.11.18 started through a wrapper (ServerOptions.wrapper): under valgrind's
 * callgrind, pinned, on a restart of the same datadir, with crash detection; under `env`, which
 * execs the server; and a wrapper that forks the server is refused, leaving nothing running.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { access, readFile, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startServer, stopAllServers } from '../../scripts/server/index.js';
import { countRunningServers } from '../../scripts/server/server-registry.js';
import { UserError } from '../../scripts/errors.js';
import { skipReason, getInstall, tempWorkDir, serverOptions, exitOf, TEST_CPU } from './helpers.js';

const execFileP = promisify(execFile);
const hasValgrind = await execFileP('valgrind', ['--version']).then(() => true, () => false);
/** @type {(() => Promise<void>)[]} */
const cleanups = [];
after(async () => {
  await stopAllServers();
  for (const c of cleanups) await c();
});

/** @param {string} label */
async function workDir(label) {
  const w = await tempWorkDir(label);
  cleanups.push(w.remove);
  return w.dir;
}

/** @param {number} pid */
async function procFacts(pid) {
  const [exe, cmdline, status, environ] = await Promise.all([
    readlink(`/proc/${pid}/exe`),
    readFile(`/proc/${pid}/cmdline`, 'utf8'),
    readFile(`/proc/${pid}/status`, 'utf8'),
    readFile(`/proc/${pid}/environ`, 'utf8'),
  ]);
  return {
    exe,
    argv: cmdline.split('\0').filter((a) => a !== ''),
    cpus: /Cpus_allowed_list:\s*(\S+)/.exec(status)?.[1],
    env: environ.split('\0'),
  };
}

test('MariaDB 10.11.18 under valgrind --tool=callgrind: pinned, answers, keeps the wrapper on restart, crash detected, callgrind output written', {
  skip: skipReason || (!hasValgrind && 'valgrind is not installed (Debian: apt-get install valgrind)'),
  timeout: 900_000,
}, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const dir = await workDir('vg');
  const outPattern = join(dir, 'callgrind.out.%p');
  /** @type {import('../../scripts/server/types.js').ServerWrapper} */
  const wrapper = {
    argv: ['valgrind', '--tool=callgrind', '--collect-atstart=no', `--callgrind-out-file=${outPattern}`],
    env: { TB_WRAPPER_TEST: 'callgrind' },
    // 4-18 s on a quiet machine (FIELD-NOTES); this machine may be running the test suite too.
    readyTimeoutS: 600,
    // valgrind refuses the 8 TB map of the default buffer pool maximum, and has no io_uring/libaio.
    mycnf: { innodb_buffer_pool_size_max: '512M', innodb_use_native_aio: 0 },
  };
  const options = serverOptions(join(dir, 'w'), 23130, 'innodb', { wrapper });
  const h = await startServer(install, options);

  assert.deepEqual(h.wrapper, { argv: wrapper.argv, env: { TB_WRAPPER_TEST: 'callgrind' } });
  assert.deepEqual(h.command.slice(0, 3 + wrapper.argv.length + 1), ['taskset', '-c', TEST_CPU, ...wrapper.argv, install.bin.server]);
  // The pid is the server's and it runs under callgrind: valgrind's tool binary is the process
  // image, the server's binary and options are its argv, the pid file names this pid.
  const p = await procFacts(h.pid);
  assert.match(p.exe, /callgrind-[a-z0-9]+-linux$/, `/proc/${h.pid}/exe is ${p.exe}`);
  assert.ok(p.argv.includes(install.bin.server), `argv of ${h.pid}: ${p.argv.join(' ')}`);
  assert.ok(p.argv.includes('--tool=callgrind'));
  assert.equal(p.cpus, TEST_CPU, 'taskset still pins the wrapped server');
  assert.ok(p.env.includes('TB_WRAPPER_TEST=callgrind'), 'the wrapper env reaches the process');
  assert.equal(Number((await readFile(join(dir, 'w', 'mysqld.pid'), 'utf8')).trim()), h.pid);

  // It answers, with the wrapper's my.cnf values, which the record's my.cnf text shows.
  const [row] = await h.query('SELECT 6 * 7 AS answer, @@innodb_use_native_aio AS aio, @@innodb_buffer_pool_size_max AS bpmax, @@innodb_buffer_pool_size AS bp');
  assert.equal(Number(row.answer), 42);
  assert.equal(Number(row.aio), 0);
  assert.equal(Number(row.bpmax), 512 * 1024 * 1024);
  assert.equal(Number(row.bp), 512 * 1024 * 1024, 'the host class value still applies');
  assert.match(h.mycnf.text, /\[mysqld\]\ninnodb_buffer_pool_size_max=512M\ninnodb_use_native_aio=0\n$/);
  assert.equal(await readFile(join(dir, 'w', 'my.cnf'), 'utf8'), h.mycnf.text);
  assert.equal((await h.checkHealth()).ok, true);
  // callgrind_control finds it: the meter's way to zero and dump counters around a repeat.
  const { stdout: ctl } = await execFileP('callgrind_control', ['-s', String(h.pid)]);
  assert.match(ctl, new RegExp(`PID ${h.pid}`));

  const firstPid = h.pid;
  const exit = await h.stop();
  assert.deepEqual(exit, { code: 0, signal: null, expected: true }, 'clean shutdown under valgrind');
  const dump = await readFile(join(dir, `callgrind.out.${firstPid}`), 'utf8');
  assert.match(dump, /^events: Ir$/m);
  assert.match(dump, new RegExp(`^pid: ${firstPid}$`, 'm'));

  // A restart on the same datadir (the run's next instance) runs under the wrapper again.
  const r = await startServer(install, { ...options, reuseDatadir: true });
  assert.notEqual(r.pid, firstPid);
  assert.match((await procFacts(r.pid)).exe, /callgrind-[a-z0-9]+-linux$/);
  assert.deepEqual(r.wrapper, h.wrapper);
  const [again] = await r.query('SELECT COUNT(*) AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = \'sbtest\'');
  assert.equal(Number(again.n), 1);

  // A crash of the wrapped server is seen as for any server.
  const exited = exitOf(r);
  process.kill(r.pid, 'SIGKILL');
  assert.equal((await exited).signal, 'SIGKILL');
  const health = await r.checkHealth();
  assert.equal(health.ok, false);
  assert.match(String(health.reason), new RegExp(`pid ${r.pid} .*not running: killed by SIGKILL, not asked to stop`));
  // The output file follows the server's pid, so a meter finds it from the handle.
  assert.deepEqual(await readdir(dir).then((f) => f.filter((n) => n.startsWith('callgrind.out.')).sort()),
    [`callgrind.out.${firstPid}`, `callgrind.out.${r.pid}`].sort());
});

test('a wrapper that execs the server (env): same pid, the wrapper\'s environment, no taskset without pinning', { skip: skipReason }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const dir = await workDir('env');
  const h = await startServer(install, serverOptions(join(dir, 'w'), 23131, 'innodb', {
    serverCpus: null,
    wrapper: { argv: ['env', 'TB_VIA_ENV_ARGV=1'], env: { TB_VIA_ENV_OPTION: 'yes' } },
  }));
  assert.deepEqual(h.command.slice(0, 3), ['env', 'TB_VIA_ENV_ARGV=1', install.bin.server]);
  const p = await procFacts(h.pid);
  assert.equal(p.exe, install.bin.server, 'env execs the server in place');
  assert.ok(p.env.includes('TB_VIA_ENV_ARGV=1'));
  assert.ok(p.env.includes('TB_VIA_ENV_OPTION=yes'));
  assert.equal(Number((await readFile(join(dir, 'w', 'mysqld.pid'), 'utf8')).trim()), h.pid);
  const [row] = await h.query('SELECT 1 AS one');
  assert.equal(Number(row.one), 1);
  assert.doesNotMatch(h.mycnf.text, /wrapper/, 'no wrapper my.cnf values, no block');
  assert.deepEqual(await h.stop(), { code: 0, signal: null, expected: true });
});

test('a wrapper that forks the server (as `perf stat -- cmd` does) is refused, and neither it nor the server is left running', { skip: skipReason }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const dir = await workDir('fork');
  // sh runs the server as its child and waits for it.
  const wrapper = { argv: ['sh', '-c', '"$@" & wait $!', 'sh'] };
  await assert.rejects(startServer(install, serverOptions(join(dir, 'w'), 23132, 'innodb', { serverCpus: null, wrapper })), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /pid file .*mysqld\.pid says pid \d+, but the process started was pid \d+/);
    assert.match(err.message, /wrapper 'sh -c .*' runs the server as a child process/);
    assert.match(err.message, /perf stat -p <pid>/);
    return true;
  });
  assert.equal(countRunningServers(), 0);
  const pidFile = join(dir, 'w', 'mysqld.pid');
  assert.equal(await access(pidFile).then(() => 'present', () => 'removed'), 'removed', 'the forked server shut down cleanly (it removes its pid file)');
  const { stdout } = await execFileP('ps', ['-eo', 'args']);
  assert.doesNotMatch(stdout, new RegExp(`${join(dir, 'w', 'data')}`), 'no process left on this datadir');
});

test('invalid wrapper options are refused, each named', async () => {
  const install = /** @type {any} */ ({ status: 'installed' });
  const base = { workDir: '/tmp/x', port: 23133, engine: /** @type {const} */ ('innodb'), mycnfTemplate: '' };
  await assert.rejects(startServer(install, /** @type {any} */ ({ ...base, wrapper: { argv: [], env: { A: 1 }, readyTimeoutS: 0, mycnf: 'x' } })), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /wrapper\.argv \[\] must be a non-empty list/);
    assert.match(err.message, /wrapper\.env must map variable names to string values/);
    assert.match(err.message, /wrapper\.readyTimeoutS 0 must be a positive number/);
    assert.match(err.message, /wrapper\.mycnf must map server option names to values/);
    return true;
  });
});
