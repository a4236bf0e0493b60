/** CLI commands of the install stage: install. */
import { providerNames } from './registry.js';

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'install',
    summary: 'install one release (cached) and print where its binaries are',
    help: [
      'Examples:',
      '  tagbench install mariadb 10.11.18',
      '  tagbench install mysql 9.7.4 --json',
      '  tagbench install mariadb 10.11.18 --provider path --path /opt/mariadb-10.11.18',
      '  tagbench install --list mariadb',
      '  tagbench install --list mariadb --suite trixie   (what Debian trixie offers, to add under deb:)',
      'The cache folder defaults to $TAGBENCH_CACHE, else .tagbench/installs in the project.',
      'Progress goes to stderr; the result (InstallResult) to stdout. Exit 1 when the install failed.',
    ].join('\n'),
    args: [
      { name: '[product]', description: 'product id (configs/products/<product>.yml)' },
      { name: '[version]', description: 'exact upstream version, e.g. 10.11.18' },
    ],
    options: [
      { flags: '--provider <name>', description: `how to get the release: ${providerNames().join(', ')}`, default: 'deb' },
      { flags: '--path <prefix>', description: 'install prefix of an existing build (path provider)' },
      { flags: '--suite <suite>', description: 'Debian suite to take the packages from, overriding the product config (deb provider)' },
      { flags: '--cache-dir <dir>', description: 'folder of installed prefixes (default $TAGBENCH_CACHE or .tagbench/installs)' },
      { flags: '--list', description: 'list the versions configured for <product> (with --suite: the versions that Debian suite offers), and which are cached' },
      { flags: '--json', description: 'print JSON instead of text' },
    ],
    load: () => import('./install-command.js'),
  },
];
