import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { withInterrupt } from '../scripts/with-interrupt.js';

const moduleUrl = new URL('../scripts/with-interrupt.js', import.meta.url).href;

/**
 * A process that runs withInterrupt and says on stdout what it sees. Real signals go to a child
 * of its own: node:test ends this process's tests at a SIGINT or SIGTERM of its own.
 * SIGTERM aborts the body; a second signal (SIGINT) reaches the body's own listener while the
 * work stops; once the body returned, the process waits, so only a default SIGINT ends it.
 */
const CHILD = `
import { withInterrupt } from ${JSON.stringify(moduleUrl)};
const count = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')].join(',');
const say = (line) => process.stdout.write(line + '\\n');
// Signal handlers keep no process alive; in tagbench the servers do, here a timer.
setInterval(() => {}, 1000);
const before = count();
const result = await withInterrupt(async (signal) => {
  say('ready ' + count());
  await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
  say('aborted ' + signal.reason.name + ': ' + signal.reason.message);
  await new Promise((r) => process.once('SIGINT', r));
  return 'stopped';
}, (sig) => say('interrupt ' + sig));
say('returned ' + result + ' ' + before + ' -> ' + count());
`;

test('SIGTERM aborts the body\'s signal, onInterrupt runs once, and later a Ctrl-C ends the process as usual', { timeout: 30_000 }, async () => {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  /** @type {RegExp|null} */
  let waitFor = null;
  /** @type {() => void} */
  let found = () => {};
  child.stdout.on('data', (d) => {
    stdout += d;
    if (waitFor?.test(stdout)) found();
  });
  /** Send `sig` once stdout has a line matching `re`; fail if the child ends first. */
  const at = (/** @type {RegExp} */ re, /** @type {NodeJS.Signals} */ sig) => Promise.race([
    new Promise((resolve) => {
      waitFor = re;
      found = () => { waitFor = null; child.kill(sig); resolve(undefined); };
      if (re.test(stdout)) found();
    }),
    exited.then(() => { throw new Error(`the child ended before printing ${re}:\n${stdout}\n${stderr}`); }),
  ]);
  await at(/^ready/m, 'SIGTERM');
  await at(/^aborted/m, 'SIGINT');
  await at(/^returned/m, 'SIGINT');
  const { code, signal } = /** @type {{code: number|null, signal: string|null}} */ (await exited);
  const lines = stdout.trim().split('\n');
  // The abort is an AbortError like abort()'s own, naming the signal (a partial record says it).
  assert.deepEqual(lines, ['ready 1,1', 'interrupt SIGTERM', 'aborted AbortError: interrupted by SIGTERM', 'returned stopped 0,0 -> 0,0'], stderr);
  assert.equal(signal, 'SIGINT', `no handler is left: the last Ctrl-C ends the process (code ${code})\n${stderr}`);
});

test('the handlers are removed when the body throws, and its error passes through', async () => {
  const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
  const boom = new Error('boom');
  await assert.rejects(withInterrupt(async () => { throw boom; }, () => {}), (err) => err === boom);
  assert.deepEqual([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')], before);
});

test('without a signal the body\'s result is returned and onInterrupt (optional) is not needed', async () => {
  assert.equal(await withInterrupt(async (signal) => (signal.aborted ? 'stopped' : 'finished')), 'finished');
});
