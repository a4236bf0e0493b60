/**
 * Doctor checks for the programs tagbench runs: Node.js, sysbench, the samplers, taskset,
 * the deb provider's tools, and the optional ones (otava for change points, Chromium for the
 * site tests).
 */
import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/** @typedef {import('./commands.js').CheckResult} CheckResult */
/** @typedef {import('./commands.js').DoctorEnv} DoctorEnv */

/** Oldest Node.js major tagbench supports (package.json "engines"). */
const MIN_NODE_MAJOR = 20;

/**
 * @typedef {object} ToolSpec a program that only has to be present and answer its version flag
 * @property {string} id
 * @property {string} title
 * @property {boolean} required
 * @property {string[]} names program names to look for, first found wins
 * @property {string[]} versionArgs
 * @property {string} why what tagbench uses it for
 * @property {string} fix
 */

/** @type {ToolSpec[]} */
const SIMPLE_TOOLS = [
  { id: 'vmstat', title: 'vmstat', required: true, names: ['vmstat'], versionArgs: ['-V'], why: 'CPU and context-switch sampling during every step', fix: 'apt-get install procps (or bash setup/metrics.sh)' },
  { id: 'iostat', title: 'iostat', required: true, names: ['iostat'], versionArgs: ['-V'], why: 'storage reads/writes per operation', fix: 'apt-get install sysstat (or bash setup/metrics.sh)' },
  { id: 'taskset', title: 'taskset', required: true, names: ['taskset'], versionArgs: ['--version'], why: 'pinning server and client to CPUs (host class pinning)', fix: 'apt-get install util-linux (or bash setup/metrics.sh)' },
  { id: 'patchelf', title: 'patchelf', required: true, names: ['patchelf'], versionArgs: ['--version'], why: 'deb provider: running releases from other Debian suites', fix: 'apt-get install patchelf' },
  { id: 'apt-get', title: 'apt-get', required: true, names: ['apt-get'], versionArgs: ['--version'], why: 'deb provider: downloading exact server packages', fix: 'use a Debian/Ubuntu host (apt is part of the base system), or install releases with --provider path' },
  { id: 'dpkg-deb', title: 'dpkg-deb', required: true, names: ['dpkg-deb'], versionArgs: ['--version'], why: 'deb provider: extracting packages side by side', fix: 'apt-get install dpkg' },
  { id: 'chromium', title: 'chromium', required: false, names: ['chromium', 'chromium-browser', 'google-chrome'], versionArgs: ['--version'], why: 'only for the site tests (headless page checks)', fix: 'apt-get install chromium' },
];

/**
 * @param {DoctorEnv} env
 * @returns {Promise<CheckResult[]>}
 */
export async function checkTools(env) {
  /** @type {CheckResult[]} */
  const out = [checkNode(env), await checkSysbench(env)];
  for (const spec of SIMPLE_TOOLS) out.push(await checkSimpleTool(spec, env));
  out.push(await checkOtava(env));
  return out;
}

/**
 * @param {DoctorEnv} env
 * @returns {CheckResult}
 */
function checkNode(env) {
  const major = majorOf(env.nodeVersion);
  const ok = major >= MIN_NODE_MAJOR;
  return {
    id: 'node', title: 'node', required: true, status: ok ? 'ok' : 'fail',
    detail: `Node.js ${env.nodeVersion} (need ≥ ${MIN_NODE_MAJOR})`,
    fix: ok ? null : `install Node.js ${MIN_NODE_MAJOR} or newer and run tagbench with it`,
  };
}

/**
 * @param {DoctorEnv} env
 * @returns {Promise<CheckResult>}
 */
async function checkSysbench(env) {
  const base = { id: 'sysbench', title: 'sysbench', required: true };
  const fix = 'apt-get install sysbench (Debian 12 ships 1.0.20; or bash setup/all.sh demo)';
  const file = await findOnPath('sysbench', env.path);
  if (!file) return { ...base, status: 'fail', detail: 'sysbench not found on PATH (every benchmark step runs it)', fix };
  const probe = await runProbe(file, ['--version'], env.path);
  const v = parseSysbenchVersion(probe.output);
  if (!v) return { ...base, status: 'fail', detail: `${file} --version printed no version: ${probe.output.slice(0, 200)}`, fix };
  if (v.major !== 1 || v.minor !== 0) {
    return {
      ...base, status: 'fail', detail: `sysbench ${v.version} at ${file}; the suite's options and output parsers are for 1.0.x`,
      fix: `put sysbench 1.0.x first on PATH (${fix})`,
    };
  }
  return { ...base, status: 'ok', detail: `sysbench ${v.version} (${file})`, fix: null };
}

