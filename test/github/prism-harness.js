/**
 * A local stand-in for api.github.com: Stoplight Prism serving GitHub's own OpenAPI description
 * (from the npm package @octokit/openapi), behind a small loopback proxy that
 *  - rewrites Accept: Octokit sends application/vnd.github.v3+json, which Prism answers with
 *    406 because the description only lists application/json;
 *  - logs every request (method, path, query, body) with Prism's status and its sl-violations
 *    header, so tests assert on what the client sent;
 *  - drops the Link header: the description's examples carry one pointing at
 *    https://api.github.com/resource?page=2, which Octokit's paginate would follow off the machine.
 * Prism is stateless (it answers with the description's examples): assert on requests, not on
 * state. Startup takes 8–15 s (a 13 MB description) and about 280 MB of memory.
 * Where a test needs state (find the check run or comment an earlier call made), Prism runs as a
 * validating proxy instead (`upstream`): every request is checked against the description before
 * it is forwarded to a stateful stand-in (an invalid one is refused with 422 and never reaches
 * it), and every answer of the stand-in is checked on its way back (an invalid one becomes a 500
 * with the violations in sl-violations). A status the description does not list for the
 * operation (GitHub's 403 and 422 refusals mostly) passes with a Warning.
 *
 * The description is fetched once into a cache outside the work tree: only the one file
 * generated/api.github.com.json is taken from the package tarball (the package is 385 MB and
 * must never be an install dependency), then repaired (see repairSpec) and written beside it.
 */
import { before, after } from 'node:test';
import { spawn, execFile } from 'node:child_process';
import { createServer, request as httpRequest } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The description version the tests were written against (bump deliberately). */
export const OPENAPI_PACKAGE = '@octokit/openapi@23.0.2';
/** Bump when repairSpec changes so the cached repaired file is rebuilt. */
const REPAIR_VERSION = 1;
/** This area's port range (helper brief): Prism listens on the first free port in it. */
const PORT_RANGE = /** @type {const} */ ([23400, 23499]);
const PRISM_BIN = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url));

/**
 * @returns {string} cache directory for the description (TAGBENCH_OPENAPI_CACHE overrides)
 */
export function specCacheDir() {
  return process.env.TAGBENCH_OPENAPI_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'tagbench', 'openapi');
}

/**
 * Make sure the repaired description is in the cache; fetch it with `npm pack` when missing.
 * @param {string} [cacheDir]
 * @returns {Promise<string>} path of the repaired description
 */
export async function ensureGitHubSpec(cacheDir = specCacheDir()) {
  const version = OPENAPI_PACKAGE.split('@').at(-1);
  const raw = join(cacheDir, `api.github.com-${version}.json`);
  const repaired = join(cacheDir, `api.github.com-${version}.repaired-${REPAIR_VERSION}.json`);
  if (await exists(repaired)) return repaired;
  await mkdir(cacheDir, { recursive: true });
  if (!(await exists(raw))) {
    const { stdout } = await run('npm', ['pack', OPENAPI_PACKAGE, '--pack-destination', cacheDir, '--silent'], { maxBuffer: 1 << 20 });
    const tgz = join(cacheDir, stdout.trim().split('\n').at(-1) ?? '');
    await run('tar', ['-xzf', tgz, '-C', cacheDir, 'package/generated/api.github.com.json']);
    await rename(join(cacheDir, 'package/generated/api.github.com.json'), raw);
    await rm(join(cacheDir, 'package'), { recursive: true, force: true });
    await rm(tgz, { force: true });
  }
  const spec = JSON.parse(await readFile(raw, 'utf8'));
  const count = repairSpec(spec);
  await writeFile(`${repaired}.tmp`, JSON.stringify(spec));
  await rename(`${repaired}.tmp`, repaired);
  process.stderr.write(`prism-harness: repaired ${count} schemas of ${raw}\n`);
  return repaired;
}

