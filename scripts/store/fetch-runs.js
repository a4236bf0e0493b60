/**
 * Fetch named run records from the results branch into a local store: a leg that died after some
 * of its releases finished is resumed from the records it published (benchmark.yml's bench job,
 * `tagbench store fetch`, then `tagbench run --resume-from`). Reads the branch's index.json for
 * the records' paths and checks out only those records and their samples files (a partial
 * clone: the branch's other files are never downloaded). Each record is validated with its
 * samples joined, then both files are written byte for byte as the branch has them (append-only,
 * atomic), so a later publish of this store finds them identical: the local store gains files,
 * never loses or changes one.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { runGit, remoteTip, redactUrls } from './run-git.js';
import { validateRecord } from './validate-record.js';
import { joinSamples, sameSamples } from './record-samples.js';
import { writeFileOnce } from './write-file-once.js';
import { INDEX_FILE, recordRelPath } from './store-paths.js';

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
 *   the index does not list, a record or samples file that does not validate, or a local file
 *   that differs (nothing is written then for that record)
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
  const at = `${branch} at ${tip.slice(0, 12)}`;
  const work = await mkdtemp(join(tmpdir(), 'tagbench-fetch-'));
  try {
    const env = originEnv(repo);
    await runGit(['init', '-q', work]);
    for (const [key, value] of [['extensions.partialClone', 'origin'], ['remote.origin.promisor', 'true'], ['remote.origin.partialclonefilter', 'blob:none'], ['core.sparseCheckout', 'true']]) {
      await runGit(['config', key, value], { cwd: work });
    }
    await runGit(['fetch', '-q', '--depth', '1', '--filter=blob:none', 'origin', `+refs/heads/${branch}:refs/remotes/origin/${branch}`], { cwd: work, env });
    const checkout = async (/** @type {string[]} */ paths) => {
      // One pattern per file: store paths hold [A-Za-z0-9._-/] only, no pattern syntax.
      await mkdir(join(work, '.git', 'info'), { recursive: true });
      await writeFile(join(work, '.git', 'info', 'sparse-checkout'), `${paths.map((p) => `/${p}`).join('\n')}\n`);
      await runGit(['checkout', '-q', '-f', '-B', branch, `refs/remotes/origin/${branch}`], { cwd: work, env });
    };
    await checkout([INDEX_FILE]);
    const indexText = await readFile(join(work, INDEX_FILE), 'utf8').catch(() => null);
    if (indexText === null) throw new UserError(`${at} of ${redactUrls(repo)} has no ${INDEX_FILE}`);
    /** @type {{runs?: {id: string, path: string}[]}} */
    const index = parseJson(indexText, `${INDEX_FILE} of ${at}`);
    const paths = new Map((index.runs ?? []).map((r) => [r.id, r.path]));
    const unknown = options.ids.filter((id) => !paths.has(id));
    if (unknown.length > 0) throw new UserError(`${at} lists no run ${unknown.map((id) => `'${id}'`).join(', ')} in its ${INDEX_FILE}`);
    const records = options.ids.map((id) => /** @type {string} */ (paths.get(id)));
    await checkout(records);
    const stored = await Promise.all(records.map(async (rel) => {
      const text = await readFile(join(work, rel), 'utf8').catch(() => null);
      if (text === null) throw new UserError(`${at}: ${INDEX_FILE} lists ${rel}, but the file is not there`);
      return { rel, text, data: parseJson(text, `${rel} of ${at}`) };
    }));
    const samples = stored.filter((s) => s.data.samples?.file).map((s) => join(dirname(s.rel), s.data.samples.file));
    if (samples.length > 0) await checkout([...records, ...samples]);
    /** @type {FetchedRun[]} */
    const fetched = [];
    for (const [i, { rel, text, data }] of stored.entries()) {
      const id = options.ids[i];
      if (data?.id !== id) throw new UserError(`${rel} of ${at} holds run ${JSON.stringify(data?.id)}, not '${id}'`);
      const samplesRel = data.samples?.file ? join(dirname(rel), data.samples.file) : null;
      const bytes = samplesRel ? await readFile(join(work, samplesRel)).catch(() => null) : null;
      // The record as readers see it (samples joined) must be valid and belong at its path.
      const full = samplesRel ? joinSamples(data, bytes, rel) : data;
      const problems = validateRecord(full);
      if (problems.length > 0) throw new UserError(`${rel} of ${at} is not a valid run record:\n  - ${problems.join('\n  - ')}`);
      if (recordRelPath(full) !== rel) throw new UserError(`${rel} of ${at}: a record of its content belongs at ${recordRelPath(full)}`);
      const path = join(storeDir, rel);
      // The samples first: a record never names a file that is not there.
      if (samplesRel && bytes) await writeFileOnce(join(storeDir, samplesRel), bytes, { same: sameSamples, what: 'samples file' });
      await writeFileOnce(path, text, { json: true, what: 'run record' });
      progress(`fetch: ${id} (${full.status}) -> ${path}`);
      fetched.push({ id, status: full.status, path });
    }
    return fetched;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * @param {string} text
 * @param {string} what the file, for the error
 * @returns {any}
 */
function parseJson(text, what) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${what} is not valid JSON (${/** @type {Error} */ (err).message})`, { cause: err });
  }
}

/**
 * Git's remote "origin" for this process only, through the environment: a token in the URL never
 * reaches .git/config. A local repository is asked to serve the partial clone (a plain one does
 * not allow filters by default, and would send every file).
 * @param {string} repo
 * @returns {Record<string, string>}
 */
function originEnv(repo) {
  /** @type {[string, string][]} */
  const add = [['remote.origin.url', repo]];
  if (existsSync(repo)) add.push(['remote.origin.uploadpack', 'git -c uploadpack.allowFilter=true -c uploadpack.allowAnySHA1InWant=true upload-pack']);
  // Numbered after the entries the caller passes this way already (the workflow's auth header).
  const from = Number(process.env.GIT_CONFIG_COUNT ?? 0) || 0;
  return Object.fromEntries([
    ['GIT_CONFIG_COUNT', String(from + add.length)],
    ...add.flatMap(([key, value], i) => [[`GIT_CONFIG_KEY_${from + i}`, key], [`GIT_CONFIG_VALUE_${from + i}`, value]]),
  ]);
}
