/** CLI commands of the watch stage: watch. */

/**
 * Collect a repeatable option.
 * @param {string} value
 * @param {string[]|undefined} previous
 */
const collect = (value, previous) => [...(previous ?? []), value];

/** @param {string} v */
const toInt = (v) => {
  const n = Number.parseInt(v, 10);
  if (!Number.isInteger(n) || n < 0 || String(n) !== v.trim()) throw new Error(`expected a whole number >= 0, got ${JSON.stringify(v)}`);
  return n;
};

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'watch',
    summary: 'list upstream release tags not benchmarked yet, as a workflow matrix',
    help: [
      'Reads the tags of each product\'s gitUrl (git ls-remote), keeps those matching a line\'s tagPattern at or',
      'above the line\'s floor (minVersion, else baseVersion), drops (host class, version, suite) combinations',
      'the results index already holds with status ok or failed, and prints {"include": [...]} entries',
      '{product, line, version, tag, commit, hostClass, suite}, newest first, lines interleaved, at most --max.',
      'Example: tagbench watch --store bench-data --host-class small-server --json',
    ].join('\n'),
    options: [
      { flags: '--store <dir>', description: 'results store or checkout of the results branch (its index.json)', default: 'results' },
      { flags: '--products <names>', description: 'comma-separated products (default: every product with a gitUrl)' },
      { flags: '--host-class <name>', description: 'host class to plan for (repeatable; default: every host class with runner labels)', parse: collect },
      { flags: '--suite <name>', description: 'suite to plan and look for (default: each host class\'s scale)' },
      { flags: '--max <n>', description: 'most matrix entries', default: 10, parse: toInt },
      { flags: '--retry-failed', description: 'propose again versions whose runs failed (partial runs are always proposed again)' },
      { flags: '--remote-override <product=url>', description: 'read this product\'s tags from another URL or path (repeatable)', parse: collect },
      { flags: '--json', description: 'print the matrix as JSON ({"include": [...]}) on stdout' },
      { flags: '--github-output <file>', description: 'append matrix=<json> and count=<n> to this file (default: $GITHUB_OUTPUT when set, i.e. in GitHub Actions)' },
    ],
    run: async (options) => (await import('./watch-command.js')).run(options),
  },
];
