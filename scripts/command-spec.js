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
