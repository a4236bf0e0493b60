// `tagbench plan` resolves the base release the way `tagbench compare` does: an explicit
// baseline input, else the accepted baseline file, else the line's baseVersion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planCommand } from '../../scripts/workflow/commands.js';
import { githubSettings } from '../support/github-settings.js';

const root = new URL('../..', import.meta.url).pathname;

/** @param {Record<string, string>} extra */
async function plan(extra) {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-plan-'));
  const out = join(dir, 'github_output');
  await writeFile(out, '');
  const write = process.stdout.write;
  process.stdout.write = () => true; // the plan is read back from GITHUB_OUTPUT
  try {
    await planCommand({ root, product: 'mariadb', version: '10.11.19', hostClass: 'local', suite: 'smoke', ...extra }, githubSettings({ output: out }));
  } finally {
    process.stdout.write = write;
  }
  return Object.fromEntries((await readFile(out, 'utf8')).trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

test('without a baseline file the line\'s baseVersion is the base', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'tagbench-baselines-'));
  const o = await plan({ baselines: empty });
  assert.equal(o.base, '10.11.18');
  assert.equal(o.releases, 'mariadb@10.11.18:deb,mariadb@10.11.19:deb');
});

test('an accepted baseline wins over baseVersion; an explicit input wins over both', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-baselines-'));
  await mkdir(join(dir, 'local/mariadb/10.11'), { recursive: true });
  await writeFile(join(dir, 'local/mariadb/10.11/smoke.yml'), [
    'schemaVersion: 1', 'hostClass: local', 'product: mariadb', 'line: "10.11"', 'suite: smoke',
    'version: "10.11.17"', 'runIds: [r-1]', 'promotedAt: "2026-11-01T00:00:00Z"', '',
  ].join('\n'));
  const accepted = await plan({ baselines: dir });
  assert.equal(accepted.base, '10.11.17');
  assert.equal(accepted.releases, 'mariadb@10.11.17:deb,mariadb@10.11.19:deb');
  const explicit = await plan({ baselines: dir, baseline: '10.11.18' });
  assert.equal(explicit.base, '10.11.18');
});

test('a moved tag\'s leg: the source build of the commit watch saw, and the old commit for the record', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'tagbench-baselines-'));
  const now = 'b'.repeat(40);
  const before = 'a'.repeat(40);
  const o = await plan({ baselines: empty, provider: 'source', commit: now, movedFrom: before });
  assert.equal(o.releases, `mariadb@10.11.18:source,mariadb@10.11.19:source@${now}`, 'only the candidate is pinned to the commit');
  assert.equal(o.commit, now);
  assert.equal(o['moved-from'], before);

  // A Debian package is not built from a commit tagbench chooses: neither is passed on.
  const deb = await plan({ baselines: empty, commit: now, movedFrom: before });
  assert.equal(deb.releases, 'mariadb@10.11.18:deb,mariadb@10.11.19:deb');
  assert.equal(deb.commit, '');
  assert.equal(deb['moved-from'], '');

  await assert.rejects(plan({ baselines: empty, provider: 'source', commit: 'abc1234', movedFrom: now }),
    /input commit is 'abc1234'; expected a full commit id[\s\S]*/);
  await assert.rejects(plan({ baselines: empty, provider: 'source', movedFrom: before }), /input moved_from is 'a{40}' but commit is empty/);
  await assert.rejects(plan({ baselines: empty, provider: 'source', commit: now, movedFrom: now }), /moved_from and commit are both/);
});

test('a resume input passes on as the plan\'s resume (watch\'s run ids, validated); none gives an empty one', async () => {
  const empty = await mkdtemp(join(tmpdir(), 'tagbench-baselines-'));
  assert.equal((await plan({ baselines: empty })).resume, '');
  const ids = '20261126T180000Z-local-mariadb-10.11.19-smoke-a1b2c3, 20261126T180000Z-local-mariadb-10.11.18-smoke-a1b2c3';
  assert.equal((await plan({ baselines: empty, resume: ids })).resume, ids.replace(' ', ''));
  // Run ids become git paths and file names in the bench job.
  await assert.rejects(plan({ baselines: empty, resume: 'ok-1,../../etc/passwd' }), /input resume names run '\.\.\/\.\.\/etc\/passwd'; run ids are letters, digits/);
});
