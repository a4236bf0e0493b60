/**
 * `tagbench run --ref`: an ad-hoc ref run. The ref and its base are resolved with git by the
 * install stage (scripts/install/source/resolve-ref.js); here they become the two releases of
 * one run, both built by the source provider from the same repository with the same profile
 * (a Debian package against our build would measure the compilers, not the change), run side by
 * side and alternating like any two releases. Their records carry `release.ref` and are stored
 * apart from the release series (refs/runs/).
 */
import { resolveRefRun, evictAdHocBuilds } from '../install/index.js';
import { findProduct } from '../config/index.js';

/** @typedef {import('./run-releases.js').RunOptions['releases'][number]} RunReleaseSpec */

/**
 * The two releases of a ref run, base first (as a run lists the base before its candidate).
 * Pure.
 * @param {import('../install/index.js').ResolvedRefRun} r
 * @param {string} [profile] the build profile of both sides (default: the product's)
 * @returns {RunReleaseSpec[]}
 */
export function refRunReleases(r, profile) {
  /** @type {import('../types.js').RefBase} */
  const base = { how: r.baseHow, version: r.base.version, ref: r.baseRef, commit: r.base.commit };
  const shared = { name: r.candidate.name, repository: r.repository, pullRequest: r.pullRequest, commit: r.candidate.commit };
  const side = (/** @type {import('../install/index.js').RefSide} */ s, /** @type {'candidate'|'base'} */ role) => ({
    product: r.product,
    version: s.version,
    provider: 'source',
    commit: s.commit,
    // A release is built from its tag at that commit (the install cache shares it with the
    // release's own source build); any other commit by itself, cached by commit.
    source: { gitUrl: r.fetchFrom, ...(s.tag ? {} : { ref: s.commit }), ...(profile ? { profile } : {}) },
    refRun: { role, ...shared, base: { ...base } },
  });
  return [side(r.base, 'base'), side(r.candidate, 'candidate')];
}

/**
 * Resolve a ref run and return its releases for runSuite, after evicting the install cache's
 * older ad-hoc builds (install/evict-ad-hoc-builds.js).
 * @param {import('../types.js').Config} config
 * @param {{product: string, ref: string, repo?: string, baseRef?: string, baseVersion?: string, commit?: string, profile?: string, cacheDir: string, log?: (line: string) => void}} o
 * @returns {Promise<{resolved: import('../install/index.js').ResolvedRefRun, releases: RunReleaseSpec[]}>}
 * @throws {import('../errors.js').UserError} an unknown product, or what resolveRefRun refuses
 */
export async function planRefRun(config, o) {
  const product = /** @type {import('../install/types.js').InstallProductConfig} */ (findProduct(config, o.product, '--product'));
  const resolved = await resolveRefRun({
    product, ref: o.ref, cacheDir: o.cacheDir, ...(o.log ? { log: o.log } : {}),
    ...(o.repo !== undefined ? { repo: o.repo } : {}), ...(o.baseRef !== undefined ? { baseRef: o.baseRef } : {}), ...(o.baseVersion !== undefined ? { baseVersion: o.baseVersion } : {}),
    ...(o.commit !== undefined ? { commit: o.commit } : {}),
  });
  // Every pushed commit of a pull request is a build of its own: before this run adds its two,
  // the cache's older ad-hoc builds beyond the newest few leave it (release builds never do).
  const evicted = await evictAdHocBuilds(o.cacheDir, { keepCommits: [resolved.candidate.commit, resolved.base.commit] });
  for (const prefix of evicted) o.log?.(`evicted the ad-hoc build ${prefix} (the install cache keeps the newest few)`);
  return { resolved, releases: refRunReleases(resolved, o.profile) };
}
