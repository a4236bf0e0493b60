// setup/runner.sh --dry-run: what turning a bare-metal box into a runner would do, printed and
// never done. The tuning reads a prepared /sys and /proc (TAGBENCH_SYS_ROOT) standing in for a
// bare-metal host's; the commands that change a host (useradd, systemctl, tar, install, chown,
// runuser, apt-get) are stand-ins on PATH that record every call, and the test requires that a
// dry run called none of them except systemctl's read-only is-active / is-enabled queries. Tuning
// is never applied here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';

const root = new URL('../../', import.meta.url).pathname;
const script = join(root, 'setup', 'runner.sh');
const config = await loadConfig(root);

let dir = '';
let stubBin = '';
let callLog = '';
/** @type {Record<string, string>} */
const hosts = {};

/** Commands that change a host; their stand-ins record each call (systemctl answers "not active"). */
const HOST_CHANGING = ['useradd', 'systemctl', 'tar', 'install', 'chown', 'runuser', 'apt-get', 'ln', 'chmod'];

/**
 * @param {string} name
 * @param {{governor: string, noTurbo: string, smt: string, thp: string, swappiness: string}} v
 * @returns {Promise<string>}
 */
async function fakeHost(name, v) {
  const r = join(dir, name);
  const put = async (/** @type {string} */ path, /** @type {string} */ text) => {
    await mkdir(dirname(join(r, path)), { recursive: true });
    await writeFile(join(r, path), `${text}\n`);
  };
  for (const cpu of [0, 1]) await put(`sys/devices/system/cpu/cpu${cpu}/cpufreq/scaling_governor`, v.governor);
  await put('sys/devices/system/cpu/intel_pstate/no_turbo', v.noTurbo);
  await put('sys/devices/system/cpu/smt/control', v.smt);
  await put('sys/kernel/mm/transparent_hugepage/enabled', v.thp);
  await put('proc/sys/vm/swappiness', v.swappiness);
  return r;
}

/**
 * Every file under a folder with its content, to prove a dry run changed nothing.
 * @param {string} r
 * @returns {Promise<Record<string, string>>}
 */
async function snapshot(r) {
  const { readdir } = await import('node:fs/promises');
  /** @type {Record<string, string>} */
  const out = {};
  for (const e of await readdir(r, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out[join(e.parentPath, e.name)] = await readFile(join(e.parentPath, e.name), 'utf8');
  }
  return out;
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tagbench-runner-setup-'));
  stubBin = join(dir, 'bin');
  callLog = join(dir, 'calls.log');
  await mkdir(stubBin);
  for (const name of HOST_CHANGING) {
    const body = name === 'systemctl'
      ? `#!/bin/sh\necho "systemctl $*" >> '${callLog}'\ncase "$1" in is-active|is-enabled) exit 1 ;; esac\nexit 0\n`
      : `#!/bin/sh\necho "${name} $*" >> '${callLog}'\nexit 0\n`;
    await writeFile(join(stubBin, name), body);
    await chmod(join(stubBin, name), 0o755);
  }
  hosts.untuned = await fakeHost('untuned', { governor: 'powersave', noTurbo: '0', smt: 'on', thp: '[always] madvise never', swappiness: '60' });
  hosts.tuned = await fakeHost('tuned', { governor: 'performance', noTurbo: '1', smt: 'off', thp: 'always [madvise] never', swappiness: '1' });
});
after(() => rm(dir, { recursive: true, force: true }));

/**
 * @param {string[]} args
 * @param {string} sysRoot
 * @returns {Promise<{code: number, stdout: string, stderr: string, calls: string[]}>}
 */
async function runner(args, sysRoot) {
  await writeFile(callLog, '');
  const res = await new Promise((resolve) => {
    execFile('bash', [script, ...args], { cwd: root, env: { ...process.env, PATH: `${stubBin}:${process.env.PATH}`, TAGBENCH_SYS_ROOT: sysRoot } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }));
  });
  const calls = (await readFile(callLog, 'utf8')).split('\n').filter(Boolean);
  return { .../** @type {{code: number, stdout: string, stderr: string}} */ (res), calls };
}

