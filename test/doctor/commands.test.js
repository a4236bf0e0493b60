import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, rm, symlink, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findOnPath } from '../../scripts/doctor/check-tools.js';
import { renderDoctor } from '../../scripts/doctor/commands.js';

const cli = new URL('../../scripts/cli.js', import.meta.url).pathname;
const root = new URL('../../', import.meta.url).pathname;

/**
 * Run the real CLI: `node scripts/cli.js doctor ...` with the given PATH.
 * @param {string[]} args
 * @param {string} path
 * @returns {Promise<{code: number, stdout: string, stderr: string}>}
 */
function doctor(args, path) {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, 'doctor', ...args], { env: { ...process.env, PATH: path }, cwd: root }, (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

/** @type {string} */
let dir;
/** PATH holding every tool doctor looks for except sysbench (symlinks to the real ones). */
let pathWithoutSysbench = '';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tagbench-doctor-'));
  const bin = join(dir, 'bin');
  await mkdir(bin);
  for (const name of ['vmstat', 'iostat', 'taskset', 'patchelf', 'apt-get', 'dpkg-deb', 'python3', 'chromium']) {
    const real = await findOnPath(name, process.env.PATH ?? '');
    if (real) await symlink(real, join(bin, name));
  }
  pathWithoutSysbench = bin;
});
after(async () => { await rm(dir, { recursive: true, force: true }); });

test('doctor --json with a PATH that lacks sysbench: the sysbench check fails, names the fix, exit 1', async () => {
  const { code, stdout } = await doctor(['--json'], pathWithoutSysbench);
  const report = JSON.parse(stdout);
  const sb = report.checks.find((/** @type {any} */ c) => c.id === 'sysbench');
  assert.equal(sb.status, 'fail');
  assert.equal(sb.required, true);
  assert.match(sb.detail, /not found on PATH/);
  assert.match(sb.fix, /apt-get install sysbench/);
  assert.equal(report.ok, false);
  assert.equal(code, 1);
});

test('doctor text output: a ✗ line for sysbench with its fix under it, and the summary', async () => {
  const { code, stdout } = await doctor([], pathWithoutSysbench);
  assert.equal(code, 1);
  assert.match(stdout, /^✗ sysbench +sysbench not found on PATH/m);
  assert.match(stdout, /^ +fix: apt-get install sysbench/m);
  assert.match(stdout, /required check failed/);
});

test('doctor with the normal PATH: one line per check, exit code agrees with the required checks', async () => {
  const { code, stdout } = await doctor(['--json'], process.env.PATH ?? '');
  const report = JSON.parse(stdout);
  const ids = report.checks.map((/** @type {any} */ c) => c.id);
  for (const id of ['node', 'sysbench', 'vmstat', 'iostat', 'taskset', 'patchelf', 'apt-get', 'dpkg-deb', 'otava', 'chromium', 'cgroup-quota', 'cpufreq', 'noise', 'configs', 'disk-free']) {
    assert.ok(ids.includes(id), `check ${id} present`);
  }
  const failedRequired = report.checks.filter((/** @type {any} */ c) => c.required && c.status === 'fail');
  assert.equal(report.ok, failedRequired.length === 0);
  assert.equal(code, report.ok ? 0 : 1, JSON.stringify(failedRequired));
  assert.equal(report.checks.find((/** @type {any} */ c) => c.id === 'node').status, 'ok');
  assert.equal(report.checks.find((/** @type {any} */ c) => c.id === 'configs').status, 'ok');
  for (const c of report.checks) assert.ok(c.status === 'ok' || c.fix === null || typeof c.fix === 'string');
  for (const c of report.checks.filter((/** @type {any} */ x) => x.status === 'fail')) assert.ok(c.fix, `${c.id} failed without a fix`);

  const text = await doctor([], process.env.PATH ?? '');
  assert.equal(text.code, code);
  assert.equal(text.stdout.split('\n').filter((l) => /^[✓✗!·] /.test(l)).length, report.checks.length);
});

test('doctor checks apache-otava with the python compare runs it with (TAGBENCH_PYTHON here), not python3 on PATH', async () => {
  // A stand-in python: answers the version probe as an interpreter with apache-otava would.
  const fake = join(dir, 'otava-python');
  await writeFile(fake, '#!/bin/sh\necho 0.7.0\n', { mode: 0o755 });
  const run = (/** @type {Record<string, string>} */ extra) => new Promise((resolve) => {
    execFile(process.execPath, [cli, 'doctor', '--json'], { env: { ...process.env, ...extra }, cwd: root }, (_err, stdout) => resolve(JSON.parse(stdout)));
  });
  const ok = /** @type {any} */ (await run({ TAGBENCH_PYTHON: fake })).checks.find((/** @type {any} */ c) => c.id === 'otava');
  assert.equal(ok.status, 'ok');
  assert.equal(ok.detail, `apache-otava 0.7.0 (${fake})`);
  const missing = /** @type {any} */ (await run({ TAGBENCH_PYTHON: join(dir, 'no-such-python') })).checks.find((/** @type {any} */ c) => c.id === 'otava');
  assert.equal(missing.status, 'fail');
  assert.equal(missing.detail, `${join(dir, 'no-such-python')} (from TAGBENCH_PYTHON, or the virtualenv of setup/compare.sh) is not an executable file`);
  assert.match(missing.fix, /setup\/compare\.sh/);
});

