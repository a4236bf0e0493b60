/**
 * The suite's timing tools (test/support/timing-reporter.js, slowest-tests.js): a real node:test
 * run of two files through the reporter, ranked as setup/test.sh prints it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rankTimes } from './support/slowest-tests.js';

const REPORTER = fileURLToPath(new URL('./support/timing-reporter.js', import.meta.url));
const run = promisify(execFile);

/** The environment without node:test's own marker: with it, a nested `node --test` reports to this run instead of its reporter. */
function outsideThisRun() {
  const { NODE_TEST_CONTEXT: _inner, ...env } = process.env;
  return env;
}

test('file spans include module-level setup; tests rank by their own duration', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tb-times-'));
  try {
    const sleep = (/** @type {number} */ ms) => `await new Promise((r) => setTimeout(r, ${ms}));`;
    // slow-setup: 600 ms before its only (fast) test; slow-test: one 300 ms test and a fast one.
    await writeFile(join(dir, 'slow-setup.test.js'), `import { test, before } from 'node:test';\nbefore(async () => { ${sleep(600)} });\ntest('fast after setup', () => {});\ntest('second', async () => { ${sleep(50)} });\n`);
    await writeFile(join(dir, 'slow-test.test.js'), `import { test } from 'node:test';\ntest('slow', async () => { ${sleep(300)} });\ntest('quick', () => {});\n`);
    const out = join(dir, 'times.jsonl');
    await run(process.execPath, ['--test', `--test-reporter=${REPORTER}`, `--test-reporter-destination=${out}`,
      join(dir, 'slow-setup.test.js'), join(dir, 'slow-test.test.js')], { cwd: dir, env: outsideThisRun() });
    const { files, tests } = rankTimes(await readFile(out, 'utf8'), 10);
    assert.deepEqual(files.map((f) => f.file.split('/').at(-1)), ['slow-setup.test.js', 'slow-test.test.js']);
    assert.ok(files[0].spanMs >= 600, `setup of 600 ms inside the file's span, got ${files[0].spanMs}`);
    assert.equal(files[0].tests, 2);
    assert.equal(files[1].tests, 2);
    // Node 20 counts a file's before hook into its first test: only the order is asserted.
    assert.equal(tests.length, 4);
    assert.ok((tests.find((t) => t.name === 'slow')?.durationMs ?? 0) >= 300);
    assert.deepEqual(tests.map((t) => t.durationMs), tests.map((t) => t.durationMs).sort((a, b) => b - a));
    assert.notEqual(tests.at(-1)?.name, 'slow');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a line that is not JSON is named', () => {
  assert.throws(() => rankTimes('{"kind":"file","file":"a","spanMs":1}\nnot json\n', 10), /line 2 is not JSON/);
});
