/**
 * pages.yml under act: the build job lists the regression issues (empty without a token) and
 * builds the site from a results store with our own steps; the Pages actions (configure,
 * upload, deploy) and the results-branch checkout need GitHub and are skipped under act.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKFLOW = '.github/workflows/pages.yml';
const FIXTURE_STORE = fileURLToPath(new URL('../fixtures/github/store/', import.meta.url));

test('act runs pages.yml: issues list and site built from the store, GitHub-only steps skipped', { timeout: 10 * 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-pages-'));
  let passed = false;
  t.after(() => (passed ? rm(dir, { recursive: true, force: true }) : undefined));
  const stub = join(dir, 'stub-action');
  await mkdir(stub, { recursive: true });
  await writeFile(join(stub, 'action.yml'), 'name: stub\ndescription: fails if it runs\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: echo "REMOTE-ACTION-RAN-UNDER-ACT" >&2; exit 1\n');
  const text = await readFile(join(ROOT, WORKFLOW), 'utf8');
  const remote = [...new Set([...text.matchAll(/uses:\s*([\w.-]+\/[\w.-]+)@([0-9a-f]{40})/g)].map((m) => `${m[1]}@${m[2]}`))];
  const event = join(dir, 'event.json');
  await writeFile(event, '{}');
  const out = join(dir, 'out');
  const args = [
    'workflow_dispatch', '-W', WORKFLOW, '-e', event,
    '--var', `TAGBENCH_OUT_DIR=${out}`, '--env', `TAGBENCH_STORE_DIR=${FIXTURE_STORE}`,
    '--action-cache-path', join(dir, 'act-cache'),
    '--cache-server-addr', '127.0.0.1', '--artifact-server-addr', '127.0.0.1', '--artifact-server-path', join(dir, 'artifacts'),
    // checkout too: act copies the work tree for a plain checkout, but still fetches the action
    // for a checkout of another ref (the results branch), which is skipped under act.
    ...remote.flatMap((a) => ['--local-repository', `${a}=${stub}`]),
  ];
  const logFile = join(dir, 'act.log');
  const log = createWriteStream(logFile);
  const child = spawn('act', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '' } });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const code = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  const output = await readFile(logFile, 'utf8');
  assert.equal(code, 0, `act failed (log: ${logFile}):\n${output.split('\n').slice(-40).join('\n')}`);
  assert.doesNotMatch(output, /REMOTE-ACTION-RAN-UNDER-ACT/);
  assert.deepEqual(JSON.parse(await readFile(join(out, 'issues.json'), 'utf8')), []);
  assert.ok((await stat(join(out, 'site', 'index.html'))).isFile(), 'the site has an index.html');
  assert.match(output, /site: .*3 run records, 2 comparisons/);
  passed = true;
});
