/**
 * open-pr's Octokit calls against GitHub's own OpenAPI description (Prism, see
 * test/github/prism-harness.js): the baseline change goes through the Git Data API, and every
 * request it sends must be one GitHub documents, with a valid body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { openPrCommand } from '../../scripts/workflow/commands.js';
import { githubSettings } from '../support/github-settings.js';
import { usePrismForFile } from '../github/prism-harness.js';

const ctx = usePrismForFile();

test('open-pr sends the baseline change through the Git Data API, with valid requests', { timeout: 60_000 }, async () => {
  ctx.prism.clear();
  const repoDir = join(ctx.dir, 'repo');
  await mkdir(join(repoDir, 'baselines', 'local'), { recursive: true });
  const sh = (/** @type {string[]} */ ...args) => execFileSync('git', args, { cwd: repoDir, encoding: 'utf8' }).trim();
  sh('init', '-q', '-b', 'main');
  await writeFile(join(repoDir, 'baselines', 'local', 'old.yml'), 'version: 10.11.17\n');
  await writeFile(join(repoDir, 'README'), 'x\n');
  sh('add', '.');
  sh('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'init');
  await writeFile(join(repoDir, 'baselines', 'local', 'new.yml'), 'version: 10.11.18\n');
  await writeFile(join(repoDir, 'README'), 'changed outside the path\n');
  await rm(join(repoDir, 'baselines', 'local', 'old.yml'));
  const settings = githubSettings({ token: 'ghs_prism', repository: 'acme/bench', apiUrl: ctx.prism.url });
  const code = await openPrCommand({ path: 'baselines', branch: 'baseline/local/mariadb-10.11/smoke/10.11.18', base: 'main', title: 'Promote mariadb 10.11.18', body: 'why', cwd: repoDir }, settings);
  assert.equal(code, 0);
  for (const r of ctx.prism.requests) assert.deepEqual(r.requestViolations, [], `${r.method} ${r.path}`);
  const sent = ctx.prism.requests.map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{40}/, '<sha>')}`);
  assert.deepEqual(sent.slice(0, 5), [
    'GET /repos/acme/bench/git/commits/<sha>',
    'POST /repos/acme/bench/git/blobs',
    'POST /repos/acme/bench/git/trees',
    'POST /repos/acme/bench/git/commits',
    'POST /repos/acme/bench/git/refs',
  ]);
  const blob = ctx.prism.requests[1].body;
  assert.equal(Buffer.from(blob.content, 'base64').toString(), 'version: 10.11.18\n');
  const tree = ctx.prism.requests[2].body.tree;
  assert.deepEqual(tree.map((/** @type {any} */ t) => [t.path, t.sha === null]).sort(), [['baselines/local/new.yml', false], ['baselines/local/old.yml', true]], 'only the path, with the deletion');
  assert.deepEqual(ctx.prism.requests[4].body.ref, 'refs/heads/baseline/local/mariadb-10.11/smoke/10.11.18');
});
