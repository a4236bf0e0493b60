/**
 * CLI options shared by every command that starts servers (run, confirm, calibrate), so their
 * defaults and wording cannot drift apart. Bottom of the import graph: imports nothing.
 */

/** @param {string} v */
export const toInt = (v) => Number.parseInt(v, 10);

/** @type {import('./command-spec.js').OptionSpec[]} */
export const SERVER_RUN_OPTIONS = [
  { flags: '--work-dir <dir>', description: 'where datadirs live, each run in its own folder inside (default: the host class\'s workDir, else .tagbench/work)' },
  { flags: '--cache-dir <dir>', description: 'install cache (default: $TAGBENCH_CACHE, else .tagbench/installs)' },
  { flags: '--port-base <port>', description: 'first TCP port; release i listens on port-base + i (default: free ports chosen by the kernel)', parse: toInt },
];

/**
 * The install cache a command should use.
 * @param {string|undefined} option --cache-dir
 * @returns {string}
 */
export function cacheDirFrom(option) {
  return option ?? process.env.TAGBENCH_CACHE ?? '.tagbench/installs';
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
