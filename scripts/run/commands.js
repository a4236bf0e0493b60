/** CLI commands of the run stage: run. */

import { SERVER_RUN_OPTIONS, toInt } from '../run-options.js';
import { providerNames } from '../install/index.js';
/** @param {string} v */
const toList = (v) => v.split(',').map((s) => s.trim()).filter(Boolean);

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'run',
    summary: 'benchmark releases with a suite on this host; writes one run record per release',
    help: [
      'Releases run side by side: each reported test\'s repeats alternate between them (A B A B ...).',
      'Example: tagbench run --releases mariadb@10.11.18,mariadb@10.11.19 --suite smoke --host-class local',
      'Ctrl-C stops every server and stores the records so far as status "partial".',
    ].join('\n'),
    options: [
      { flags: '--releases <list>', description: 'comma-separated product@version (e.g. mariadb@10.11.18,mariadb@10.11.19)' },
      { flags: '--suite <name>', description: 'suite (configs/suites/<name>.yml); default: the host class\'s scale' },
      { flags: '--host-class <name>', description: 'host class (configs/hosts/<name>.yml)', default: 'local' },
      { flags: '--engine <engine>', description: 'storage engine', choices: ['innodb', 'rocksdb'], default: 'innodb' },
      { flags: '--mycnf <name>', description: 'my.cnf template (configs/mycnf/<name>.cnf); default: the engine\'s' },
      { flags: '--repeats <n>', description: 'repeats per test; default: the host class\'s', parse: toInt },
      { flags: '--only <tests>', description: 'comma-separated test names to run (setup steps still run)', parse: toList },
      { flags: '--provider <name>', description: `install provider for every release (${providerNames().join(', ')}); default: the install cache, else deb` },
      { flags: '--path <prefix>', description: 'install prefix for the path provider' },
      { flags: '--store <dir>', description: 'results store directory', default: 'results' },
      ...SERVER_RUN_OPTIONS,
      { flags: '--keep-work', description: 'keep datadirs after the run (default: removed when the run ends)' },
      { flags: '--json', description: 'print the written record paths as JSON on stdout' },
    ],
    run: async (options) => (await import('./run-command.js')).run(options),
  },
];
