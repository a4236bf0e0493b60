/**
 * The apt library of the install stage: a private apt configuration per Debian release on this
 * machine's own mirror (apt-env.js), which packages make up a MySQL-family release and how
 * Debian versions map to upstream ones (deb-packages.js), resolving a release to exact package
 * requests (resolve-release.js), and turning them into a prefix that runs from its final path:
 * download, extraction, library closure (build-prefix.js), ELF patching (make-runnable.js).
 *
 * It is a library, not a provider: the deb provider installs with it, products.js lists what a
 * suite offers with it, and the source provider's Debian origin fetches source packages with
 * it. They import this file only, so the folder can be rearranged without touching them.
 */
export { openAptEnv, openAptSourceEnv, sourceAptCommands } from './apt-env.js';
export { releaseOfSuite } from './apt-sources.js';
export { PACKAGE_ROLES, compareUpstream, packageNameCandidates, upstreamOf } from './deb-packages.js';
export { resolveRelease } from './resolve-release.js';
export { buildPrefix } from './build-prefix.js';

/** @typedef {import('./apt-env.js').AptEnv} AptEnv */
/** @typedef {import('./apt-env.js').AptSourceEnv} AptSourceEnv */
/** @typedef {import('./resolve-release.js').ResolvedRelease} ResolvedRelease */
/** @typedef {import('./make-runnable.js').BuiltPrefix} BuiltPrefix */
