/** CLI commands of the site stage: site. */

/** @param {string} v */
function parsePort(v) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--port must be an integer 0-65535 (got '${v}')`);
  return n;
}

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'site',
    summary: 'build the static results site (tables, charts, verdicts, downloads) and optionally serve it',
    help: [
      'Pages: index.html (latest releases), line.html (tests x releases table and charts), release.html,',
      'test.html (history and per-second charts), regressions.html, downloads.html. All links are relative,',
      'so the folder can be published under any sub-path (GitHub Pages project sites).',
      'The output folder is replaced whole; a non-empty folder not built by this command is refused.',
    ].join('\n'),
    options: [
      { flags: '--store <dir>', description: 'results store directory (runs/, verdicts/)', default: 'results' },
      { flags: '--out <dir>', description: 'output folder for the site', default: 'out/site' },
      { flags: '--baselines <dir>', description: 'baselines folder (default: the project\'s baselines/)' },
      { flags: '--issues <file>', description: 'JSON list of regression issues [{product, line, version, hostClass, suite, number, url, state, title}]' },
      { flags: '--title <text>', description: 'site title', default: 'tagbench results' },
      { flags: '--site-url <url>', description: 'absolute URL the site is published at (makes the Atom feed\'s links absolute)' },
      { flags: '--serve', description: 'after building, serve the site on 127.0.0.1 until interrupted' },
      { flags: '--no-build', description: 'with --serve: serve the existing --out folder without rebuilding' },
      { flags: '--port <n>', description: 'port for --serve (0 = any free port; default 8080, or a free one when 8080 is taken)', parse: parsePort },
    ],
    run: async (options) => (await import('./site-command.js')).run(options),
  },
];
