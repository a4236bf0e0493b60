/**
 * CLI options shared by every command that starts servers (run, confirm, calibrate), and the
 * defaults several commands resolve alike (install cache, work dir, the python that runs
 * apache-otava), so their defaults and wording cannot drift apart. Foundation: imports no stage.
 */
import { existsSync } from 'node:fs';
import { wholeNumberAtLeast } from './command-spec.js';

/** @type {import('./command-spec.js').OptionSpec[]} */
export const SERVER_RUN_OPTIONS = [
  { flags: '--work-dir <dir>', description: 'where datadirs live, each run in its own folder inside (default: the host class\'s workDir, else .tagbench/work)' },
  { flags: '--cache-dir <dir>', description: 'install cache (default: $TAGBENCH_CACHE, else .tagbench/installs)' },
  { flags: '--port-base <port>', description: 'first TCP port; release i listens on port-base + i (default: free ports chosen by the kernel)', parse: wholeNumberAtLeast(1) },
];

/** The project's own folder (this file is scripts/run-options.js). */
const PROJECT_ROOT = new URL('..', import.meta.url).pathname;

/**
 * The install cache every command uses (install, run, confirm, calibrate), so that what
 * `install` put there is what `run` finds, from whichever folder they are started.
 * @param {string|undefined} option --cache-dir
 * @returns {string} --cache-dir, else $TAGBENCH_CACHE, else <project>/.tagbench/installs
 */
export function cacheDirFrom(option) {
  return option ?? process.env.TAGBENCH_CACHE ?? `${PROJECT_ROOT}.tagbench/installs`;
}

/**
 * Where a command's datadirs go: --work-dir, else the host class's `workDir`, else .tagbench/work.
 * @param {string|undefined} option --work-dir
 * @param {{workDir?: string}|undefined} host the host class
 * @returns {string}
 */
export function workDirFrom(option, host) {
  return option ?? host?.workDir ?? '.tagbench/work';
}

/**
 * Which python3 runs apache-otava, for compare (which runs it) and doctor (which checks it):
 * $TAGBENCH_PYTHON, else the virtualenv setup/compare.sh makes ($TAGBENCH_OTAVA_VENV, default
 * /opt/tagbench-otava), else python3 from PATH.
 * @param {NodeJS.ProcessEnv} env
 * @returns {string} a path, or `python3` (looked up on PATH)
 */
export function otavaPythonFrom(env) {
  if (env.TAGBENCH_PYTHON) return env.TAGBENCH_PYTHON;
  const venv = `${env.TAGBENCH_OTAVA_VENV ?? '/opt/tagbench-otava'}/bin/python3`;
  return existsSync(venv) ? venv : 'python3';
}
