#!/usr/bin/env node
/**
 * Entry point: `tagbench <command>`. Thin on purpose: it builds the commander program from
 * each stage's command specs (scripts/<stage>/commands.js) and calls the chosen command's
 * handler with a plain options object (the handler imports its stage lazily). One top-level catch turns a UserError into
 * a message and exit 1; anything else is a bug and prints its stack.
 */
import { Command, Option } from 'commander';
import { UserError, EXIT } from './errors.js';
import { commandSpecs } from './command-list.js';

/** @typedef {import('./command-spec.js').CommandSpec} CommandSpec */

/**
 * Build the commander program from the specs.
 * @param {CommandSpec[]} specs
 * @returns {Command}
 */
export function buildProgram(specs) {
  const program = new Command('tagbench')
    .description('Continuous performance-regression benchmarks for MySQL-family releases')
    .showHelpAfterError()
    .enablePositionalOptions();
  for (const spec of specs) addCommand(program, spec);
  return program;
}

/**
 * @param {Command} parent
 * @param {CommandSpec} spec
 */
function addCommand(parent, spec) {
  const cmd = parent.command(spec.name).description(spec.summary);
  if (spec.help) cmd.addHelpText('after', `\n${spec.help}`);
  for (const arg of spec.args ?? []) cmd.argument(arg.name, arg.description);
  for (const opt of spec.options ?? []) {
    const option = new Option(opt.flags, opt.description);
    if (opt.default !== undefined) option.default(opt.default);
    if (opt.choices) option.choices(opt.choices);
    if (opt.parse) option.argParser(opt.parse);
    cmd.addOption(option);
  }
  for (const sub of spec.subcommands ?? []) addCommand(cmd, sub);
  const handler = spec.run;
  if (!handler) return;
  cmd.action(async (...actionArgs) => {
    const command = /** @type {Command} */ (actionArgs.at(-1));
    const positional = actionArgs.slice(0, (spec.args ?? []).length);
    const options = { ...command.opts(), args: positional };
    const code = await handler(options);
    process.exitCode = typeof code === 'number' ? code : EXIT.ok;
  });
}

async function main() {
  const program = buildProgram(commandSpecs);
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof UserError) {
      process.stderr.write(`tagbench: ${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`tagbench: internal error (a bug, please report it):\n${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 70;
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('/tagbench')) {
  await main();
}