test('doctor with a broken config: the configs check fails naming the file and field', async () => {
  const cfgRoot = join(dir, 'project');
  await cp(join(root, 'configs'), join(cfgRoot, 'configs'), { recursive: true });
  await writeFile(join(cfgRoot, 'configs/hosts/broken.yml'), 'name: broken\ndescription: x\nlabels: []\nscale: smoke\nrepeats: zero\npinning: {serverCpus: null, clientCpus: null}\nmycnf: {}\n');
  const { code, stdout } = await doctor(['--json', '--config-root', cfgRoot], process.env.PATH ?? '');
  const cfg = JSON.parse(stdout).checks.find((/** @type {any} */ c) => c.id === 'configs');
  assert.equal(cfg.status, 'fail');
  assert.match(cfg.detail, /configs\/hosts\/broken\.yml/);
  assert.match(cfg.detail, /repeats/);
  assert.equal(code, 1);
});

test('doctor measures free disk on the nearest existing parent of a work dir not made yet', async () => {
  const { stdout } = await doctor(['--json', '--work-dir', join(dir, 'not/yet/there')], process.env.PATH ?? '');
  const disk = JSON.parse(stdout).checks.find((/** @type {any} */ c) => c.id === 'disk-free');
  assert.match(disk.detail, new RegExp(`GiB free under ${dir}$|GiB free under ${dir}[: ]`));
});

test('renderDoctor: marks, optional tag, fix lines, summary', () => {
  const text = renderDoctor({
    schemaVersion: 1, ok: false, checks: [
      { id: 'node', title: 'node', required: true, status: 'ok', detail: 'Node.js 20.1.0', fix: null },
      { id: 'sysbench', title: 'sysbench', required: true, status: 'fail', detail: 'not found', fix: 'apt-get install sysbench' },
      { id: 'chromium', title: 'chromium', required: false, status: 'fail', detail: 'not found', fix: 'apt-get install chromium' },
      { id: 'noise', title: 'noise', required: false, status: 'warn', detail: 'VM', fix: 'use bare metal' },
    ],
  });
  assert.equal(text, [
    '✓ node      Node.js 20.1.0',
    '✗ sysbench  not found',
    '            fix: apt-get install sysbench',
    '✗ chromium  not found (optional)',
    '            fix: apt-get install chromium',
    '! noise     VM',
    '            fix: use bare metal',
    '',
    '1 required check failed: tagbench cannot run benchmarks here until fixed (1 optional missing, 1 warning)',
    '',
  ].join('\n'));
});

test('doctor checks every install in the install cache as a reuse would, and names the ones that would be refused', async () => {
  const cache = join(dir, 'installs');
  /**
   * An install as an older tagbench left it (marker schema 1), its server a small file.
   * @param {string} version
   * @param {string} recorded the sha256 its marker records
   */
  const oldInstall = async (version, recorded) => {
    const prefix = join(cache, `mariadb-${version}`);
    const server = join(prefix, 'usr', 'sbin', 'mariadbd');
    await mkdir(join(prefix, 'usr', 'sbin'), { recursive: true });
    await writeFile(server, 'server');
    const result = { product: 'mariadb', version, provider: 'deb', bin: { server }, provenance: { serverSha256: recorded, buildProfile: null, tag: null } };
    await writeFile(join(prefix, '.tagbench-install.json'), JSON.stringify({ schemaVersion: 1, result }));
  };
  await oldInstall('10.11.1', createHash('sha256').update('server').digest('hex'));
  await oldInstall('10.11.2', createHash('sha256').update('another server').digest('hex'));
  const { stdout } = await doctor(['--json', '--cache-dir', cache], process.env.PATH ?? '');
  const check = JSON.parse(stdout).checks.find((/** @type {any} */ c) => c.id === 'install-cache');
  assert.equal(check.status, 'warn');
  assert.match(check.detail, /^1 of 2 installs in .* match their recorded sha256 \(1 made by an older tagbench/);
  assert.match(check.detail, /mariadb-10\.11\.2\/usr\/sbin\/mariadbd has sha256 .* but it was installed with sha256/);
  assert.match(check.fix, /rm -rf/);
});
