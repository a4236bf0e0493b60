/**
 * A STAND-IN for actions/upload-artifact and actions/download-artifact (v4 and later), which
 * cannot run offline: act tests put it in their place (test/github-workflows/run-act.js), so a
 * workflow's artifact steps really run and hand files from job to job. It keeps the rules of
 * the real actions that decide whether a workflow works on GitHub:
 * - artifact names are unique in a workflow run (every job and every matrix leg of a called
 *   workflow shares the caller's run): a second upload of a name fails like GitHub's
 *   "(409) Conflict: an artifact with this name already exists on the workflow run", unless
 *   `overwrite: true`, which replaces it;
 * - names may not hold " : < > | * ? \ / or line breaks; the default name is `artifact`;
 * - hidden files (a path part starting with .) are left out unless `include-hidden-files: true`;
 * - `if-no-files-found`: warn (default), error or ignore;
 * - download by `name` (exactly that artifact, straight into `path`; a missing name fails),
 *   else every artifact matching `pattern` (all when none), each into `path/<name>/`, or all
 *   into `path` itself with `merge-multiple: true`.
 * Not kept: retention, compression, the 10 GB limits, multi-path uploads' common-root rule for
 * more than one path (refused here, so a workflow that needs it fails in the test).
 *
 * Artifacts of a run live under `<store>/<GITHUB_RUN_ID>/<name>/` where store is
 * $TAGBENCH_ARTIFACT_STAND_IN_DIR. As an action, run with $TAGBENCH_ARTIFACT_STAND_IN_MODE
 * upload or download; inputs arrive as INPUT_* variables, outputs go to $GITHUB_OUTPUT.
 */
