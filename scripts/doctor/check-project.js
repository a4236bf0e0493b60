/**
 * Doctor checks of the project itself: the configs load, the work dir has room, and every
 * install in the install cache passes the check a reuse makes.
 */
import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { loadConfig } from '../config/index.js';

/** @typedef {import('./commands.js').CheckResult} CheckResult */
/** @typedef {import('./commands.js').DoctorEnv} DoctorEnv */

const GIB = 1024 ** 3;
/** Below this, one release prefix (~190 MB) plus a loaded datadir and logs may not fit. */
const DISK_FAIL_BYTES = 2 * GIB;
/** Below this, a medium/large suite's datadirs (tens of GB) will not fit. */
const DISK_WARN_BYTES = 20 * GIB;

/**
 * @param {DoctorEnv} env
 * @returns {Promise<CheckResult[]>}
 */
export async function checkProject(env) {
  return [await checkConfigs(env), await checkDisk(env), ...(env.cacheDir ? [await checkInstallCache(env.cacheDir)] : [])];
}

/**
 * Every install in the cache, checked as a reuse would check it (key, server sha256).
 * @param {string} cacheDir
 * @returns {Promise<CheckResult>}
 */
export async function checkInstallCache(cacheDir) {
  const base = { id: 'install-cache', title: 'install cache', required: false };
  const { auditInstallCache } = await import('../install/index.js');
  const entries = await auditInstallCache(cacheDir);
  if (entries.length === 0) return { ...base, status: 'info', detail: `no installs in ${cacheDir} yet`, fix: null };
  const bad = entries.filter((e) => e.problem);
  const legacy = entries.filter((e) => e.legacy && !e.problem).length;
  const fine = `${entries.length - bad.length} of ${entries.length} installs in ${cacheDir} match their recorded sha256`
    + (legacy ? ` (${legacy} made by an older tagbench, reused in place by the provider that made them)` : '');
  if (bad.length === 0) return { ...base, status: 'ok', detail: fine, fix: null };
  return { ...base, status: 'warn', detail: `${fine}; ${bad.length} would not be reused: ${bad.map((e) => e.problem).join(' | ')}`, fix: 'delete the folders named above (rm -rf) and install those releases again' };
}

/**
 * @param {DoctorEnv} env
 * @returns {Promise<CheckResult>}
 */
async function checkConfigs(env) {
  const base = { id: 'configs', title: 'configs', required: true };
  try {
    const cfg = await loadConfig(env.configRoot);
    const counts = ['products', 'hosts', 'suites'].map((k) => `${Object.keys(/** @type {any} */ (cfg)[k]).length} ${k}`);
    return { ...base, status: 'ok', detail: `${counts.join(', ')} load from ${resolve(env.configRoot, 'configs')}`, fix: null };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return { ...base, status: 'fail', detail: msg, fix: 'correct the files and fields named above, then rerun tagbench doctor' };
  }
}

/**
 * @param {DoctorEnv} env
 * @returns {Promise<CheckResult>}
 */
async function checkDisk(env) {
  const base = { id: 'disk-free', title: 'disk free', required: true };
  // The work dir may not exist yet: measure the nearest existing ancestor, on the same filesystem.
  let dir = resolve(env.workDir);
  /** @type {import('node:fs').StatsFs|null} */
  let st = null;
  for (;;) {
    st = await statfs(dir).catch(() => null);
    if (st || dirname(dir) === dir) break;
    dir = dirname(dir);
  }
  if (!st) return { ...base, status: 'fail', detail: `cannot stat the filesystem of ${env.workDir}`, fix: 'pass --work-dir with a writable directory' };
  const free = st.bavail * st.bsize;
  const detail = `${(free / GIB).toFixed(1)} GiB free under ${dir}`;
  if (free < DISK_FAIL_BYTES) {
    return { ...base, status: 'fail', detail: `${detail} (need ≥ ${DISK_FAIL_BYTES / GIB} GiB)`, fix: 'free space there, or pass --work-dir on a bigger filesystem' };
  }
  if (free < DISK_WARN_BYTES) {
    return { ...base, status: 'warn', detail: `${detail}: enough for the smoke suite; larger suites need ≥ ${DISK_WARN_BYTES / GIB} GiB`, fix: 'free space, or pass --work-dir on a bigger filesystem, before medium/large suites' };
  }
  return { ...base, status: 'ok', detail, fix: null };
}
