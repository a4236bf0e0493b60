/**
 * Servers must not outlive tagbench: Ctrl-C reaches only tagbench (the server runs in its own
 * process group) and the orchestrator's handler stops them cleanly; a process that exits
 * without stopping its servers still sends them SIGTERM from its 'exit' hook.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { skipReason, tempWorkDir } from './helpers.js';
import { readLogTail } from '../../scripts/server/error-log.js';
import { join } from 'node:path';

const skip = skipReason;
const CHILD = fileURLToPath(new URL('./helpers/start-and-wait.js', import.meta.url));
/** @type {(() => Promise<void>)[]} */
const cleanups = [];
after(async () => {
  for (const c of cleanups) await c();
});

/**
 * Start the child and wait for the server pid it prints.
 * @param {number} port
 * @param {string} workDir
 * @param {'sigint'|'exit-now'} mode
 */
function startChild(port, workDir, mode) {
  const child = spawn(process.execPath, [CHILD, String(port), workDir, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((res) => child.once('exit', (code, signal) => res({ code, signal })));
  const pid = new Promise((res, rej) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const line = buf.split('\n')[0];
      if (buf.includes('\n')) res(JSON.parse(line).pid);
    });
    child.once('exit', () => rej(new Error(`child exited before printing the server pid: ${buf}`)));
  });
  return { child, pid, exited };
}

/**
 * Wait (up to 120 s, polling) for a process to disappear.
 * @param {number} pid
 */
async function gone(pid) {
  for (let i = 0; i < 480; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

test('SIGINT to tagbench: its handler stops the server cleanly', { skip }, async () => {
  const w = await tempWorkDir('sigint');
  cleanups.push(w.remove);
  const { child, pid, exited } = startChild(23140, w.dir, 'sigint');
  const serverPid = await pid;
  child.kill('SIGINT');
  assert.deepEqual(await exited, { code: 130, signal: null });
  assert.ok(await gone(serverPid), `server ${serverPid} is gone`);
  assert.match(await readLogTail(join(w.dir, 'error.log'), 3), /Shutdown complete/);
});

test('process.exit() without stopping: the exit hook still shuts the server down', { skip }, async () => {
  const w = await tempWorkDir('exit');
  cleanups.push(w.remove);
  const { pid, exited } = startChild(23141, w.dir, 'exit-now');
  const serverPid = await pid;
  assert.deepEqual(await exited, { code: 0, signal: null });
  assert.ok(await gone(serverPid), `server ${serverPid} is gone`);
  assert.match(await readLogTail(join(w.dir, 'error.log'), 3), /Shutdown complete/);
});
