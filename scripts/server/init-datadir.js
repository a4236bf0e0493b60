/**
 * Create a fresh datadir for one instance, the flavor's way (config flavors: MariaDB through
 * mariadb-install-db, MySQL through `mysqld --initialize-insecure`). Both get `--no-defaults`
 * first, so /etc/mysql never leaks in.
 */
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { UserError } from '../errors.js';
import { getFlavor } from '../config/index.js';
import { normalizeOptionName } from './mycnf.js';
import { readLogTail } from './error-log.js';

/** @typedef {import('../types.js').InstallResult} InstallResult */
/** @typedef {import('./types.js').MycnfOption} MycnfOption */
/** @typedef {import('./build-server-args.js').InstancePaths} InstancePaths */

/**
 * Options fixed when the datadir is created: starting with a different value later fails, so
 * the template's value (if any) is passed to the initialisation too. Everything else is left
 * out on purpose (a 24G buffer pool or a plugin's variables have no business in bootstrap).
 */
const INIT_TIME_OPTIONS = new Set(['innodb-page-size', 'lower-case-table-names', 'innodb-data-file-path']);

/**
 * @typedef {object} InitInput
 * @property {InstallResult} install
 * @property {InstancePaths} paths
 * @property {string[]} user `--user=root` when running as root, else nothing
 * @property {string[]} initOptions the template's init-time options as arguments
 */

/**
 * The command line of each way a flavor makes its datadir (config flavors, `init`).
 * @type {Record<import('../config/index.js').Flavor['init'], (input: InitInput) => string[]>}
 */
const INIT_COMMANDS = {
  'install-db': ({ install, paths, user, initOptions }) => {
    if (!install.bin.installDb) {
      throw new UserError(`install at ${install.prefix} has no ${getFlavor(install.flavor).installDbNames[0]} (InstallResult.bin.installDb is null); reinstall the release with its server-core package`);
    }
    return [
      install.bin.installDb, '--no-defaults', `--basedir=${paths.basedir}`, `--datadir=${paths.datadir}`,
      ...user, '--auth-root-authentication-method=normal', '--skip-test-db', `--tmpdir=${paths.tmpdir}`,
      ...initOptions,
    ];
  },
  'initialize-insecure': ({ install, paths, user, initOptions }) => [
    install.bin.server, '--no-defaults', ...user, '--initialize-insecure', `--basedir=${paths.basedir}`,
    `--datadir=${paths.datadir}`, `--lc-messages-dir=${install.shareDir}`,
    `--character-sets-dir=${install.shareDir}/charsets`, `--tmpdir=${paths.tmpdir}`,
    `--secure-file-priv=${paths.secureFileDir}`, ...initOptions,
  ],
};

/**
 * Run the flavor's initialisation into a fresh datadir.
 * @param {object} input
 * @param {InstallResult} input.install
 * @param {InstancePaths} input.paths
 * @param {MycnfOption[]} input.options the server's options from the template
 * @param {string} input.initLog file that receives the tool's output
 * @param {boolean} input.asRoot
 * @param {number} [input.timeoutS] default 300
 * @returns {Promise<string[]>} the command line that was run
 * @throws {UserError} when the tool fails, with the last lines of its output
 */
export async function initDatadir({ install, paths, options, initLog, asRoot, timeoutS = 300 }) {
  const initOptions = options
    .filter((o) => INIT_TIME_OPTIONS.has(normalizeOptionName(o.name)))
    .map((o) => (o.value === null ? `--${o.name}` : `--${o.name}=${o.value}`));
  const argv = INIT_COMMANDS[getFlavor(install.flavor).init]({ install, paths, user: asRoot ? ['--user=root'] : [], initOptions });
  const result = await runToFile(argv, install.env, initLog, timeoutS);
  if (result !== 'ok') {
    const tail = await readLogTail(initLog, 25);
    throw new UserError(
      `initialising the datadir ${paths.datadir} failed (${result}) for ${install.product ?? install.flavor} ${install.version ?? ''} ` +
        `at ${install.prefix}.\nCommand: ${argv.join(' ')}\nLast lines of ${initLog}:\n${tail}`,
    );
  }
  return argv;
}

/**
 * @param {string[]} argv
 * @param {Record<string, string>} env extra environment
 * @param {string} logFile
 * @param {number} timeoutS
 * @returns {Promise<string>} 'ok' or what went wrong (exit code, signal, timeout)
 */
async function runToFile(argv, env, logFile, timeoutS) {
  const fh = await open(logFile, 'a');
  try {
    return await new Promise((resolve) => {
      const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', fh.fd, fh.fd], env: { ...process.env, ...env } });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutS * 1000);
      child.once('error', (e) => {
        clearTimeout(timer);
        resolve(`cannot run ${argv[0]}: ${e.message}`);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (timedOut) resolve(`no result after ${timeoutS} s`);
        else if (code === 0) resolve('ok');
        else resolve(signal ? `killed by ${signal}` : `exit code ${code}`);
      });
    });
  } finally {
    await fh.close();
  }
}
