/**
 * What a source build of one release uses: repository, ref, tag, build profile and its cmake
 * flags, from the spec and the product's `build:` section. Pure: config and spec in, settings out.
 */
import { UserError } from '../../errors.js';
import { makeCacheKey } from '../install-cache.js';

/** Refs become command arguments: a plain git ref name or a commit, never an option. */
export const REF_RE = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/+-]{1,200}$/;

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
 * Placeholders a flag may hold, filled in when cmake runs (cmake-build.js `configureArgs`), so
 * that the recorded flags are the same on every host. {downloadDir}: `<cache>/.downloads`, kept
 * between builds (MySQL 8.0's boost is downloaded there once).
 */
export const FLAG_PLACEHOLDERS = Object.freeze(['downloadDir']);

/**
 * @typedef {object} LineBuildConfig one entry of `build.lines` in a product file: what a release
 *   line's builds need on top of every profile (boost for MySQL 8.0, a plugin that only one line has)
 * @property {string} [description] why the line differs
 * @property {string[]} cmakeFlags merged into every profile's flags: a `-D<NAME>=` flag replaces the
 *   profile's flag of the same NAME in place, any other flag is appended
 */

/**
 * @typedef {object} BuildSettings
 * @property {string} gitUrl repository to fetch from
 * @property {string} ref tag, branch or commit to build
 * @property {string|null} commit the full commit id asked for (spec.commit): fetched instead of
 *   the ref, so that the build is of that commit even when the ref has moved since; null = the
 *   commit the ref points at when it is fetched
 * @property {string|null} tag upstream tag when `ref` is one of the product's release tags, else null
 * @property {string} profileName
 * @property {string|null} line release line of the version (product `lines[].name`), null when the
 *   version matches no line (a ref without a tag template)
 * @property {string[]} profileFlags the profile's own flags, in order
 * @property {string[]} lineFlags the flags `build.lines.<line>` adds or replaces (empty when none)
 * @property {string[]} cmakeFlags what cmake gets: profile flags merged with the line's, placeholders
 *   such as {downloadDir} left in (recorded as the build flags)
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
  const templatedTag = build.tagTemplate ? build.tagTemplate.replaceAll('{version}', spec.version) : null;
  const lineOfTag = (/** @type {string} */ t, version = spec.version) => product.lines.find((l) => new RegExp(l.tagPattern).exec(t)?.[1] === version) ?? null;
  // `<release>+<commit>` (a ref run's commit after that release, scripts/install/source/resolve-ref.js)
  // builds as its release's line; only a ref names what it builds.
  const releaseOfBuild = /^([^+]+)\+./.exec(spec.version)?.[1] ?? null;
  if (ref === undefined) {
    if (!templatedTag) {
      throw new UserError(`${file} has no build.tagTemplate, so the source provider cannot tell which tag holds ${product.name} ${spec.version}; `
        + `add e.g. build: { tagTemplate: "${product.name}-{version}" }, or give the ref to build`);
    }
    ref = templatedTag;
    if (!lineOfTag(ref)) {
      throw new UserError(`${file}: build.tagTemplate '${build.tagTemplate}' makes tag '${ref}' for version ${spec.version}, but no line's tagPattern `
        + `matches it with group 1 = ${spec.version} (tagPatterns: ${product.lines.map((l) => l.tagPattern).join(', ')}); fix the template or the version`);
    }
    tag = ref;
  } else if (product.lines.some((l) => new RegExp(l.tagPattern).test(/** @type {string} */ (ref)))) {
    tag = ref;
  }
  // A branch or commit of a version still builds as that version's line (boost for 8.0...).
  const releaseLine = (templatedTag ? lineOfTag(templatedTag) : null) ?? (tag ? lineOfTag(tag) : null)
    ?? (releaseOfBuild && build.tagTemplate ? lineOfTag(build.tagTemplate.replaceAll('{version}', releaseOfBuild), releaseOfBuild) : null);

  const profileName = spec.profile ?? build.defaultProfile ?? DEFAULT_PROFILE_NAME;
  const profiles = build.profiles ?? {};
  const profile = Object.hasOwn(profiles, profileName) ? profiles[profileName]
    : profileName === DEFAULT_PROFILE_NAME ? BUILTIN_RELEASE_PROFILE : undefined;
  if (!profile) {
    const known = [...new Set([...Object.keys(profiles), DEFAULT_PROFILE_NAME])].sort();
    const where = spec.profile === undefined ? `build.defaultProfile '${profileName}'` : `build profile '${profileName}'`;
    throw new UserError(`${file}: ${where} is not defined; known profiles: ${known.join(', ')} (add it under build.profiles)`);
  }
  /** @type {Record<string, LineBuildConfig>} */
  const lines = /** @type {{lines?: Record<string, LineBuildConfig>}} */ (build).lines ?? {};
  const lineNames = product.lines.map((l) => l.name);
  for (const name of Object.keys(lines)) {
    if (!lineNames.includes(name)) throw new UserError(`${file}: build.lines has '${name}', which is not one of the product's lines (${lineNames.join(', ')}); rename or remove it`);
  }
  const lineFlags = releaseLine && Object.hasOwn(lines, releaseLine.name) ? [...lines[releaseLine.name].cmakeFlags] : [];
  checkFlags(profile.cmakeFlags, `${file}: build.profiles.${profileName}.cmakeFlags`);
  checkFlags(lineFlags, `${file}: build.lines.${releaseLine?.name}.cmakeFlags`);
  return {
    gitUrl, ref, tag, profileName,
    commit: spec.commit ?? null,
    line: releaseLine?.name ?? null,
    profileFlags: [...profile.cmakeFlags],
    lineFlags,
    cmakeFlags: mergeCmakeFlags(profile.cmakeFlags, lineFlags),
  };
}

