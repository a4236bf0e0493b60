// `tagbench run` as a user types it: bad input gets a clear message and exit code 1, and
// nothing is written to the results store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');

/**
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} [env]
 */
async function runCli(args, env = process.env) {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-cli-'));
  const store = join(base, 'results');
  const res = spawnSync(process.execPath, [join(root, 'scripts/cli.js'), 'run', '--store', store, '--work-dir', join(base, 'work'), '--cache-dir', cacheDir, ...args], { encoding: 'utf8', env, timeout: 300_000 });
  return { code: res.status, stderr: res.stderr, storeExists: existsSync(join(store, 'runs')) };
}

test('an unknown version lists the available ones', async () => {
  const r = await runCli(['--releases', 'mariadb@10.11.99']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /mariadb 10\.11\.99 is not available from the deb provider; available: 10\.5\.23, 10\.11\.18, 10\.11\.19, 11\.8\.9/);
  assert.doesNotMatch(r.stderr, /internal error/);
  assert.equal(r.storeExists, false);
});

test('a count option below its minimum is a usage error naming the option, not an internal error', async () => {
  const r = await runCli(['--releases', 'mariadb@10.11.18', '--repeats', '0']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /option '--repeats <n>' argument '0' is invalid\. expected a whole number >= 1, got "0"/);
  assert.doesNotMatch(r.stderr, /internal error/);
  assert.equal(r.storeExists, false);
});

test('an unknown product and a malformed release are named', async () => {
  const a = await runCli(['--releases', 'postgres@16.1']);
  assert.equal(a.code, 1);
  assert.match(a.stderr, /unknown product 'postgres'; known: mariadb, mysql, percona-server/);
  const b = await runCli(['--releases', 'mariadb-10.11.18']);
  assert.equal(b.code, 1);
  assert.match(b.stderr, /bad release 'mariadb-10\.11\.18' in --releases: expected product@version/);
});

test('missing sysbench says how to install it', async () => {
  // A PATH with node's directory and the basic tools, but no sysbench.
  const bin = await mkdtemp(join(tmpdir(), 'tagbench-path-'));
  for (const tool of ['taskset', 'vmstat', 'iostat', 'du', 'sh', 'bash', 'env']) {
    const which = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (which) await symlink(which, join(bin, tool));
  }
  const r = await runCli(['--releases', 'mariadb@10.11.18'], { ...process.env, PATH: bin });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /sysbench not found on PATH.*setup\/bench\.sh/);
  assert.equal(r.storeExists, false);
});

test('a port in use is named, with what holds it, and no record is written', { timeout: 300_000 }, async () => {
  const holder = createServer();
  await new Promise((resolve) => holder.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = holder.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  try {
    const r = await runCli(['--releases', 'mariadb@10.11.18', '--suite', 'smoke', '--only', 'point-query', '--port-base', String(port)]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`port ${port} .*already in use`));
    assert.equal(r.storeExists, false);
  } finally {
    holder.close();
  }
});

test('malformed YAML in configs stops the run before anything starts', async () => {
  // The CLI reads the project's own configs; a copy of the project with one broken file.
  const copy = await mkdtemp(join(tmpdir(), 'tagbench-proj-'));
  spawnSync('cp', ['-r', join(root, 'scripts'), join(root, 'configs'), join(root, 'package.json'), copy]);
  await symlink(join(root, 'node_modules'), join(copy, 'node_modules'));
  await writeFile(join(copy, 'configs/hosts/local.yml'), 'name: local\npinning: [\n');
  const res = spawnSync(process.execPath, [join(copy, 'scripts/cli.js'), 'run', '--releases', 'mariadb@10.11.18'], { encoding: 'utf8' });
  assert.equal(res.status, 1);
  assert.match(res.stderr, /configs\/hosts\/local\.yml: malformed YAML at line \d+/);
});

test('a suite naming an unregistered benchmark stops the run before anything is installed, naming the file, the entry and the registered names', async () => {
  const { BENCHMARKS } = await import('../../scripts/workload/index.js');
  const copy = await mkdtemp(join(tmpdir(), 'tagbench-proj-'));
  spawnSync('cp', ['-r', join(root, 'scripts'), join(root, 'configs'), join(root, 'package.json'), copy]);
  await symlink(join(root, 'node_modules'), join(copy, 'node_modules'));
  const smoke = spawnSync('cat', [join(root, 'configs/suites/smoke.yml')], { encoding: 'utf8' }).stdout;
  await writeFile(join(copy, 'configs/suites/tool.yml'), `${smoke.replace(/^name: smoke$/m, 'name: tool')}\nbenchmarks: [sysbench, tpcc]\n`);
  const store = join(copy, 'results');
  const res = spawnSync(process.execPath, [join(copy, 'scripts/cli.js'), 'run', '--releases', 'mariadb@10.11.18', '--suite', 'tool',
    '--store', store, '--work-dir', join(copy, 'work'), '--cache-dir', join(copy, 'installs')], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(res.status, 1, res.stderr);
  assert.ok(res.stderr.includes(`unknown benchmark in configs/suites/tool.yml: benchmarks[1] = 'tpcc'; valid: ${Object.keys(BENCHMARKS).join(', ')}`), res.stderr);
  assert.doesNotMatch(res.stderr, /internal error|install mariadb/);
  assert.equal(existsSync(join(store, 'runs')), false);
  assert.equal(existsSync(join(copy, 'installs')), false, 'nothing installed');
});
