/**
 * CLI commands of the site stage: site. The handler imports the builder and the server only
 * when it runs, so `--help` stays light.
 */
import { once } from 'node:events';
import { EXIT, UserError } from '../errors.js';
import { withInterrupt } from '../with-interrupt.js';
import { wholeNumberAtLeast } from '../command-spec.js';

/** Port of `--serve` when none is given. */
const DEFAULT_PORT = 8080;

/** @param {string} v */
function parsePort(v) {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--port must be an integer 0-65535 (got '${v}')`);
  return n;
}

/**
 * `tagbench site`: build the site, then with --serve serve it until interrupted.
 * @param {Record<string, any>} options commander options: store, out, baselines, issues, noiseSummary, deletedTags, title, siteUrl,
 *   serve, build (false with --no-build), port
 * @returns {Promise<number>} exit code
 * @throws {UserError} on bad input or a busy port
 */
export async function siteCommand(options) {
  /** @param {string} msg */
  const progress = (msg) => process.stderr.write(`${msg}\n`);
  if (options.build !== false) {
    const { buildSite } = await import('./build-site.js');
    await buildSite({
      store: options.store, out: options.out, baselines: options.baselines, issues: options.issues ?? null,
      noiseSummary: options.noiseSummary ?? null,
      deletedTags: options.deletedTags ?? null,
      title: options.title, siteUrl: options.siteUrl ?? null, charts: options.charts ?? null, progress,
      recordsUrl: options.recordsUrl ?? null, detailReleases: options.detailReleases ?? null,
    });
  }
  if (!options.serve) return EXIT.ok;
  const { serveSite } = await import('./serve-site.js');
  let server;
  if (options.port === undefined) {
    // No port asked for: the usual one, else any free one rather than failing.
    server = await serveSite(options.out, { port: DEFAULT_PORT }).catch((err) => {
      if (!(err instanceof UserError) || !/is in use/.test(err.message)) throw err;
      progress(`site: port ${DEFAULT_PORT} is in use; serving on a free port instead`);
      return serveSite(options.out, { port: 0 });
    });
  } else {
    server = await serveSite(options.out, { port: options.port });
  }
  process.stdout.write(`Serving ${options.out} at ${server.url} (Ctrl-C to stop)\n`);
  // Serve until Ctrl-C or SIGTERM. The handlers are gone before the server closes, so a second
  // Ctrl-C while it closes ends the process as usual.
  await withInterrupt((signal) => once(signal, 'abort'));
  await server.close();
  return EXIT.ok;
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
      { flags: '--issues <file>', description: 'JSON list of regression issues, as `tagbench issues --out FILE` writes it' },
      { flags: '--deleted-tags <file>', description: 'tags upstream deleted, as `tagbench watch --deleted-tags-out FILE` writes it: the pages of releases whose runs name one say "tag deleted"' },
      { flags: '--noise-summary <file>', description: 'false alarms per metric, as `tagbench triage --out FILE` writes it: shown on the Hosts page beside each host class\'s calibration' },
      { flags: '--title <text>', description: 'site title', default: 'tagbench results' },
      { flags: '--site-url <url>', description: 'absolute URL the site is published at (makes the Atom feed\'s links absolute)' },
      { flags: '--records-url <url>', description: 'link run records and comparisons to the results branch\'s files at this URL (e.g. https://github.com/<owner>/<repo>/blob/bench-data) instead of copying them into the site: a store of years does not fit GitHub Pages\' 1 GB' },
      { flags: '--detail-releases <n>', description: 'per-second series and "where the instructions went" files for the newest n releases of each host class, product and suite (and the lines\' base releases) only; older runs\' samples and function tables stay on the results branch (samples files, comparisons) (default: every release)', parse: wholeNumberAtLeast(1) },
      { flags: '--charts <dir>', description: 'github-action-benchmark\'s chart folder (dev/bench of the bench-charts branch): copied to benchmarks/ and linked from the menu' },
      { flags: '--serve', description: 'after building, serve the site on 127.0.0.1 until interrupted' },
      { flags: '--no-build', description: 'with --serve: serve the existing --out folder without rebuilding' },
      { flags: '--port <n>', description: `port for --serve (0 = any free port; default ${DEFAULT_PORT}, or a free one when ${DEFAULT_PORT} is taken)`, parse: parsePort },
    ],
    run: siteCommand,
  },
];
