/**
 * `tagbench bisect --commits`: the candidates are the first-parent commits between the good and
 * the bad release's tags (a small git repository made here, with a merged side branch), capped;
 * the search over them; and the orchestration, where each probe builds its commit.
 *
 * The builds are REAL: the install stage's source provider fetches each commit (ref = its full
 * id) from the local mirror and builds it with git, cmake and gcc, but the tree is the tiny
 * fake-server project of test/fixtures/install/source-fake-server (its "mariadbd" only answers
 * --version), not MariaDB: a real server build takes an hour. What it shows is that the right
 * commits are built, each once, cached by ref, in the search's order.
 * Because that fake binary is NOT a database server, the run stage is a STAND-IN, as in
 * bisect-stub.test.js: synthetic, schema-valid run records (test/support/generate-history.js).
 * It keeps the rules of what it stands in for: it is asked for exactly two releases, the good
 * release's build first and then the candidate's, both as the installs on disk the install
 * stage returned (it checks that each server binary is there and reports the right version),
 * limited to the bisected tests, and returns one valid stored record for each.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bisectReleases } from '../../scripts/verify/bisect.js';
import { commitCandidates, DEFAULT_MAX_COMMITS, formatElapsed, listCommitsBetween, tagOf } from '../../scripts/verify/bisect-commits.js';
import { maxProbes, searchFirstBad } from '../../scripts/verify/bisect-search.js';
import { UserError } from '../../scripts/errors.js';
import { installRelease as installReleaseReal } from '../../scripts/install/index.js';
import { standInProbe } from '../support/bisect-report.js';
import { loadConfig } from '../../scripts/config/index.js';
import { readBisectReports } from '../../scripts/store/index.js';

const root = new URL('../..', import.meta.url).pathname;
const config = await loadConfig(root);
const GOOD = '10.11.18';
const BAD = '10.11.19';
const FAKE_SERVER = fileURLToPath(new URL('../fixtures/install/source-fake-server/', import.meta.url));

/**
 * @param {string} dir
 * @param {string[]} args
 * @returns {string}
 */
function git(dir, args) {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], { encoding: 'utf8' }).trim();
}

/**
 * A repository shaped like a release branch, holding the fake-server project: the good tag, then
 * `mainCount` commits on the branch (the first bumps VERSION to the bad release's, as MariaDB
 * does after a release; the second merges a two-commit side branch), then the bad tag on one
 * more commit.
 * @param {string} dir
 * @param {number} mainCount commits between the tags on the first-parent line (>= 2)
 * @param {{brokenAt?: number}} [options] brokenAt: that commit of the line does not compile
 * @returns {{line: string[], side: string[]}} ids of the first-parent commits between the tags, oldest first, and of the side branch
 */
function makeReleaseRepo(dir, mainCount, options = {}) {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  cpSync(FAKE_SERVER, dir, { recursive: true });
  writeFileSync(join(dir, 'VERSION'), `${GOOD}\n`);
  const code = (/** @type {number} */ i) => (i === options.brokenAt
    ? 'int main(void) { return tagbench_undeclared_identifier; }\n'
    : execFileSync('cat', [join(FAKE_SERVER, 'fake-server.c')], { encoding: 'utf8' }));
  const commit = (/** @type {string} */ subject) => {
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '--allow-empty', '-m', subject]);
    return git(dir, ['rev-parse', 'HEAD']);
  };
  commit('start');
  git(dir, ['tag', '-a', '-m', 'release', `mariadb-${GOOD}`]);
  writeFileSync(join(dir, 'VERSION'), `${BAD}\n`);
  writeFileSync(join(dir, 'fake-server.c'), code(0));
  const line = [commit('MDEV-1 first change on the branch')];
  git(dir, ['checkout', '-q', '-b', 'feature']);
  const side = [commit('side work 1'), commit('side work 2')];
  git(dir, ['checkout', '-q', 'main']);
  git(dir, ['merge', '-q', '--no-ff', '--no-commit', 'feature']);
  writeFileSync(join(dir, 'fake-server.c'), code(1));
  line.push(commit('Merge branch feature'));
  for (let i = 3; i <= mainCount; i++) {
    writeFileSync(join(dir, 'fake-server.c'), code(i - 1));
    line.push(commit(`MDEV-${i} change ${i}`));
  }
  writeFileSync(join(dir, 'fake-server.c'), code(mainCount));
  commit(`bump to ${BAD}`);
  git(dir, ['tag', `mariadb-${BAD}`]);
  return { line, side };
}

