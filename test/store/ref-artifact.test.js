// `tagbench publish --refs-only`: what a pull request's bench job hands back is untrusted data.
// A hostile artifact (every file its author could plant) is refused whole, naming each file and
// the rule it breaks, with the results branch (a real git repository) left exactly as it was; a
// clean ref run is published, and only under refs/. Records: the captured real runs relabelled
// as a ref run (test/support/ref-store.js).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile, readFile, symlink, readdir, rm } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeRecord, writeRawLog, publishToBranch } from '../../scripts/store/index.js';
import { publishCommand } from '../../scripts/store/commands.js';
import { MAX_ARTIFACT_FILE_BYTES, MAX_SAMPLES_UNZIPPED_BYTES } from '../../scripts/store/ref-artifact.js';
import { writeRefRunStore } from '../support/ref-store.js';
import { makeRecord, tempDir, git, bareRepo, cleanupTempDirs } from './store-testkit.js';

after(cleanupTempDirs);

const CANDIDATE = '1a2b3c4d5e6f'.padEnd(40, '0');
const BASE = 'f6e5d4c3b2a1'.padEnd(40, '0');
const EXPECT = { repository: 'https://github.com/acme/server.git', pullRequest: 7, commit: CANDIDATE, hostClass: 'local', product: 'mariadb', suite: 'smoke' };
const quiet = { progress: () => {} };

/** @param {string} store @param {string} relPath @param {string|Buffer} content */
async function plant(store, relPath, content) {
  await mkdir(dirname(join(store, relPath)), { recursive: true });
  await writeFile(join(store, relPath), content);
}

/** A results branch holding one release run: its tip and every ref must not move. */
async function branchWithOneRelease() {
  const seed = await tempDir('seed');
  await writeRecord(seed, makeRecord('release-run'));
  const bare = await bareRepo();
  await publishToBranch(seed, { repo: bare, ...quiet });
  return bare;
}

