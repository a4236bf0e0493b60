/**
 * watch.yml end to end under act, as GitHub runs it, on source builds: upstream (a local
 * repository of test/fixtures/install/source-shim-server, a small cmake project whose install is
 * a real MariaDB server) has two release tags, and the results branch holds one earlier run, of
 * 10.11.19 at the commit its tag named then. Upstream has since moved that tag. discover proposes
 * two legs in ONE workflow run: 10.11.19 again (moved: its leg builds the new commit from the
 * mirror watch read and its record says "moved from <old> to <new>") and 10.11.18 (new: the
 * line's base release itself, its leg measuring our build beside the host's Debian reference).
 * Each leg goes through plan, bench (install, run, reference, compare, confirm on one runner),
 * report and publish; both legs' records reach the results branch of a local bare repository;
 * the site is rebuilt.
 *
 * Artifacts travel through a STAND-IN for actions/upload-artifact and download-artifact (they
 * cannot run offline; run-act.js), which keeps their rules: a name uploaded twice in the run
 * fails with 409 Conflict, so two legs sharing a name would fail here as on GitHub.
 * No server is throttled here: the confirmed regression itself is benchmark-act.test.js's (a
 * throttled candidate, confirmed, its issue body). This test holds the matrix: both legs run
 * every job, and the confirm step runs exactly when a leg's compare found a regression. Legs
 * run one after the other (TAGBENCH_WATCH_MAX_PARALLEL=1): on this one machine they would share
 * ports and CPU 1, where on GitHub each host's runner takes one job at a time. Small on purpose:
 * point-query only, 2 repeats on 2 server instances per release.
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
import { commitShim, git as gitIn, privateInstallCache } from '../support/shim-repository.js';

const git = promisify(execFile);
/** Servers of this test listen from here on (this area's port range, next to benchmark-act's). */
const PORT_BASE = 23480;
const CANDIDATE = '10.11.19';
const BASE = '10.11.18';
const FIXTURE_STORE = fileURLToPath(new URL('../fixtures/github/store/', import.meta.url));
const CACHE = process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs');

