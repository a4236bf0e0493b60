/**
 * Run one of our workflows with act on this host (no Docker: host mode, flags in /.actrc) and
 * keep its log. Every remote action the workflow names is replaced by a local stub that fails
 * if it ever runs: steps that need remote actions must be skipped under act (env.ACT). A plain
 * actions/checkout is special-cased by act (it copies the work tree) and never reaches the stub.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';

/** @returns {Promise<number>} a TCP port nothing listens on right now */
function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const STUB_MARK = 'REMOTE-ACTION-RAN-UNDER-ACT';

/**
 * @param {object} options
 * @param {string} options.workflow path relative to the repository root
 * @param {string} options.dir scratch directory of the test (act caches, stub, log)
 * @param {Record<string, unknown>} options.event event payload (dispatch inputs go in `inputs`)
 * @param {Record<string, string>} [options.vars] repository variables (vars context)
 * @param {Record<string, string>} [options.env] environment of every step
 * @param {string} [options.job] run only this job (and what it needs)
 * @returns {Promise<{code: number|null, log: string, logFile: string}>}
 */
export async function runAct({ workflow, dir, event, vars = {}, env = {}, job }) {
  const stub = join(dir, 'stub-action');
  await mkdir(stub, { recursive: true });
  await writeFile(join(stub, 'action.yml'), [
    'name: stub',
    'description: stands in for a remote action under act; fails if it ever runs',
    'runs:',
    '  using: composite',
    '  steps:',
    '    - shell: bash',
    `      run: echo "${STUB_MARK}" >&2; exit 1`,
    '',
  ].join('\n'));
  const eventFile = join(dir, 'event.json');
  // With -e, act ignores --input: dispatch inputs go in the event.
  await writeFile(eventFile, JSON.stringify(event));
  const text = await readFile(join(ROOT, workflow), 'utf8');
  const remote = [...new Set([...text.matchAll(/uses:\s*([\w.-]+\/[\w.-]+)(?:\/[\w./-]+)?@([0-9a-f]{40})/g)].map((m) => `${m[1]}@${m[2]}`))];
  const args = [
    'workflow_dispatch', '-W', workflow, '-e', eventFile, ...(job ? ['-j', job] : []),
    ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}=${v}`]),
    ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    '--action-cache-path', join(dir, 'act-cache'),
    '--cache-server-addr', '127.0.0.1', '--artifact-server-addr', '127.0.0.1', '--artifact-server-path', join(dir, 'artifacts'),
    // act's fixed default port (34567) collides when two act runs share a machine.
    '--artifact-server-port', String(await findFreePort()), '--cache-server-port', '0',
    ...remote.flatMap((a) => ['--local-repository', `${a}=${stub}`]),
  ];
  const logFile = join(dir, 'act.log');
  const out = createWriteStream(logFile);
  const child = spawn('act', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '' } });
  // Two sources share one file: neither may end it (a pipe ends its destination when its own
  // source ends, and the other's later output then fails with "write after end"); the file is
  // ended once both are closed, which 'close' (not 'exit') waits for.
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  /** @type {number|null} */
  const code = await new Promise((resolve, reject) => {
    child.once('error', (err) => reject(/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT' ? new Error('act is not installed: run setup/github.sh') : err));
    child.once('close', (c) => resolve(c));
  });
  await new Promise((resolve) => out.end(resolve));
  return { code, log: await readFile(logFile, 'utf8'), logFile };
}

/**
 * @param {{code: number|null, log: string, logFile: string}} result
 * @returns {string} why act failed: the log's last lines
 */
export function describeFailure(result) {
  return `act exited ${result.code} (log: ${result.logFile}):\n${result.log.split('\n').slice(-50).join('\n')}`;
}
