/**
 * Dispatch inputs are data, never code: a benchmark.yml dispatch whose inputs carry shell
 * syntax is refused by `tagbench plan` with every problem named, and nothing of it executes
 * (act really runs injected text when a workflow interpolates `${{ inputs.x }}` into a script).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAct } from './run-act.js';

test('hostile dispatch inputs are rejected by the plan job and never executed', { timeout: 10 * 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const inputs = {
    product: 'mariadb',
    version: '10.11.19"; echo INJECTED-VERSION; "',
    host_class: 'local$(echo INJECTED-HOST)',
    suite: 'smoke',
    only: 'point-query`echo INJECTED-ONLY`',
    repeats: '2',
    dry_run: true,
  };
  const result = await runAct({ workflow: '.github/workflows/benchmark.yml', dir, event: { inputs }, job: 'plan' });
  assert.notEqual(result.code, 0, 'the plan job must fail');
  assert.match(result.log, /invalid benchmark request \(3 problems\)/);
  assert.match(result.log, /input version is '10\.11\.19"; echo INJECTED-VERSION; "'/);
  assert.match(result.log, /input host_class is 'local\$\(echo INJECTED-HOST\)'/);
  // Had any input been executed, its echo would print the marker on a line of its own.
  assert.doesNotMatch(result.log, /\|\s+INJECTED-(VERSION|HOST|ONLY)\s*$/m);
});