test('listing: the first-parent commits between the two tags, oldest first, without the bad tag\'s commit nor a merged branch\'s own commits', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-bisect-commits-'));
  try {
    const repo = join(dir, 'repo');
    const { line, side } = makeReleaseRepo(repo, 4);
    const goodTag = tagOf(/** @type {any} */ (config.products.mariadb), GOOD);
    assert.equal(goodTag, 'mariadb-10.11.18', 'the tag comes from build.tagTemplate');
    const commits = await listCommitsBetween({ repo, goodTag, badTag: `mariadb-${BAD}`, scratchDir: join(dir, 'scratch') });
    assert.deepEqual(commits.map((c) => c.sha), line);
    assert.equal(commits[0].subject, 'MDEV-1 first change on the branch');
    assert.equal(commits[1].subject, 'Merge branch feature');
    assert.equal(git(repo, ['rev-list', '--parents', '-n', '1', line[1]]).split(' ').length, 3, 'the second commit of the line is a merge');
    assert.ok(side.every((s) => !commits.some((c) => c.sha === s)), 'first-parent: the side branch is one candidate, its merge');
    // a URL is fetched (tags and commits) into the scratch repository, with the same answer
    const fetched = await listCommitsBetween({ repo: `file://${repo}`, goodTag, badTag: `mariadb-${BAD}`, scratchDir: join(dir, 'scratch') });
    assert.deepEqual(fetched, commits);
    const candidates = commitCandidates(commits, { version: BAD, goodTag, badTag: `mariadb-${BAD}`, maxCommits: DEFAULT_MAX_COMMITS });
    assert.deepEqual(candidates[2], { name: `${line[2].slice(0, 12)} (MDEV-3 change 3)`, version: BAD, provider: 'source', label: line[2].slice(0, 12), sha: line[2] });
    // bad input: a missing tag, tags in the wrong order, more commits than the cap
    await assert.rejects(listCommitsBetween({ repo, goodTag: 'mariadb-10.11.17', badTag: `mariadb-${BAD}`, scratchDir: join(dir, 'scratch') }),
      (err) => err instanceof UserError && /the good release's tag 'mariadb-10\.11\.17' is not in /.test(err.message));
    await assert.rejects(listCommitsBetween({ repo, goodTag: `mariadb-${BAD}`, badTag: goodTag, scratchDir: join(dir, 'scratch') }),
      /tag mariadb-10\.11\.19 is not an ancestor of mariadb-10\.11\.18/);
    assert.throws(() => commitCandidates(commits, { version: BAD, goodTag, badTag: `mariadb-${BAD}`, maxCommits: 3 }),
      /^UserError: 4 commits lie between mariadb-10\.11\.18 and mariadb-10\.11\.19 \(first-parent\), more than --max-commits 3: that is up to 3 server builds/);
    assert.equal(maxProbes(DEFAULT_MAX_COMMITS), 6, 'the default cap means at most 6 builds');
    assert.deepEqual([formatElapsed(42), formatElapsed(125), formatElapsed(3900)], ['42 s', '2 min', '1 h 05 min']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('search over commits: the first bad commit is found for every place it can be, within the probe bound', async () => {
  const commits = Array.from({ length: 9 }, (_, i) => ({ sha: String(i).repeat(40), subject: `change ${i}` }));
  for (let firstBad = 0; firstBad <= commits.length; firstBad++) {
    /** @type {number[]} */
    const probed = [];
    const outcome = await searchFirstBad(commits.length, async (i) => { probed.push(i); return i >= firstBad ? 'bad' : 'good'; });
    assert.equal(outcome.status, 'found');
    assert.equal(outcome.firstBad, firstBad);
    assert.ok(probed.length <= maxProbes(commits.length), `${probed.length} probes for first bad ${firstBad}`);
    assert.equal(new Set(probed).size, probed.length, 'no commit is built twice');
  }
});

/**
 * The REAL install stage, recorded: every request goes to installRelease (the source provider
 * builds the fake-server project with git, cmake and gcc); the recorder checks what was asked
 * (provider source, the mirror, a full commit id of a listed candidate or the good tag) and that
 * the result sits at the install cache's key for it.
 * @param {{mirror: string, candidates: string[]}} expected
 */
function recordingInstall(expected) {
  /** @type {{ref: string|undefined, status: string}[]} */
  const requests = [];
  /** @type {any} */
  const installRelease = async (/** @type {any} */ spec, /** @type {any} */ ctx) => {
    assert.equal(spec.provider, 'source', 'each build goes through the source provider');
    assert.equal(spec.path, expected.mirror, 'the build fetches from the local mirror given with --path');
    if (spec.ref === undefined) assert.equal(spec.version, GOOD, 'only the good release is built from its tag');
    else {
      assert.match(spec.ref, /^[0-9a-f]{40}$/, 'a commit is asked for by its full id');
      assert.ok(expected.candidates.includes(spec.ref), `${spec.ref} is one of the listed candidates`);
      assert.equal(spec.version, BAD, 'a commit builds as the version it leads up to');
    }
    const result = await installReleaseReal(spec, { ...ctx, log: process.env.TAGBENCH_TEST_VERBOSE ? ctx.log : () => {} });
    requests.push({ ref: spec.ref, status: result.status });
    if (result.status !== 'failed') {
      assert.equal(result.prefix, join(ctx.cacheDir, `mariadb-${spec.version}@source-release${spec.ref ? `+ref-${spec.ref}` : ''}`), 'the install cache keys a commit by its ref');
      assert.equal(result.provenance.commit, spec.ref ?? result.provenance.commit, 'the build is of the commit asked for');
    }
    return result;
  };
  return { requests, installRelease };
}

/**
 * The stand-in run stage (see the file comment): `factorOf(label)` is a commit's throughput
 * factor against the good release.
 * @param {(label: string) => number} factorOf
 * @param {string} cacheDir
 */
function standInRun(factorOf, cacheDir) {
  /** @type {string[]} */
  const asked = [];
  let call = 0;
  /** @type {any} */
  const runReleases = async (/** @type {any} */ cfg, /** @type {any} */ options) => {
    assert.ok(cfg?.suites?.[options.suite] && cfg.hosts?.[options.hostClass]);
    assert.equal(options.releases.length, 2, 'a probe runs two releases side by side');
    const [good, candidate] = options.releases;
    assert.deepEqual(good, { product: 'mariadb', version: GOOD, provider: 'path', path: join(cacheDir, `mariadb-${GOOD}@source-release`) }, 'the good release runs from its own source build, first');
    assert.equal(candidate.provider, 'path');
    assert.match(candidate.path, new RegExp(`^${cacheDir}/mariadb-${BAD}@source-release\\+ref-${candidate.label}[0-9a-f]{28}$`), 'the candidate runs from the build of its commit');
    assert.match(execFileSync(join(good.path, 'usr/sbin/mariadbd'), ['--version'], { encoding: 'utf8' }), new RegExp(`Ver ${GOOD.replaceAll('.', '\\.')}`));
    assert.match(execFileSync(join(candidate.path, 'usr/sbin/mariadbd'), ['--version'], { encoding: 'utf8' }), new RegExp(`Ver ${BAD.replaceAll('.', '\\.')}`));
    assert.deepEqual(options.only, ['point-query'], 'only the bisected tests run');
    asked.push(candidate.label);
    call++;
    // The records are the good release's and BAD's: the candidate runs as a build of BAD's version.
    return standInProbe(options, { good: GOOD, candidate: BAD, factor: factorOf(candidate.label), call, repeats: options.repeats });
  };
  return { asked, runReleases };
}

test('bisect --commits: each probe builds its commit (source provider, ref = the commit, cached by ref) and the report names the first bad commit', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-bisect-commits-'));
  try {
    const mirror = join(dir, 'mirror');
    const { line } = makeReleaseRepo(mirror, 7);
    const labels = line.map((sha) => sha.slice(0, 12));
    // commits 0..3 keep the good speed, 4.. are 30 % slower: the first bad commit is line[4]
    const factorOf = (/** @type {string} */ label) => (labels.indexOf(label) >= 4 ? 0.7 : 1);
    const cacheDir = join(dir, 'cache');
    const store = join(dir, 'results');
    const install = recordingInstall({ mirror, candidates: line });
    const run = standInRun(factorOf, cacheDir);
    /** @type {string[]} */
    const progress = [];
    let printed = '';
    const options = {
      product: 'mariadb', good: GOOD, bad: BAD, provider: 'source', commits: true, path: mirror, only: 'point-query', repeats: 8, adaptiveBudget: 1,
      store, cacheDir, suite: 'smoke', out: (/** @type {string} */ t) => { printed += t; }, write: (/** @type {string} */ t) => { progress.push(t); },
    };
    const code = await bisectReleases(options, { runReleases: run.runReleases, installRelease: install.installRelease });
    assert.equal(code, 0, printed);
    // 7 commits: the middle (3) is good, then 5 is bad, then 4 is bad: line[4] is the first bad one
    assert.deepEqual(run.asked, [labels[3], labels[5], labels[4]], 'the commits a binary search visits, in its order');
    assert.deepEqual(install.requests.map((r) => [r.ref, r.status]), [
      [undefined, 'installed'], [line[3], 'installed'], [line[5], 'installed'], [line[4], 'installed'],
    ], 'the good release is built once, then exactly the probed commits, each once');
    const [report] = await readBisectReports(store);
    assert.equal(report.candidates.length, 7);
    assert.deepEqual(report.candidates[4], { name: `${labels[4]} (MDEV-5 change 5)`, version: BAD, provider: 'source', label: labels[4] });
    assert.deepEqual([report.outcome.status, report.outcome.lastGood, report.outcome.firstBad], ['found', `${labels[3]} (MDEV-4 change 4)`, `${labels[4]} (MDEV-5 change 5)`]);
    assert.match(report.outcome.message, new RegExp(`^Commit ${labels[4]} \\(MDEV-5 change 5\\) is the first bad commit: ${labels[3]} \\(MDEV-4 change 4\\) is good`));
    assert.match(report.notes.join('\n'), /the 7 first-parent commit\(s\) of .*mirror after mariadb-10\.11\.18 and before mariadb-10\.11\.19/);
    assert.match(printed, new RegExp(`First bad commit: mariadb \`${labels[4]} \\(MDEV-5 change 5\\)\``));
    // progress: which commit builds, how many probes are left at most, the time so far
    const starts = progress.filter((l) => /^bisect: probe \d+: building commit/.test(l));
    assert.equal(starts.length, 3);
    assert.match(starts[0], new RegExp(`probe 1: building commit ${labels[3]} \\(MDEV-4 change 4\\) against 10\\.11\\.18, point-query, alternating; candidate 4 of 7, at most 3 probe\\(s\\) left with this one, \\d+ s so far`));
    assert.match(starts[1], /candidate 6 of 7, at most 2 probe\(s\) left with this one/);
    assert.match(starts[2], /candidate 5 of 7, at most 1 probe\(s\) left with this one/);

    // the same bisect again: every build is a cache hit, keyed by its ref
    install.requests.length = 0;
    const rerun = standInRun(factorOf, cacheDir);
    assert.equal(await bisectReleases(options, { runReleases: rerun.runReleases, installRelease: install.installRelease }), 0);
    assert.deepEqual(install.requests.map((r) => r.status), ['skipped', 'skipped', 'skipped', 'skipped']);
    assert.deepEqual(rerun.asked, run.asked, 'the same commits in the same order');

    // more commits than the cap: refused before anything builds
    const capped = recordingInstall({ mirror, candidates: line });
    await assert.rejects(bisectReleases({ ...options, maxCommits: 6 }, { runReleases: run.runReleases, installRelease: capped.installRelease }),
      /7 commits lie between mariadb-10\.11\.18 and mariadb-10\.11\.19 \(first-parent\), more than --max-commits 6/);
    assert.deepEqual(capped.requests, []);
    await assert.rejects(bisectReleases({ ...options, provider: 'deb' }, {}), /--commits builds each commit from source: use --provider source/);
    await assert.rejects(bisectReleases({ ...options, candidates: '10.11.19' }, {}), /--commits takes the candidates from git/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('bisect --commits: a commit that does not compile stops the search there, naming it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-bisect-commits-'));
  try {
    const mirror = join(dir, 'mirror');
    // three commits: the search probes the middle one first, and it does not compile
    const { line } = makeReleaseRepo(mirror, 3, { brokenAt: 1 });
    const cacheDir = join(dir, 'cache');
    const store = join(dir, 'results');
    const install = recordingInstall({ mirror, candidates: line });
    const run = standInRun(() => 1, cacheDir);
    const code = await bisectReleases({
      product: 'mariadb', good: GOOD, bad: BAD, commits: true, path: mirror, only: 'point-query', repeats: 8, adaptiveBudget: 1, store, cacheDir, suite: 'smoke',
      out: () => {}, write: () => {},
    }, { runReleases: run.runReleases, installRelease: install.installRelease });
    assert.equal(code, 3);
    assert.deepEqual(install.requests.map((r) => [r.ref, r.status]), [[undefined, 'installed'], [line[1], 'failed']]);
    assert.deepEqual(run.asked, [], 'nothing runs after the failed build');
    const [report] = await readBisectReports(store);
    assert.equal(report.probes[0].call, 'undecided');
    assert.match(report.probes[0].reason, new RegExp(`the probe could not run: the build of commit ${line[1]} failed: .*tagbench_undeclared_identifier`, 's'));
    assert.match(report.outcome.message, /Not guessing: the first bad commit is one of/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