/**
 * Repair the schemas Prism cannot compile. OpenAPI 3.0's `nullable: true` is meaningful only
 * next to `type`; GitHub's description also puts it on schemas without `type` (oneOf, anyOf,
 * allOf). Prism's conversion to JSON Schema then yields a schema ajv rejects, and Prism
 * silently skips validating that body (create issue and update issue among them). Rewrite each
 * as "the same schema, or null": drop `nullable` and add a `{type: 'null'}` alternative (an
 * `enum: [null]` alternative breaks ajv).
 * @param {any} spec parsed description, changed in place
 * @returns {number} schemas repaired
 */
export function repairSpec(spec) {
  let count = 0;
  /** @param {any} node */
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    for (const value of Object.values(node)) walk(value);
    if (node.nullable !== true || 'type' in node) return;
    delete node.nullable;
    count++;
    if (Array.isArray(node.oneOf)) node.oneOf.push({ type: 'null' });
    else if (Array.isArray(node.anyOf)) node.anyOf.push({ type: 'null' });
    else if (Array.isArray(node.allOf)) {
      node.anyOf = [{ allOf: node.allOf }, { type: 'null' }];
      delete node.allOf;
    }
    // Otherwise the schema has no type at all and already accepts null.
  };
  walk(spec);
  return count;
}

/**
 * @typedef {object} LoggedRequest
 * @property {string} method
 * @property {string} path without the query
 * @property {Record<string, string>} query
 * @property {any} body parsed JSON, or null
 * @property {string|undefined} accept the Accept header the client sent
 * @property {number} status Prism's answer
 * @property {string|null} violations Prism's sl-violations header (JSON list; request and response problems)
 * @property {string[]} requestViolations messages of the violations about the request itself
 *   (Prism also reports examples of GitHub's that do not fit their own response schema)
 * @property {string[]} errorViolations messages of every violation of severity Error, of the
 *   request or (proxy mode) of the stand-in's answer
 */

/**
 * @typedef {object} PrismHarness
 * @property {string} url base URL for GITHUB_API_URL (the proxy)
 * @property {LoggedRequest[]} requests every request since start (or the last clear)
 * @property {() => void} clear
 * @property {() => Promise<void>} stop stops the proxy and Prism
 */

/**
 * Start Prism on the repaired description and the logging proxy in front of it.
 * @param {{timeoutS?: number, upstream?: string, attempt?: number}} [options] upstream: run Prism
 *   as a validating proxy to this server instead of answering with the description's examples;
 *   attempt: which start this is (a port taken before Prism bound it is tried again, twice)
 * @returns {Promise<PrismHarness>}
 * @throws {Error} when Prism is not installed (run npm ci) or does not come up in time
 */
