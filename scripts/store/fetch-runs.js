/**
 * Fetch named run records from the results branch into a local store: a leg that died after some
 * of its releases finished is resumed from the records it published (benchmark.yml's bench job,
 * `tagbench store fetch`, then `tagbench run --resume-from`). Reads the branch's index.json for
 * the records' paths and only those files, and writes each one as `tagbench run` would have
 * (validated, append-only, atomic): the local store gains files, never loses or changes one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { runGit, remoteTip, redactUrls } from './run-git.js';
import { writeRecord } from './write-record.js';
import { INDEX_FILE } from './store-paths.js';

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * @typedef {object} FetchedRun
 * @property {string} id
 * @property {string} status the record's status (ok, failed, partial)
 * @property {string} path where it is in the local store
 */

/**
 * @param {string} storeDir local results store (created when missing)
 * @param {{repo: string, branch?: string, ids: string[], progress?: (line: string) => void}} options
 *   repo: git URL or local path holding the branch (a token in a URL is never saved nor printed)
 * @returns {Promise<FetchedRun[]>} in the order of `ids`
 * @throws {UserError} a malformed id, a branch that does not exist or has no index.json, an id
 *   the index does not list, a record that does not validate, or a local file that differs
 */
export async function fetchRuns(storeDir, options) {
  const branch = options.branch ?? 'bench-data';
  const progress = options.progress ?? ((/** @type {string} */ line) => process.stderr.write(`${line}\n`));
  const bad = options.ids.filter((id) => !SAFE_ID.test(id));
  if (bad.length > 0) throw new UserError(`--runs: ${bad.map((id) => JSON.stringify(id)).join(', ')} ${bad.length > 1 ? 'are not run ids' : 'is not a run id'} (letters, digits, '.', '_' and '-', at most 128)`);
  if (options.ids.length === 0) return [];
  const repo = existsSync(options.repo) ? resolve(options.repo) : options.repo;
  const tip = await remoteTip(repo, branch);
  if (!tip) throw new UserError(`${redactUrls(repo)} has no branch ${branch}: nothing was published to resume from`);
  const work = await mkdtemp(join(tmpdir(), 'tagbench-fetch-'));
  try {
    await runGit(['init', '-q', work]);
    // Depth 1 and no checkout: only index.json and the named records are read out of it.
    await runGit(['fetch', '-q', '--depth', '1', repo, `+refs/heads/${branch}:refs/remotes/origin/${branch}`], { cwd: work });
    const show = (/** @type {string} */ path) => runGit(['show', `refs/remotes/origin/${branch}:${path}`], { cwd: work, check: false });
    const indexText = await show(INDEX_FILE);
    if (indexText.code !== 0) throw new UserError(`${branch} of ${redactUrls(repo)} has no ${INDEX_FILE} at ${tip.slice(0, 12)}`);
    /** @type {{runs?: {id: string, path: string}[]}} */
    let index;
    try {
      index = JSON.parse(indexText.stdout);
    } catch (err) {
      throw new UserError(`${INDEX_FILE} of ${branch} at ${tip.slice(0, 12)} is not valid JSON (${/** @type {Error} */ (err).message})`, { cause: err });
    }
    const paths = new Map((index.runs ?? []).map((r) => [r.id, r.path]));
    const unknown = options.ids.filter((id) => !paths.has(id));
    if (unknown.length > 0) throw new UserError(`${branch} at ${tip.slice(0, 12)} lists no run ${unknown.map((id) => `'${id}'`).join(', ')} in its ${INDEX_FILE}`);
    /** @type {FetchedRun[]} */
    const fetched = [];
    for (const id of options.ids) {
      const rel = /** @type {string} */ (paths.get(id));
      const file = await show(rel);
      if (file.code !== 0) throw new UserError(`${branch} at ${tip.slice(0, 12)}: ${INDEX_FILE} lists ${rel}, but the file is not there`);
      let record;
      try {
        record = JSON.parse(file.stdout);
      } catch (err) {
        throw new UserError(`${rel} of ${branch} at ${tip.slice(0, 12)} is not valid JSON (${/** @type {Error} */ (err).message})`, { cause: err });
      }
      if (record?.id !== id) throw new UserError(`${rel} of ${branch} holds run ${JSON.stringify(record?.id)}, not '${id}'`);
      const path = await writeRecord(storeDir, record);
      progress(`fetch: ${id} (${record.status}) -> ${path}`);
      fetched.push({ id, status: record.status, path });
    }
    return fetched;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
