/**
 * Publish the local results store to the results branch (default `bench-data`) of a git
 * repository, safely against concurrent publishers on other runners.
 *
 * Each attempt starts from the branch's current tip in a private temporary repository: copy in
 * the local files (run records and their samples files, comparisons, bisect reports, change
 * points, logs; append-only: identical = no-op, different = refused; the one exception is
 * a change-point file, derived data that a newer one replaces), bring index.json up to date
 * (index.json is never merged: it is recomputed on top of whatever tip we got), commit, and
 * push without force.
 *
 * The branch holds years of records, so an attempt fetches the tip's trees but only the few
 * files it needs (a partial clone, `--filter=blob:none`, with a sparse work tree: index.json,
 * the failed attempts, the change points and the paths it writes) and indexes only the files
 * it adds (extendIndex). Only a branch whose index.json is missing or does not list exactly its
 * files is fetched whole and indexed from every file. A rejected push means the branch moved: start over on the new
 * tip after a randomized exponential backoff. The push is a single atomic ref update, so a
 * publisher killed at any moment leaves the branch at a valid commit, and the local store is
 * only ever read.
 */
import { mkdtemp, rm, readFile, writeFile, mkdir, readdir, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../errors.js';
import { readStoreFiles } from './read-records.js';
import { INDEX_FILE, REF_TOPS } from './store-paths.js';
import { buildIndex, extendIndex, readIndexFile } from './build-index.js';
import { sameSamples } from './record-samples.js';
import { migrateData } from './migrate-data.js';
import { RECORD_SCHEMA_VERSION, COMPARISON_SCHEMA_VERSION } from './validate-record.js';
import { runGit, remoteTip, redactUrls, originEnv } from './run-git.js';
import { readBisectReports, bisectReportPath } from './bisect-report.js';
import { readLegAttempts } from './leg-attempts.js';
import { collectRefArtifact } from './ref-artifact.js';

/** What git prints when a push lost to a concurrent one (non-fast-forward, or the ref lock). */
const RACE_MESSAGE = /non-fast-forward|fetch first|cannot lock ref|failed to update ref|incorrect old value|stale info/i;

/**
 * @typedef {object} PublishOptions
 * @property {string} repo git URL or local path of the repository holding the results branch
 * @property {string} [branch] results branch (default `bench-data`); created as an orphan when missing
 * @property {boolean} [logs] also publish raw logs of the published runs (default false)
 * @property {number} [maxLogBytes] logs larger than this are not published, and listed in
 *   `skippedLogs` (default 1 MiB)
 * @property {number} [logRetentionDays] raw logs (`logs/<run-id>/`) of runs that started more
 *   than this many days ago are removed from the branch's tip on each publish; the branch's
 *   history keeps them (default 90; 0 = keep every log on the tip). Logs are the one part of the
 *   branch that grows without bound (every tool output of every run), and the tip is what every
 *   clone and site build fetches.
 * @property {Date} [now] the time the retention counts from (tests pin it)
 * @property {number} [attempts] push attempts before giving up (default 12)
 * @property {number} [baseDelayMs] first backoff delay (default 250 ms), doubled per attempt
 * @property {number} [maxDelayMs] backoff cap (default 8000 ms); each delay is scaled by a random 0.5–1.5
 * @property {string} [message] commit message (default: generated from what is added)
 * @property {import('./ref-artifact.js').RefArtifactExpectation} [refsOnly] the store is a pull
 *   request's untrusted artifact: publish only its ref run's files, each checked against these
 *   values of the trusted plan, or nothing at all (ref-artifact.js; not with `logs`)
 * @property {(line: string) => void} [progress] progress lines (default: stderr)
 */

/**
 * @typedef {object} PublishResult
 * @property {'published'|'unchanged'} status unchanged = the branch already held every file
 * @property {string} repo the repository, credentials in its URL replaced by ***
 * @property {string} branch
 * @property {string|null} commit the branch tip after publishing
 * @property {number} attempts
 * @property {string[]} added relative paths added by this publish
 * @property {string[]} upgraded records whose older schemaVersion on the branch was replaced by
 *   their migrated form (see `tagbench store migrate`)
 * @property {string[]} replaced change-point files (derived data) replaced by the local, newer ones
 * @property {string[]} keptNewer change-point files left on the branch because the branch's is
 *   newer (createdAt) than the local one
 * @property {{path: string, bytes: number}[]} skippedLogs logs over maxLogBytes
 * @property {string[]} prunedLogs run ids whose logs left the tip (older than logRetentionDays)
 */

/** @typedef {{relPath: string, bytes: Buffer, kind: 'run-record'|'samples'|'comparison'|'change-points'|'bisect-report'|'leg-attempt'|'log'}} LocalFile */

/**
 * @param {string} storeDir local results store (read only)
 * @param {PublishOptions} options
 * @returns {Promise<PublishResult>}
 * @throws {UserError} when a local or branch file is invalid, a branch file differs from the local
 *   file at the same path, the repository is unreachable, or every attempt lost the race
 */
export async function publishToBranch(storeDir, options) {
  const branch = options.branch ?? 'bench-data';
  const repo = existsSync(options.repo) ? resolve(options.repo) : options.repo;
  const attempts = options.attempts ?? 12;
  const progress = options.progress ?? ((/** @type {string} */ line) => process.stderr.write(`${line}\n`));
  const check = await runGit(['check-ref-format', '--branch', branch], { check: false });
  if (check.code !== 0) throw new UserError(`--branch ${JSON.stringify(branch)} is not a valid git branch name`);

  if (options.refsOnly && options.logs) throw new UserError('publish --refs-only publishes no logs: a pull request\'s run never writes logs/ on the results branch; drop --logs');
  const { files, skippedLogs } = options.refsOnly ? { files: await collectRefArtifact(storeDir, options.refsOnly), skippedLogs: [] } : await collectLocalFiles(storeDir, options);
  for (const s of skippedLogs) progress(`publish: not publishing ${s.path} (${s.bytes} bytes > ${options.maxLogBytes ?? 1 << 20})`);
  const work = await mkdtemp(join(tmpdir(), 'tagbench-publish-'));
  const env = originEnv(repo);
  try {
    await runGit(['init', '-q', `--initial-branch=${branch}`, work]);
    const email = await runGit(['config', 'user.email'], { cwd: work, check: false });
    if (email.code !== 0) {
      await runGit(['config', 'user.name', 'tagbench'], { cwd: work });
      await runGit(['config', 'user.email', 'tagbench@localhost'], { cwd: work });
    }
    // A partial clone of "origin", whose URL reaches git only through the environment (originEnv).
    for (const [key, value] of [['core.repositoryformatversion', '1'], ['extensions.partialClone', 'origin'], ['remote.origin.promisor', 'true'], ['remote.origin.partialclonefilter', 'blob:none']]) {
      await runGit(['config', key, value], { cwd: work });
    }
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const tip = await remoteTip(repo, branch);
      progress(`publish: attempt ${attempt}/${attempts}: ${tip ? `${branch} is at ${tip.slice(0, 12)}` : `${branch} does not exist yet, creating it`}`);
      const previous = await checkoutTip(work, branch, tip, files.map((f) => f.relPath), env, progress);
      const applied = await applyFiles(work, files, branch);
      for (const p of applied.keptNewer) progress(`publish: keeping ${p} of ${branch}: it was computed after the local one`);
      const index = previous ? await extendIndex(work, previous, [...applied.added, ...applied.upgraded, ...applied.replaced]) : await buildIndex(work);
      const prunedLogs = await pruneLogs(work, index, options.logRetentionDays ?? 90, options.now ?? new Date());
      if (prunedLogs.length > 0) {
        progress(`publish: the logs of ${prunedLogs.length} run${prunedLogs.length === 1 ? '' : 's'} older than ${options.logRetentionDays ?? 90} days leave the tip (the branch's history keeps them)`);
        applied.added = applied.added.filter((p) => !prunedLogs.some((id) => p.startsWith(`logs/${id}/`)));
      }
      await runGit(['add', '-A', '.'], { cwd: work, env });
      const staged = await runGit(['diff', '--cached', '--quiet'], { cwd: work, check: false });
      if (staged.code === 0) {
        progress(`publish: ${branch} already holds every file; nothing to push`);
        return { status: 'unchanged', repo: redactUrls(repo), branch, commit: tip, attempts: attempt, added: [], upgraded: [], replaced: [], keptNewer: applied.keptNewer, skippedLogs, prunedLogs };
      }
      await runGit(['commit', '-q', '--no-verify', '-m', options.message ?? commitMessage(applied.added, applied.replaced, prunedLogs)], { cwd: work, env });
      const commit = (await runGit(['rev-parse', 'HEAD'], { cwd: work })).stdout.trim();
      progress(`publish: pushing ${commit.slice(0, 12)} (${applied.added.length} new file${applied.added.length === 1 ? '' : 's'}${applied.replaced.length > 0 ? `, ${applied.replaced.length} change-point file${applied.replaced.length === 1 ? '' : 's'} replaced` : ''})`);
      const push = await runGit(['push', '--quiet', '--no-verify', 'origin', `HEAD:refs/heads/${branch}`], { cwd: work, check: false, env });
      if (push.code === 0) {
        progress(`publish: ${branch} is now at ${commit.slice(0, 12)}`);
        return { status: 'published', repo: redactUrls(repo), branch, commit, attempts: attempt, ...applied, skippedLogs, prunedLogs };
      }
      // A failed push is a lost race if the branch moved, or if git says the ref update lost to
      // another one still in flight (its lock held, the tip not yet moved). Anything else
      // (permissions, hooks, network) is a real error that retrying would only repeat.
      const now = await remoteTip(repo, branch);
      if (now === tip && !RACE_MESSAGE.test(push.stderr)) throw new UserError(redactUrls(`git push to ${repo} (branch ${branch}) failed:\n${push.stderr.trim()}`));
      if (attempt < attempts) {
        const delayMs = Math.min(options.maxDelayMs ?? 8000, (options.baseDelayMs ?? 250) * 2 ** (attempt - 1)) * (0.5 + Math.random());
        progress(`publish: ${now === tip ? `another push to ${branch} was in flight` : `${branch} moved to ${now?.slice(0, 12)} meanwhile`}; retrying on top of it in ${(delayMs / 1000).toFixed(1)} s`);
        await sleep(delayMs);
      }
    }
    throw new UserError(`publishing to ${redactUrls(repo)} (branch ${branch}) failed: the branch moved before each of ${attempts} pushes (other publishers). ` +
      'Nothing was lost and the local store is unchanged: run the same command again, or raise --attempts.');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Point the private work tree at the remote tip (or at an empty orphan branch), with only the
 * files this publish needs in it, and say whether the tip's index.json can be extended.
 * @param {string} work
 * @param {string} branch
 * @param {string|null} tip
 * @param {string[]} paths the local files' paths (checked out where the branch has them, to compare)
 * @param {Record<string, string>} env originEnv()
 * @param {(line: string) => void} progress
 * @returns {Promise<import('./build-index.js').StoreIndex|null>} the tip's index when it lists
 *   exactly the branch's files (then only the added files need indexing); null = index every
 *   file (the work tree then holds the whole branch)
 */
async function checkoutTip(work, branch, tip, paths, env, progress) {
  if (!tip) {
    await runGit(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], { cwd: work });
    const head = await runGit(['rev-parse', '--verify', '-q', 'HEAD'], { cwd: work, check: false });
    if (head.code === 0) {
      // An earlier attempt committed an orphan here; start the orphan again from nothing.
      await runGit(['update-ref', '-d', `refs/heads/${branch}`], { cwd: work });
    }
    await runGit(['config', 'core.sparseCheckout', 'false'], { cwd: work });
    await runGit(['read-tree', '--empty'], { cwd: work });
    await runGit(['clean', '-q', '-f', '-d', '-x'], { cwd: work });
    return null;
  }
  // Depth 1 and no file contents: building the next commit needs the tip's trees; the remote
  // has the history, and the files this publish reads are fetched when checked out.
  await runGit(['fetch', '-q', '--depth', '1', '--filter=blob:none', 'origin', `+refs/heads/${branch}:refs/remotes/origin/${branch}`], { cwd: work, env });
  // Non-cone patterns, one per file: store paths are made of [A-Za-z0-9._-] only (no pattern syntax).
  const patterns = [`/${INDEX_FILE}`, '/attempts/', '/changepoints/', ...paths.map((p) => `/${p}`)];
  await writeSparse(work, patterns);
  await runGit(['checkout', '-q', '-f', '-B', branch, `refs/remotes/origin/${branch}`], { cwd: work, env });
  await runGit(['clean', '-q', '-f', '-d', '-x'], { cwd: work });
  const index = await readIndexFile(join(work, INDEX_FILE)).catch(() => null);
  const listed = (await runGit(['ls-tree', '-r', '--name-only', 'HEAD', '--', 'runs', 'verdicts', 'changepoints', REF_TOPS.runs, REF_TOPS.verdicts], { cwd: work })).stdout
    .split('\n').filter((p) => p.endsWith('.json') && !p.split('/').some((part) => part.startsWith('.')));
  const indexed = new Set(index ? [...index.runs, ...index.comparisons, ...(index.refRuns ?? []), ...(index.refComparisons ?? []), ...(index.changePoints ?? [])].map((e) => e.path) : []);
  if (index && listed.length === indexed.size && listed.every((p) => indexed.has(p))) {
    const adding = paths.filter((p) => p.endsWith('.json') && !indexed.has(p)).length;
    progress(`publish: indexing ${adding} new file${adding === 1 ? '' : 's'} on top of ${INDEX_FILE} (${index.runs.length} run${index.runs.length === 1 ? '' : 's'}, ${index.comparisons.length} comparison${index.comparisons.length === 1 ? '' : 's'})`);
    return index;
  }
  progress(`publish: ${branch}'s ${INDEX_FILE} ${index ? 'does not list exactly its files' : 'is missing or unreadable'}: fetching the whole branch to index every file`);
  await writeSparse(work, ['/*']);
  await runGit(['read-tree', '-mu', 'HEAD'], { cwd: work, env });
  return null;
}

/**
 * Turn the sparse work tree on with these patterns (the files git checks out).
 * @param {string} work
 * @param {string[]} patterns
 */
async function writeSparse(work, patterns) {
  await runGit(['config', 'core.sparseCheckout', 'true'], { cwd: work });
  await mkdir(join(work, '.git', 'info'), { recursive: true });
  await writeFile(join(work, '.git', 'info', 'sparse-checkout'), `${patterns.join('\n')}\n`);
}


/**
 * Copy the local files into the work tree, append-only except for change-point files.
 * @param {string} work
 * @param {LocalFile[]} files
 * @param {string} branch for messages
 * @returns {Promise<{added: string[], upgraded: string[], replaced: string[], keptNewer: string[]}>}
 * @throws {UserError} listing every path whose branch content differs from the local file
 */
async function applyFiles(work, files, branch) {
  /** @type {string[]} */
  const added = [];
  /** @type {string[]} */
  const upgraded = [];
  /** @type {string[]} */
  const replaced = [];
  /** @type {string[]} */
  const keptNewer = [];
  /** @type {string[]} */
  const conflicts = [];
  for (const file of files) {
    const target = join(work, file.relPath);
    const existing = await readFile(target).catch(() => null);
    if (existing === null) {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.bytes);
      added.push(file.relPath);
      continue;
    }
    if (existing.equals(file.bytes)) continue;
    if (file.kind === 'samples' && sameSamples(existing, file.bytes)) continue;
    const verdict = compareJson(existing.toString('utf8'), file);
    if (verdict === 'same') continue;
    if (verdict === 'upgrade') {
      await writeFile(target, file.bytes);
      upgraded.push(file.relPath);
      continue;
    }
    if (verdict === 'replace') {
      await writeFile(target, file.bytes);
      replaced.push(file.relPath);
      continue;
    }
    if (verdict === 'keep') {
      keptNewer.push(file.relPath);
      continue;
    }
    conflicts.push(file.relPath);
  }
  if (conflicts.length > 0) {
    throw new UserError(`branch ${branch} already holds a different file at ${conflicts.length} path${conflicts.length > 1 ? 's' : ''} (the results branch is append-only; nothing was pushed):\n  - ${conflicts.join('\n  - ')}\n` +
      'A run id must be new for every run: if the local file is a new run, give it a new id; compare both versions before removing either.');
  }
  return { added, upgraded, replaced, keptNewer };
}

