/**
 * Candidates of `tagbench bisect --commits`: the commits between the good and the bad release's
 * tags, first-parent (the commits of the release branch itself, each a merge of a feature as a
 * whole), oldest first, read from the product's git repository (its gitUrl, or a local mirror).
 * A remote repository is fetched once, tags and commits only (no trees, no files), into a bare
 * repository of the install cache; a local mirror is read in place.
 *
 * The number of commits is capped: on a runner each probe builds a server (an hour), so a range
 * wider than the cap is refused with what to do instead (bisect the releases first).
 */
import { execFile } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { UserError } from '../errors.js';
import { maxProbes } from './bisect-search.js';

const execFileAsync = promisify(execFile);

/** 63 commits = 2^6 - 1: at most 6 builds (and probes) when every probe decides. */
export const DEFAULT_MAX_COMMITS = 63;

/** How many characters of a commit id name it in the report and label its server. */
const SHORT_SHA = 12;

/** A subject longer than this is cut in candidate names (the full one is in git). */
const SUBJECT_CHARS = 72;

/**
 * @typedef {object} CommitInfo
 * @property {string} sha full commit id
 * @property {string} subject first line of the commit message
 */

/**
 * @param {string} dir repository (or bare repository) to run in
 * @param {string[]} args
 * @returns {Promise<string>} stdout
 * @throws {UserError} git's own message, with the command
 */
async function git(dir, args) {
  try {
    const { stdout } = await execFileAsync('git', ['-C', dir, ...args], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
    return stdout;
  } catch (err) {
    const e = /** @type {NodeJS.ErrnoException & {stderr?: string}} */ (err);
    if (e.code === 'ENOENT') throw new UserError('bisect --commits needs git (setup/install.sh)');
    throw new UserError(`git ${args.join(' ')} (in ${dir}) failed: ${(e.stderr ?? e.message).trim().split('\n').slice(-2).join(' ')}`);
  }
}

/**
 * The upstream tag of a version, from the product's `build.tagTemplate`.
 * @param {{name: string, build?: {tagTemplate?: string}}} product
 * @param {string} version
 * @returns {string}
 * @throws {UserError} when the product has no tag template
 */
export function tagOf(product, version) {
  const template = product.build?.tagTemplate;
  if (!template) throw new UserError(`configs/products/${product.name}.yml has no build.tagTemplate, so bisect --commits cannot tell which tag holds ${product.name} ${version}; add e.g. build: { tagTemplate: "${product.name}-{version}" }`);
  return template.replaceAll('{version}', version);
}

/**
 * A local folder (a mirror or clone to read in place), as opposed to a URL.
 * @param {string} repo
 * @returns {boolean}
 */
export function isLocalRepository(repo) {
  return !/^[\w+.-]+:\/\//.test(repo) && !/^[^/]+@[^/]+:/.test(repo);
}

/**
 * The first-parent commits after `goodTag` up to, but not including, `badTag`'s commit, oldest first.
 * @param {{repo: string, goodTag: string, badTag: string, scratchDir: string}} c repo: a local
 *   folder (read in place) or a URL (its two tags fetched, commits only, into scratchDir)
 * @returns {Promise<CommitInfo[]>}
 * @throws {UserError} a tag that is missing, a good tag that is not an ancestor of the bad one
 */
export async function listCommitsBetween({ repo, goodTag, badTag, scratchDir }) {
  /** @type {string} */
  let dir;
  if (isLocalRepository(repo)) {
    dir = resolve(repo);
    if (!(await stat(dir).then((s) => s.isDirectory(), () => false))) throw new UserError(`--path ${repo}: no such folder (a local git mirror of the product's repository)`);
  } else {
    dir = scratchDir;
    await mkdir(dir, { recursive: true });
    if (!(await stat(join(dir, 'HEAD')).then(() => true, () => false))) await git(dir, ['init', '-q', '--bare']);
    const refspecs = [goodTag, badTag].map((t) => `+refs/tags/${t}:refs/tags/${t}`);
    // Commits only (tree:0): the listing needs no files, and a server's history is large.
    await git(dir, ['fetch', '-q', '--no-tags', '--filter=tree:0', repo, ...refspecs])
      .catch(() => git(dir, ['fetch', '-q', '--no-tags', repo, ...refspecs]));
  }
  const commitOf = async (/** @type {string} */ tag, /** @type {string} */ which) => {
    const out = await git(dir, ['rev-parse', '--verify', '-q', `refs/tags/${tag}^{commit}`]).catch(() => '');
    if (!out.trim()) throw new UserError(`the ${which} release's tag '${tag}' is not in ${repo} (build.tagTemplate of the product; fetch the tags into the mirror)`);
    return out.trim();
  };
  const good = await commitOf(goodTag, 'good');
  const bad = await commitOf(badTag, 'bad');
  const ancestor = await execFileAsync('git', ['-C', dir, 'merge-base', '--is-ancestor', good, bad]).then(() => true, () => false);
  if (!ancestor) throw new UserError(`tag ${goodTag} is not an ancestor of ${badTag} in ${repo}: the commits between them are not one history; bisect the releases instead (without --commits)`);
  const out = await git(dir, ['log', '--first-parent', '--reverse', '--format=%H%x09%s', `${good}..${bad}`]);
  return out.split('\n').filter(Boolean)
    .map((line) => { const [sha, ...subject] = line.split('\t'); return { sha, subject: subject.join('\t') }; })
    .filter((c) => c.sha !== bad);
}

/**
 * How a commit candidate is named in the report: short id and subject.
 * @param {CommitInfo} commit
 * @returns {string}
 */
export function commitName(commit) {
  const subject = commit.subject.length > SUBJECT_CHARS ? `${commit.subject.slice(0, SUBJECT_CHARS - 1)}…` : commit.subject;
  return `${commit.sha.slice(0, SHORT_SHA)} (${subject})`;
}

/**
 * @typedef {object} CommitCandidate a bisect candidate that is a commit
 * @property {string} name short id and subject
 * @property {string} version the bad release's version: the commits lead up to it (its line's build flags)
 * @property {'source'} provider
 * @property {string} label the short id: tells its server apart from the good release's in a run
 * @property {string} sha full commit id, the ref the source provider builds
 */

/**
 * The commit candidates of a bisect, capped.
 * @param {CommitInfo[]} commits oldest first
 * @param {{version: string, goodTag: string, badTag: string, maxCommits: number}} c
 * @returns {CommitCandidate[]}
 * @throws {UserError} more commits than the cap, saying how many builds that would take
 */
export function commitCandidates(commits, { version, goodTag, badTag, maxCommits }) {
  if (commits.length > maxCommits) {
    throw new UserError(`${commits.length} commits lie between ${goodTag} and ${badTag} (first-parent), more than --max-commits ${maxCommits}: `
      + `that is up to ${maxProbes(commits.length)} server builds of about an hour each on a runner. Narrow the range first (bisect the releases between the two, `
      + `or pick closer --good and --bad releases), or raise --max-commits if that many builds are meant.`);
  }
  return commits.map((c) => ({ name: commitName(c), version, provider: 'source', label: c.sha.slice(0, SHORT_SHA), sha: c.sha }));
}

/**
 * Elapsed time for progress lines: `42 s`, `12 min`, `2 h 05 min`.
 * @param {number} seconds
 * @returns {string}
 */
export function formatElapsed(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