/** @param {string[]} calls */
const changingCalls = (calls) => calls.filter((c) => !/^systemctl is-(active|enabled) /.test(c));

const FULL = ['--host-class', 'medium-server', '--host-label', 'tagbench-medium-01', '--repo', 'acme/tagbench', '--runner-tarball', '/srv/actions-runner-linux-x64.tar.gz', '--runner-dir', '/nonexistent/tagbench-runner', '--tune', '--dry-run'];

test('runner.sh --dry-run on an untuned box: packages, user, runner with the class labels plus its own, every tuning write; nothing changed', async () => {
  const before = await snapshot(hosts.untuned);
  const res = await runner(FULL, hosts.untuned);
  assert.equal(res.code, 0, res.stderr);
  assert.deepEqual(changingCalls(res.calls), [], 'a dry run runs no command that changes the host');
  assert.deepEqual(await snapshot(hosts.untuned), before, 'a dry run writes no file');
  const out = res.stdout;
  for (const area of ['install', 'server', 'bench', 'metrics', 'compare']) assert.match(out, new RegExp(`^would run: bash \\S+/setup/${area}\\.sh$`, 'm'));
  assert.match(out, /^would install \(only the missing ones\): .*\bcmake bison\b.*\blibpcre2-dev libfmt-dev\b.*\blibtirpc-dev\b/m);
  assert.match(res.stderr, /dry run: nothing is changed/);

  const labels = [...config.hosts['medium-server'].labels, 'tagbench-medium-01'].join(',');
  assert.equal(labels, 'tagbench-medium,tagbench-medium-01');
  assert.match(out, new RegExp(`config\\.sh --unattended --url https://github\\.com/acme/tagbench --name tagbench-medium-01 --labels ${labels} --work _work --replace$`, 'm'));
  assert.match(out, /^would run: tar -xzf \/srv\/actions-runner-linux-x64\.tar\.gz -C \/nonexistent\/tagbench-runner$/m);
  assert.match(out, /TAGBENCH_HOST_CLASS=%s.*'medium-server'/);
  assert.match(out, /^would run: \/nonexistent\/tagbench-runner\/svc\.sh install tagbench$/m);

  assert.match(out, /^would save: current governor, turbo, SMT, THP, swappiness and irqbalance state to \S+\/var\/lib\/tagbench\/tuning-before\.env$/m);
  assert.match(out, /^would write: governor of cpu0 = performance \(now powersave\) to \S+cpu0\/cpufreq\/scaling_governor$/m);
  assert.match(out, /^would write: governor of cpu1 = performance \(now powersave\)/m);
  assert.match(out, /^would write: turbo off = 1 \(now 0\) to \S+intel_pstate\/no_turbo$/m);
  assert.match(out, /^would write: SMT \(host class medium-server\) = off \(now on\)/m);
  assert.match(out, /^would write: transparent huge pages = madvise \(now always\)/m);
  assert.match(out, /^would write: vm\.swappiness = 1 \(now 60\)/m);
  assert.match(out, /^would write: vm\.swappiness = 1 to \S+\/etc\/sysctl\.d\/90-tagbench\.conf/m);
  assert.match(out, /^would write: \S+\/etc\/systemd\/system\/tagbench-tuning\.service \(runs --tune-now at boot\) and enable it$/m);
  assert.match(out, /^would run: node \S+\/scripts\/cli\.js doctor --strict --host-class medium-server$/m);
});

