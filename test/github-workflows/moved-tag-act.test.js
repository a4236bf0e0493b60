/**
 * A moved tag under act, as GitHub runs it: upstream moves mariadb-10.11.19 to a new commit after
 * tagbench benchmarked it, and the next watch.yml run benchmarks it again, builds exactly the new
 * commit from source, and publishes a run record that says "moved from <old> to <new>".
 *
 * The upstream is a local git repository of test/fixtures/install/source-shim-server: a small
 * cmake project whose install is a real MariaDB server (the Debian package's mariadbd, patched to
 * load the project's own library), so the source provider's whole path runs (fetch the commit,
 * configure, build, install) in seconds where a MariaDB build takes an hour, and the benchmark
 * runs real sysbench against a real server. Its two commits of the moved tag differ in a comment
 * of the library only: what is proven is the cycle (watch → plan → install → run → publish), not
 * a regression. The results branch starts with the runs a first cycle would have published:
 * 10.11.18 at its tag's commit (left alone), 10.11.19 at the tag's old commit (the moved one), so
 * the run has exactly one leg. Small on purpose: point-query only, 2 repeats on 2 instances.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describeFailure, ROOT, runAct, STUB_MARK, watchInstallation } from './run-act.js';
import { writeRecord } from '../../scripts/store/index.js';
import { commitShim, git, privateInstallCache } from '../support/shim-repository.js';

const execFileP = promisify(execFile);
/** Servers of this test listen from here on (next to watch-act's range). */
const PORT_BASE = 23520;
const CANDIDATE = '10.11.19';
const BASE = '10.11.18';
const FIXTURE_STORE = fileURLToPath(new URL('../fixtures/github/store/', import.meta.url));
const CACHE = process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs');

/**
 * Commit the shim project as release `version` and tag it (a tag moved when it exists); `note`
 * makes a commit that differs from an earlier one of the same version.
 * @param {string} repo
 * @param {string} version
 * @param {string} [note]
 * @returns {Promise<string>} the commit
 */
async function release(repo, version, note = '') {
  const commit = await commitShim(repo, { version, cacheDir: CACHE, message: `release ${version}${note ? ` (${note})` : ''}`, note });
  await git(repo, 'tag', '-f', '-a', `mariadb-${version}`, '-m', `MariaDB ${version}`);
  return commit;
}

/**
 * The results branch a first cycle would have left: the fixture store's 10.11.18 and 10.11.19
 * runs, as source builds at the given commits, published with tagbench publish.
 * @param {string} dir
 * @param {string} resultsRepo
 * @param {Record<string, string>} commits version -> the commit its run was of
 */
async function publishFirstCycle(dir, resultsRepo, commits) {
  const store = join(dir, 'first-cycle');
  for (const version of [BASE, CANDIDATE]) {
    const folder = join(FIXTURE_STORE, 'runs', 'local', 'mariadb', version, 'smoke');
    const [file] = (await readdir(folder)).filter((f) => f.endsWith('.json'));
    const record = JSON.parse(await readFile(join(folder, file), 'utf8'));
    record.release = { ...record.release, provider: 'source', tag: `mariadb-${version}`, commit: commits[version], buildProfile: 'release', buildFlags: [], packages: [] };
    await writeRecord(store, record);
  }
  await execFileP('node', [join(ROOT, 'scripts/cli.js'), 'publish', '--store', store, '--repo', resultsRepo], { cwd: ROOT });
}

