// A private upstream's credential (scripts/upstream-auth.js): scoped to the upstream's host,
// through the environment only, and checked against a real git and a real HTTP server that
// demands it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { upstreamAuthEnv } from '../scripts/upstream-auth.js';

const run = promisify(execFile);

test('no token, or an ssh or local upstream: nothing added', () => {
  assert.deepEqual(upstreamAuthEnv('https://git.example.com/db/server.git', {}), {});
  assert.deepEqual(upstreamAuthEnv('git@git.example.com:db/server.git', { TAGBENCH_UPSTREAM_TOKEN: 't' }), {});
  assert.deepEqual(upstreamAuthEnv('/srv/mirrors/server.git', { TAGBENCH_UPSTREAM_TOKEN: 't' }), {});
  assert.deepEqual(upstreamAuthEnv('https://user:pw@git.example.com/x.git', { TAGBENCH_UPSTREAM_TOKEN: 't' }), {}, 'a URL with its own credentials is left alone');
});

test('a token becomes a header for the upstream\'s host alone, numbered after the caller\'s entries', () => {
  const env = upstreamAuthEnv('https://git.example.com/db/server.git', { TAGBENCH_UPSTREAM_TOKEN: 's3cret', GIT_CONFIG_COUNT: '1' });
  assert.deepEqual(env, {
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_1: 'http.https://git.example.com/.extraheader',
    GIT_CONFIG_VALUE_1: `AUTHORIZATION: basic ${Buffer.from('x-access-token:s3cret').toString('base64')}`,
  });
  assert.ok(!JSON.stringify(env).includes('s3cret'), 'the token never appears as it is');
});

test('real git sends the header to the upstream\'s host (a server that demands it), and not to another host', async (t) => {
  /** @type {(string|undefined)[]} */
  const seen = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(401, { 'www-authenticate': 'Basic realm="private upstream"' });
    res.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  t.after(() => server.close());
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  const header = upstreamAuthEnv('https://127.0.0.1/', { TAGBENCH_UPSTREAM_TOKEN: 's3cret' }).GIT_CONFIG_VALUE_0;
  // git only sends http.<url>.extraheader over https or to the URL it is scoped to; the scope
  // is checked here by the key itself, and the sending by a plain-http upstream on localhost.
  const url = `http://127.0.0.1:${port}/db/server.git`;
  const scoped = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `http.http://127.0.0.1:${port}/.extraheader`, GIT_CONFIG_VALUE_0: header };
  await assert.rejects(run('git', ['ls-remote', '--tags', url], { env: scoped }));
  assert.ok(seen.includes(`basic ${Buffer.from('x-access-token:s3cret').toString('base64')}`), `git sent the token: ${JSON.stringify(seen)}`);
  seen.length = 0;
  const other = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.https://git.example.com/.extraheader', GIT_CONFIG_VALUE_0: 'AUTHORIZATION: basic eA==' };
  await assert.rejects(run('git', ['ls-remote', '--tags', url], { env: other }));
  assert.ok(seen.every((h) => h === undefined), 'a header scoped to another host is not sent');
});