/**
 * @param {string} existing text on the branch
 * @param {LocalFile} file
 * @returns {'same'|'upgrade'|'replace'|'keep'|'different'} replace / keep: change-point files only
 */
function compareJson(existing, file) {
  if (file.kind === 'log') return 'different';
  if (file.kind === 'samples') return 'different';
  let old;
  let mine;
  try {
    old = JSON.parse(existing);
    mine = JSON.parse(file.bytes.toString('utf8'));
  } catch {
    return 'different';
  }
  if (isDeepStrictEqual(old, mine)) return 'same';
  // Bisect reports and leg attempts have one schema version so far: nothing to upgrade, and never rewritten.
  if (file.kind === 'bisect-report' || file.kind === 'leg-attempt') return 'different';
  if (file.kind === 'change-points') {
    // Derived data over a whole series, regenerated by each compare: the newer computation
    // wins, so a runner publishing late with an older series never undoes a newer one. The
    // branch file is validated with the rest of the branch when index.json is rebuilt.
    return typeof old?.createdAt === 'string' && old.createdAt > mine.createdAt ? 'keep' : 'replace';
  }
  // The one allowed replacement of a record: the branch holds an older schemaVersion of exactly this file.
  const newest = file.kind === 'run-record' ? RECORD_SCHEMA_VERSION : COMPARISON_SCHEMA_VERSION;
  if (typeof old?.schemaVersion === 'number' && old.schemaVersion < (mine?.schemaVersion ?? 0)) {
    try {
      if (isDeepStrictEqual(migrateData(file.kind, old, newest).data, mine)) return 'upgrade';
    } catch {
      return 'different';
    }
  }
  return 'different';
}

