import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = new URL('../../scripts/cli.js', import.meta.url).pathname;
const ROOT = new URL('../..', import.meta.url).pathname;

test('the CLI entry hands plan the environment the workflow sets: the step outputs file and TAGBENCH_HOST_LABELS', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-plan-entry-'));
  const output = join(dir, 'github_output');
  await writeFile(output, '');
  const env = { PATH: process.env.PATH ?? '', GITHUB_OUTPUT: output, TAGBENCH_HOST_LABELS: '{"local": ["tagbench-laptop"]}' };
  await promisify(execFile)(process.execPath, [CLI, 'plan', '--product', 'mariadb', '--version', '10.11.19', '--host-class', 'local', '--suite', 'smoke', '--self-hosted'], { env, cwd: ROOT });
  const outputs = await readFile(output, 'utf8');
  assert.match(outputs, /^runs-on=\["self-hosted","tagbench-laptop"\]$/m);
  assert.match(outputs, /^host-class=local$/m);
});

test('open-pr names the variable it looked for the token in', async () => {
  const run = promisify(execFile)(process.execPath, [CLI, 'open-pr', '--path', 'baselines', '--branch', 'b', '--base', 'main', '--title', 't', '--token-env', 'NO_SUCH_TOKEN'],
    { env: { PATH: process.env.PATH ?? '', GITHUB_REPOSITORY: 'acme/bench', NO_SUCH_TOKEN: '' }, cwd: ROOT });
  await assert.rejects(run, (/** @type {any} */ err) => err.code === 1 && /open-pr needs a token in \$NO_SUCH_TOKEN and a repository/.test(err.stderr));
});
