/** `tagbench site`: build the site, then with --serve serve it until interrupted. */
import { buildSite, serveSite } from './index.js';
import { EXIT, UserError } from '../errors.js';

/** Port of `--serve` when none is given. */
const DEFAULT_PORT = 8080;

/**
 * @param {Record<string, any>} options commander options: store, out, baselines, issues, title, siteUrl,
 *   serve, build (false with --no-build), port
 * @returns {Promise<number>} exit code
 * @throws {import('../errors.js').UserError} on bad input or a busy port
 */
export async function run(options) {
  /** @param {string} msg */
  const progress = (msg) => process.stderr.write(`${msg}\n`);
  if (options.build !== false) {
    await buildSite({
      store: options.store, out: options.out, baselines: options.baselines, issues: options.issues ?? null,
      title: options.title, siteUrl: options.siteUrl ?? null, progress,
    });
  }
  if (!options.serve) return EXIT.ok;
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
  await new Promise((done) => {
    const stop = () => { process.off('SIGINT', stop); process.off('SIGTERM', stop); done(undefined); };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  return EXIT.ok;
}