/**
 * @param {ToolSpec} spec
 * @param {DoctorEnv} env
 * @returns {Promise<CheckResult>}
 */
async function checkSimpleTool(spec, env) {
  const base = { id: spec.id, title: spec.title, required: spec.required };
  for (const name of spec.names) {
    const file = await findOnPath(name, env.path);
    if (!file) continue;
    const probe = await runProbe(file, spec.versionArgs, env.path);
    const first = probe.output.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
    if (!probe.ok && first === '') {
      return { ...base, status: 'fail', detail: `${file} ${spec.versionArgs.join(' ')} failed`, fix: spec.fix };
    }
    return { ...base, status: 'ok', detail: `${first.slice(0, 80)} (${file})`, fix: null };
  }
  return { ...base, status: 'fail', detail: `${spec.names.join(' / ')} not found on PATH (${spec.why})`, fix: spec.fix };
}

/**
 * apache-otava (change-point detection over release series) is a Python package.
 * @param {DoctorEnv} env
 * @returns {Promise<CheckResult>}
 */
async function checkOtava(env) {
  const base = { id: 'otava', title: 'python3+otava', required: false };
  const fix = 'bash setup/compare.sh (a virtualenv in /opt/tagbench-otava), or point TAGBENCH_PYTHON at a python3 that has apache-otava (optional: change-point detection over release series)';
  // The very python compare will run: a check of another one would warn (or pass) for nothing.
  const chosen = env.otavaPython ?? 'python3';
  if (chosen.includes('/') && !(await access(chosen, constants.X_OK).then(() => true, () => false))) {
    return { ...base, status: 'fail', detail: `${chosen} (from TAGBENCH_PYTHON, or the virtualenv of setup/compare.sh) is not an executable file`, fix };
  }
  const python = chosen.includes('/') ? chosen : await findOnPath(chosen, env.path);
  if (!python) return { ...base, status: 'fail', detail: `${chosen} not found on PATH`, fix: `apt-get install python3 python3-venv; ${fix}` };
  const probe = await runProbe(python, ['-c', 'import importlib.metadata as m; print(m.version("apache-otava"))'], env.path);
  if (!probe.ok) return { ...base, status: 'fail', detail: `apache-otava is not installed for ${python}`, fix };
  return { ...base, status: 'ok', detail: `apache-otava ${probe.output} (${python})`, fix: null };
}

/**
 * Find a program on a given PATH.
 * @param {string} name program name
 * @param {string} path PATH value to search
 * @returns {Promise<string|null>} absolute path of the first executable match, null when none
 */
export async function findOnPath(name, path) {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    if (await access(candidate, constants.X_OK).then(() => true, () => false)) return candidate;
  }
  return null;
}

/**
 * Run `file args...` with PATH set to `path`; never rejects.
 * @param {string} file absolute path
 * @param {string[]} args
 * @param {string} path PATH for the child (scripts such as apt-get's helpers look things up)
 * @param {number} [timeoutMs]
 * @returns {Promise<{ok: boolean, output: string}>} output = stdout + stderr, trimmed
 */
function runProbe(file, args, path, timeoutMs = 15_000) {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, env: { ...process.env, PATH: path, LC_ALL: 'C' } }, (err, stdout, stderr) => {
      resolve({ ok: !err, output: `${stdout}${stderr}`.trim() || (err ? err.message : '') });
    });
  });
}

/**
 * The version `sysbench --version` prints (pure).
 * @param {string} text output of `sysbench --version` (`sysbench 1.0.20`, `sysbench 1.1.0-df89d34`)
 * @returns {{version: string, major: number, minor: number}|null} null when no version is found
 */
export function parseSysbenchVersion(text) {
  const m = /sysbench\s+(\d+)\.(\d+)(?:\.(\d+))?\S*/.exec(text);
  if (!m) return null;
  return { version: m[0].replace(/^sysbench\s+/, ''), major: Number(m[1]), minor: Number(m[2]) };
}

/**
 * Major number of a Node.js version (pure).
 * @param {string} version `20.11.1` or `v20.11.1`
 * @returns {number} the major number, NaN when unreadable
 */
export function majorOf(version) {
  return Number(/^v?(\d+)/.exec(version)?.[1]);
}