export async function startPrism(options = {}) {
  const specFile = await ensureGitHubSpec();
  if (!(await exists(PRISM_BIN))) throw new Error(`Prism is missing at ${PRISM_BIN}: run \`npm ci\` (it is a devDependency)`);
  const prismPort = await findFreePort(PORT_RANGE);
  const mode = options.upstream ? ['proxy', '--errors', '--host', '127.0.0.1', '--port', String(prismPort), specFile, options.upstream] : ['mock', '--host', '127.0.0.1', '--port', String(prismPort), specFile];
  const prism = spawn(PRISM_BIN, mode, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
  });
  let output = '';
  prism.stdout.on('data', (d) => { output = (output + d).slice(-4000); });
  prism.stderr.on('data', (d) => { output = (output + d).slice(-4000); });
  const exited = new Promise((resolve) => prism.once('exit', resolve));

  /** @type {LoggedRequest[]} */
  const requests = [];
  const proxy = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://proxy');
      const headers = { ...req.headers, accept: 'application/json', host: `127.0.0.1:${prismPort}` };
      const upstream = httpRequest({ host: '127.0.0.1', port: prismPort, method: req.method, path: req.url, headers }, (up) => {
        const violations = up.headers['sl-violations'];
        requests.push({
          method: req.method ?? 'GET',
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          body: body.length > 0 ? safeJson(body.toString('utf8')) : null,
          accept: req.headers.accept,
          status: up.statusCode ?? 0,
          violations: Array.isArray(violations) ? violations.join(', ') : violations ?? null,
          requestViolations: parseRequestViolations(violations),
          errorViolations: parseViolations(violations).filter((v) => v?.severity === 'Error').map(describeViolation),
        });
        const { link: _link, ...kept } = up.headers;
        res.writeHead(up.statusCode ?? 502, kept);
        up.pipe(res);
      });
      upstream.on('error', (err) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`proxy: Prism unreachable: ${err.message}`);
      });
      upstream.end(body);
    });
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = proxy.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const stop = async () => {
    await new Promise((resolve) => proxy.close(() => resolve(undefined)));
    if (prism.exitCode === null && prism.signalCode === null) {
      prism.kill('SIGTERM');
      const timer = setTimeout(() => prism.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };

  const deadline = Date.now() + (options.timeoutS ?? 120) * 1000;
  for (;;) {
    if (prism.exitCode !== null) {
      await stop();
      // Another Prism (a file beside this one, or another checkout's tests on this machine) bound
      // the port between findFreePort and Prism's own bind: nothing was served yet, so start
      // again, on the next free port. Other exits are not retried.
      const attempt = options.attempt ?? 1;
      if (/EADDRINUSE/.test(output) && attempt < 3) return startPrism({ ...options, attempt: attempt + 1 });
      throw new Error(`Prism exited with code ${prism.exitCode} before listening:\n${output}`);
    }
    if (/Prism is listening/.test(output)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Prism did not listen on 127.0.0.1:${prismPort} within ${options.timeoutS ?? 120} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, requests, clear: () => { requests.length = 0; }, stop };
}

/**
 * @param {readonly [number, number]} range inclusive
 * @returns {Promise<number>}
 */
async function findFreePort([first, last]) {
  for (let port = first; port <= last; port++) {
    const free = await new Promise((resolve) => {
      const s = createNetServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free TCP port in ${first}-${last}`);
}

/**
 * @param {string|string[]|undefined} header sl-violations
 * @returns {string[]}
 */
function parseRequestViolations(header) {
  return parseViolations(header).filter((v) => v?.location?.[0] === 'request').map(describeViolation);
}

/**
 * @param {string|string[]|undefined} header sl-violations
 * @returns {any[]} Prism's violations (a header that does not parse is one violation of severity Error)
 */
function parseViolations(header) {
  if (!header) return [];
  const list = safeJson(Array.isArray(header) ? header.join(',') : header);
  return Array.isArray(list) ? list : [{ location: ['request'], severity: 'Error', message: String(header) }];
}

/** @param {any} v one violation */
function describeViolation(v) {
  return `${(v.location ?? []).join('.')}: ${v.message}`;
}

/** @param {string} text */
function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** @param {string} path */
async function exists(path) {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * One Prism and one temp folder for the tests of a file: started before the first test, both
 * gone after the last. The returned object is filled in by the `before` hook.
 * @param {{upstream?: () => Promise<string>, timeoutS?: number}} [options] upstream: started first, its URL is the
 *   server Prism proxies to (see startPrism); timeoutS: how long Prism may take to listen (startPrism's default otherwise)
 * @returns {{prism: PrismHarness, dir: string}}
 */
export function usePrismForFile(options = {}) {
  const ctx = /** @type {{prism: PrismHarness, dir: string}} */ ({});
  before(async () => {
    ctx.prism = await startPrism({ ...(options.upstream ? { upstream: await options.upstream() } : {}), ...(options.timeoutS ? { timeoutS: options.timeoutS } : {}) });
    ctx.dir = await mkdtemp(join(tmpdir(), 'tagbench-prism-'));
  }, { timeout: 300_000 });
  after(async () => {
    await ctx.prism?.stop();
    if (ctx.dir) await rm(ctx.dir, { recursive: true, force: true });
  });
  return ctx;
}
