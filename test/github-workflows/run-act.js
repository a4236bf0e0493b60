/**
 * Run one of our workflows with act on this host (no Docker: host mode, flags in .actrc) and
 * keep its log. Every remote action the workflow (and the workflows it calls) names is replaced
 * by a local stub that fails if it ever runs: steps that need remote actions must be skipped
 * under act (env.ACT). Two exceptions: a plain actions/checkout is special-cased by act (it
 * copies the work tree) and never reaches the stub; actions/upload-artifact and
 * actions/download-artifact are replaced by a STAND-IN (test/support/artifact-stand-in.js) that
 * keeps their rules (unique names per run, no overwrite), since they cannot run offline. A test
 * may also give the real tree of a remote action (`actions`).
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, readFile, readlink, writeFile } from 'node:fs/promises';
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
const ARTIFACT_STAND_IN = fileURLToPath(new URL('../support/artifact-stand-in.js', import.meta.url));

/**
 * A local action in place of actions/upload-artifact or download-artifact, running the stand-in.
 * @param {string} dir
 * @param {'upload'|'download'} mode
 * @param {string} store where the stand-in keeps this act run's artifacts
 */
async function writeArtifactStandIn(dir, mode, store) {
  await mkdir(dir, { recursive: true });
  const inputs = mode === 'upload'
    ? { name: 'artifact', path: '', 'if-no-files-found': 'warn', overwrite: 'false', 'include-hidden-files': 'false', 'retention-days': '', 'compression-level': '6' }
    : { name: '', pattern: '', path: '', 'merge-multiple': 'false', 'artifact-ids': '', 'github-token': '', repository: '', 'run-id': '' };
  await writeFile(join(dir, 'action.yml'), [
    `name: ${mode}-artifact stand-in`,
    `description: STAND-IN for actions/${mode}-artifact under act (test/support/artifact-stand-in.js)`,
    'inputs:',
    ...Object.entries(inputs).map(([k, v]) => `  ${k}: { required: false, default: ${JSON.stringify(v)} }`),
    'runs:',
    '  using: node20',
    '  main: index.mjs',
    '',
  ].join('\n'));
  await writeFile(join(dir, 'index.mjs'), [
    `process.env.TAGBENCH_ARTIFACT_STAND_IN_MODE = ${JSON.stringify(mode)};`,
    `process.env.TAGBENCH_ARTIFACT_STAND_IN_DIR = ${JSON.stringify(store)};`,
    `const { runArtifactStandInAction } = await import(${JSON.stringify(ARTIFACT_STAND_IN)});`,
    'await runArtifactStandInAction();',
    '',
  ].join('\n'));
}

/**
 * @param {string} workflow path relative to the repository root
 * @returns {Promise<string[]>} the workflow's text and that of every local workflow it calls
 */
async function readWithCalledWorkflows(workflow) {
  const seen = new Set();
  const texts = [];
  const queue = [workflow];
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(join(ROOT, file), 'utf8');
    texts.push(text);
    for (const m of text.matchAll(/uses:\s*\.\/(\.github\/workflows\/[\w.-]+\.ya?ml)/g)) queue.push(m[1]);
  }
  return texts;
}

/**
 * @param {object} options
 * @param {string} options.workflow path relative to the repository root
 * @param {string} options.dir scratch directory of the test (act caches, stub, log)
 * @param {Record<string, unknown>} options.event event payload (dispatch inputs go in `inputs`)
 * @param {string} [options.eventName] the event that starts the workflow (default workflow_dispatch)
 * @param {Record<string, string>} [options.vars] repository variables (vars context)
 * @param {Record<string, string>} [options.env] environment of every step
 * @param {Record<string, string>} [options.secrets] secrets (GITHUB_TOKEN becomes github.token);
 *   passed to act through its environment, never on its command line
 * @param {string} [options.job] run only this job (and what it needs)
 * @param {Record<string, string>} [options.actions] `owner/name@sha` -> folder holding that
 *   action's real release tree, run instead of the failing stub
 * @returns {Promise<{code: number|null, log: string, logFile: string, artifacts: string}>}
 *   artifacts: the stand-in's folder for this run's artifacts (`<artifacts>/<run id>/<name>/`)
 */
