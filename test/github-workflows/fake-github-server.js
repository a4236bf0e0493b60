/**
 * The nock fake of GitHub's API (test/github/fake-github-nock.js, a stand-in that enforces the
 * rules of GitHub the code depends on) served over HTTP on 127.0.0.1, for a workflow step that
 * runs in another process (act). Each request is passed to the fake unchanged, through this
 * process's fetch, which nock intercepts; the answer (status, headers, body) goes back as is.
 */
import { createServer } from 'node:http';
import { FAKE_API } from '../github/fake-github-nock.js';

/** Hop-by-hop or recomputed headers that must not be copied between the two connections. */
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding', 'content-encoding']);

/**
 * Serve the fake started with startFakeGitHub (call that first).
 * @returns {Promise<{url: string, close: () => Promise<void>}>} url: the API root to give as GITHUB_API_URL
 */
export async function serveFakeGitHub() {
  const server = createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = Buffer.concat(chunks);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => !NOT_FORWARDED.has(k) && typeof v === 'string'));
      const answer = await fetch(`${FAKE_API}${req.url}`, { method: req.method, headers: /** @type {Record<string, string>} */ (headers), ...(body.length > 0 ? { body } : {}) });
      const out = Buffer.from(await answer.arrayBuffer());
      /** @type {Record<string, string>} */
      const back = {};
      answer.headers.forEach((value, key) => {
        if (!NOT_FORWARDED.has(key)) back[key] = value;
      });
      res.writeHead(answer.status, { ...back, 'content-length': String(out.length) });
      res.end(out);
    } catch (err) {
      res.writeHead(599, { 'content-type': 'text/plain' });
      res.end(`fake GitHub bridge: ${err instanceof Error ? err.message : err}`);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
