/**
 * Shape of a CLI command spec. Each stage declares its commands once, in
 * scripts/<stage>/commands.js: the options and the handler side by side. A handler imports the
 * stage's heavy modules lazily (`await import(...)`) so that `--help` loads none of them.
 */
export {};

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