/**
 * The files to publish, validated (readStoreFiles refuses a bad store before anything is pushed).
 * @param {string} storeDir
 * @param {PublishOptions} options
 * @returns {Promise<{files: LocalFile[], skippedLogs: {path: string, bytes: number}[]}>}
 */
async function collectLocalFiles(storeDir, options) {
  if (!existsSync(storeDir)) throw new UserError(`results store ${storeDir} does not exist; run \`tagbench run --store ${storeDir}\` first or pass --store`);
  /** @type {LocalFile[]} */
  const files = [];
  // The ad-hoc ref runs' records and comparisons (refs/) too: the site shows them on their own page.
  const runs = [...await readStoreFiles(storeDir, 'run-record'), ...await readStoreFiles(storeDir, 'run-record', { refs: true })];
  const comparisons = [...await readStoreFiles(storeDir, 'comparison'), ...await readStoreFiles(storeDir, 'comparison', { refs: true })];
  const changePoints = await readStoreFiles(storeDir, 'change-points');
  for (const [kind, list] of /** @type {const} */ ([['run-record', runs], ['comparison', comparisons], ['change-points', changePoints]])) {
    for (const f of list) files.push({ relPath: f.relPath, bytes: await readFile(join(storeDir, f.relPath)), kind });
  }
  // Each record's samples file, first: on the branch a record never names a file that is not there.
  const samples = runs.filter((r) => r.data.samples).map((r) => join(dirname(r.relPath), r.data.samples.file));
  for (const relPath of samples.reverse()) files.unshift({ relPath, bytes: await readFile(join(storeDir, relPath)), kind: 'samples' });
  // Append-only like comparisons; readBisectReports refuses an invalid one before anything is pushed.
  for (const report of await readBisectReports(storeDir)) {
    const relPath = bisectReportPath(report);
    files.push({ relPath, bytes: await readFile(join(storeDir, relPath)), kind: 'bisect-report' });
  }
  // Failed leg attempts (watch's back-off): append-only too, one file each.
  for (const attempt of await readLegAttempts(storeDir)) {
    files.push({ relPath: attempt.relPath, bytes: await readFile(join(storeDir, attempt.relPath)), kind: 'leg-attempt' });
  }
  /** @type {{path: string, bytes: number}[]} */
  const skippedLogs = [];
  if (options.logs) {
    const maxBytes = options.maxLogBytes ?? 1 << 20;
    for (const run of runs) {
      const dir = join('logs', run.data.id);
      const names = await readdir(join(storeDir, dir)).catch(() => /** @type {string[]} */ ([]));
      for (const name of names.filter((n) => !n.startsWith('.')).sort()) {
        const relPath = join(dir, name);
        const { size } = await stat(join(storeDir, relPath));
        if (size > maxBytes) skippedLogs.push({ path: relPath, bytes: size });
        else files.push({ relPath, bytes: await readFile(join(storeDir, relPath)), kind: 'log' });
      }
    }
  }
  return { files, skippedLogs };
}

