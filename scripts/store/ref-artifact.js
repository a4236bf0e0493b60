/**
 * What a pull request's bench job hands back (`tagbench publish --refs-only`): the results store
 * of a ref run, produced on a host where the pull request's own code ran. Its author controls
 * every byte of it, so it is data to check before anything reaches the results branch, never a
 * store to trust: only a ref run's records, their samples files and its comparisons, under
 * `refs/runs/` and `refs/verdicts/`, each valid against its stored format, at the path its
 * content gives, and of exactly the pull request, repository and commit the trusted plan named.
 * Anything else (a release record under `runs/`, a change point, a leg attempt, a log, a bisect
 * report, a symbolic link, an oversize file) refuses the whole publish, naming the file and the
 * rule: a partial publish would let the refused part decide what the rest means.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { UserError } from '../errors.js';
import { readStoreFile } from './read-records.js';
import { REF_TOPS } from './store-paths.js';
import { samplesFileName } from './record-samples.js';

/**
 * At most this many files in an artifact. A ref run writes one record and one samples file per
 * side and instance, and one comparison per compare or confirm round: a few dozen at most
 * (instances are capped at 20 by the dispatch); the cap stops a flood of files (each one a blob
 * on the results branch for ever) well before it costs the publish job its time.
 */
export const MAX_ARTIFACT_FILES = 500;

/**
 * At most this many bytes in one file. The biggest real record of the project's suites is under
 * 1 MiB (a samples file of a multi-hour run a few MiB gzipped); git keeps every blob for ever,
 * so a file far above that is refused rather than stored.
 */
export const MAX_ARTIFACT_FILE_BYTES = 16 * 1024 * 1024;

/** At most this many bytes in the whole artifact: four files at the per-file cap. */
export const MAX_ARTIFACT_BYTES = 64 * 1024 * 1024;

/**
 * At most this many bytes once a samples file is gunzipped: a gzip bomb of a few KiB expands to
 * gigabytes, and the check below gunzips every samples file to validate it.
 */
export const MAX_SAMPLES_UNZIPPED_BYTES = 256 * 1024 * 1024;

/**
 * @typedef {object} RefArtifactExpectation what the trusted plan says the artifact is of
 * @property {string} repository the code's clone URL as the plan resolved it (a record's `ref.repository`)
 * @property {number} pullRequest the pull request number (a record's `ref.pullRequest`; its ref is `pull/<n>/head`)
 * @property {string} commit the candidate's full commit id the approval was for (`ref.commit`)
 * @property {string} [hostClass] when given, every record's host class and comparison's
 * @property {string} [product] when given, every record's product and comparison's
 * @property {string} [suite] when given, every record's suite and comparison's
 */

/** @typedef {{relPath: string, bytes: Buffer, kind: 'run-record'|'samples'|'comparison'}} RefArtifactFile */
/** @typedef {{relPath: string, bytes: Buffer, kind: 'run-record'|'comparison'}} RefArtifactRecord */

/**
 * Check an untrusted ref run artifact and return the files to publish, samples files first (on
 * the branch a record never names a file that is not there).
 * @param {string} storeDir the downloaded artifact (only read)
 * @param {RefArtifactExpectation} expect the plan's values (trusted)
 * @returns {Promise<RefArtifactFile[]>}
 * @throws {UserError} listing every refused file with the rule it breaks; nothing is published
 */
