// Helpers shared by the store tests: records made from the captured fixture, temp dirs, git.
import { readFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/store/run-record-v2.json', import.meta.url), 'utf8'));

/**
 * A valid record: the fixture with another id and, optionally, other identity fields.
 * @param {string} id
 * @param {{version?: string, hostClass?: string, suite?: string, status?: 'ok'|'failed'|'partial'}} [over]
 * @returns {import('../../scripts/types.js').RunRecord}
 */
export function makeRecord(id, over = {}) {
  const r = structuredClone(fixture);
  r.id = id;
  if (over.version) { r.release.version = over.version; r.release.tag = `mariadb-${over.version}`; }
  if (over.hostClass) r.host.class = over.hostClass;
  if (over.suite) r.config.suite = over.suite;
  if (over.status) r.status = over.status;
  if (r.status === 'ok') { r.steps = r.steps.filter((/** @type {any} */ s) => s.status !== 'failed'); delete r.reason; }
  return r;
}

/** @type {string[]} */
const created = [];

/**
 * A new temp directory, removed by cleanupTempDirs().
 * @param {string} prefix
 * @returns {Promise<string>}
 */
export async function tempDir(prefix) {
  const dir = await mkdtemp(join(tmpdir(), `tagbench-${prefix}-`));
  created.push(dir);
  return dir;
}

/** Remove every directory tempDir() made (call from an `after` hook). */
export async function cleanupTempDirs() {
  await Promise.all(created.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/**
 * Run git synchronously (test setup and inspection only).
 * @param {string[]} args
 * @param {string} [cwd]
 */
export function git(args, cwd) {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A new empty bare repository. @returns {Promise<string>} its path */
export async function bareRepo() {
  const dir = await tempDir('bare');
  git(['init', '-q', '--bare', dir]);
  return dir;
}

/**
 * Every file under dir with its bytes, for "left untouched" checks.
 * @param {string} dir
 * @returns {Promise<Record<string, string>>}
 */
export async function snapshot(dir) {
  /** @type {Record<string, string>} */
  const out = {};
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const e of entries) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    out[path.slice(dir.length + 1)] = (await readFile(path)).toString('base64');
  }
  return out;
}
