/**
 * The bare repository of the install cache where a ref run's commits are fetched
 * (`<cacheDir>/.git-refs/<product>.git`, commits without trees), git run in it, and the product's
 * release tags there: which name a commit, which are its ancestors. resolve-ref.js asks the
 * ancestry questions of a ref run through it.
 */
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { compareVersions } from '../../version-order.js';
import { upstreamAuthEnv } from '../../upstream-auth.js';
import { runTool } from '../run-tool.js';

/** Folder of the install cache holding one bare repository per product. */
export const REF_CACHE_DIR = '.git-refs';

/**
 * @typedef {object} RefCache the bare repository of the install cache, and git run in it
 * @property {string} dir
 * @property {(from: string, refspecs: string[], what: string) => Promise<void>} fetch commits
 *   only when the server can filter, else everything
 * @property {(from: string, refs: string[], shown: string) => Promise<Map<string, string>>} lsRemote ref -> commit (tags peeled)
 * @property {(ref: string) => Promise<string|null>} commitOf
 * @property {(a: string, b: string) => Promise<string|null>} mergeBase
 * @property {(args: string[]) => Promise<string>} run stdout of a git command that must succeed
 */

/**
 * Open (and create on first use) the product's bare repository in the install cache.
 * @param {string} cacheDir the install cache
 * @param {import('../types.js').InstallProductConfig} product
 * @returns {Promise<RefCache>}
 */
export async function openRefCache(cacheDir, product) {
  const dir = join(cacheDir, REF_CACHE_DIR, `${product.name}.git`);
  // A private upstream's token reaches its own host only (upstream-auth.js).
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...(product.gitUrl ? upstreamAuthEnv(product.gitUrl) : {}) };
  const raw = (/** @type {string[]} */ args) => runTool('git', ['-C', dir, ...args], { env, timeoutMs: 3600_000 });
  const run = async (/** @type {string[]} */ args) => {
    const res = await raw(args);
    if (res.code !== 0) throw new UserError(`git ${args.join(' ')} failed (exit ${res.code}): ${(res.stderr || res.stdout).trim().split('\n').slice(-3).join(' ')}`);
    return res.stdout;
  };
  if (!(await stat(join(dir, 'HEAD')).then(() => true, () => false))) {
    await mkdir(dir, { recursive: true });
    await run(['init', '-q', '--bare']);
  }
  return {
    dir,
    run,
    async fetch(from, refspecs, what) {
      // Commits only (tree:0): ancestry needs no files. A server that cannot filter gets a plain fetch.
      let res = await raw(['fetch', '-q', '--no-tags', '--filter=tree:0', from, ...refspecs]);
      if (res.code !== 0) res = await raw(['fetch', '-q', '--no-tags', from, ...refspecs]);
      if (res.code !== 0) throw new UserError(`cannot fetch ${what}: ${(res.stderr || res.stdout).trim().split('\n').slice(-2).join(' ')}`);
    },
    async lsRemote(from, refs, shown) {
      const res = await raw(['ls-remote', from, ...refs.flatMap((r) => [r, `${r}^{}`])]);
      if (res.code !== 0) throw new UserError(`cannot list the refs of ${shown} (git ls-remote): ${(res.stderr || res.stdout).trim().split('\n').slice(-2).join(' ')}`);
      /** @type {Map<string, string>} */
      const out = new Map();
      for (const line of res.stdout.split('\n').filter(Boolean)) {
        const [sha, ref] = line.split('\t');
        const peeled = ref.endsWith('^{}');
        const name = peeled ? ref.slice(0, -3) : ref;
        if (peeled || !out.has(name)) out.set(name, sha);
      }
      return out;
    },
    async commitOf(ref) {
      const res = await raw(['rev-parse', '--verify', '-q', `${ref}^{commit}`]);
      return res.code === 0 ? res.stdout.trim() : null;
    },
    async mergeBase(a, b) {
      const res = await raw(['merge-base', a, b]);
      return res.code === 0 ? res.stdout.trim() || null : null;
    },
  };
}

/**
 * The product's release tags in the cache: which are ancestors of a commit, which name it.
 */
export class ReleaseTags {
  /**
   * @param {RefCache} git
   * @param {import('../types.js').InstallProductConfig} product
   */
  constructor(git, product) {
    this.git = git;
    this.patterns = product.lines.map((l) => new RegExp(l.tagPattern));
    /** the upstream's tags were fetched already */
    this.upstreamFetched = false;
  }

  /**
   * @param {string[]} tags
   * @returns {{tag: string, version: string}[]} release tags, highest version first
   */
  releasesOf(tags) {
    /** @type {{tag: string, version: string}[]} */
    const out = [];
    for (const tag of tags) {
      for (const re of this.patterns) {
        const version = re.exec(tag)?.[1];
        if (version) { out.push({ tag, version }); break; }
      }
    }
    return out.sort((a, b) => compareVersions(b.version, a.version));
  }

  /**
   * @param {string} commit
   * @returns {Promise<{tag: string, version: string}|null>} the highest release tagged on it
   */
  async atCommit(commit) {
    const tags = (await this.git.run(['tag', '--points-at', commit])).split('\n').filter(Boolean);
    return this.releasesOf(tags)[0] ?? null;
  }

  /**
   * @param {string} commit
   * @returns {Promise<{tag: string, version: string, commit: string}|null>} the highest release
   *   whose tag is an ancestor of the commit and not on the commit itself
   */
  async newestAncestor(commit) {
    const merged = (await this.git.run(['tag', '--merged', commit])).split('\n').filter(Boolean);
    const own = new Set((await this.git.run(['tag', '--points-at', commit])).split('\n').filter(Boolean));
    for (const r of this.releasesOf(merged.filter((t) => !own.has(t)))) {
      const tagCommit = await this.git.commitOf(`refs/tags/${r.tag}`);
      if (tagCommit && tagCommit !== commit) return { ...r, commit: tagCommit };
    }
    return null;
  }
}