import { appendFile, cp, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';

const INVALID_NAME_CHARS = /[":<>|*?\\/\r\n]/;
const META = 'artifact-meta.json';
const FILES = 'files';

export class ArtifactError extends Error {}

/**
 * @param {string} store
 * @param {string} runId
 */
function runDir(store, runId) {
  if (!store) throw new ArtifactError('artifact stand-in: TAGBENCH_ARTIFACT_STAND_IN_DIR is not set');
  return join(store, runId || 'run');
}

/**
 * @param {string} root
 * @param {boolean} includeHidden
 * @returns {Promise<string[]>} files under root, relative
 */
async function listFiles(root, includeHidden) {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((f) => includeHidden || !f.split(sep).some((part) => part.startsWith('.')))
    .sort();
}

/**
 * @param {object} options
 * @param {string} options.store stand-in storage (one folder per workflow run below it)
 * @param {string} options.runId the workflow run (GITHUB_RUN_ID)
 * @param {string} options.workspace relative paths start here (GITHUB_WORKSPACE)
 * @param {string} [options.name] default `artifact`
 * @param {string} options.path one file or folder
 * @param {string} [options.ifNoFilesFound] warn | error | ignore
 * @param {boolean} [options.overwrite]
 * @param {boolean} [options.includeHiddenFiles]
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<{uploaded: boolean, files: string[]}>}
 */
export async function uploadArtifact({ store, runId, workspace, name = 'artifact', path, ifNoFilesFound = 'warn', overwrite = false, includeHiddenFiles = false, log = () => {} }) {
  if (!name) name = 'artifact';
  if (INVALID_NAME_CHARS.test(name)) throw new ArtifactError(`The artifact name is not valid: ${name}. Contains the following character: one of " : < > | * ? \\ / or a line break`);
  if (!['warn', 'error', 'ignore'].includes(ifNoFilesFound)) throw new ArtifactError(`Unrecognized if-no-files-found input. Provided: ${ifNoFilesFound}. Available options: warn, error, ignore`);
  const paths = path.split('\n').map((p) => p.trim()).filter(Boolean);
  if (paths.length !== 1 || /[*?[\]{}!]/.test(paths[0])) throw new ArtifactError(`artifact stand-in: only one plain file or folder path is supported, got ${JSON.stringify(path)}`);
  const source = resolve(workspace, paths[0]);
  const info = await stat(source).catch(() => null);
  /** @type {string[]} */
  let files = [];
  if (info?.isDirectory()) files = await listFiles(source, includeHiddenFiles);
  else if (info?.isFile() && (includeHiddenFiles || !basename(source).startsWith('.'))) files = [basename(source)];
  if (files.length === 0) {
    const message = `No files were found with the provided path: ${path}. No artifacts will be uploaded.`;
    if (ifNoFilesFound === 'error') throw new ArtifactError(message);
    log(ifNoFilesFound === 'warn' ? `::warning::${message}` : message);
    return { uploaded: false, files };
  }
  const dir = join(runDir(store, runId), name);
  await mkdir(runDir(store, runId), { recursive: true });
  if (overwrite) await rm(dir, { recursive: true, force: true });
  try {
    // Not recursive: creating the folder is the atomic claim on the name, as GitHub's
    // CreateArtifact is when two legs race.
    await mkdir(dir);
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'EEXIST') {
      throw new ArtifactError(`Failed to CreateArtifact: Received non-retryable error: Failed request: (409) Conflict: an artifact with this name already exists on the workflow run (name: ${name})`);
    }
    throw err;
  }
  const target = join(dir, FILES);
  for (const file of files) {
    const from = info?.isDirectory() ? join(source, file) : source;
    await cp(from, join(target, file));
  }
  await writeFile(join(dir, META), JSON.stringify({ name, files }));
  log(`artifact stand-in: uploaded ${name} (${files.length} file(s))`);
  return { uploaded: true, files };
}

/** @param {string} pattern */
function globToRegExp(pattern) {
  if (/[[\]{}!]/.test(pattern)) throw new ArtifactError(`artifact stand-in: pattern ${JSON.stringify(pattern)} uses glob syntax it does not support (only * and ?)`);
  return new RegExp(`^${pattern.replace(/[.+^$()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

/**
 * @param {object} options
 * @param {string} options.store
 * @param {string} options.runId
 * @param {string} options.workspace
 * @param {string} [options.name] exactly this artifact
 * @param {string} [options.pattern] else the artifacts whose names match (all when empty)
 * @param {boolean} [options.mergeMultiple] pattern downloads: all into path, not path/<name>/
 * @param {string} [options.path] default the workspace
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<string[]>} names of the downloaded artifacts
 */
export async function downloadArtifact({ store, runId, workspace, name = '', pattern = '', mergeMultiple = false, path = '', log = () => {} }) {
  const destination = resolve(workspace, path || '.');
  const dir = runDir(store, runId);
  const existing = (await readdir(dir).catch(() => [])).sort();
  if (name) {
    if (!existing.includes(name)) throw new ArtifactError(`Unable to download artifact(s): Artifact not found for name: ${name}`);
    await cp(join(dir, name, FILES), destination, { recursive: true });
    log(`artifact stand-in: downloaded ${name} into ${destination}`);
    return [name];
  }
  const match = pattern ? globToRegExp(pattern) : /^/;
  const names = existing.filter((n) => match.test(n));
  for (const n of names) await cp(join(dir, n, FILES), mergeMultiple ? destination : join(destination, n), { recursive: true });
  log(`artifact stand-in: downloaded ${names.length} artifact(s) (${names.join(', ')}) into ${destination}`);
  return names;
}

/** The action's entry point: mode from the environment, inputs as INPUT_* variables. */
export async function runArtifactStandInAction() {
  const env = process.env;
  /** @param {string} input */
  const get = (input) => (env[`INPUT_${input.toUpperCase()}`] ?? '').trim();
  const common = { store: env.TAGBENCH_ARTIFACT_STAND_IN_DIR ?? '', runId: env.GITHUB_RUN_ID ?? '', workspace: env.GITHUB_WORKSPACE ?? process.cwd(), log: (/** @type {string} */ l) => console.log(l) };
  try {
    if (env.TAGBENCH_ARTIFACT_STAND_IN_MODE === 'upload') {
      const result = await uploadArtifact({
        ...common, name: get('name'), path: get('path'), ifNoFilesFound: get('if-no-files-found') || 'warn',
        overwrite: get('overwrite') === 'true', includeHiddenFiles: get('include-hidden-files') === 'true',
      });
      if (result.uploaded && env.GITHUB_OUTPUT) await appendFile(env.GITHUB_OUTPUT, `artifact-id=${get('name') || 'artifact'}\n`);
    } else if (env.TAGBENCH_ARTIFACT_STAND_IN_MODE === 'download') {
      const names = await downloadArtifact({ ...common, name: get('name'), pattern: get('pattern'), mergeMultiple: get('merge-multiple') === 'true', path: get('path') });
      if (env.GITHUB_OUTPUT) await appendFile(env.GITHUB_OUTPUT, `download-path=${resolve(common.workspace, get('path') || '.')}\n`);
      if (names.length === 0) console.log('::warning::artifact stand-in: no artifact matched');
    } else {
      throw new ArtifactError(`artifact stand-in: TAGBENCH_ARTIFACT_STAND_IN_MODE is ${JSON.stringify(env.TAGBENCH_ARTIFACT_STAND_IN_MODE)}; expected upload or download`);
    }
  } catch (err) {
    console.log(`::error::${err instanceof Error ? err.message : err}`);
    process.exitCode = 1;
  }
}
