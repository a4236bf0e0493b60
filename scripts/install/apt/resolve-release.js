/**
 * Turn (product, upstream version, suite) into exact Debian package requests and apt's full
 * dependency closure, with every binary package of the release pinned to the same version.
 */
import { UserError } from '../../errors.js';
import { PACKAGE_ROLES, packageNameCandidates, pickDebianVersion, upstreamOf, compareUpstream } from './deb-packages.js';

/**
 * @typedef {object} ResolvedRelease
 * @property {string} packageVersion exact Debian version of the release's packages
 * @property {string} suite archive suite it comes from
 * @property {string[]} requests `name=version` given to apt
 * @property {import('./apt-env.js').AptPin} pin the release's packages, pinned to its version
 * @property {string[]} missingRoles roles with no package at that version (e.g. no rocksdb plugin)
 * @property {{name: string, version: string}[]} closure everything apt would install on an empty system
 */

/** Rounds of "pin the release's sibling packages apt chose at another version" before giving up. */
const MAX_PIN_ROUNDS = 4;

/**
 * @param {import('./apt-env.js').AptEnv} apt private apt of the suite's release
 * @param {object} want
 * @param {string} want.product
 * @param {'mariadb'|'mysql'} want.flavor
 * @param {string} want.version upstream version
 * @param {string} want.suite configured suite
 * @param {string|null} want.packageVersion pinned Debian version from the config, if any
 * @param {string} want.configFile for messages (`configs/products/mariadb.yml`)
 * @param {(msg: string) => void} log
 * @returns {Promise<ResolvedRelease>}
 * @throws {UserError} when the suite does not have that version (listing the ones it has)
 */
export async function resolveRelease(apt, want, log) {
  const roles = PACKAGE_ROLES[want.flavor];
  const names = roles.flatMap((r) => packageNameCandidates(r, want.version));
  const coreNames = packageNameCandidates(roles[0], want.version);

  const justUpdated = await apt.ensureUpdated();
  let rows = await apt.madison(names);
  let found = findVersion(rows, coreNames, want);
  if (!found && !justUpdated) {
    // Lists younger than a day can still miss a fresh security upload: refresh once and retry.
    await apt.ensureUpdated({ force: true });
    rows = await apt.madison(names);
    found = findVersion(rows, coreNames, want);
  }
  if (!found) {
    const offered = rows.filter((r) => coreNames.includes(r.name))
      .map((r) => `${upstreamOf(r.version)} (${r.version}, ${r.suite})`)
      .sort((a, b) => compareUpstream(a, b));
    const wanted = want.packageVersion ? `package version ${want.packageVersion}` : `version ${want.version}`;
    throw new UserError(`${want.product} ${wanted} is not in Debian ${apt.release} (suite ${want.suite}); `
      + `${roles[0]} versions there: ${offered.length ? offered.join(', ') : 'none'}. `
      + `Fix deb."${want.version}" in ${want.configFile} (suite, packageVersion) or pick another version`);
  }
  const { version: packageVersion, suite } = found;
  log(`resolve: ${want.product} ${want.version} = Debian ${packageVersion} from ${suite}`);

  /** @type {string[]} */
  const requests = [];
  /** @type {string[]} */
  const missingRoles = [];
  for (const role of roles) {
    const name = packageNameCandidates(role, want.version).find((n) => rows.some((r) => r.name === n && r.version === packageVersion));
    if (name) requests.push(`${name}=${packageVersion}`);
    else missingRoles.push(role);
  }
  if (missingRoles.length) log(`resolve: no package at ${packageVersion} for ${missingRoles.join(', ')}`);

  // apt picks the newest candidate for dependencies: a metapackage at 10.5.23 is satisfied by
  // mariadb-server-10.5 10.5.29 from security. Pin every name of the release's packages, then
  // every sibling apt still takes at another version although ours exists (mariadb-common...).
  const pin = { version: packageVersion, names: [...new Set([...names, ...rows.filter((r) => r.version === packageVersion).map((r) => r.name)])] };
  let closure = await apt.simulate(requests, pin);
  for (let round = 0; round < MAX_PIN_ROUNDS; round++) {
    const off = closure.filter((p) => p.version !== packageVersion && !pin.names.includes(p.name)).map((p) => p.name);
    if (off.length === 0) break;
    const add = [...new Set((await apt.madison(off)).filter((r) => r.version === packageVersion && off.includes(r.name)).map((r) => r.name))];
    if (add.length === 0) break;
    pin.names.push(...add);
    closure = await apt.simulate(requests, pin);
  }
  return { packageVersion, suite, requests, pin, missingRoles, closure };
}

/**
 * @param {import('./apt-env.js').AptPackageVersion[]} rows
 * @param {string[]} coreNames
 * @param {{version: string, suite: string, packageVersion: string|null}} want
 * @returns {{version: string, suite: string}|null}
 */
function findVersion(rows, coreNames, want) {
  const core = rows.filter((r) => coreNames.includes(r.name));
  if (want.packageVersion) {
    const exact = core.filter((r) => r.version === want.packageVersion);
    const pick = exact.find((r) => r.suite === want.suite) ?? exact[0];
    return pick ? { version: pick.version, suite: pick.suite } : null;
  }
  return pickDebianVersion(core, want.version, want.suite);
}