test('a hostile artifact is refused whole, naming each planted file and its rule; the branch does not move', async () => {
  const store = await tempDir('hostile');
  await writeRefRunStore(store, { candidateCommit: CANDIDATE, baseCommit: BASE });
  // A release record: would forge a release's results and tell watch 99.0.0 is benchmarked.
  await writeRecord(store, makeRecord('planted-release', { version: '99.0.0' }));
  await plant(store, 'changepoints/local/mariadb/10.11/smoke.json', await readFile(new URL('../fixtures/store/change-points-v1.json', import.meta.url)));
  for (const n of [1, 2, 3]) {
    await plant(store, `attempts/local/mariadb/10.11.20/smoke/attempt-${n}.json`, JSON.stringify({
      schemaVersion: 1, at: `2026-11-2${n}T00:00:00Z`, hostClass: 'local', product: 'mariadb', version: '10.11.20', suite: 'smoke',
      outcome: 'failure', reason: 'planted', runUrl: n === 3 ? 'javascript:alert(document.domain)' : 'https://github.com/acme/tagbench/actions/runs/1',
    }));
  }
  await writeRawLog(store, 'planted-release', 'server-error.log', 'x'.repeat(1000));
  const oversize = `refs/runs/local/mariadb/10.11.18+${CANDIDATE.slice(0, 12)}/smoke/huge.json`;
  await plant(store, oversize, Buffer.alloc(MAX_ARTIFACT_FILE_BYTES + 1, 32));
  // A whole ref run of another commit than the one the reviewer approved.
  const OTHER = '9'.repeat(40);
  await writeRefRunStore(store, { candidateCommit: OTHER, baseCommit: '8'.repeat(40) });

  const bare = await branchWithOneRelease();
  const before = git(['for-each-ref', '--format=%(refname) %(objectname)'], bare);
  /** @type {Error|undefined} */
  let error;
  await publishToBranch(store, { repo: bare, refsOnly: EXPECT, ...quiet }).catch((err) => { error = err; });
  assert.ok(error, 'the publish fails');
  const message = error.message;
  assert.match(message, /nothing was published/);
  assert.match(message, /runs\/local\/mariadb\/99\.0\.0\/smoke\/planted-release\.json: outside refs\/runs\/ and refs\/verdicts\//);
  assert.match(message, /changepoints\/local\/mariadb\/10\.11\/smoke\.json: outside/);
  for (const n of [1, 2, 3]) assert.match(message, new RegExp(`attempts/local/mariadb/10\\.11\\.20/smoke/attempt-${n}\\.json: outside`));
  assert.match(message, /logs\/planted-release\/server-error\.log: outside/);
  assert.match(message, new RegExp(`${oversize.replace(/[.+]/g, '\\$&')}: ${MAX_ARTIFACT_FILE_BYTES + 1} bytes, over the`));
  const otherLines = message.split('\n').filter((l) => l.includes(`+${OTHER.slice(0, 12)}/`) || l.includes(`+${'8'.repeat(12)}/`));
  assert.equal(otherLines.length, 4, `the other commit's two records and its base's two: ${otherLines.join(' | ')}`);
  assert.ok(otherLines.every((l) => /\.json: not of the planned pull request run: ref\.commit is "9{40}", the plan says "1a2b3c4d5e6f0{28}"/.test(l)), otherLines.join('\n'));
  assert.doesNotMatch(message, new RegExp(`10\\.11\\.18\\+${CANDIDATE.slice(0, 12)}/smoke/[^h][^:]*: `), 'the approved run\'s own files are not refused');
  assert.equal(git(['for-each-ref', '--format=%(refname) %(objectname)'], bare), before, 'no branch moved, none was created');
  assert.deepEqual(git(['ls-tree', '-r', '--name-only', 'bench-data'], bare).trim().split('\n').filter((p) => !p.startsWith('runs/local/mariadb/10.11.18/')), ['index.json']);
});

test('a clean ref run artifact is published under refs/ only', async () => {
  const store = await tempDir('clean');
  await writeRefRunStore(store, { candidateCommit: CANDIDATE, baseCommit: BASE });
  const bare = await branchWithOneRelease();
  const result = await publishToBranch(store, { repo: bare, refsOnly: EXPECT, ...quiet });
  assert.equal(result.status, 'published');
  assert.equal(result.added.length, 8, 'four records and their samples files');
  assert.ok(result.added.every((p) => p.startsWith('refs/runs/local/mariadb/')), result.added.join(', '));
  const index = JSON.parse(git(['show', 'bench-data:index.json'], bare));
  assert.equal(index.refRuns.length, 4);
  assert.deepEqual(index.runs.map((/** @type {{id: string}} */ r) => r.id), ['release-run'], 'the release series is untouched');
});

test('a ref run of another pull request, repository, suite, a symbolic link or a gzip bomb is refused', async () => {
  /** @type {[string, Partial<typeof EXPECT>, RegExp][]} */
  const cases = [
    ['pull request', { pullRequest: 8 }, /ref\.pullRequest is 7, the plan says 8; ref\.name is "pull\/7\/head", the plan says "pull\/8\/head"/],
    ['repository', { repository: 'https://github.com/mariadb/server.git' }, /ref\.repository is "https:\/\/github\.com\/acme\/server\.git", the plan says "https:\/\/github\.com\/mariadb\/server\.git"/],
    ['suite', { suite: 'small' }, /suite is "smoke", the plan says "small"/],
  ];
  const store = await tempDir('other');
  await writeRefRunStore(store, { candidateCommit: CANDIDATE, baseCommit: BASE });
  const bare = await bareRepo();
  for (const [what, over, rule] of cases) {
    await assert.rejects(publishToBranch(store, { repo: bare, refsOnly: { ...EXPECT, ...over }, ...quiet }), rule, what);
  }
  const dir = join(store, `refs/runs/local/mariadb/10.11.18+${CANDIDATE.slice(0, 12)}/smoke`);
  await symlink('/etc/hostname', join(dir, 'link.json'));
  await assert.rejects(publishToBranch(store, { repo: bare, refsOnly: EXPECT, ...quiet }), /link\.json: not a regular file/);
  await (await import('node:fs/promises')).rm(join(dir, 'link.json'));
  const samples = (await readdir(dir)).find((f) => f.endsWith('.samples.json.gz'));
  assert.ok(samples);
  await writeFile(join(dir, samples), gzipSync(Buffer.alloc(MAX_SAMPLES_UNZIPPED_BYTES + 1)));
  await assert.rejects(publishToBranch(store, { repo: bare, refsOnly: EXPECT, ...quiet }), /does not gunzip within \d+ bytes \(MAX_SAMPLES_UNZIPPED_BYTES\)/);
  assert.equal(git(['for-each-ref'], bare).trim(), '', 'nothing was ever pushed');
});

test('publish --refs-only needs every --expect-* value of the plan, and no --logs', async () => {
  const options = { store: await tempDir('cli'), repo: await bareRepo(), branch: 'bench-data', maxLogKb: 1024, logRetentionDays: 90, attempts: 1, refsOnly: true, logs: true, expectCommit: 'abc' };
  await assert.rejects(publishCommand(options), (/** @type {Error} */ err) => {
    assert.match(err.message, /--expect-repository <url>/);
    assert.match(err.message, /--expect-pull-request <n>/);
    assert.match(err.message, /--expect-commit <sha> \(the approved head commit, a full id; got "abc"\)/);
    assert.match(err.message, /no --logs/);
    return true;
  });
  await assert.rejects(publishCommand({ ...options, refsOnly: false, logs: false, expectCommit: CANDIDATE }), /--expect-commit only goes with --refs-only/);
});

test('a ref run whose records have no samples files (no per-second figures) is published, records only', async () => {
  // The act test's shim runs wrote none: the publish took every valid record's samples file for
  // granted and wrote `undefined` (a TypeError in the workflow's publish job).
  const store = await tempDir('no-samples');
  await writeRefRunStore(store, { candidateCommit: CANDIDATE, baseCommit: BASE });
  const all = await readdir(store, { recursive: true });
  const samplesFiles = all.filter((f) => String(f).endsWith('.samples.json.gz'));
  assert.ok(samplesFiles.length > 0);
  for (const f of samplesFiles) await rm(join(store, String(f)));
  const records = all.filter((f) => String(f).startsWith('refs/runs/') && String(f).endsWith('.json') && !String(f).endsWith('.samples.json.gz'));
  for (const f of records) {
    const record = JSON.parse(await readFile(join(store, String(f)), 'utf8'));
    // As a run with no per-second sampling stores it: no samples file, no intervals.
    delete record.samples;
    for (const step of record.steps) for (const rep of step.repeats ?? []) rep.intervals ??= [];
    await writeFile(join(store, String(f)), JSON.stringify(record));
  }
  const bare = await branchWithOneRelease();
  const result = await publishToBranch(store, { repo: bare, refsOnly: EXPECT, ...quiet });
  assert.equal(result.status, 'published');
  assert.equal(result.added.length, 4, 'the four records, no samples file');
  assert.ok(result.added.every((p) => p.startsWith('refs/runs/local/mariadb/') && !p.endsWith('.gz')), result.added.join(', '));
});