export async function collectRefArtifact(storeDir, expect) {
  if (!existsSync(storeDir)) throw new UserError(`artifact folder ${storeDir} does not exist; download the bench job's artifact there or pass --store`);
  /** @type {string[]} */
  const refused = [];
  const listed = await listArtifact(storeDir, refused);
  /** @type {RefArtifactRecord[]} */
  const records = [];
  /** @type {Map<string, Buffer>} */
  const samples = new Map();
  for (const { relPath, bytes } of listed) {
    const rule = placementRule(relPath);
    if (rule) refused.push(`${relPath}: ${rule}`);
    else if (relPath.endsWith('.samples.json.gz')) samples.set(relPath, bytes);
    else records.push({ relPath, bytes, kind: relPath.startsWith(`${REF_TOPS.runs}/`) ? 'run-record' : 'comparison' });
  }
  const named = new Set();
  for (const file of records) {
    const problem = await checkStoredFile(storeDir, file, samples, expect);
    if (problem) refused.push(`${file.relPath}: ${problem}`);
    else if (file.kind === 'run-record') {
      // A record without per-second samples (the shim's runs, a meter-only run) has no file to name.
      const own = file.relPath.replace(/\.json$/, '.samples.json.gz');
      if (samples.has(own)) named.add(own);
    }
  }
  for (const relPath of samples.keys()) {
    if (!named.has(relPath) && !refused.some((r) => r.startsWith(`${relPath.replace(/\.samples\.json\.gz$/, '.json')}:`))) {
      refused.push(`${relPath}: a samples file that no record of the artifact names (only a record's own samples file is published)`);
    }
  }
  if (refused.length > 0) {
    throw new UserError(`the pull request's artifact ${storeDir} is refused (${refused.length} file${refused.length === 1 ? '' : 's'}); nothing was published:\n  - ${refused.sort().join('\n  - ')}\n` +
      `A pull request's run may hand back only its own ref run's records and comparisons (${REF_TOPS.runs}/, ${REF_TOPS.verdicts}/).`);
  }
  const sampleFiles = [...named].map((relPath) => ({ relPath, bytes: /** @type {Buffer} */ (samples.get(relPath)), kind: /** @type {const} */ ('samples') }));
  /** @type {RefArtifactFile[]} */
  const files = [...sampleFiles.sort((a, b) => a.relPath.localeCompare(b.relPath)), ...records.sort((a, b) => a.relPath.localeCompare(b.relPath))];
  return files;
}

/**
 * Every regular file of the artifact with its bytes, within the caps. Symbolic links and other
 * non-regular entries are refused (a link could point the publish at a file of the trusted job's
 * host); past a cap the walk stops, so a flood of files costs no more than the cap.
 * @param {string} storeDir
 * @param {string[]} refused collects refusals
 * @returns {Promise<{relPath: string, bytes: Buffer}[]>}
 */
async function listArtifact(storeDir, refused) {
  /** @type {{relPath: string, bytes: Buffer}[]} */
  const out = [];
  let total = 0;
  let count = 0;
  /** @type {string[]} */
  const dirs = [''];
  while (dirs.length > 0) {
    const dir = /** @type {string} */ (dirs.shift());
    const names = (await readdir(join(storeDir, dir))).sort();
    for (const name of names) {
      const relPath = dir ? `${dir}/${name}` : name;
      const info = await lstat(join(storeDir, relPath));
      if (info.isDirectory()) { dirs.push(relPath); continue; }
      if (!info.isFile()) { refused.push(`${relPath}: not a regular file (symbolic links and special files are never published)`); continue; }
      if (++count > MAX_ARTIFACT_FILES) {
        refused.push(`${relPath}: more than ${MAX_ARTIFACT_FILES} files in the artifact (MAX_ARTIFACT_FILES); the rest was not read`);
        return out;
      }
      if (info.size > MAX_ARTIFACT_FILE_BYTES) { refused.push(`${relPath}: ${info.size} bytes, over the ${MAX_ARTIFACT_FILE_BYTES}-byte cap of one file (MAX_ARTIFACT_FILE_BYTES)`); continue; }
      total += info.size;
      if (total > MAX_ARTIFACT_BYTES) {
        refused.push(`${relPath}: the artifact passes ${MAX_ARTIFACT_BYTES} bytes here (MAX_ARTIFACT_BYTES); the rest was not read`);
        return out;
      }
      out.push({ relPath, bytes: await readFile(join(storeDir, relPath)) });
    }
  }
  return out;
}

/**
 * Where a file of the artifact may be: a ref run's record or samples file under refs/runs/, a
 * comparison under refs/verdicts/, named as the store names them.
 * @param {string} relPath
 * @returns {string|null} the rule it breaks, or null
 */
