/** CLI commands of the store stage: publish, store index, store migrate. */

/** @param {string} v */
const toInt = (v) => {
  const n = Number.parseInt(v, 10);
  if (!Number.isInteger(n) || n < 1 || String(n) !== v.trim()) throw new Error(`expected a positive integer, got ${JSON.stringify(v)}`);
  return n;
};

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'publish',
    summary: 'commit the run records and comparisons of a results store to the results branch (race-safe)',
    help: [
      'Adds every record and comparison of --store that the branch lacks, regenerates index.json and pushes',
      '(never forced). When another publisher pushed first, it starts again on the new tip after a random',
      'backoff. Files are append-only: an identical file is a no-op, a different file at the same path is',
      'refused. The branch is created (orphan) when missing. The local store is only read.',
      'Example: tagbench publish --store results --repo git@github.com:org/tagbench.git',
    ].join('\n'),
    options: [
      { flags: '--store <dir>', description: 'results store directory to publish', default: 'results' },
      { flags: '--repo <url-or-path>', description: 'git repository holding the results branch (URL or local path)' },
      { flags: '--branch <name>', description: 'results branch', default: 'bench-data' },
      { flags: '--logs', description: 'also publish raw logs (logs/<run-id>/) of the published runs' },
      { flags: '--max-log-kb <n>', description: 'with --logs: leave out (and list) logs larger than this', default: 1024, parse: toInt },
      { flags: '--attempts <n>', description: 'push attempts before giving up when other publishers keep winning', default: 12, parse: toInt },
      { flags: '--json', description: 'print the result as JSON on stdout' },
    ],
    load: () => import('./publish-command.js'),
  },
  {
    name: 'store',
    summary: 'maintain a results store: regenerate its index, upgrade old files',
    subcommands: [
      {
        name: 'index',
        summary: 'regenerate index.json of a results store from its files',
        options: [{ flags: '--store <dir>', description: 'results store directory', default: 'results' }],
        load: () => import('./index-command.js'),
      },
      {
        name: 'migrate',
        summary: 'upgrade every record and comparison of a results store to the newest schemaVersion',
        help: 'Rewrites (atomically) only files of an older schemaVersion; files newer than this tagbench are an error.',
        options: [
          { flags: '--store <dir>', description: 'results store directory', default: 'results' },
          { flags: '--dry-run', description: 'list what would change, write nothing' },
        ],
        load: () => import('./migrate-command.js'),
      },
    ],
  },
];