/**
 * The install-cache key of a source build: a release tag is keyed by its version, any other ref
 * (a branch, a commit) by the ref, and a build asked for a commit (what watch saw the tag point
 * at) by that commit too, so that a moved tag is built again instead of served from the cache.
 * @param {string} product
 * @param {string} version
 * @param {BuildSettings} settings
 * @returns {import('../types.js').CacheKey}
 */
export function sourceCacheKey(product, version, settings) {
  return makeCacheKey({ product, version, provider: 'source', profile: settings.profileName, ref: settings.tag ? null : settings.ref, commit: settings.commit });
}

/**
 * @param {string[]} flags
 * @param {string} where file and key, for the error
 * @throws {UserError} a flag the provider sets itself, or an unknown {placeholder}
 */
function checkFlags(flags, where) {
  for (const flag of flags) {
    if (RESERVED_FLAGS.some((re) => re.test(flag))) {
      throw new UserError(`${where} has '${flag}', which the source provider sets itself (source, build and install folders); remove it`);
    }
    for (const [, name] of flag.matchAll(/\{([^}]*)\}/g)) {
      if (!FLAG_PLACEHOLDERS.includes(name)) {
        throw new UserError(`${where} has '${flag}' with the unknown placeholder {${name}}; known: ${FLAG_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`);
      }
    }
  }
}

/**
 * The cmake variable a `-D<NAME>[:TYPE]=value` flag sets, null for any other flag.
 * @param {string} flag
 * @returns {string|null}
 */
export function cmakeVariableOf(flag) {
  return /^-D([A-Za-z_][A-Za-z0-9_.-]*)(?::[A-Za-z]+)?=/.exec(flag)?.[1] ?? null;
}

/**
 * Profile flags with a line's flags merged in: a line flag setting a variable the profile sets
 * replaces it in place (cmake would take the last one anyway; this keeps one flag per variable in
 * the recorded command), other line flags are appended; an identical flag is not repeated.
 * @param {readonly string[]} base
 * @param {readonly string[]} extra
 * @returns {string[]}
 */
export function mergeCmakeFlags(base, extra) {
  const out = [...base];
  for (const flag of extra) {
    const name = cmakeVariableOf(flag);
    const at = name === null ? out.indexOf(flag) : out.findIndex((f) => cmakeVariableOf(f) === name);
    if (at >= 0) out[at] = flag;
    else out.push(flag);
  }
  return out;
}

/**
 * A flag with its placeholders filled in.
 * @param {string} flag
 * @param {{downloadDir: string}} values
 * @returns {string}
 */
export function expandFlag(flag, values) {
  return flag.replaceAll('{downloadDir}', values.downloadDir);
}
