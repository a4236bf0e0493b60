/**
 * Typedefs of the install stage (its own shapes; the shared InstallResult and ReleaseSpec are in
 * scripts/types.js).
 */
export {};

/**
 * @typedef {object} InstallContext what every provider gets besides the spec
 * @property {Readonly<import('../types.js').Config>} config from loadConfig
 * @property {string} cacheDir absolute folder holding one prefix per cache key (install-cache.js)
 * @property {(msg: string) => void} [log] progress lines (the CLI sends them to stderr)
 */

/**
 * @typedef {object} CacheKey what makes two installs of a release the same install; the install
 *   cache keeps one prefix per key and reuses it only for that key
 * @property {string} product
 * @property {string} version upstream version
 * @property {string} provider deb, source or tarball (the path provider uses no cache)
 * @property {string|null} profile build profile of a source build, else null
 * @property {string|null} ref git ref of a source build that is not the version's release tag
 *   (a branch or commit), else null: a release tag is keyed by its version
 * @property {string|null} commit full commit id a source build from git was built from (the tag's
 *   commit, so that a moved tag is built again), else null (other providers, the Debian origin,
 *   and installs cached before the commit was part of the key)
 */

/**
 * @typedef {object} InstallProvider one way of getting a release onto this machine
 * @property {string} name the word used in `--provider`, the config value and the provider's file or folder name (registry.js)
 * @property {string} summary one line for `--help` and error messages
 * @property {(spec: InstallSpec) => string[]} validateOptions problems with the spec for this provider; empty when fine
 * @property {(spec: InstallSpec, ctx: InstallContext) => Promise<import('../types.js').InstallResult>} install
 * @property {(spec: InstallSpec, ctx: InstallContext) => InstallPlan} [dryRun] the steps install
 *   would take, taking none (`tagbench install --dry-run`); only providers whose steps are worth
 *   reading before an hour-long build have one (source)
 */

/**
 * @typedef {object} InstallPlan what a provider's dry run prints
 * @property {object} plan the steps as data (`--json`)
 * @property {string} text the same for a terminal
 */

/**
 * @typedef {import('../types.js').ReleaseSpec & SourceOptions & TarballOptions} InstallSpec what
 *   installRelease() accepts: the shared ReleaseSpec plus the provider-specific fields below
 */

/**
 * @typedef {object} SourceOptions spec fields of the `source` provider (all optional)
 * @property {string} [ref] git tag, branch or commit to build; default: the product's
 *   `build.tagTemplate` filled with the version
 * @property {string} [commit] the full commit id the ref must be built at (what `tagbench watch`
 *   saw the tag point at): exactly this commit is fetched and built, whatever the ref points at
 *   by then; default: the commit the ref points at now (git ls-remote)
 * @property {string} [gitUrl] repository to fetch from instead of the product's `gitUrl` (a mirror,
 *   a local repository); `path` means the same for the CLI's `--path`
 * @property {string} [profile] build profile (`build.profiles.<name>`); default `build.defaultProfile`, else `release`
 * @property {number} [jobs] parallel compile jobs; default $TAGBENCH_BUILD_JOBS, else the number of CPUs
 */

/**
 * @typedef {object} TarballOptions spec fields of the `tarball` provider (all optional; `path` is a local tarball file)
 * @property {string} [url] where to download the tarball (http, https or file URL); default the
 *   product's `tarball.urlTemplate` filled with the version
 * @property {string} [sha256] expected sha256 of the tarball (64 hex digits); default the product's `tarball.sha256.<version>`
 */

/**
 * @typedef {object} BuildProfile one entry of `build.profiles` in a product file
 * @property {string} [description] what the profile is for (shown in errors and --help)
 * @property {string[]} cmakeFlags cmake configure arguments, one per item (`-DCMAKE_BUILD_TYPE=RelWithDebInfo`, `-GNinja`)
 */

/**
 * @typedef {object} ProductBuildConfig `build:` of configs/products/<name>.yml (source provider)
 * @property {string} [tagTemplate] upstream tag of a version, `{version}` replaced (`mariadb-{version}`)
 * @property {string} [defaultProfile] profile used when none is asked for (default `release`)
 * @property {Record<string, BuildProfile>} [profiles] named sets of cmake flags
 */

/**
 * @typedef {object} ProductTarballConfig `tarball:` of configs/products/<name>.yml (tarball provider)
 * @property {string} [urlTemplate] download URL with `{version}`, `{major}`, `{minor}`, `{patch}` placeholders
 * @property {Record<string, string>} [sha256] version -> expected sha256 of its tarball
 */

/**
 * @typedef {import('../types.js').ProductConfig & {build?: ProductBuildConfig, tarball?: ProductTarballConfig}} InstallProductConfig
 *   a product as the install stage reads it (the shared ProductConfig plus the keys only this stage uses)
 */

/**
 * @typedef {object} SourceBuildFacts extra provenance of a `source` build, stored in the install
 *   marker next to the shared Provenance fields (tag, commit, buildProfile, buildFlags)
 * @property {'git'|'debian-source'} origin where the source tree came from
 * @property {string|null} gitUrl repository fetched from; null for the Debian origin
 * @property {string} ref the ref fetched, or for the Debian origin the upstream tag the tarball is the release of
 * @property {DebianSourceFacts|null} debianSource package,
 *   version, orig tarball and sha256, signature check; null for git
 * @property {string|null} compiler first line of the C++ (else C) compiler's `--version`
 * @property {string} cmakeVersion first line of `cmake --version`
 * @property {string|null} ccache first line of `ccache --version` when the build used it, else null
 * @property {string|null} ccacheDir its CCACHE_DIR (paths under the work folder hashed relative, see source/cmake-build.js)
 * @property {string[]} configure the cmake configure command as it ran (flags expanded, launcher included)
 * @property {number} jobs parallel compile jobs used
 * @property {number} buildDurationS fetch + configure + build + install, wall clock
 */

/**
 * @typedef {object} SignatureCheck whether upstream's signature of the orig tarball was checked
 * @property {boolean} checked true only when gpgv ran and verified it
 * @property {string} detail gpgv's `Good signature` and key lines when checked, else why not
 */

/**
 * @typedef {object} DebianSourceFacts provenance of a build from a Debian source package
 *   (source/debian-source.js)
 * @property {string} suite suite the source package was found in
 * @property {string} sourcePackage source package name (`mariadb`)
 * @property {string} packageVersion exact Debian version (`1:10.11.18-0+deb12u1`)
 * @property {string} dscSha256 sha256 of the .dsc that apt verified
 * @property {string} origTarball file name of the orig tarball (`mariadb_10.11.18.orig.tar.gz`)
 * @property {string} origSha256 its sha256, equal to the .dsc's
 * @property {SignatureCheck} signature
 */

/** @typedef {import('../types.js').Provenance & {build?: SourceBuildFacts}} InstallProvenance */

/**
 * @typedef {object} AvailableVersion one row of `tagbench install --list`
 * @property {string} product
 * @property {string} version upstream version (`10.11.18`)
 * @property {string} provider
 * @property {string|null} suite Debian suite that ships it
 * @property {string|null} packageVersion exact Debian package version when pinned in the config
 */

/**
 * @typedef {object} ToolResult
 * @property {number} code exit code (signal deaths are reported as 128 + n)
 * @property {string} stdout
 * @property {string} stderr
 */
