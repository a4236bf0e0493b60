/**
 * Install stage: put a release on this machine and describe it (InstallResult) for the server
 * lifecycle. Other stages import only this file.
 */
export { installRelease } from './install-release.js';
export { listAvailable } from './list-available.js';
export { findCachedInstall } from './find-cached-install.js';
export { providerNames } from './registry.js';
