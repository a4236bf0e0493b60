/**
 * A candidate given as a git ref of the product's repository or of a fork (a branch, a tag, a
 * full commit id, a pull request `pull/N/head`), resolved with real git: the commit it names,
 * the base it is compared with, and the version its records carry. Nothing is guessed: every
 * commit comes from the repository (`git ls-remote`, then a fetch), and a ref git does not know
 * is an error naming the repository.
 *
 * The commits are fetched, without trees or files, into a bare repository of the install cache
 * (`<cacheDir>/.git-refs/<product>.git`), with the repository's release tags: the ancestry
 * questions (which release the ref branched from, the merge base with a pull request's base)
 * need history, not files. The next resolution fetches only what is new. The build itself is the
 * source provider's, of exactly the resolved commit (its install cache keys a build by commit).
 *
 * The base, one of:
 * - `branched-from` (default): the newest release (highest version of a line's tagPattern) whose
 *   tag is an ancestor of the candidate and is not on the candidate's own commit, built from its tag;
 * - `pull-request-base` (`baseRef`): the merge base of the candidate and that ref (a pull
 *   request's base branch): what the pull request changes is what lies between the two;
 * - `named` (`baseVersion`): that release, built from its tag.
 * Versions: a commit a release tag names is that release (`10.11.19`); any other commit is
 * `<the release it branched from>+<first 12 hex of the commit>` (`10.11.18+1a2b3c4d5e6f`): the
 * line is the release's (its build flags, its thresholds), and the name never equals a release's.
 */
import { resolve } from 'node:path';
import { UserError } from '../../errors.js';
import { COMMIT_RE } from '../install-cache.js';
import { REF_RE } from './build-settings.js';
import { openRefCache, ReleaseTags } from './ref-cache.js';

export { REF_CACHE_DIR } from './ref-cache.js';

/** How many hex digits of a commit name it in a version (as the install cache's folder names). */
export const SHORT_COMMIT = 12;

/** A pull request's head as GitHub (and Gitea, GitLab mirrors) publish it in the base repository. */
const PULL_RE = /^(?:refs\/)?pull\/([1-9][0-9]{0,9})\/head$/;

/**
 * @typedef {object} ParsedRef a ref as the user gave it, classified before any git runs
 * @property {string} name as given
 * @property {'commit'|'pull'|'name'} kind
 * @property {string|null} commit kind commit: the full id
 * @property {number|null} pullRequest kind pull: its number
 * @property {string[]} candidates full ref names that may hold it, in the order tried
 */

/**
 * The version of a commit that no release tag names: the release it branched from and its
 * short commit (`10.11.18+1a2b3c4d5e6f`), built by itself rather than from a tag.
 * @param {string} release
 * @param {string} commit full commit id
 * @returns {string}
 */
export function commitVersion(release, commit) {
  return `${release}+${commit.slice(0, SHORT_COMMIT)}`;
}

/**
 * @param {string} version
 * @returns {boolean} whether a ref run's version is a commit's (commitVersion), not a release's
 */
export function isCommitVersion(version) {
  return new RegExp(`\\+[0-9a-f]{${SHORT_COMMIT}}$`).test(version);
}

/**
 * @param {string} ref
 * @param {string} what option name for the message (`--ref`, `--base-ref`)
 * @returns {ParsedRef}
 * @throws {UserError} a ref that is no git ref name, an abbreviated commit id
 */
export function parseGitRef(ref, what = '--ref') {
  const name = String(ref ?? '').trim();
  if (COMMIT_RE.test(name)) return { name, kind: 'commit', commit: name, pullRequest: null, candidates: [] };
  const pull = PULL_RE.exec(name);
  if (pull) return { name, kind: 'pull', commit: null, pullRequest: Number(pull[1]), candidates: [`refs/pull/${pull[1]}/head`] };
  if (!REF_RE.test(name) || name.endsWith('/') || name.endsWith('.lock') || name.includes('//')) {
    throw new UserError(`${what} '${name}' is not a git ref: give a branch (bb-10.11-fix), a tag (mariadb-10.11.19), a full commit id (40 hex digits) or a pull request's head (pull/123/head)`);
  }
  if (/^[0-9a-f]{7,39}$/.test(name)) {
    throw new UserError(`${what} '${name}' looks like an abbreviated commit id: give the full id (git rev-parse ${name}), since a short one may name two commits and a remote cannot be asked for one`);
  }
  if (name.startsWith('refs/')) return { name, kind: 'name', commit: null, pullRequest: null, candidates: [name] };
  return { name, kind: 'name', commit: null, pullRequest: null, candidates: [`refs/heads/${name}`, `refs/tags/${name}`] };
}

