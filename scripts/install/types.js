/**
 * Typedefs of the install stage (its own shapes; the shared InstallResult and ReleaseSpec are in
 * scripts/types.js).
 */
export {};

/**
 * @typedef {object} InstallContext what every provider gets besides the spec
 * @property {Readonly<import('../config/load-config.js').Config>} config from loadConfig
 * @property {string} cacheDir absolute folder holding one prefix per release (`<product>-<version>/`)
 * @property {(msg: string) => void} [log] progress lines (the CLI sends them to stderr)
 */

/**
 * @typedef {object} InstallProvider one way of getting a release onto this machine
 * @property {string} name the word used in `--provider`, the file name and the config value
 * @property {string} summary one line for `--help` and error messages
 * @property {(spec: import('../types.js').ReleaseSpec) => string[]} validateOptions problems with the spec for this provider; empty when fine
 * @property {(spec: import('../types.js').ReleaseSpec, ctx: InstallContext) => Promise<import('../types.js').InstallResult>} install
 */

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
