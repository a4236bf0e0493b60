// `tagbench doctor --strict --host-class <class>`: the runner tuning checks read /sys and /proc
// under --sys-root, here prepared folders standing in for a tuned and an untuned bare-metal host
// (the same files, with the same formats, as the kernel exposes; nothing on this machine is read
// or changed). A failed required check (governor, turbo, SMT on a class with runner labels) blocks
// with exit 1 and names the check; advisory ones (THP, swap, irqbalance; everything on `local`)
// never block.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkTuning, tuningPolicy, TUNING_CHECK_IDS } from '../../scripts/doctor/check-tuning.js';

const cli = new URL('../../scripts/cli.js', import.meta.url).pathname;
const root = new URL('../../', import.meta.url).pathname;

/**
 * @typedef {object} FakeHost
 * @property {string} governor scaling_governor of each CPU
 * @property {string} noTurbo intel_pstate/no_turbo
 * @property {string} smtControl
 * @property {string} smtActive
 * @property {string} thp transparent_hugepage/enabled as the kernel prints it
 * @property {boolean} swapOn
 * @property {boolean} irqbalance a running irqbalance process
 */

/** @type {FakeHost} */
const TUNED = { governor: 'performance', noTurbo: '1', smtControl: 'off', smtActive: '0', thp: 'always madvise [never]', swapOn: false, irqbalance: false };
/** @type {FakeHost} */
const UNTUNED = { governor: 'powersave', noTurbo: '0', smtControl: 'on', smtActive: '1', thp: '[always] madvise never', swapOn: true, irqbalance: true };
/** Required tuning right, every advisory one wrong. */
const ADVISORY_ONLY = { ...TUNED, thp: UNTUNED.thp, swapOn: true, irqbalance: true };

let dir = '';
/** @type {Record<string, string>} */
const roots = {};

/**
 * Write the /sys and /proc files of a fake host under a new folder.
 * @param {string} name
 * @param {FakeHost} h
 * @returns {Promise<string>} its root
 */
async function fakeHost(name, h) {
  const r = join(dir, name);
  const put = async (/** @type {string} */ path, /** @type {string} */ text) => {
    await mkdir(dirname(join(r, path)), { recursive: true });
    await writeFile(join(r, path), `${text}\n`);
  };
  for (const cpu of [0, 1, 2, 3]) await put(`sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_governor`, h.governor);
  await put('sys/devices/system/cpu/intel_pstate/no_turbo', h.noTurbo);
  await put('sys/devices/system/cpu/smt/control', h.smtControl);
  await put('sys/devices/system/cpu/smt/active', h.smtActive);
  await put('sys/kernel/mm/transparent_hugepage/enabled', h.thp);
  await put('proc/swaps', `Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority${h.swapOn ? '\n/dev/nvme0n1p3                          partition\t8388604\t\t0\t\t-2' : ''}`);
  await put('proc/sys/vm/swappiness', '60');
  await put('proc/1/comm', 'systemd');
  if (h.irqbalance) await put('proc/812/comm', 'irqbalance');
  return r;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tagbench-strict-'));
  roots.tuned = await fakeHost('tuned', TUNED);
  roots.untuned = await fakeHost('untuned', UNTUNED);
  roots.advisory = await fakeHost('advisory', ADVISORY_ONLY);
  roots.empty = join(dir, 'empty');
  await mkdir(roots.empty);
});
after(() => rm(dir, { recursive: true, force: true }));

/**
 * @param {string[]} args
 * @returns {Promise<{code: number, stdout: string, stderr: string}>}
 */