/**
 * Remove from the tip the logs of runs older than the retention (their files leave the index of
 * the work tree; nothing is fetched for it: the trees say which logs exist).
 * @param {string} work
 * @param {import('./build-index.js').StoreIndex} index the branch's index after this publish
 * @param {number} days 0 = keep every log
 * @param {Date} now
 * @returns {Promise<string[]>} run ids whose logs were removed
 */
async function pruneLogs(work, index, days, now) {
  if (days === 0) return [];
  const cutoff = now.getTime() - days * 86_400_000;
  const old = new Set(index.runs.filter((r) => Date.parse(r.startedAt) < cutoff).map((r) => r.id));
  const withLogs = (await runGit(['ls-files', '--', 'logs/'], { cwd: work })).stdout.split('\n').filter(Boolean);
  const ids = [...new Set(withLogs.map((p) => p.split('/')[1]).filter((id) => old.has(id)))].sort();
  for (const id of ids) {
    await runGit(['rm', '-r', '-q', '--cached', '--sparse', '--ignore-unmatch', '--', `logs/${id}`], { cwd: work });
    await rm(join(work, 'logs', id), { recursive: true, force: true });
  }
  return ids;
}

/** @param {string[]} added @param {string[]} replaced @param {string[]} [prunedLogs] run ids */
function commitMessage(added, replaced, prunedLogs = []) {
  const samples = added.filter((p) => p.endsWith('.samples.json.gz')).length;
  const runs = added.filter((p) => (p.startsWith('runs/') || p.startsWith(`${REF_TOPS.runs}/`)) && p.endsWith('.json'));
  const cmps = added.filter((p) => p.startsWith('verdicts/') || p.startsWith(`${REF_TOPS.verdicts}/`));
  const cps = added.filter((p) => p.startsWith('changepoints/')).length + replaced.length;
  const bisects = added.filter((p) => p.startsWith('bisects/')).length;
  const attempts = added.filter((p) => p.startsWith('attempts/')).length;
  const logs = added.length - runs.length - samples - cmps.length - (cps - replaced.length) - bisects - attempts;
  const parts = [`${runs.length} run${runs.length === 1 ? '' : 's'}`, `${cmps.length} comparison${cmps.length === 1 ? '' : 's'}`];
  if (cps > 0) parts.push(`${cps} change-point file${cps === 1 ? '' : 's'}`);
  if (bisects > 0) parts.push(`${bisects} bisect report${bisects === 1 ? '' : 's'}`);
  if (attempts > 0) parts.push(`${attempts} failed leg attempt${attempts === 1 ? '' : 's'}`);
  if (logs > 0) parts.push(`${logs} log${logs === 1 ? '' : 's'}`);
  if (prunedLogs.length > 0) parts.push(`logs of ${prunedLogs.length} old run${prunedLogs.length === 1 ? '' : 's'} pruned`);
  const lines = runs.slice(0, 20).map((p) => `- ${p.replace(/^runs\//, '').replace(/\.json$/, '')}`);
  if (runs.length > 20) lines.push(`- ... and ${runs.length - 20} more`);
  return `tagbench publish: ${added.length + replaced.length + prunedLogs.length === 0 ? 'regenerate index.json' : parts.join(', ')}\n\n${lines.join('\n')}`.trim();
}