test('runner.sh --dry-run on a tuned box says "already" for every tuning setting (rerunning is safe)', async () => {
  const res = await runner(FULL, hosts.tuned);
  assert.equal(res.code, 0, res.stderr);
  assert.deepEqual(changingCalls(res.calls), []);
  assert.doesNotMatch(res.stdout, /^would write: (governor|turbo|SMT|transparent|vm\.swappiness = 1 \()/m);
  for (const what of ['governor of cpu0 = performance', 'turbo off = 1', 'SMT \\(host class medium-server\\) = off', 'transparent huge pages = madvise', 'vm\\.swappiness = 1']) {
    assert.match(res.stdout, new RegExp(`^already: ${what} `, 'm'));
  }
  assert.match(res.stdout, /^already: irqbalance not running$/m);
});

test('runner.sh --untune --dry-run puts back the saved values; without saved values it refuses', async () => {
  const none = await runner(['--host-class', 'medium-server', '--untune', '--dry-run'], hosts.tuned);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no saved values in \S+tuning-before\.env: this host was not tuned by setup\/runner\.sh/);

  const saved = join(hosts.tuned, 'var', 'lib', 'tagbench', 'tuning-before.env');
  await mkdir(dirname(saved), { recursive: true });
  await writeFile(saved, `governor=schedutil\nturbo_file=${join(hosts.tuned, 'sys/devices/system/cpu/intel_pstate/no_turbo')}\nturbo=0\nsmt=on\nthp=always\nswappiness=60\nirqbalance_enabled=yes\n`);
  try {
    const before = await snapshot(hosts.tuned);
    const res = await runner(['--host-class', 'medium-server', '--untune', '--dry-run'], hosts.tuned);
    assert.equal(res.code, 0, res.stderr);
    assert.deepEqual(changingCalls(res.calls), []);
    assert.deepEqual(await snapshot(hosts.tuned), before);
    assert.match(res.stdout, /^would write: governor \(restored\) = schedutil \(now performance\)/m);
    assert.match(res.stdout, /^would write: turbo \(restored\) = 0 \(now 1\)/m);
    assert.match(res.stdout, /^would write: SMT \(restored\) = on \(now off\)/m);
    assert.match(res.stdout, /^would write: transparent huge pages \(restored\) = always \(now madvise\)/m);
    assert.match(res.stdout, /^would write: vm\.swappiness \(restored\) = 60 \(now 1\)/m);
    assert.match(res.stdout, /^would run: systemctl enable --now irqbalance$/m);
    assert.match(res.stdout, /^would run: rm -f \S+tuning-before\.env$/m);
  } finally {
    await rm(saved);
  }
});

test('runner.sh refuses bad input with a message naming it', async () => {
  const unknown = await runner(['--host-class', 'huge-server', '--dry-run'], hosts.tuned);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /host class 'huge-server' is not in configs\/hosts; known: large-server, local, medium-server, small-server/);
  const noLabel = await runner(['--host-class', 'medium-server', '--repo', 'acme/tagbench', '--skip-packages', '--dry-run'], hosts.tuned);
  assert.equal(noLabel.code, 1);
  assert.match(noLabel.stderr, /--host-label is required to register a runner/);
  const badLabel = await runner(['--host-class', 'medium-server', '--host-label', 'a b', '--dry-run'], hosts.tuned);
  assert.equal(badLabel.code, 1);
  assert.match(badLabel.stderr, /--host-label 'a b' must be letters, digits/);
  const both = await runner(['--host-class', 'local', '--tune', '--untune', '--dry-run'], hosts.tuned);
  assert.equal(both.code, 1);
  assert.match(both.stderr, /--tune and --untune exclude each other/);
  // A class without labels: the runner is reached only through TAGBENCH_HOST_LABELS.
  const local = await runner(['--host-class', 'local', '--host-label', 'tagbench-laptop', '--repo', 'acme/tagbench', '--skip-packages', '--runner-tarball', '/srv/r.tgz', '--runner-dir', '/nonexistent/r', '--dry-run'], hosts.tuned);
  assert.equal(local.code, 0, local.stderr);
  assert.match(local.stderr, /host class local has no runner labels: the workflows reach this runner only when TAGBENCH_HOST_LABELS names it, e\.g\. \{"local": \["tagbench-laptop"\]\}/);
  assert.match(local.stdout, /--labels tagbench-laptop --work _work/);
  assert.match(local.stderr, /host tuning not changed \(add --tune\)/);
});