/** @param {string} dir */
async function listFiles(dir) {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

/**
 * Commit the shim project as release `version` and tag it (moved when the tag exists); `note`
 * makes another commit of the same version.
 * @param {string} repo
 * @param {string} version
 * @param {string} [note]
 * @returns {Promise<string>} the commit
 */
async function release(repo, version, note = '') {
  const commit = await commitShim(repo, { version, cacheDir: CACHE, message: `release ${version}${note ? ` (${note})` : ''}`, note });
  await gitIn(repo, 'tag', '-f', '-a', `mariadb-${version}`, '-m', `MariaDB ${version}`);
  return commit;
}

/**
 * The results branch an earlier cycle left: the fixture store's run of `version`, as our source
 * build of `commit`, published with tagbench publish.
 * @param {string} dir
 * @param {string} resultsRepo
 * @param {string} version
 * @param {string} commit
 */
async function publishEarlierRun(dir, resultsRepo, version, commit) {
  const store = join(dir, 'earlier-cycle');
  const folder = join(FIXTURE_STORE, 'runs', 'local', 'mariadb', version, 'smoke');
  const [file] = (await readdir(folder)).filter((f) => f.endsWith('.json'));
  const record = JSON.parse(await readFile(join(folder, file), 'utf8'));
  record.release = { ...record.release, provider: 'source', tag: `mariadb-${version}`, commit, buildProfile: 'release', buildFlags: [], packages: [] };
  await writeRecord(store, record);
  await git('node', [join(ROOT, 'scripts/cli.js'), 'publish', '--store', store, '--repo', resultsRepo], { cwd: ROOT });
}

test('act runs watch.yml on source builds: a two-leg matrix (a moved tag run again and marked, a new release) through benchmark (confirm exactly when compare finds a regression), report and publish, distinct artifacts, both legs published', { timeout: 45 * 60_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-act-watch-'));
  let passed = false;
  // Kept when the test fails: act.log, the artifacts and the results repository explain why.
  t.after(() => (passed ? rm(dir, { recursive: true, force: true }) : undefined));
  const mirror = join(dir, 'upstream');
  await git('git', ['init', '--quiet', '-b', 'main', mirror]);
  await release(mirror, BASE);
  const oldCommit = await release(mirror, CANDIDATE);
  const resultsRepo = join(dir, 'results.git');
  await git('git', ['init', '--quiet', '--bare', resultsRepo]);
  await publishEarlierRun(dir, resultsRepo, CANDIDATE, oldCommit);
  // Upstream re-tags 10.11.19 on a new commit (a fix slipped in after the tag was pushed).
  const newCommit = await release(mirror, CANDIDATE, 'fix after the tag');

  // The shim's builds go to a cache of this test's own: in the shared one they would stand for
  // MariaDB's source builds of these versions (same keys). The Debian installs they wrap, and
  // the reference's, come from the shared cache.
  const cache = await privateInstallCache(join(dir, 'installs'), CACHE, [BASE, CANDIDATE]);
  const result = await runAct(watchInstallation({ dir, resultsRepo, mirror, provider: 'source', portBase: PORT_BASE, pagesStore: FIXTURE_STORE, cache }));
  assert.equal(result.code, 0, describeFailure(result));
  assert.doesNotMatch(result.log, new RegExp(STUB_MARK), 'a remote action step was not skipped under act');
  // watch saw the move; 10.11.18 has no run yet.
  assert.match(result.log, new RegExp(`tag mariadb-${CANDIDATE} moved from ${oldCommit} to ${newCommit}: benchmarking it again`));

  // Both legs ran every job in the one workflow run.
  const legs = [CANDIDATE, BASE].map((v) => `local_mariadb_${v}_smoke`);
  const artifacts = (await listFiles(result.artifacts)).filter((f) => f.endsWith('artifact-meta.json')).map((f) => f.split('/').at(-2)).sort();
  // Each leg: its results, the run step's checkpoint (-run), the reference's (-reference: the
  // host's reference is Debian's 10.11.18, and these legs run our builds), and the issue drafts.
  assert.deepEqual(artifacts, legs.flatMap((leg) => [`issues-${leg}-a1`, `results-${leg}-a1`, `results-${leg}-a1-reference`, `results-${leg}-a1-run`]).sort());
  // The moved release was built from the mirror at exactly the new commit.
  assert.match(result.log, new RegExp(`fetching mariadb-${CANDIDATE} at commit ${newCommit} from ${mirror.replace(/[/.]/g, '\\$&')}`));
  for (const job of ['install, run, compare, confirm', 'report \\(issues, job summary\\)', 'publish to the results branch']) {
    // act names a called workflow's job <caller job>-<leg>/<called workflow>/<job name>.
    /** @type {string[]} */
    const succeeded = result.log.match(new RegExp(`\\[benchmark-\\d+/benchmark/${job}\\s*\\]\\s+🏁\\s+Job succeeded`, 'g')) ?? [];
    assert.equal(succeeded.length, 2, `job "${job}" should have succeeded once per leg; got ${succeeded.length}`);
  }
  // The confirm step reruns a leg exactly when its compare found a regression (10.11.18 against
  // itself never does; 2 instances per side cannot reach the issue level either, so on this
  // machine confirm is skipped in both legs).
  for (const leg of ['benchmark-1', 'benchmark-2']) {
    const prefix = `[${leg}/benchmark/install, run, compare, confirm]`;
    const lines = result.log.split('\n').filter((l) => l.startsWith(prefix));
    const regression = lines.some((l) => /::set-output:: regression=true/.test(l));
    assert.ok(regression || lines.some((l) => /::set-output:: regression=false/.test(l)), `${leg}: compare set no regression output`);
    assert.equal(lines.some((l) => /Success - Main tagbench confirm/.test(l)), regression, `${leg}: the confirm step must run exactly when compare found a regression (regression=${regression})`);
    t.diagnostic(`${leg}: regression=${regression}${regression ? ', confirm ran' : ', nothing to confirm'}`);
    // 2 instances per side cannot reach an issue-level verdict: the skip branch is the one held here.
    assert.equal(regression, false, `${leg}: 2 vs 2 instances cannot make an issue-level regression`);
  }

  // Each leg's artifact holds that leg's records only.
  const runDir = join(result.artifacts, (await readdir(result.artifacts))[0]);
  const candidateLeg = await listFiles(join(runDir, `results-${legs[0]}-a1`, 'files', 'runs'));
  const baseLeg = await listFiles(join(runDir, `results-${legs[1]}-a1`, 'files', 'runs'));
  assert.ok(candidateLeg.some((f) => f.includes(`/mariadb/${CANDIDATE}/`)) && candidateLeg.some((f) => f.includes(`/mariadb/${BASE}/`)), candidateLeg.join('\n'));
  assert.ok(baseLeg.length > 0 && baseLeg.every((f) => f.includes(`/mariadb/${BASE}/`)), `the ${BASE} leg's artifact holds another leg's records:\n${baseLeg.join('\n')}`);

  // Every record of both legs is on the results branch (leg 1: base and candidate; leg 2: the
  // base release alone).
  const published = (await git('git', ['--git-dir', resultsRepo, 'ls-tree', '-r', '--name-only', 'bench-data'])).stdout.split('\n');
  for (const record of [...candidateLeg, ...baseLeg].filter((f) => f.endsWith('.json'))) {
    const path = `runs/${record.split('/runs/').at(-1)}`;
    assert.ok(published.includes(path), `${path} is not on the results branch:\n${published.join('\n')}`);
  }
  assert.ok(baseLeg.some((f) => f.endsWith('.json')), `the ${BASE} leg has no run record`);
  const index = JSON.parse((await git('git', ['--git-dir', resultsRepo, 'show', 'bench-data:index.json'])).stdout);
  const indexed = new Set(index.runs.map((/** @type {{version: string}} */ r) => r.version));
  assert.ok(indexed.has(CANDIDATE) && indexed.has(BASE), `index.json lists ${[...indexed].join(', ')}`);
  // The moved release: a run of the new commit that says where the tag was, beside the old run.
  /** @type {{commit: string|null, path: string}[]} */
  const runs = index.runs.filter((/** @type {{version: string}} */ r) => r.version === CANDIDATE);
  const rerun = runs.find((r) => r.commit === newCommit);
  assert.ok(rerun && runs.some((r) => r.commit === oldCommit), `10.11.19's runs on the branch: ${JSON.stringify(runs)}`);
  const record = JSON.parse((await git('git', ['--git-dir', resultsRepo, 'show', `bench-data:${rerun.path}`])).stdout);
  assert.deepEqual([record.status, record.release.provider, record.release.commit, record.release.movedFrom], ['ok', 'source', newCommit, oldCommit], 'the record says "moved from <old> to <new>"');
  const debian = JSON.parse(await readFile(join(CACHE, `mariadb-${CANDIDATE}@deb`, '.tagbench-install.json'), 'utf8'));
  assert.notEqual(record.release.binarySha256, debian.serverSha256, 'the server that ran is the source build (the shim project\'s patched mariadbd), not the Debian package\'s');
  const summary = await readFile(join(runDir, `issues-${legs[0]}-a1`, 'files', 'summary.md'), 'utf8');
  assert.match(summary, /point-query \| throughput \|/, 'the report job wrote the 10.11.19 leg\'s job summary');
  passed = true;
});
