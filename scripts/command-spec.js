/**
 * Shape of a CLI command spec. Each stage declares its commands in scripts/<stage>/commands.js
 * so that `--help` needs no heavy import; the command's module is loaded only when it runs.
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
 * @property {() => Promise<{run: (options: Record<string, any>) => Promise<number|void>}>} [load]
 */
