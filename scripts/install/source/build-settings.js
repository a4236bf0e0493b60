/**
 * What a source build of one release uses: repository, ref, tag, build profile and its cmake
 * flags, from the spec and the product's `build:` section. Pure: config and spec in, settings out.
 */
import { UserError } from '../../errors.js';

/** Profile name used when neither the spec nor `build.defaultProfile` names one. */
export const DEFAULT_PROFILE_NAME = 'release';

/**
 * Used only when a product has no `build.profiles.release`: the build type upstream builds
 * default to, stated explicitly so that the recorded flags say it.
 * @type {Readonly<import('../types.js').BuildProfile>}
 */
export const BUILTIN_RELEASE_PROFILE = Object.freeze({
  description: 'built-in default: optimised build with debug symbols (no product-specific flags)',
  cmakeFlags: ['-DCMAKE_BUILD_TYPE=RelWithDebInfo'],
});

/** The provider sets these itself; a profile that sets them would install somewhere else. */
const RESERVED_FLAGS = [/^-DCMAKE_INSTALL_PREFIX(:[A-Z]+)?=/, /^-[SB]/];

/**
 * @typedef {object} BuildSettings
 * @property {string} gitUrl repository to fetch from
 * @property {string} ref tag, branch or commit to fetch
 * @property {string|null} tag upstream tag when `ref` is one of the product's release tags, else null
 * @property {string} profileName
 * @property {string[]} cmakeFlags the profile's flags, in order
 */

/**
 * @param {import('../types.js').InstallProductConfig} product
 * @param {import('../types.js').InstallSpec} spec
 * @returns {BuildSettings}
 * @throws {UserError} no repository, no way to tell the tag, an unknown profile, a reserved flag;
 *   each names the product file and the key to fix
 */
export function resolveBuildSettings(product, spec) {
  const file = `configs/products/${product.name}.yml`;
  const build = product.build ?? {};
  const gitUrl = spec.gitUrl ?? spec.path ?? product.gitUrl;
  if (!gitUrl) throw new UserError(`${file} has no gitUrl, so the source provider does not know where ${product.name} lives; add gitUrl: or pass a repository (--path)`);

  let ref = spec.ref;
  /** @type {string|null} */
  let tag = null;
  if (ref === undefined) {
    if (!build.tagTemplate) {
      throw new UserError(`${file} has no build.tagTemplate, so the source provider cannot tell which tag holds ${product.name} ${spec.version}; `
        + `add e.g. build: { tagTemplate: "${product.name}-{version}" }, or give the ref to build`);
    }
    ref = build.tagTemplate.replaceAll('{version}', spec.version);
    const releaseLine = product.lines.find((l) => new RegExp(l.tagPattern).exec(/** @type {string} */ (ref))?.[1] === spec.version);
    if (!releaseLine) {
      throw new UserError(`${file}: build.tagTemplate '${build.tagTemplate}' makes tag '${ref}' for version ${spec.version}, but no line's tagPattern `
        + `matches it with group 1 = ${spec.version} (tagPatterns: ${product.lines.map((l) => l.tagPattern).join(', ')}); fix the template or the version`);
    }
    tag = ref;
  } else if (product.lines.some((l) => new RegExp(l.tagPattern).test(/** @type {string} */ (ref)))) {
    tag = ref;
  }

  const profileName = spec.profile ?? build.defaultProfile ?? DEFAULT_PROFILE_NAME;
  const profiles = build.profiles ?? {};
  const profile = Object.hasOwn(profiles, profileName) ? profiles[profileName]
    : profileName === DEFAULT_PROFILE_NAME ? BUILTIN_RELEASE_PROFILE : undefined;
  if (!profile) {
    const known = [...new Set([...Object.keys(profiles), DEFAULT_PROFILE_NAME])].sort();
    const where = spec.profile === undefined ? `build.defaultProfile '${profileName}'` : `build profile '${profileName}'`;
    throw new UserError(`${file}: ${where} is not defined; known profiles: ${known.join(', ')} (add it under build.profiles)`);
  }
  for (const flag of profile.cmakeFlags) {
    if (RESERVED_FLAGS.some((re) => re.test(flag))) {
      throw new UserError(`${file}: build.profiles.${profileName}.cmakeFlags has '${flag}', which the source provider sets itself (source, build and install folders); remove it`);
    }
  }
  return { gitUrl, ref, tag, profileName, cmakeFlags: [...profile.cmakeFlags] };
}
