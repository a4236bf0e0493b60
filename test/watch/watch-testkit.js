// Upstream-like repositories for the watch tests: real git, real tags (annotated and lightweight).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

/** @type {string[]} */
const created = [];

/** @param {string} prefix @returns {Promise<string>} */
export async function tempDir(prefix) {
  const dir = await mkdtemp(join(tmpdir(), `tagbench-watch-${prefix}-`));
  created.push(dir);
  return dir;
}

/** Remove every directory tempDir() made. */
export async function cleanupTempDirs() {
  await Promise.all(created.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/**
 * @param {string[]} args
 * @param {string} [cwd]
 */
export function git(args, cwd) {
  return execFileSync('git', ['-c', 'user.name=upstream', '-c', 'user.email=upstream@example.invalid', '-c', 'tag.gpgSign=false', ...args], {
    cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * A bare repository whose tags are given: each tag on its own commit.
 * @param {{name: string, annotated: boolean}[]} tags
 * @returns {Promise<{bare: string, commits: Record<string, string>}>} tag name -> commit it names
 */
export async function upstreamRepo(tags) {
  const work = await tempDir('work');
  const bare = await tempDir('bare');
  git(['init', '-q', work]);
  /** @type {Record<string, string>} */
  const commits = {};
  for (const t of tags) {
    git(['commit', '-q', '--allow-empty', '-m', `release ${t.name}`], work);
    git(t.annotated ? ['tag', '-a', t.name, '-m', `Release ${t.name}`] : ['tag', t.name], work);
    commits[t.name] = git(['rev-parse', 'HEAD'], work).trim();
  }
  git(['clone', '-q', '--bare', work, bare]);
  return { bare, commits };
}
