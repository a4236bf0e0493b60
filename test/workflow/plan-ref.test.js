// Issue 23: `tagbench plan` (benchmark.yml's first job) takes a git ref, a branch, a full commit
// id or a pull request's head, as a new user gives them, and plans a ref run: what the bench job
// passes to `tagbench run --ref`, a leg name an artifact may carry, the estimate of two source
// builds' runs. What it cannot know without git (the commit, the base) is left to run --ref.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { planCommand } from '../../scripts/workflow/commands.js';
import { githubSettings } from '../support/github-settings.js';
import { resolveBenchmarkRequest } from '../../scripts/workflow/resolve-benchmark-request.js';

const root = new URL('../..', import.meta.url).pathname;
const config = await loadConfig(root);
const request = { product: 'mariadb', version: '', hostClass: 'local', suite: 'smoke' };

test('plan: a pull request\'s head against its base branch, as step outputs', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-plan-ref-'));
  const out = join(dir, 'github_output');
  await writeFile(out, '');
  const write = process.stdout.write;
  process.stdout.write = () => true;
  try {
    await planCommand({ root, ...request, ref: 'pull/123/head', baseRef: '10.11', repo: 'https://github.com/acme/server.git', commit: 'a'.repeat(40) }, githubSettings({ output: out }));
  } finally {
    process.stdout.write = write;
  }
  const o = Object.fromEntries((await readFile(out, 'utf8')).trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  assert.equal(o.kind, 'ref');
  assert.equal(o.ref, 'pull/123/head');
  assert.equal(o.repo, 'https://github.com/acme/server.git');
  assert.equal(o['base-ref'], '10.11');
  assert.equal(o.commit, 'a'.repeat(40));
  assert.equal(o.provider, 'source');
  assert.equal(o.releases, '');
  assert.equal(o['reference-run'], 'false', 'a change under review runs alone');
  assert.match(o.leg, /^local_mariadb_ref-pull-123-head-[0-9a-f]{8}_smoke$/);
  assert.ok(Number(o['estimate-minutes']) > 0);
});

test('plan: a branch, a tag, a full commit id; legs of two refs never clash', () => {
  const legs = new Set();
  for (const ref of ['bb-10.11-fix', 'feature/x', 'feature-x', 'mariadb-10.11.19', 'b'.repeat(40)]) {
    const { plan, errors } = resolveBenchmarkRequest(config, { ...request, ref });
    assert.deepEqual(errors, [], ref);
    assert.equal(plan?.kind, 'ref');
    assert.match(plan?.leg ?? '', /^[A-Za-z0-9._-]+$/, 'an artifact name');
    legs.add(plan?.leg);
  }
  assert.equal(legs.size, 5);
  const named = resolveBenchmarkRequest(config, { ...request, ref: 'feature/x', baseline: '10.11.18' });
  assert.equal(named.plan?.base, '10.11.18');
  assert.equal(named.plan?.line, '10.11');
});

test('plan: what a new user tries first is answered with what to give', () => {
  const asVersion = resolveBenchmarkRequest(config, { ...request, version: '10.11.19-pr123', provider: 'source' });
  assert.match(asVersion.errors.join('\n'), /input version '10\.11\.19-pr123' is no release of mariadb: its tag mariadb-10\.11\.19-pr123 matches no line's tagPattern .*; to benchmark a branch, a commit or a pull request, give it as ref \(tagbench plan --ref <ref>\)/);
  const branch = resolveBenchmarkRequest(config, { ...request, version: '9f8e7d6c5b4a', provider: 'source' });
  assert.match(branch.errors.join('\n'), /belongs to no release line .*; to benchmark a branch, a commit or a pull request, give it as ref/);
  const cases = [
    [{ ref: '1a2b3c4' }, /input ref '1a2b3c4' looks like an abbreviated commit id/],
    [{ ref: 'feature', version: '10.11.19' }, /give one \(version: a release; ref: /],
    [{ ref: 'feature', provider: 'deb' }, /a ref is built from source/],
    [{ ref: 'feature', repo: 'https://user:ghp_secret@github.com/acme/server.git' }, /carries a user name or password; give the plain URL \(https:\/\/github\.com\/acme\/server\.git\)/],
    [{ ref: 'feature', baseRef: 'main', baseline: '10.11.18' }, /name two bases; give one/],
    [{ ref: 'feature', baseline: '9.9.9' }, /version 9\.9\.9 belongs to no release line/],
    [{ ref: 'feature', commit: 'abc' }, /input commit is 'abc'/],
    [{ ref: 'feature', suite: 'nope' }, /input suite is 'nope'/],
    [{ version: '10.11.19', repo: 'https://github.com/acme/server.git' }, /input repo goes with ref/],
  ];
  for (const [extra, message] of /** @type {[Record<string, string>, RegExp][]} */ (cases)) {
    const { plan, errors } = resolveBenchmarkRequest(config, { ...request, ...extra });
    assert.equal(plan, null, JSON.stringify(extra));
    assert.match(errors.join('\n'), message, JSON.stringify(extra));
    assert.ok(!errors.join('\n').includes('ghp_secret'), 'the token is not repeated');
  }
});
