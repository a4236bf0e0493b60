/**
 * Run every doctor check and collect the report.
 */
import { checkTools } from './check-tools.js';
import { checkHost } from './check-host.js';
import { checkProject } from './check-project.js';

/** @typedef {import('./types.js').DoctorEnv} DoctorEnv */
/** @typedef {import('./types.js').DoctorReport} DoctorReport */

/**
 * @param {DoctorEnv} env PATH, config root, work dir and Node version to check
 * @returns {Promise<DoctorReport>} ok = no required check failed
 * @throws never for a failed check (that is a result); only on a bug
 */
export async function runDoctor(env) {
  const [tools, host, project] = await Promise.all([checkTools(env), checkHost(), checkProject(env)]);
  const checks = [...tools, ...project, ...host];
  return { schemaVersion: 1, ok: checks.every((c) => !(c.required && c.status === 'fail')), checks };
}
