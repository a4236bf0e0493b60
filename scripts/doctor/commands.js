/** CLI commands of the doctor stage: doctor. */

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'doctor',
    summary: 'check that this host can run tagbench (tools, configs, disk, noise sources) and say how to fix what is not',
    help: [
      'Prints one line per check: ✓ ok, ✗ failed (marked "optional" when not needed to benchmark),',
      '! warning (works, but results may be noisy), · fact. Exit status 1 when a required check fails.',
    ].join('\n'),
    options: [
      { flags: '--json', description: 'print the checks as JSON ({schemaVersion, ok, checks[]}) instead of text' },
      { flags: '--work-dir <dir>', description: 'where datadirs will live (free disk is measured there)', default: '.tagbench/work' },
      { flags: '--config-root <dir>', description: 'project root whose configs/ to load (default: this tagbench checkout)' },
    ],
    run: async (options) => (await import('./doctor-command.js')).run(options),
  },
];