function placementRule(relPath) {
  const parts = relPath.split('/');
  const name = /** @type {string} */ (parts.at(-1));
  const top = parts.slice(0, 2).join('/');
  if (top !== REF_TOPS.runs && top !== REF_TOPS.verdicts) {
    return `outside ${REF_TOPS.runs}/ and ${REF_TOPS.verdicts}/ (a pull request's run never writes ${parts.length > 1 ? `${parts[0]}/` : 'the store\'s root'}: release records, change points, leg attempts, bisect reports and logs are the release service's alone)`;
  }
  // <top>/<host-class>/<product>/<version>/<suite>/<file>: the readers' layout (read-records.js).
  if (parts.length !== 7) return `not at ${top}/<host-class>/<product>/<version>/<suite>/<file>`;
  if (name.startsWith('.')) return 'a hidden file (the store never publishes one)';
  if (top === REF_TOPS.runs && /^[A-Za-z0-9][A-Za-z0-9._-]*\.samples\.json\.gz$/.test(name)) return null;
  if (/^[A-Za-z0-9][A-Za-z0-9._-]*\.json$/.test(name) && !name.endsWith('.samples.json')) return null;
  return `not a ${top === REF_TOPS.runs ? 'run record (<run-id>.json) or its samples file (<run-id>.samples.json.gz)' : 'comparison (<comparison-id>.json)'}`;
}

/**
 * Validate one record or comparison against its stored format (the store's reader: schema,
 * migrations, samples file, path from content) and against the plan.
 * @param {string} storeDir
 * @param {RefArtifactRecord} file
 * @param {Map<string, Buffer>} samples the artifact's samples files by path
 * @param {RefArtifactExpectation} expect
 * @returns {Promise<string|null>} the rule it breaks, or null
 */
async function checkStoredFile(storeDir, file, samples, expect) {
  if (file.kind === 'run-record') {
    const own = file.relPath.replace(/\.json$/, '.samples.json.gz');
    const bytes = samples.get(own);
    if (bytes) {
      try {
        gunzipSync(bytes, { maxOutputLength: MAX_SAMPLES_UNZIPPED_BYTES });
      } catch (err) {
        return `its samples file does not gunzip within ${MAX_SAMPLES_UNZIPPED_BYTES} bytes (MAX_SAMPLES_UNZIPPED_BYTES): ${/** @type {Error} */ (err).message}`;
      }
    }
  }
  let data;
  try {
    data = await readStoreFile(storeDir, file.relPath, file.kind);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    return `not a valid ${file.kind} of the store (${err.message.replace(/^results store [^:]*: /, '')})`;
  }
  if (file.kind === 'run-record') {
    if (data.samples && data.samples.file !== samplesFileName(data.id)) return `names samples file ${data.samples.file}, not its own ${samplesFileName(data.id)}`;
    const own = data.release.ref?.role === 'base' ? data.release.ref.base.commit : data.release.ref?.commit;
    if (data.release.commit !== own) return `release.commit ${data.release.commit} is not its ${data.release.ref?.role} side's commit ${own}`;
    return mismatch(data.release.ref, { hostClass: data.host.class, product: data.release.product, suite: data.config.suite }, expect);
  }
  return mismatch(data.ref, { hostClass: data.hostClass, product: data.product, suite: data.suite }, expect);
}

/**
 * Compare a record's or comparison's ref and identity with the plan's values.
 * @param {{name: string, repository: string, pullRequest: number|null, commit: string}|undefined} ref
 * @param {{hostClass: string, product: string, suite: string}} identity
 * @param {RefArtifactExpectation} expect
 * @returns {string|null} every field that differs, or null
 */
function mismatch(ref, identity, expect) {
  if (!ref) return 'not of a ref run (no ref)';
  /** @type {[string, unknown, unknown][]} */
  const fields = [
    ['ref.repository', ref.repository, expect.repository],
    ['ref.pullRequest', ref.pullRequest, expect.pullRequest],
    ['ref.name', ref.name, `pull/${expect.pullRequest}/head`],
    ['ref.commit', ref.commit, expect.commit],
    ['host class', identity.hostClass, expect.hostClass ?? identity.hostClass],
    ['product', identity.product, expect.product ?? identity.product],
    ['suite', identity.suite, expect.suite ?? identity.suite],
  ];
  const wrong = fields.filter(([, got, want]) => got !== want).map(([what, got, want]) => `${what} is ${JSON.stringify(got)}, the plan says ${JSON.stringify(want)}`);
  return wrong.length > 0 ? `not of the planned pull request run: ${wrong.join('; ')}` : null;
}
