/**
 * The artifact STAND-IN (test/support/artifact-stand-in.js) that act tests run in place of
 * actions/upload-artifact and download-artifact v4+, which cannot run offline. These tests
 * hold it to the real actions' rules, so a workflow that passes under act with it would not
 * fail on GitHub for an artifact name: unique names per run (409 Conflict), overwrite only when
 * asked, download by name or pattern with merge-multiple, hidden files left out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ArtifactError, downloadArtifact, uploadArtifact } from '../support/artifact-stand-in.js';

/** @param {import('node:test').TestContext} t */
async function workspace(t) {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-artifacts-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const ws = join(dir, 'ws');
  await mkdir(join(ws, 'results', 'runs'), { recursive: true });
  await writeFile(join(ws, 'results', 'runs', 'r1.json'), '{"id":"r1"}');
  await writeFile(join(ws, 'results', '.lock'), 'hidden');
  return { store: join(dir, 'store'), runId: '7', workspace: ws };
}

test('stand-in: a second upload of a name in the same run fails with 409 Conflict; another run may use it', async (t) => {
  const ctx = await workspace(t);
  await uploadArtifact({ ...ctx, name: 'results-run', path: 'results' });
  await assert.rejects(uploadArtifact({ ...ctx, name: 'results-run', path: 'results' }), (err) => err instanceof ArtifactError && /\(409\) Conflict: an artifact with this name already exists on the workflow run/.test(err.message));
  await uploadArtifact({ ...ctx, runId: '8', name: 'results-run', path: 'results' });
});

test('stand-in: two legs racing for one name: exactly one wins', async (t) => {
  const ctx = await workspace(t);
  const results = await Promise.allSettled([1, 2, 3].map(() => uploadArtifact({ ...ctx, name: 'results-run', path: 'results' })));
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
});

test('stand-in: overwrite: true replaces the artifact', async (t) => {
  const ctx = await workspace(t);
  await uploadArtifact({ ...ctx, name: 'a', path: 'results' });
  await writeFile(join(ctx.workspace, 'results', 'runs', 'r1.json'), '{"id":"r1","second":true}');
  await uploadArtifact({ ...ctx, name: 'a', path: 'results', overwrite: true });
  await downloadArtifact({ ...ctx, name: 'a', path: 'out' });
  assert.match(await readFile(join(ctx.workspace, 'out', 'runs', 'r1.json'), 'utf8'), /second/);
});

test('stand-in: invalid names and if-no-files-found: error are refused; hidden files are left out', async (t) => {
  const ctx = await workspace(t);
  await assert.rejects(uploadArtifact({ ...ctx, name: 'a/b', path: 'results' }), /artifact name is not valid/);
  await assert.rejects(uploadArtifact({ ...ctx, name: 'x', path: 'missing', ifNoFilesFound: 'error' }), /No files were found/);
  assert.equal((await uploadArtifact({ ...ctx, name: 'y', path: 'missing', ifNoFilesFound: 'ignore' })).uploaded, false);
  const { files } = await uploadArtifact({ ...ctx, name: 'z', path: 'results' });
  assert.deepEqual(files, [join('runs', 'r1.json')]);
});

test('stand-in: download by name takes that artifact only; a missing name fails', async (t) => {
  const ctx = await workspace(t);
  await uploadArtifact({ ...ctx, name: 'results-leg1', path: 'results' });
  await writeFile(join(ctx.workspace, 'results', 'runs', 'r2.json'), '{}');
  await uploadArtifact({ ...ctx, name: 'results-leg2', path: 'results' });
  await downloadArtifact({ ...ctx, name: 'results-leg1', path: 'one' });
  assert.deepEqual(await readdir(join(ctx.workspace, 'one', 'runs')), ['r1.json']);
  await assert.rejects(downloadArtifact({ ...ctx, name: 'results-leg3', path: 'x' }), /Artifact not found for name: results-leg3/);
});

test('stand-in: a pattern takes every matching artifact, each in its folder or merged', async (t) => {
  const ctx = await workspace(t);
  await uploadArtifact({ ...ctx, name: 'results-leg1', path: 'results' });
  await writeFile(join(ctx.workspace, 'results', 'runs', 'r2.json'), '{}');
  await uploadArtifact({ ...ctx, name: 'results-leg2', path: 'results' });
  await uploadArtifact({ ...ctx, name: 'issues-leg1', path: 'results' });
  assert.deepEqual(await downloadArtifact({ ...ctx, pattern: 'results-*', path: 'split' }), ['results-leg1', 'results-leg2']);
  assert.deepEqual((await readdir(join(ctx.workspace, 'split'))).sort(), ['results-leg1', 'results-leg2']);
  // merge-multiple: the other leg's files land beside this leg's (what made the old workflow wrong).
  await downloadArtifact({ ...ctx, pattern: 'results-*', mergeMultiple: true, path: 'merged' });
  assert.deepEqual((await readdir(join(ctx.workspace, 'merged', 'runs'))).sort(), ['r1.json', 'r2.json']);
});
