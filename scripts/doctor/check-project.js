/**
 * Doctor checks of the project itself: the configs load, and the work dir has room.
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
  return [await checkConfigs(env), await checkDisk(env)];
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
