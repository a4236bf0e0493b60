/**
 * The workflows pass actionlint and zizmor --offline with zero findings, and keep the project's
 * own hardening rules, which neither tool checks completely: remote actions pinned by full
 * commit SHA with the version in a comment, no `${{ }}` expression inside a `run:` script
 * (values reach scripts through env), a permissions block on every job, and no self-hosted job
 * reachable from a pull_request trigger.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const WORKFLOWS = fileURLToPath(new URL('../../.github/workflows/', import.meta.url));

/**
 * @param {string} tool
 * @param {string[]} args
 * @returns {Promise<{code: number, out: string}>}
 */
async function runTool(tool, args) {
  try {
    const { stdout, stderr } = await run(tool, args, { cwd: ROOT, maxBuffer: 16 << 20 });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = /** @type {{code?: number|string, stdout?: string, stderr?: string}} */ (err);
    if (e.code === 'ENOENT') assert.fail(`${tool} is not installed: run setup/github.sh`);
    return { code: Number(e.code), out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

async function loadWorkflows() {
  const files = (await readdir(WORKFLOWS)).filter((f) => /\.ya?ml$/.test(f)).sort();
  return Promise.all(files.map(async (file) => {
    const text = await readFile(`${WORKFLOWS}${file}`, 'utf8');
    return { file, text, doc: parse(text) };
  }));
}

test('actionlint reports nothing', async () => {
  const { code, out } = await runTool('actionlint', ['-no-color']);
  assert.equal(code, 0, out);
  assert.equal(out.trim(), '');
});

test('zizmor --offline reports nothing', async () => {
  const { code, out } = await runTool('zizmor', ['--offline', '.github/']);
  assert.equal(code, 0, out);
  assert.match(out, /No findings to report/);
});

test('zizmor --offline --persona auditor reports nothing: every finding fixed or ignored with its reason beside it', async () => {
  const { code, out } = await runTool('zizmor', ['--offline', '--persona', 'auditor', '.github/']);
  assert.equal(code, 0, out);
  assert.match(out, /No findings to report/);
  for (const { file, text } of await loadWorkflows()) {
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      if (!/zizmor: ignore\[/.test(line)) continue;
      assert.match(lines[i - 1] ?? '', /^\s*# \S.{10,}/, `${file}:${i + 1} ignores a zizmor finding without a comment line above saying why`);
    }
  }
});

/** The request workflow a code repository copies (it runs there, on its pull requests). */
const CODE_REPOSITORY_WORKFLOW = 'setup/code-repository/tagbench-request.yml';

test('the code repository\'s request workflow passes actionlint and zizmor (auditor), runs on GitHub-hosted runners only and runs nothing of the pull request', async () => {
  const lint = await runTool('actionlint', ['-no-color', CODE_REPOSITORY_WORKFLOW]);
  assert.equal(lint.code, 0, lint.out);
  const audit = await runTool('zizmor', ['--offline', '--persona', 'auditor', CODE_REPOSITORY_WORKFLOW]);
  assert.equal(audit.code, 0, audit.out);
  assert.match(audit.out, /No findings to report/);
  const doc = parse(await readFile(join(ROOT, CODE_REPOSITORY_WORKFLOW), 'utf8'));
  assert.deepEqual(doc.permissions, {});
  for (const [jobId, job] of Object.entries(doc.jobs)) {
    const j = /** @type {any} */ (job);
    assert.equal(j['runs-on'], 'ubuntu-latest', `${jobId}: a pull_request_target job must not reach a self-hosted runner`);
    assert.ok(!j.steps.some((/** @type {any} */ st) => st.uses), `${jobId}: no action (no checkout of the pull request's code) in a pull_request_target workflow`);
    // The request reads its pull request; the job that drops the label on a push writes labels only (issue 34).
    assert.deepEqual(j.permissions, { 'pull-requests': jobId === 'disarm' ? 'write' : 'read' });
  }
});

test('pull-request.yml builds a stranger\'s code only in the environment whose reviewers approve each run', async () => {
  const doc = (await loadWorkflows()).find((w) => w.file === 'pull-request.yml')?.doc;
  assert.ok(doc, 'pull-request.yml exists');
  assert.deepEqual(Object.keys(doc.on), ['repository_dispatch']);
  for (const [jobId, job] of Object.entries(doc.jobs)) {
    const j = /** @type {any} */ (job);
    if (/self-hosted|fromJSON/.test(JSON.stringify(j['runs-on']))) assert.equal(j.environment, 'tagbench-pull-requests', `${jobId} runs on a self-hosted runner without the approval environment`);
  }
});

test('the five workflows exist', async () => {
  const names = (await loadWorkflows()).map((w) => w.file);
  for (const want of ['watch.yml', 'benchmark.yml', 'pages.yml', 'ci.yml', 'promote-baseline.yml']) assert.ok(names.includes(want), `missing .github/workflows/${want}`);
});

test('remote actions are pinned by full commit SHA with the version in a comment', async () => {
  for (const { file, text } of await loadWorkflows()) {
    for (const [, ref, comment] of text.matchAll(/uses:\s*([^\s#]+)[ \t]*(#.*)?$/gm)) {
      if (ref.startsWith('./')) continue;
      assert.match(ref, /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/, `${file}: ${ref} is not pinned by a full commit SHA`);
      assert.match(comment ?? '', /^# v\d+\.\d+\.\d+\b/, `${file}: ${ref} needs its version in a comment (# vX.Y.Z)`);
    }
  }
});

test('no expression is interpolated into a run: script', async () => {
  for (const { file, doc } of await loadWorkflows()) {
    for (const [jobId, job] of Object.entries(doc.jobs ?? {})) {
      for (const [i, step] of (/** @type {any} */ (job).steps ?? []).entries()) {
        if (typeof step.run === 'string') assert.doesNotMatch(step.run, /\$\{\{/, `${file} jobs.${jobId}.steps[${i}].run interpolates an expression: pass it through env`);
      }
    }
  }
});

test('every job declares its permissions; the workflow default is none', async () => {
  for (const { file, doc } of await loadWorkflows()) {
    assert.deepEqual(doc.permissions, {}, `${file}: top-level permissions must be {}`);
    for (const [jobId, job] of Object.entries(doc.jobs ?? {})) assert.ok(/** @type {any} */ (job).permissions, `${file}: job ${jobId} has no permissions block`);
  }
});

test('write permissions only where they are used', async () => {
  /** @type {Record<string, string[]>} scope -> workflow:job allowed to write it */
  const allowed = {
    issues: ['benchmark.yml:report', 'watch.yml:benchmark', 'triage.yml:triage'],
    actions: ['triage.yml:triage'],
    contents: ['benchmark.yml:publish', 'benchmark.yml:remember-failure', 'watch.yml:benchmark', 'promote-baseline.yml:promote', 'pull-request.yml:publish'],
    pages: ['pages.yml:deploy', 'watch.yml:pages'],
    'id-token': ['pages.yml:deploy', 'watch.yml:pages'],
    'pull-requests': ['promote-baseline.yml:promote'],
  };
  for (const { file, doc } of await loadWorkflows()) {
    for (const [jobId, job] of Object.entries(doc.jobs ?? {})) {
      for (const [scope, level] of Object.entries(/** @type {any} */ (job).permissions ?? {})) {
        if (level !== 'write') continue;
        assert.ok(allowed[scope]?.includes(`${file}:${jobId}`), `${file}: job ${jobId} may write ${scope}, which only ${allowed[scope]?.join(', ') ?? 'no job'} should`);
      }
    }
  }
});

test('no self-hosted job can be reached from a pull_request', async () => {
  const workflows = await loadWorkflows();
  for (const { file, doc } of workflows) {
    const on = typeof doc.on === 'string' ? { [doc.on]: null } : doc.on;
    const prTriggered = 'pull_request' in on || 'pull_request_target' in on;
    for (const [jobId, job] of Object.entries(doc.jobs ?? {})) {
      const j = /** @type {any} */ (job);
      const runsOn = JSON.stringify(j['runs-on'] ?? '');
      const selfHosted = /self-hosted|fromJSON/.test(runsOn);
      if (selfHosted) {
        assert.ok(!prTriggered, `${file}: job ${jobId} runs on self-hosted runners but the workflow has a pull_request trigger`);
        assert.match(String(j.if ?? ''), /github\.event_name != 'pull_request'/, `${file}: self-hosted job ${jobId} must also refuse pull_request events in its if:`);
      }
      if (typeof j.uses === 'string' && j.uses.startsWith('./') && prTriggered) {
        assert.fail(`${file}: job ${jobId} calls ${j.uses} from a workflow with a pull_request trigger`);
      }
    }
  }
});
