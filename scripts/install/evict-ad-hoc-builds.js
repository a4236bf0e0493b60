/**
 * Eviction of the install cache's ad-hoc builds: a source build keyed by a git ref that is not
 * a release tag (a pull request's head, its merge base, a branch, a bisect's commit). A release
 * build is reused by every later run of its release and is never evicted; an ad-hoc build serves
 * one ref run (and its confirmation) and was kept for ever, one server build of a few hundred
 * MB per pushed commit of every pull request. The newest few are kept, so that a confirmation
 * rerun or the next push on the same merge base still finds its builds.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MARKER, discardPrefix } from './install-cache.js';

/**
 * How many ad-hoc builds a cache keeps. A pull request's run needs two (its head and its merge
 * base) and its confirmation rerun the same two; four keep those of the run before too (the
 * next push of a pull request usually shares its merge base), and bound the disk to four server
 * builds whatever the number of pull requests.
 */
export const AD_HOC_BUILDS_KEPT = 4;

/**
 * Remove all but the newest ad-hoc builds of an install cache (by the time each was installed).
 * Builds of the commits in `keepCommits` are never removed (the run about to use them), nor
 * release builds, nor folders whose marker cannot be read (auditInstallCache reports those).
 * Each removal is one rename out of sight, then a delete: a reader never sees half a prefix.
 * @param {string} cacheDir install cache (missing = nothing to do)
 * @param {{keep?: number, keepCommits?: string[]}} [options] keep: default AD_HOC_BUILDS_KEPT
 * @returns {Promise<string[]>} the prefixes removed, oldest first
 */
export async function evictAdHocBuilds(cacheDir, options = {}) {
  const keep = options.keep ?? AD_HOC_BUILDS_KEPT;
  const protectedCommits = new Set(options.keepCommits ?? []);
  /** @type {{prefix: string, installedAt: string}[]} */
  const adHoc = [];
  for (const entry of await readdir(cacheDir, { withFileTypes: true }).catch(() => [])) {
    // Prefixes are `<product>-<version>@<provider>…`; work, trash and dot folders are not.
    if (!entry.isDirectory() || entry.name.startsWith('.') || !entry.name.includes('@') || entry.name.includes('.trash-')) continue;
    const prefix = join(cacheDir, entry.name);
    const marker = await readFile(join(prefix, MARKER), 'utf8').then((t) => JSON.parse(t)).catch(() => null);
    const key = marker?.key;
    if (!key || typeof key.ref !== 'string' || typeof marker.installedAt !== 'string') continue;
    if (protectedCommits.has(key.commit) || protectedCommits.has(key.ref)) continue;
    adHoc.push({ prefix, installedAt: marker.installedAt });
  }
  const newestFirst = adHoc.sort((a, b) => b.installedAt.localeCompare(a.installedAt) || a.prefix.localeCompare(b.prefix));
  // The protected builds count towards the kept ones: the cache holds at most `keep` in all.
  const room = Math.max(0, keep - protectedCommits.size);
  const evicted = newestFirst.slice(room).map((b) => b.prefix).reverse();
  for (const prefix of evicted) await discardPrefix(prefix);
  return evicted;
}
