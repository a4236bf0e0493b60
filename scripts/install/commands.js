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
      '  tagbench install mariadb 10.11.19 --provider source   (cmake build of the tag from build.tagTemplate; about 1 h)',
      '  tagbench install mariadb 10.11.19 --provider source --path /srv/git/mariadb-server.git   (build from a local mirror)',
      '  tagbench install mysql 9.1.0 --provider tarball --path mysql-9.1.0-linux-glibc2.28-x86_64.tar.xz',
      '  tagbench install --list mariadb',
      '  tagbench install --list mariadb --suite trixie   (what Debian trixie offers, to add under deb:)',
      'The cache folder defaults to $TAGBENCH_CACHE, else .tagbench/installs in the project.',
      'Source builds use the product\'s build.defaultProfile (configs/products/<product>.yml) and',
      '$TAGBENCH_BUILD_JOBS parallel jobs (default: the CPU count); a failed build\'s log stays in <cache>/.build-logs/.',
      'Progress goes to stderr; the result (InstallResult) to stdout. Exit 1 when the install failed.',
    ].join('\n'),
    args: [
      { name: '[product]', description: 'product id (configs/products/<product>.yml)' },
      { name: '[version]', description: 'exact upstream version, e.g. 10.11.18' },
    ],
    options: [
      { flags: '--provider <name>', description: `how to get the release: ${providerNames().join(', ')}`, default: 'deb' },
      { flags: '--path <path>', description: 'where the release is on disk: install prefix (path provider), tarball file (tarball), git repository or mirror to build from (source)' },
      { flags: '--suite <suite>', description: 'Debian suite to take the packages from, overriding the product config (deb provider)' },
      { flags: '--ref <ref>', description: 'git tag, branch or commit to build (source provider; default: the tag of <version> from build.tagTemplate)' },
      { flags: '--profile <name>', description: 'build profile from the product config build.profiles (source provider; default: build.defaultProfile)' },
      { flags: '--jobs <n>', description: 'parallel compile jobs (source provider; default: $TAGBENCH_BUILD_JOBS, else the CPU count)' },
      { flags: '--url <url>', description: 'tarball to download (tarball provider; default: tarball.urlTemplate)' },
      { flags: '--sha256 <hex>', description: 'expected sha256 of the tarball (tarball provider; default: tarball.sha256.<version>)' },
      { flags: '--cache-dir <dir>', description: 'folder of installed prefixes (default $TAGBENCH_CACHE or .tagbench/installs)' },
      { flags: '--list', description: 'list the versions configured for <product> (with --suite: the versions that Debian suite offers), and which are cached' },
      { flags: '--json', description: 'print JSON instead of text' },
    ],
    run: async (options) => (await import('./install-command.js')).run(options),
  },
];