test('act runs watch.yml after upstream moved a tag: the moved release is built at its new commit, run again and published marked "moved from"', { timeout: 30 * 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-moved-'));
  let passed = false;
  t.after(() => (passed ? rm(dir, { recursive: true, force: true }) : undefined));

  const upstream = join(dir, 'upstream');
  await execFileP('git', ['init', '--quiet', '-b', 'main', upstream]);
  const baseCommit = await release(upstream, BASE);
  const oldCommit = await release(upstream, CANDIDATE);
  const resultsRepo = join(dir, 'results.git');
  await execFileP('git', ['init', '--quiet', '--bare', resultsRepo]);
  await publishFirstCycle(dir, resultsRepo, { [BASE]: baseCommit, [CANDIDATE]: oldCommit });
  // Upstream re-tags 10.11.19 on a new commit (a fix slipped in after the tag was pushed).
  const newCommit = await release(upstream, CANDIDATE, 'fix after the tag');
  assert.notEqual(newCommit, oldCommit);

  // The shim's builds go to a cache of this test's own: in the shared one, they would stand for
  // MariaDB's source builds of 10.11.18 and 10.11.19 (same keys). The Debian installs they
  // wrap, and the reference run's, come from the shared cache.
  const cache = await privateInstallCache(join(dir, 'installs'), CACHE, [BASE, CANDIDATE]);
  const result = await runAct(watchInstallation({ dir, resultsRepo, mirror: upstream, provider: 'source', portBase: PORT_BASE, pagesStore: FIXTURE_STORE, cache }));
  assert.equal(result.code, 0, describeFailure(result));
  assert.doesNotMatch(result.log, new RegExp(STUB_MARK), 'a remote action step was not skipped under act');

  // watch saw the move, and only the move: 10.11.18's tag still names the commit it was run at.
  assert.match(result.log, new RegExp(`tag mariadb-${CANDIDATE} moved from ${oldCommit} to ${newCommit}: benchmarking it again`));
  const leg = `local_mariadb_${CANDIDATE}_smoke`;
  const runDir = join(result.artifacts, (await readdir(result.artifacts))[0]);
  const artifacts = (await readdir(runDir)).sort();
  assert.ok(artifacts.includes(`results-${leg}-a1`), artifacts.join(', '));
  assert.ok(artifacts.every((a) => a.includes(leg)), `one leg only (10.11.18 was not moved): ${artifacts.join(', ')}`);

  // The candidate was built from the mirror at exactly the new commit.
  assert.match(result.log, new RegExp(`fetching mariadb-${CANDIDATE} at commit ${newCommit} from ${upstream.replace(/[/.]/g, '\\$&')}`));

  // Published: a run of the new commit that says where the tag was before; the old run stays.
  const index = JSON.parse((await execFileP('git', ['--git-dir', resultsRepo, 'show', 'bench-data:index.json'])).stdout);
  /** @type {{id: string, version: string, commit: string|null, path: string}[]} */
  const runs = index.runs.filter((/** @type {{version: string}} */ r) => r.version === CANDIDATE);
  assert.deepEqual(runs.map((r) => r.commit).sort(), [newCommit, oldCommit].sort(), `10.11.19's runs on the branch: ${JSON.stringify(runs)}`);
  const rerun = /** @type {{path: string}} */ (runs.find((r) => r.commit === newCommit));
  const record = JSON.parse((await execFileP('git', ['--git-dir', resultsRepo, 'show', `bench-data:${rerun.path}`])).stdout);
  assert.equal(record.status, 'ok', record.reason);
  assert.equal(record.release.provider, 'source');
  assert.equal(record.release.commit, newCommit);
  assert.equal(record.release.movedFrom, oldCommit, 'the record says "moved from <old> to <new>"');
  assert.match(record.release.serverVersionString, new RegExp(`Ver ${CANDIDATE.replace(/\./g, '\\.')}-MariaDB`), 'a real server ran');
  const debian = JSON.parse(await readFile(join(CACHE, `mariadb-${CANDIDATE}@deb`, '.tagbench-install.json'), 'utf8'));
  assert.notEqual(record.release.binarySha256, debian.serverSha256, 'the server that ran is the source build (the shim project\'s patched mariadbd), not the Debian package\'s');
  assert.ok(record.steps.some((/** @type {{name: string, status: string}} */ s) => s.name === 'point-query' && s.status === 'ok'), 'point-query ran');
  passed = true;
});