test('runner.sh registers an organization runner in a runner group, and says what a repository runner or the Default group exposes', async () => {
  const common = ['--host-class', 'medium-server', '--host-label', 'tagbench-medium-01', '--skip-packages', '--runner-tarball', '/srv/r.tgz', '--runner-dir', '/nonexistent/r', '--dry-run'];
  const grouped = await runner([...common, '--org', 'acme', '--runner-group', 'tagbench-benchmarks'], hosts.tuned);
  assert.equal(grouped.code, 0, grouped.stderr);
  assert.match(grouped.stdout, /config\.sh --unattended --url https:\/\/github\.com\/acme --runnergroup tagbench-benchmarks --name tagbench-medium-01 --labels tagbench-medium,tagbench-medium-01 --work _work --replace$/m);
  assert.doesNotMatch(grouped.stderr, /Default group|a repository runner/);
  const ungrouped = await runner([...common, '--org', 'acme'], hosts.tuned);
  assert.equal(ungrouped.code, 0, ungrouped.stderr);
  assert.match(ungrouped.stderr, /no --runner-group: the runner joins the organization's Default group, which every repository of the organization can use/);
  assert.match(ungrouped.stdout, /--url https:\/\/github\.com\/acme --name tagbench-medium-01/);
  const repo = await runner([...common, '--repo', 'acme/tagbench'], hosts.tuned);
  assert.equal(repo.code, 0, repo.stderr);
  assert.match(repo.stderr, /a repository runner: every workflow of acme\/tagbench can reach it/);
  const both = await runner([...common, '--repo', 'acme/tagbench', '--org', 'acme'], hosts.tuned);
  assert.equal(both.code, 1);
  assert.match(both.stderr, /--repo and --org exclude each other/);
  const groupAlone = await runner([...common, '--repo', 'acme/tagbench', '--runner-group', 'g'], hosts.tuned);
  assert.equal(groupAlone.code, 1);
  assert.match(groupAlone.stderr, /--runner-group needs --org/);
  const neither = await runner(common, hosts.tuned);
  assert.equal(neither.code, 1);
  assert.match(neither.stderr, /--org \(an organization runner, in a runner group\) or --repo owner\/name is required to register a runner/);
});

test('runner.sh --pull-requests: labels of pull requests only, ephemeral, a second user closed off from the runner\'s folder and the shared cache', async () => {
  const common = ['--host-class', 'medium-server', '--host-label', 'tagbench-pr-01', '--skip-packages', '--runner-tarball', '/srv/r.tgz', '--runner-dir', '/nonexistent/r', '--org', 'acme', '--runner-group', 'tagbench-pull-requests', '--dry-run'];
  const pr = await runner([...common, '--pull-requests'], hosts.tuned);
  assert.equal(pr.code, 0, pr.stderr);
  // Never the class's own labels (tagbench-medium): a release leg cannot reach this runner.
  assert.match(pr.stdout, /config\.sh --unattended --url https:\/\/github\.com\/acme --runnergroup tagbench-pull-requests --ephemeral --name tagbench-pr-01 --labels tagbench-pull-request,tagbench-pr-medium-server,tagbench-pr-01 --work _work --replace$/m);
  assert.match(pr.stdout, /would run: useradd --system --create-home --home-dir \/home\/tagbench-pr --shell \/bin\/bash tagbench-pr/);
  assert.match(pr.stdout, /would run: chmod 0700 \/home\/tagbench-pr \/home\/tagbench/);
  assert.match(pr.stdout, /would run: install -d -o tagbench -g tagbench -m 0700 \/nonexistent\/r/);
  assert.match(pr.stdout, /tagbench ALL=\(tagbench-pr\) NOPASSWD: ALL/);
  assert.match(pr.stdout, /TAGBENCH_PR_USER=%s.*tagbench-pr/);
  assert.deepEqual(changingCalls(pr.calls), [], 'a dry run changes nothing');
  const release = await runner(common, hosts.tuned);
  assert.match(release.stdout, /--name tagbench-pr-01 --labels tagbench-medium,tagbench-pr-01 --work/);
  assert.doesNotMatch(release.stdout, /--ephemeral|TAGBENCH_PR_USER|useradd .*tagbench-pr/, 'a release runner is neither ephemeral nor given a pull requests\' user');
  const same = await runner([...common, '--pull-requests', '--pr-user', 'tagbench'], hosts.tuned);
  assert.equal(same.code, 1);
  assert.match(same.stderr, /--pr-user 'tagbench' is the runner's own user/);
  const eph = await runner([...common, '--ephemeral'], hosts.tuned);
  assert.match(eph.stdout, /--ephemeral --name tagbench-pr-01 --labels tagbench-medium,tagbench-pr-01/);
});

/**
 * Whether `user` may read or write `path`, by Unix's rules (search on every folder above it, then
 * the mode bits of owner, group or others), on the folders a setup made: `modes` maps a folder to
 * its owner, group and mode; a folder not in it inherits its nearest listed ancestor's (the
 * runner's own processes create them with umask 022, so no wider). A stand-in for the kernel's
 * check that act cannot make (it runs every job as one user).
 * @param {Map<string, {owner: string, group: string, mode: number}>} modes
 * @param {string} user (its group: its own name, as useradd --system makes it)
 * @param {string} path
 * @param {'read'|'write'} access read the file, or create/replace an entry in its folder
 */
function unixAllows(modes, user, path, access) {
  const parts = path.split('/').filter(Boolean);
  let nearest = { owner: 'root', group: 'root', mode: 0o755 };
  const bits = (/** @type {typeof nearest} */ m) => (m.owner === user ? (m.mode >> 6) : m.group === user ? (m.mode >> 3) : m.mode) & 7;
  for (let i = 1; i <= parts.length; i += 1) {
    const folder = `/${parts.slice(0, i).join('/')}`;
    nearest = modes.get(folder) ?? { ...nearest, mode: nearest.mode & 0o755 };
    const last = i === parts.length;
    if (!last && !(bits(nearest) & 1)) return false;
    if (last) return Boolean(bits(nearest) & (access === 'read' ? 4 : 2));
  }
  return false;
}

/**
 * The owner, group and mode of every folder a dry run says it would make or change: useradd's
 * homes, install -d, chmod with a numeric mode (a symbolic chmod -R go-w only narrows).
 * @param {string} stdout runner.sh --dry-run's
 * @param {Map<string, {owner: string, group: string, mode: number}>} [known] folders that exist already
 * @returns {Map<string, {owner: string, group: string, mode: number}>}
 */
function modesOfDryRun(stdout, known = new Map()) {
  const modes = new Map(known);
  for (const m of stdout.matchAll(/^would run: useradd .*--home-dir (\S+) (\S+)$/gm)) modes.set(m[1], { owner: m[2], group: m[2], mode: 0o755 });
  for (const m of stdout.matchAll(/^would run: install -d -o (\S+) -g (\S+) -m (\d+) (\S+)$/gm)) modes.set(m[4], { owner: m[1], group: m[2], mode: parseInt(m[3], 8) });
  for (const m of stdout.matchAll(/^would run: chmod (\d+) (.+)$/gm)) {
    for (const p of m[2].split(' ')) modes.set(p, { ...(modes.get(p) ?? { owner: p.split('/').at(-1) ?? 'root', group: p.split('/').at(-1) ?? 'root' }), mode: parseInt(m[1], 8) });
  }
  return modes;
}

test('runner.sh --pull-requests --pr-user: what its generated steps let the pull request\'s user do (the hostile build of the act test)', async () => {
  const res = await runner(['--host-class', 'medium-server', '--host-label', 'tagbench-pr-01', '--skip-packages', '--runner-tarball', '/srv/r.tgz',
    '--runner-dir', '/nonexistent/r', '--cache-dir', '/nonexistent/cache', '--org', 'acme', '--runner-group', 'tagbench-pull-requests', '--pull-requests', '--dry-run'], hosts.tuned);
  assert.equal(res.code, 0, res.stderr);
  const modes = modesOfDryRun(res.stdout);
  // The runner's user exists already on this stand-in host only when useradd is not printed.
  if (!modes.has('/home/tagbench')) modes.set('/home/tagbench', { owner: 'tagbench', group: 'tagbench', mode: 0o700 });
  const pr = 'tagbench-pr';
  // What the hostile pull request tries, each refused to its user...
  assert.equal(unixAllows(modes, pr, '/nonexistent/r/.credentials', 'read'), false, 'the runner\'s credentials');
  assert.equal(unixAllows(modes, pr, '/nonexistent/r/.runner', 'read'), false, 'the runner\'s registration');
  assert.equal(unixAllows(modes, pr, '/nonexistent/cache/.git-refs/mariadb.git/HEAD', 'write'), false, 'the install cache\'s .git-refs');
  assert.equal(unixAllows(modes, pr, '/nonexistent/cache/mariadb-10.11.19@source-abc/usr/sbin/mariadbd', 'write'), false, 'a release build in the shared install cache');
  assert.equal(unixAllows(modes, pr, '/home/tagbench/.ccache/0/x', 'write'), false, 'the runner\'s ccache');
  // ...while its own home (its install cache, ccache and job folder) is its own, and the shared
  // cache stays readable to it: the model says yes where a user may, or it would prove nothing.
  assert.equal(unixAllows(modes, pr, '/home/tagbench-pr/installs/x', 'write'), true, 'its own install cache');
  assert.equal(unixAllows(modes, pr, '/nonexistent/cache/mariadb-10.11.19@deb/usr/sbin/mariadbd', 'read'), true, 'the shared cache, read-only');
  assert.equal(unixAllows(modes, 'tagbench', '/nonexistent/r/.credentials', 'read'), true, 'the runner reads its own credentials');
  // Its processes are the runner user's to end (kill -KILL -1 as that user, pull-request.yml): the
  // sudoers rule lets the runner run commands as it, and nothing the other way.
  assert.match(res.stdout, /'tagbench ALL=\(tagbench-pr\) NOPASSWD: ALL'/);
  assert.doesNotMatch(res.stdout, /tagbench-pr ALL=/);
});

test('runner.sh --pull-requests --pr-user: the user\'s install cache is its own; the shared cache\'s finished release builds are linked in, read-only to it; ad-hoc builds are not (issue 34)', async () => {
  // A shared install cache as a release host's image holds it: two finished release builds, a
  // pull request's ad-hoc build, an install that never finished, and the bare repositories.
  const cache = join(dir, 'shared-installs');
  const entry = (/** @type {string} */ name, finished = true) => join(cache, name, finished ? '.tagbench-install.json' : 'usr/sbin/mariadbd');
  for (const [name, finished] of /** @type {const} */ ([['mariadb-10.11.19@deb', true], ['mariadb-10.11.19@source+commit-0123456789ab', true],
    ['mariadb-11.4.0@source+ref-pull_7_head+commit-abcdef012345', true], ['mariadb-10.5.23@deb', false]])) {
    await mkdir(dirname(entry(name, finished)), { recursive: true });
    await writeFile(entry(name, finished), '{}\n');
  }
  await mkdir(join(cache, '.git-refs', 'mariadb.git'), { recursive: true });
  const res = await runner(['--host-class', 'medium-server', '--host-label', 'tagbench-pr-01', '--skip-packages', '--runner-tarball', '/srv/r.tgz',
    '--runner-dir', '/nonexistent/r', '--cache-dir', cache, '--org', 'acme', '--runner-group', 'tagbench-pull-requests', '--pull-requests', '--dry-run'], hosts.tuned);
  assert.equal(res.code, 0, res.stderr);
  assert.deepEqual(changingCalls(res.calls), [], 'a dry run changes nothing');
  const own = '/home/tagbench-pr/installs';
  assert.match(res.stdout, new RegExp(`^would run: install -d -o tagbench-pr -g tagbench-pr -m 0700 ${own}$`, 'm'), 'its own install cache, closed to others');
  assert.match(res.stdout, new RegExp(`^would run: chmod -R go-w ${cache}$`, 'm'), 'nothing in the shared cache writable by others');
  const links = [...res.stdout.matchAll(/^would run: ln -sfn (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]);
  assert.deepEqual(links, ['mariadb-10.11.19@deb', 'mariadb-10.11.19@source+commit-0123456789ab'].map((n) => [join(cache, n), `${own}/${n}`]),
    'finished release builds only: no other pull request\'s build, no unfinished install, no .git-refs');

  // By Unix's rules (unixAllows above), with the shared cache as create_user made it (the
  // runner's user's, 0755) after chmod -R go-w: the user runs a linked release build, cannot
  // change it, and writes its own cache.
  const modes = modesOfDryRun(res.stdout, new Map([[cache, { owner: 'tagbench', group: 'tagbench', mode: 0o755 }]]));
  const pr = 'tagbench-pr';
  for (const [target, link] of links) {
    assert.equal(unixAllows(modes, pr, `${own}/new-build/x`, 'write'), true, `${link}: beside it, its own cache takes new builds`);
    assert.equal(unixAllows(modes, pr, `${target}/usr/sbin/mariadbd`, 'read'), true, `${target}: the linked release build is readable`);
    assert.equal(unixAllows(modes, pr, `${target}/usr/sbin/mariadbd`, 'write'), false, `${target}: and not writable`);
    assert.equal(unixAllows(modes, pr, `${target}/.tagbench-install.json`, 'write'), false, `${target}: nor its marker`);
  }
  assert.equal(unixAllows(modes, 'tagbench', `${cache}/mariadb-10.11.19@deb/x`, 'write'), true, 'the runner\'s user still fills the shared cache');
});

test('runner.sh --pr-user-only: only the pull requests\' user (its home, cache with the release builds linked, ccache, sudoers drop-in for the given runner user), no host class, packages, runner or tuning (the act test\'s set-up)', async () => {
  const cache = join(dir, 'pr-only-installs');
  await mkdir(join(cache, 'mariadb-10.11.19@source-release+commit-0123456789ab'), { recursive: true });
  await writeFile(join(cache, 'mariadb-10.11.19@source-release+commit-0123456789ab', '.tagbench-install.json'), '{}\n');
  const user = 'tagbench-pr-dry';
  const res = await runner(['--pr-user-only', '--pr-user', user, '--user', 'root', '--runner-dir', '/nonexistent/act-runner', '--cache-dir', cache, '--dry-run'], hosts.tuned);
  assert.equal(res.code, 0, res.stderr);
  assert.deepEqual(changingCalls(res.calls), [], 'a dry run changes nothing');
  const lines = res.stdout.split('\n').filter((l) => l.startsWith('would run: '));
  assert.deepEqual(lines, [
    `would run: useradd --system --create-home --home-dir /home/${user} --shell /bin/bash ${user}`,
    // root's home is the one the system names, not /home/root.
    `would run: chmod 0700 /home/${user} /root`,
    'would run: install -d -o root -g root -m 0700 /nonexistent/act-runner',
    `would run: install -d -o ${user} -g ${user} -m 0700 /home/${user}/ccache`,
    `would run: sh -c printf '%s\\n' 'root ALL=(${user}) NOPASSWD: ALL' > '/etc/sudoers.d/${user}' && chmod 0440 '/etc/sudoers.d/${user}' && visudo -cf '/etc/sudoers.d/${user}'`,
    `would run: install -d -o ${user} -g ${user} -m 0700 /home/${user}/installs`,
    `would run: chmod -R go-w ${cache}`,
    `would run: ln -sfn ${cache}/mariadb-10.11.19@source-release+commit-0123456789ab /home/${user}/installs/mariadb-10.11.19@source-release+commit-0123456789ab`,
  ]);
  assert.match(res.stdout, new RegExp(`^TAGBENCH_PR_USER=${user}: give it to the environment of the runner`, 'm'));
  assert.doesNotMatch(res.stdout + res.stderr, /config\.sh|svc\.sh|would install|governor|doctor/, 'no runner, packages, tuning or doctor');
  const same = await runner(['--pr-user-only', '--pr-user', 'root', '--user', 'root', '--dry-run'], hosts.tuned);
  assert.equal(same.code, 1);
  assert.match(same.stderr, /--pr-user 'root' is the runner's own user/);
});
