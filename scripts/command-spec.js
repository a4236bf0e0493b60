/**
 * Shape of a CLI command spec. Each stage declares its commands once, in
 * scripts/<stage>/commands.js: the options and the handler side by side. A handler imports the
 * stage's heavy modules lazily (`await import(...)`) so that `--help` loads none of them.
 */
// commander prints its own InvalidArgumentError as a usage error (exit 1), not an internal one.
import { InvalidArgumentError } from 'commander';

/**
 * A comma-separated list option (`--releases a,b`): trimmed, empty items dropped.
 * @param {string} value
 * @returns {string[]}
 */
export function parseList(value) {
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/**
 * A whole-number option, refused unless it is written as one (`3`, not `3x` or `1e3`).
 * @param {number} min the smallest allowed value
 * @returns {(value: string) => number}
 */
export function wholeNumberAtLeast(min) {
  return (value) => {
    const n = Number.parseInt(value, 10);
    if (!Number.isInteger(n) || n < min || String(n) !== value.trim()) throw new InvalidArgumentError(`expected a whole number >= ${min}, got ${JSON.stringify(value)}`);
    return n;
  };
}

/**
 * A repeatable option (`--x a --x b`): each value appended to the ones before.
 * @param {string} value
 * @param {string[]|undefined} previous
 * @returns {string[]}
 */
export const collect = (value, previous) => [...(previous ?? []), value];

/** A count option (repeats, attempts, sizes): 1 or more. */
export const parsePositiveInt = wholeNumberAtLeast(1);

/**
 * `--store <dir>`: the results store, results/ unless given; one definition for every command
 * that reads or writes it, each saying what it does there.
 * @param {string} [description]
 * @returns {OptionSpec}
 */
export function storeOption(description = 'results store directory') {
  return { flags: '--store <dir>', description, default: 'results' };
}

/**
 * `--baselines <dir>`: the accepted baselines' folder, baselines/ unless given.
 * @returns {OptionSpec}
 */
export function baselinesOption() {
  return { flags: '--baselines <dir>', description: 'baselines directory', default: 'baselines' };
}

/**
 * The filters of a stored file's identity (host class, product, release, suite), for commands
 * that take every matching run or comparison of the store.
 * @param {string} kind what is filtered, singular (`run`, `comparison`)
 * @param {string} [version] --version's description when it is not "only <kind>s of this release"
 * @returns {OptionSpec[]}
 */
export function identityFilterOptions(kind, version = `only ${kind}s of this release`) {
  return [
    { flags: '--host-class <name>', description: `only ${kind}s of this host class` },
    { flags: '--product <name>', description: `only ${kind}s of this product` },
    { flags: '--version <version>', description: version },
    { flags: '--suite <name>', description: `only ${kind}s of this suite` },
  ];
}

/**
 * `--repo <owner/name>`: the GitHub repository a command talks to, $GITHUB_REPOSITORY unless given.
 * @param {string} [what] what the repository is for, before the default
 * @returns {OptionSpec}
 */
export function githubRepoOption(what = 'repository') {
  return { flags: '--repo <owner/name>', description: `${what} (default: $GITHUB_REPOSITORY)` };
}

/**
 * `--token-env <name>`: the environment variable the GitHub token is read from (never argv).
 * @param {string} [description]
 * @returns {OptionSpec}
 */
export function tokenEnvOption(description = 'environment variable holding the GitHub token') {
  return { flags: '--token-env <name>', description, default: 'GITHUB_TOKEN' };
}

/**
 * `--label <name>`: the label that marks tagbench's regression issues.
 * @param {string} [description]
 * @returns {OptionSpec}
 */
export function issueLabelOption(description = 'label that marks tagbench regression issues') {
  return { flags: '--label <name>', description, default: 'tagbench-regression' };
}

/**
 * `--bot-login <logins>`: whose markers or comments are trusted besides the token's own.
 * @param {string} trusted what is trusted, e.g. "whose issue markers are trusted besides the token's own"
 * @param {string} [note] after the defaults, e.g. how a GitHub App's login is spelt
 * @returns {OptionSpec}
 */
export function botLoginOption(trusted, note = '') {
  return { flags: '--bot-login <logins>', description: `comma-separated logins ${trusted} (default: $TAGBENCH_BOT_LOGINS, else github-actions[bot]${note})` };
}

/**
 * @typedef {object} OptionSpec
 * @property {string} flags commander flags, e.g. `--suite <name>`
 * @property {string} description
 * @property {unknown} [default]
 * @property {string[]} [choices]
 * @property {(value: string, previous: any) => any} [parse]
 */

/**
 * @typedef {object} CommandSpec
 * @property {string} name
 * @property {string} summary one line for the command list
 * @property {string} [help] longer text after the option list
 * @property {{name: string, description: string}[]} [args] positional arguments, commander syntax (`<x>`, `[x...]`)
 * @property {OptionSpec[]} [options]
 * @property {CommandSpec[]} [subcommands]
 * @property {(options: Record<string, any>) => Promise<number|void>} [run] the handler: plain options
 *   (commander's, plus `args` for positional arguments) → exit code; absent on a command that only
 *   groups subcommands
 */