export async function runAct({ workflow, dir, event, eventName = 'workflow_dispatch', vars = {}, env = {}, secrets = {}, job, actions = {} }) {
  // Host mode runs the workflows' `npm ci --omit=dev` in this work tree: npm empties a
  // node_modules that is a link (a git worktree sharing another checkout's) at its target first.
  const modules = join(ROOT, 'node_modules');
  if ((await lstat(modules).catch(() => null))?.isSymbolicLink()) {
    throw new Error(`${modules} is a symbolic link (to ${await readlink(modules)}): act's host mode runs the workflows' npm ci here, which would empty that folder. Give this work tree a node_modules of its own (npm ci) before running act tests`);
  }
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
  const texts = await readWithCalledWorkflows(workflow);
  const remote = [...new Set(texts.flatMap((text) => [...text.matchAll(/uses:\s*([\w.-]+\/[\w.-]+)(?:\/[\w./-]+)?@([0-9a-f]{40})/g)].map((m) => `${m[1]}@${m[2]}`)))];
  const artifacts = join(dir, 'artifact-stand-in');
  await writeArtifactStandIn(join(dir, 'upload-artifact-stand-in'), 'upload', artifacts);
  await writeArtifactStandIn(join(dir, 'download-artifact-stand-in'), 'download', artifacts);
  /** @param {string} action owner/name@sha */
  const replacement = (action) => {
    if (actions[action]) return actions[action];
    if (action.startsWith('actions/upload-artifact@')) return join(dir, 'upload-artifact-stand-in');
    if (action.startsWith('actions/download-artifact@')) return join(dir, 'download-artifact-stand-in');
    return stub;
  };
  const secretFile = join(dir, 'secrets.env');
  for (const [k, v] of Object.entries(secrets)) if (/[\r\n"\\]/.test(v)) throw new Error(`secret ${k}: a value for act's secrets file holds no newline, quote or backslash`);
  await writeFile(secretFile, Object.entries(secrets).map(([k, v]) => `${k}="${v}"\n`).join(''), { mode: 0o600 });
  const argsWith = async () => [
    eventName, '-W', workflow, '-e', eventFile, ...(job ? ['-j', job] : []),
    ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}=${v}`]),
    ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
    // A secrets file, never act's environment or argv: act in host mode hands its own environment
    // to every step, so a secret there would sit in every job's processes (on GitHub a job's
    // environment holds only what the workflow puts in it; the pull-request act test checks that).
    ...(Object.keys(secrets).length > 0 ? ['--secret-file', secretFile] : []),
    '--action-cache-path', join(dir, 'act-cache'),
    '--cache-server-addr', '127.0.0.1', '--artifact-server-addr', '127.0.0.1', '--artifact-server-path', join(dir, 'artifacts'),
    // act's fixed default port (34567) collides when two act runs share a machine.
    '--artifact-server-port', String(await findFreePort()), '--cache-server-port', '0',
    ...remote.flatMap((a) => ['--local-repository', `${a}=${replacement(a)}`]),
  ];
  const logFile = join(dir, 'act.log');
  // A port found free can be taken by a neighbour (four test files run side by side) before act
  // binds it: act then stops at once ("bind: address already in use"), before any job ran, so
  // starting it again on other ports changes nothing of what the test sees. Other failures are not retried.
  for (let attempt = 1; ; attempt += 1) {
    const code = await spawnAct(await argsWith(), logFile);
    const log = await readFile(logFile, 'utf8');
    if (code !== 0 && attempt < 3 && /level=fatal msg="listen tcp [^"]*bind: address already in use"/.test(log) && !/⭐ Run (?!Set up job)/.test(log)) continue;
    return { code, log, logFile, artifacts };
  }
}

/**
 * One act process, its output (both streams) into logFile.
 * @param {string[]} args
 * @param {string} logFile
 * @returns {Promise<number|null>} act's exit code
 */
async function spawnAct(args, logFile) {
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
  return code;
}

/**
 * @param {{code: number|null, log: string, logFile: string}} result
 * @returns {string} why act failed: the log's last lines
 */
export function describeFailure(result) {
  return `act exited ${result.code} (log: ${result.logFile}):\n${result.log.split('\n').slice(-50).join('\n')}`;
}

/**
 * watch.yml as a small test installation runs it under act: host class local on this machine,
 * mariadb read from a local mirror, point-query only with 2 repeats on 2 instances per release,
 * one leg at a time (on one machine legs would share ports and CPU 1), the results pushed to a
 * local bare repository, and pages.yml reading the fixture store instead of bench-data.
 * @param {{dir: string, resultsRepo: string, mirror: string, provider: 'deb'|'source', portBase: number, pagesStore: string, cache?: string}} o
 *   cache: the install cache (default $TAGBENCH_CACHE, else the project's)
 * @returns {{workflow: string, dir: string, event: Record<string, unknown>, vars: Record<string, string>, env: Record<string, string>}}
 *   runAct's options
 */
export function watchInstallation({ dir, resultsRepo, mirror, provider, portBase, pagesStore, cache }) {
  return {
    workflow: '.github/workflows/watch.yml',
    dir,
    event: { inputs: { max: '2', dry_run: false } },
    vars: {
      TAGBENCH_HOST_LABELS: JSON.stringify({ local: ['tagbench-act'] }),
      TAGBENCH_RESULTS_REPO: resultsRepo,
      TAGBENCH_WATCH_HOST_CLASSES: 'local',
      TAGBENCH_WATCH_PRODUCTS: 'mariadb',
      TAGBENCH_WATCH_REMOTE_OVERRIDES: `mariadb=${mirror}`,
      TAGBENCH_WATCH_PROVIDER: provider,
      TAGBENCH_WATCH_ONLY: 'point-query',
      TAGBENCH_WATCH_REPEATS: '2',
      TAGBENCH_WATCH_INSTANCES: '2',
      TAGBENCH_WATCH_MAX_PARALLEL: '1',
      TAGBENCH_OUT_DIR: join(dir, 'pages-out'),
    },
    env: {
      TAGBENCH_CACHE: cache ?? process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs'),
      TAGBENCH_PORT_BASE: String(portBase),
      TAGBENCH_WORK_DIR: join(dir, 'w'),
      // pages.yml under act reads a store from here instead of checking out bench-data.
      TAGBENCH_STORE_DIR: pagesStore,
    },
  };
}