function doctor(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, 'doctor', ...args], { cwd: root, env: { ...process.env, TAGBENCH_HOST_CLASS: '' } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

const medium = { name: 'medium-server', labels: ['tagbench-medium'] };
const local = { name: 'local', labels: [] };

test('policy: governor, turbo and SMT are required on a class with runner labels, nothing on local; tuning.smt decides SMT', () => {
  assert.deepEqual(tuningPolicy(medium), { smt: 'off', bareMetal: true, required: ['governor', 'turbo', 'smt'] });
  assert.deepEqual(tuningPolicy(local).required, []);
  assert.equal(tuningPolicy({ ...medium, tuning: { smt: 'on' } }).smt, 'on');
  assert.deepEqual(tuningPolicy({ ...medium, tuning: { smt: 'any' } }).required, ['governor', 'turbo']);
});

test('tuning checks: a tuned host passes every one; an untuned host fails every one, each with a fix', async () => {
  const tuned = await checkTuning({ root: roots.tuned, strict: true, hostClass: medium });
  assert.deepEqual(tuned.map((c) => c.id), [...TUNING_CHECK_IDS]);
  assert.deepEqual(tuned.filter((c) => c.status !== 'ok').map((c) => `${c.id}: ${c.detail}`), []);
  const untuned = await checkTuning({ root: roots.untuned, strict: true, hostClass: medium });
  assert.deepEqual(untuned.map((c) => c.status), TUNING_CHECK_IDS.map(() => 'fail'));
  assert.deepEqual(untuned.filter((c) => c.required).map((c) => c.id), ['governor', 'turbo', 'smt']);
  for (const c of untuned) assert.ok(c.fix && c.fix.length > 10, `${c.id} has a fix`);
  assert.match(untuned[0].detail, /powersave on 4 CPUs/);
  assert.match(untuned[5].detail, /running \(pid 812\)/);
  // Without --strict nothing is required, even on a bare-metal class.
  assert.deepEqual((await checkTuning({ root: roots.untuned, strict: false, hostClass: medium })).filter((c) => c.required), []);
  // SMT wanted on: an SMT-off host fails, an SMT-on host passes.
  const smtOn = { ...medium, tuning: { smt: /** @type {const} */ ('on') } };
  assert.equal((await checkTuning({ root: roots.tuned, strict: true, hostClass: smtOn }))[2].status, 'fail');
  assert.equal((await checkTuning({ root: roots.untuned, strict: true, hostClass: smtOn }))[2].status, 'ok');
});

test('tuning checks: what cannot be read is unknown, and fails only where --strict requires it', async () => {
  const strict = await checkTuning({ root: roots.empty, strict: true, hostClass: medium });
  assert.deepEqual(strict.map((c) => [c.id, c.status, c.required]), [
    ['governor', 'fail', true], ['turbo', 'fail', true], ['smt', 'fail', true],
    ['thp', 'unknown', false], ['swap', 'unknown', false], ['irqbalance', 'unknown', false],
  ]);
  assert.match(strict[0].detail, /cannot be verified .*a setting that cannot be verified blocks/);
  const onLocal = await checkTuning({ root: roots.empty, strict: true, hostClass: local });
  assert.ok(onLocal.every((c) => c.status === 'unknown' && !c.required));
});

test('doctor --strict on a bare-metal class: an untuned host is blocked, exit 1, the message names the failed checks', async () => {
  const { code, stdout } = await doctor(['--strict', '--host-class', 'medium-server', '--sys-root', roots.untuned]);
  assert.equal(code, 1);
  assert.match(stdout, /^✗ cpu governor +powersave on 4 CPUs: .*\[required by --strict on bare-metal class medium-server\]$/m);
  assert.match(stdout, /^ +fix: cpupower frequency-set -g performance/m);
  assert.match(stdout, /^doctor --strict: benchmark blocked on host class medium-server by (\S+, )*governor, turbo, smt(, \S+)* \(the class requires governor, turbo, smt\)$/m);
  const json = JSON.parse((await doctor(['--strict', '--host-class', 'medium-server', '--sys-root', roots.untuned, '--json'])).stdout);
  assert.equal(json.ok, false);
  assert.deepEqual(json.strict, { hostClass: 'medium-server', required: ['governor', 'turbo', 'smt'] });
  const blocking = json.checks.filter((/** @type {any} */ c) => c.required && c.status === 'fail').map((/** @type {any} */ c) => c.id);
  assert.deepEqual(blocking.filter((/** @type {string} */ id) => TUNING_CHECK_IDS.includes(/** @type {any} */ (id))), ['governor', 'turbo', 'smt']);
  assert.equal(json.checks.some((/** @type {any} */ c) => c.id === 'cpufreq'), false, 'the general cpufreq line is replaced by the governor and turbo checks');
});

test('doctor --strict: advisory checks do not block, on a bare-metal class (THP, swap, irqbalance) or on local (all)', async () => {
  for (const [hostClass, sysRoot] of [['medium-server', roots.advisory], ['local', roots.untuned]]) {
    const res = await doctor(['--strict', '--host-class', hostClass, '--sys-root', sysRoot, '--json']);
    const report = JSON.parse(res.stdout);
    const tuning = report.checks.filter((/** @type {any} */ c) => TUNING_CHECK_IDS.includes(c.id));
    assert.equal(tuning.length, TUNING_CHECK_IDS.length);
    const failedAdvisory = tuning.filter((/** @type {any} */ c) => c.status === 'fail' && !c.required).map((/** @type {any} */ c) => c.id);
    assert.deepEqual(failedAdvisory, hostClass === 'local' ? [...TUNING_CHECK_IDS] : ['thp', 'swap', 'irqbalance'], hostClass);
    assert.deepEqual(tuning.filter((/** @type {any} */ c) => c.required && c.status === 'fail'), [], `${hostClass}: no tuning check blocks`);
    // Only checks outside the tuning (tools, configs on this machine) could still block.
    const otherBlocking = report.checks.filter((/** @type {any} */ c) => c.required && c.status === 'fail');
    assert.equal(report.ok, otherBlocking.length === 0);
    assert.equal(res.code, report.ok ? 0 : 1, JSON.stringify(otherBlocking));
  }
  const tuned = JSON.parse((await doctor(['--strict', '--host-class', 'medium-server', '--sys-root', roots.tuned, '--json'])).stdout);
  assert.deepEqual(tuned.checks.filter((/** @type {any} */ c) => TUNING_CHECK_IDS.includes(c.id) && c.status !== 'ok'), [], 'a tuned host passes every tuning check');
});

test('doctor --strict needs a known host class, and not --github', async () => {
  const none = await doctor(['--strict']);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /doctor --strict needs the host class whose tuning to require: --host-class <name>/);
  const unknown = await doctor(['--strict', '--host-class', 'huge-server', '--sys-root', roots.tuned]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /--host-class 'huge-server' is not a host class; known: large-server, local, medium-server, small-server/);
  const github = await doctor(['--strict', '--github', '--host-class', 'local']);
  assert.equal(github.code, 1);
  assert.match(github.stderr, /--strict checks this host against its host class; --github checks the repository/);
});