/**
 * A repository address as records keep it: without the user name and password a URL may carry
 * (`https://x-access-token:…@github.com/…`); a local folder absolute.
 * @param {string} repo URL, scp-like address (`git@host:path`) or local folder
 * @returns {string}
 */
export function redactRepository(repo) {
  if (isLocalRepository(repo)) return resolve(repo);
  if (!/^[\w+.-]+:\/\//.test(repo)) return repo;
  try {
    const url = new URL(repo);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return repo.replace(/^([\w+.-]+:\/\/)[^@/]*@/, '$1');
  }
}

/**
 * @param {string} repo
 * @returns {boolean} a local folder, not a URL nor an scp-like address
 */
export function isLocalRepository(repo) {
  return !/^[\w+.-]+:\/\//.test(repo) && !/^[^/]+@[^/]+:/.test(repo);
}

/**
 * @typedef {object} RefSide one side of a ref run: what is built and what its records say
 * @property {string} version the records' version (`10.11.18`, `10.11.18+1a2b3c4d5e6f`)
 * @property {string} commit full commit id
 * @property {string|null} tag the release tag on that commit, when the side is a release
 * @property {string} name the ref this side was named by: the candidate's ref as given; the
 *   base's tag, or its --base-ref
 */

/**
 * @typedef {object} ResolvedRefRun
 * @property {string} product
 * @property {string} repository where the code is, as records keep it (credentials removed)
 * @property {string} fetchFrom where the build fetches from (the address as given: a token in it
 *   stays out of every record)
 * @property {number|null} pullRequest
 * @property {RefSide} candidate
 * @property {RefSide} base
 * @property {'branched-from'|'pull-request-base'|'named'} baseHow
 * @property {string|null} baseRef the base's ref: its release tag, or --base-ref as given
 */

/**
 * @typedef {object} ResolveRefOptions
 * @property {import('../types.js').InstallProductConfig} product
 * @property {string} ref the candidate
 * @property {string} [repo] repository URL or local folder; default the product's gitUrl
 * @property {string} [baseRef] a pull request's base: the base is the merge base with it
 * @property {string} [baseVersion] a named release as the base (built from its tag)
 * @property {string} [commit] the full commit id the candidate is pinned to (a pull request's head
 *   when the workflow started: a push since then moves the ref, not what is measured); it is
 *   fetched from the repository, and the ref names it in the records
 * @property {string} cacheDir the install cache (the bare repository goes in it)
 * @property {(line: string) => void} [log]
 */

/**
 * Resolve a ref run (see the module comment).
 * @param {ResolveRefOptions} o
 * @returns {Promise<ResolvedRefRun>}
 * @throws {UserError} an unknown ref, an unreachable repository, no release tag to branch from,
 *   both baseRef and baseVersion, a base equal to the candidate
 */
export async function resolveRefRun(o) {
  const { product } = o;
  const log = o.log ?? (() => {});
  if (o.baseRef !== undefined && o.baseVersion !== undefined) throw new UserError('give one base: --base <version> (a release) or --base-ref <ref> (a pull request\'s base), not both');
  const fetchFrom = o.repo ?? product.gitUrl;
  if (!fetchFrom) throw new UserError(`configs/products/${product.name}.yml has no gitUrl: give the repository of the ref (--repo <url or folder>)`);
  const git = await openRefCache(o.cacheDir, product);
  /** @type {RefSource} */
  const src = {
    git,
    product,
    from: isLocalRepository(fetchFrom) ? resolve(fetchFrom) : fetchFrom,
    repository: redactRepository(fetchFrom),
    // A fork's tags stop where it was forked: the upstream's are fetched when the fork's say nothing.
    upstream: product.gitUrl && product.gitUrl !== fetchFrom ? product.gitUrl : null,
    releases: new ReleaseTags(git, product),
    log,
  };
  const { parsed, commit: candidateCommit } = await fetchCandidate(o, src);
  await git.fetch(src.from, ['+refs/tags/*:refs/tags/*'], `the tags of ${src.repository}`);
  const { base, baseHow } = await resolveBase(o, src, candidateCommit);
  if (base.commit === candidateCommit) {
    throw new UserError(`the base (${baseHow === 'named' ? `release ${base.version}` : baseHow === 'pull-request-base' ? `merge base with ${o.baseRef}` : `release ${base.version}`}) is commit ${base.commit}, the candidate's own: there is nothing to compare. Give another base (--base <version>, --base-ref <ref>)`);
  }
  const candidate = { ...(await versionOf(src, candidateCommit, baseHow === 'named' ? base.version : null)), commit: candidateCommit, name: parsed.name };
  if (candidate.version === base.version) throw new UserError(`the candidate and its base are both ${product.name} ${base.version} (commits ${candidateCommit} and ${base.commit}); give another base`);
  log(`base: ${product.name} ${base.version} at ${base.commit} (${describeHow(baseHow, base.name)}); candidate: ${product.name} ${candidate.version}`);
  return { product: product.name, repository: src.repository, fetchFrom, pullRequest: parsed.pullRequest, candidate, base, baseHow, baseRef: base.name };
}

/**
 * @typedef {object} RefSource where a ref run's commits come from
 * @property {import('./ref-cache.js').RefCache} git the install cache's bare repository
 * @property {import('../types.js').InstallProductConfig} product
 * @property {string} from the repository fetched from (a local folder made absolute)
 * @property {string} repository the repository as messages and records name it (no credentials)
 * @property {string|null} upstream the product's gitUrl when the ref is of a fork, else null
 * @property {ReleaseTags} releases the product's release tags in the cache
 * @property {(line: string) => void} log
 */

/**
 * The candidate's commit: what the ref names, or the pinned commit when it has moved on since.
 * @param {ResolveRefOptions} o
 * @param {RefSource} src
 * @returns {Promise<{parsed: ParsedRef, commit: string}>}
 * @throws {UserError} an unknown ref, a malformed pinned commit
 */
async function fetchCandidate(o, src) {
  const parsed = parseGitRef(o.ref, '--ref');
  const refCommit = await fetchRef(src.git, src.from, parsed, src.repository);
  src.log(`${o.ref} of ${src.repository} is commit ${refCommit}`);
  if (o.commit === undefined || o.commit === refCommit) return { parsed, commit: refCommit };
  if (!COMMIT_RE.test(o.commit)) throw new UserError(`--commit '${o.commit}' is not a full commit id (40 or 64 lower-case hex digits)`);
  const commit = await fetchRef(src.git, src.from, parseGitRef(o.commit, '--commit'), src.repository);
  src.log(`${o.ref} has moved on to ${refCommit}; building the pinned commit ${commit}`);
  return { parsed, commit };
}

/**
 * The base of a ref run: the named release, the merge base with --base-ref, or the release the
 * candidate branched from.
 * @param {ResolveRefOptions} o
 * @param {RefSource} src
 * @param {string} candidateCommit
 * @returns {Promise<{base: RefSide, baseHow: ResolvedRefRun['baseHow']}>}
 * @throws {UserError} a base tag not found, no common history, no release to branch from
 */
async function resolveBase(o, src, candidateCommit) {
  const { git, product, repository, upstream } = src;
  if (o.baseVersion !== undefined) {
    const tag = releaseTag(product, o.baseVersion);
    let commit = await git.commitOf(`refs/tags/${tag}`);
    if (!commit && upstream) {
      await git.fetch(upstream, [`+refs/tags/${tag}:refs/tags/${tag}`], `tag ${tag} of ${redactRepository(upstream)}`).catch(() => undefined);
      commit = await git.commitOf(`refs/tags/${tag}`);
    }
    if (!commit) throw new UserError(`--base ${o.baseVersion}: its tag ${tag} (build.tagTemplate of configs/products/${product.name}.yml) is not in ${repository}${upstream ? ` nor in ${redactRepository(upstream)}` : ''}`);
    return { base: { version: o.baseVersion, commit, tag, name: tag }, baseHow: 'named' };
  }
  if (o.baseRef !== undefined) {
    const baseTip = await fetchRef(git, src.from, parseGitRef(o.baseRef, '--base-ref'), repository);
    const commit = await git.mergeBase(candidateCommit, baseTip);
    if (!commit) throw new UserError(`--ref ${o.ref} (${candidateCommit}) and --base-ref ${o.baseRef} (${baseTip}) have no common history in ${repository}: a pull request's base is an ancestor of its head`);
    src.log(`the merge base of ${o.ref} and ${o.baseRef} is ${commit}`);
    return { base: { ...(await versionOf(src, commit, null)), commit, name: o.baseRef }, baseHow: 'pull-request-base' };
  }
  const found = await branchedFrom(src, candidateCommit);
  if (!found) throw noReleaseError(product, candidateCommit, repository);
  return { base: { version: found.version, commit: found.commit, tag: found.tag, name: found.tag }, baseHow: 'branched-from' };
}

/**
 * The newest release the commit descends from; a fork's upstream tags are fetched (once) when
 * its own tags name none.
 * @param {RefSource} src
 * @param {string} commit
 * @returns {Promise<{tag: string, version: string, commit: string}|null>}
 */
async function branchedFrom(src, commit) {
  const { releases, upstream } = src;
  const found = await releases.newestAncestor(commit);
  if (found || !upstream || releases.upstreamFetched) return found;
  releases.upstreamFetched = true;
  await src.git.fetch(upstream, ['+refs/tags/*:refs/tags/*'], `the tags of ${redactRepository(upstream)}`);
  return releases.newestAncestor(commit);
}

/**
 * The version a commit's records carry: the release tagged on it, else `<parent>+<commit>`.
 * @param {RefSource} src
 * @param {string} commit
 * @param {string|null} fallback the parent release when none is found by ancestry
 * @returns {Promise<{version: string, tag: string|null}>}
 * @throws {UserError} when no release is an ancestor and there is no fallback
 */
async function versionOf(src, commit, fallback) {
  const at = await src.releases.atCommit(commit);
  if (at) return { version: at.version, tag: at.tag };
  const parent = (await branchedFrom(src, commit))?.version ?? fallback;
  if (!parent) throw noReleaseError(src.product, commit, src.repository);
  return { version: commitVersion(parent, commit), tag: null };
}

/**
 * The commit a ref names now, without fetching its history (what `compare --ref` needs to find
 * the ref run of that commit).
 * @param {{ref: string, repo: string, cacheDir: string, product: import('../types.js').InstallProductConfig}} o
 * @returns {Promise<string>} full commit id
 * @throws {UserError} an unknown ref or an unreachable repository
 */
export async function resolveRefCommit(o) {
  const parsed = parseGitRef(o.ref, '--ref');
  if (parsed.commit) return parsed.commit;
  const git = await openRefCache(o.cacheDir, o.product);
  const from = isLocalRepository(o.repo) ? resolve(o.repo) : o.repo;
  return fetchRef(git, from, parsed, redactRepository(o.repo));
}

/**
 * @param {'branched-from'|'pull-request-base'|'named'} how
 * @param {string} name
 * @returns {string}
 */
function describeHow(how, name) {
  return { 'branched-from': `the release it branched from, tag ${name}`, 'pull-request-base': `the merge base with ${name}`, named: `named release, tag ${name}` }[how];
}

/**
 * @param {import('../types.js').InstallProductConfig} product
 * @param {string} commit
 * @param {string} repository
 * @returns {UserError}
 */
function noReleaseError(product, commit, repository) {
  return new UserError(`no release tag of ${product.name} (tagPatterns ${product.lines.map((l) => l.tagPattern).join(', ')}) is an ancestor of ${commit} in ${repository}`
    + `${product.gitUrl && product.gitUrl !== repository ? ` or ${redactRepository(product.gitUrl)}` : ''}: name the base release (--base <version>) or a pull request's base (--base-ref <ref>)`);
}

/**
 * The upstream tag of a release (build.tagTemplate).
 * @param {import('../types.js').InstallProductConfig} product
 * @param {string} version
 * @returns {string}
 * @throws {UserError} without a template
 */
function releaseTag(product, version) {
  const template = product.build?.tagTemplate;
  if (!template) throw new UserError(`configs/products/${product.name}.yml has no build.tagTemplate, so the tag of ${product.name} ${version} is unknown; add e.g. build: { tagTemplate: "${product.name}-{version}" }`);
  return template.replaceAll('{version}', version);
}

/**
 * Fetch what a parsed ref names into the cache (commits only) and return its commit.
 * @param {import('./ref-cache.js').RefCache} git
 * @param {string} from repository to fetch from
 * @param {ParsedRef} parsed
 * @param {string} shown the repository as messages name it
 * @returns {Promise<string>}
 * @throws {UserError} when the repository does not have it
 */
async function fetchRef(git, from, parsed, shown) {
  if (parsed.commit) {
    await git.fetch(from, [`+${parsed.commit}:refs/tagbench/commits/${parsed.commit}`], `commit ${parsed.commit} of ${shown}`);
    return parsed.commit;
  }
  const listed = await git.lsRemote(from, parsed.candidates, shown);
  const found = parsed.candidates.filter((c) => listed.has(c));
  if (found.length === 0) {
    throw new UserError(`${shown} has no ${parsed.kind === 'pull' ? `pull request head ${parsed.candidates[0]} (is #${parsed.pullRequest} a pull request of this repository? forks publish none: give the base repository)` : `branch or tag named '${parsed.name}'`} (git ls-remote)`);
  }
  if (found.length > 1) throw new UserError(`'${parsed.name}' is both a branch and a tag of ${shown}: give refs/heads/${parsed.name} or refs/tags/${parsed.name}`);
  const local = `refs/tagbench/${found[0].replace(/^refs\//, '')}`;
  await git.fetch(from, [`+${found[0]}:${local}`], `${found[0]} of ${shown}`);
  const commit = await git.commitOf(local);
  if (!commit) throw new UserError(`${found[0]} of ${shown} names no commit`);
  return commit;
}
