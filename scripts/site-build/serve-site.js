/**
 * A small static file server for a built site, on 127.0.0.1 only. node:http rather than a
 * package: serving one trusted folder with a handful of content types is a few lines, and
 * it keeps `tagbench site --serve` dependency-free.
 */
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { UserError } from '../errors.js';

const TYPES = /** @type {Record<string, string>} */ ({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.atom': 'application/atom+xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  // The calibration reports the host page links: read as text, not downloaded.
  '.md': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
});

/**
 * Serve a folder over HTTP on 127.0.0.1.
 * @param {string} dir the built site
 * @param {{port?: number, host?: string}} [opts] port 0 = any free port
 * @returns {Promise<{url: string, port: number, close: () => Promise<void>}>}
 * @throws {UserError} when the folder is missing or the port is taken
 */
export async function serveSite(dir, opts = {}) {
  const root = resolve(dir);
  const isDir = await stat(root).then((s) => s.isDirectory(), () => false);
  if (!isDir) throw new UserError(`site folder ${root} does not exist; build it first with \`tagbench site --out ${dir}\``);
  const host = opts.host ?? '127.0.0.1';
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let rel;
    try {
      rel = decodeURIComponent(url.pathname);
    } catch {
      rel = '\0';
    }
    let file = resolve(join(root, rel));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end('forbidden\n');
      return;
    }
    const st = await stat(file).catch(() => null);
    if (st?.isDirectory()) file = join(file, 'index.html');
    const fst = st?.isDirectory() ? await stat(file).catch(() => null) : st;
    if (!fst?.isFile() || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(fst ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' }).end(fst ? 'method not allowed\n' : 'not found\n');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': fst.size,
      // Rebuilds replace files in place: make the browser check again rather than show stale data.
      'cache-control': 'no-cache',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise((ok, fail) => {
    server.once('error', (err) => {
      const code = /** @type {NodeJS.ErrnoException} */ (err).code;
      fail(code === 'EADDRINUSE'
        ? new UserError(`port ${opts.port} on ${host} is in use; pass another with --port, or --port 0 for any free one`, { cause: err })
        : err);
    });
    server.listen(opts.port ?? 0, host, () => ok(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://${host}:${address.port}/`,
    port: address.port,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
