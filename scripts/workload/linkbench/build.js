/**
 * LinkBench from source to a cached jar, one code path for runners and tests: fetch the pinned
 * commit (a git clone of the configured URL on a runner; the offline archive or another git
 * repository when TAGBENCH_LINKBENCH_SOURCE names one), build it with Maven, and keep the jar and
 * the fork's config/ folder (its workload file and distribution data, which the driver reads at
 * run time) in `<cacheDir>/linkbench-<commit>/` with the build's provenance. Before Maven, the
 * pin's source edits (our fixes of the fork's defects) are applied to the tree. The marker is
 * written last, so a folder without it is an unfinished build (removed and redone); a cached
 * build is reused only when its marker names the same commit and the same edits and the jar's
 * checksum matches; a build made with other edits (or an older marker) is rebuilt.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createGunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { UserError } from '../../errors.js';
import { LINKBENCH_PIN } from './pin.js';

const run = promisify(execFile);

/** The Debian packages that give `java`, `javac` and `mvn`. */
export const DEBIAN_PACKAGES = /** @type {const} */ (['openjdk-17-jdk-headless', 'maven']);
/** Marker of a finished cache folder: the provenance below, as JSON. */
export const MARKER = '.tagbench-linkbench.json';
// 2: sourceEdits recorded. A schema-1 folder was built without edits and is rebuilt.
const MARKER_SCHEMA = 2;
/** The environment variable that replaces the git URL with a local source (archive or repository). */
export const SOURCE_ENV = 'TAGBENCH_LINKBENCH_SOURCE';

/**
 * @typedef {object} LinkbenchProvenance what a cached build was made from, and how
 * @property {number} schemaVersion
 * @property {string} commit the checked-out (or archived) commit, 40 hex digits
 * @property {{kind: 'git'|'archive', location: string, sha256: string, sha256Of: string}} source
 *   where the tree came from; sha256 of the archive file, or of `git archive --format=tar` of the
 *   commit for a git source (`sha256Of` says which)
 * @property {string} javaVersion first line of `java -version`
 * @property {string} mavenVersion first line of `mvn -v`
 * @property {readonly string[]} mavenArgs
 * @property {string} builtAt ISO 8601
 * @property {number} buildS seconds Maven took
 * @property {string} jarSha256
 * @property {{id: string, file: string, why: string}[]} sourceEdits the pin's edits applied to
 *   the tree before Maven, in order
 */

/**
 * @typedef {object} LinkbenchBuild a usable LinkBench
 * @property {string} home cache folder: the jar and config/ (LINKBENCH_HOME for the driver)
 * @property {string} jar absolute path of the jar
 * @property {boolean} cached true when an earlier build was reused
 * @property {LinkbenchProvenance} provenance
 */

/**
 * @param {string} file
 * @param {{gunzip?: boolean}} [opts] hash the gunzipped stream instead of the file
 * @returns {Promise<string>}
 */
async function sha256Of(file, { gunzip = false } = {}) {
  const hash = createHash('sha256');
  const input = createReadStream(file);
  const stream = gunzip ? input.pipe(createGunzip()) : input;
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * First line of a tool's version output, or a UserError naming the Debian packages.
 * @param {string} bin
 * @param {string[]} args
 * @returns {Promise<string>}
 */
async function toolVersion(bin, args) {
  try {
    const { stdout, stderr } = await run(bin, args, { env: { ...process.env, MAVEN_OPTS: process.env.MAVEN_OPTS ?? '' } });
    // Maven colours its banner even without a terminal on some versions.
    return `${stdout}${stderr}`.replace(/\x1b\[[0-9;]*m/g, '').split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  } catch (err) {
    const why = /** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT' ? 'not found' : `fails (${/** @type {Error} */ (err).message.split('\n')[0]})`;
    throw new UserError(`LinkBench needs a JDK and Maven: '${bin}' ${why}. Install the Debian packages ${DEBIAN_PACKAGES.join(' and ')} (bash setup/linkbench.sh), or put them on PATH`);
  }
}

/**
 * Versions of the JDK and Maven a build would use (and proof they are there).
 * @param {{javaBin?: string, javacBin?: string, mvnBin?: string}} [bins]
 * @returns {Promise<{javaVersion: string, mavenVersion: string}>}
 * @throws {UserError} naming the Debian packages when one is missing
 */
export async function checkBuildTools({ javaBin = 'java', javacBin = 'javac', mvnBin = 'mvn' } = {}) {
  const javaVersion = await toolVersion(javaBin, ['-version']);
  await toolVersion(javacBin, ['-version']);
  const mavenVersion = await toolVersion(mvnBin, ['-v']);
  return { javaVersion, mavenVersion };
}

/**
 * Put the pinned commit's tree into `dir` (which must not exist yet).
 * @param {string} source git URL or path of a repository, or a .tar.gz archive of the commit
 * @param {import('./pin.js').LinkbenchPin} config
 * @param {string} dir
 * @returns {Promise<LinkbenchProvenance['source']>}
 * @throws {UserError} when the source is not the pinned commit or cannot be read
 */
export async function fetchSource(source, config, dir) {
  const isArchive = /\.(tar\.gz|tgz)$/.test(source);
  if (isArchive) {
    const file = resolve(source);
    await access(file).catch(() => { throw new UserError(`LinkBench source archive ${file} does not exist (${SOURCE_ENV})`); });
    const sha256 = await sha256Of(file);
    if (sha256 !== config.archiveSha256) {
      throw new UserError(`LinkBench source archive ${file} has sha256 ${sha256}; pin.js archiveSha256 expects ${config.archiveSha256}`);
    }
    // `git archive` writes the commit into the tar header: the archive proves which commit it is.
    const { stdout } = await run('sh', ['-c', 'gzip -dc "$1" | git get-tar-commit-id', 'sh', file]);
    const archived = stdout.trim();
    if (archived !== config.commit) throw new UserError(`LinkBench source archive ${file} is of commit '${archived || 'unknown'}', not the pinned ${config.commit}`);
    await mkdir(dir, { recursive: true });
    await run('tar', ['-xzf', file, '-C', dir, '--strip-components=1']);
    return { kind: 'archive', location: file, sha256, sha256Of: 'archive file' };
  }
  try {
    await run('git', ['clone', '--quiet', '--no-checkout', source, dir], { maxBuffer: 1 << 24 });
  } catch (err) {
    throw new UserError(`cannot clone LinkBench from ${source}: ${/** @type {any} */ (err).stderr?.trim() || /** @type {Error} */ (err).message}`);
  }
  try {
    await run('git', ['-C', dir, 'checkout', '--quiet', '--detach', config.commit]);
  } catch (err) {
    throw new UserError(`LinkBench source ${source} has no commit ${config.commit} (pin.js commit): ${/** @type {any} */ (err).stderr?.trim() ?? ''}`);
  }
  const head = (await run('git', ['-C', dir, 'rev-parse', 'HEAD'])).stdout.trim();
  if (head !== config.commit) throw new UserError(`LinkBench checkout of ${source} is at ${head}, not the pinned ${config.commit}`);
  const tar = join(dir, '..', `tree-${head}.tar`);
  await run('git', ['-C', dir, 'archive', '--format=tar', `--prefix=linkbench-${head.slice(0, 7)}/`, '-o', tar, head]);
  const sha256 = await sha256Of(tar);
  await rm(tar, { force: true });
  return { kind: 'git', location: source, sha256, sha256Of: 'git archive --format=tar of the commit' };
}

/**
 * Apply the pin's edits to a fetched tree, each to exactly one occurrence of its text.
 * @param {string} tree
 * @param {readonly import('./pin.js').SourceEdit[]} edits
 * @param {(line: string) => void} log
 * @throws {UserError} naming the edit and the file when its text is missing or not unique
 */
export async function applySourceEdits(tree, edits, log) {
  for (const edit of edits) {
    const file = join(tree, edit.file);
    const text = await readFile(file, 'utf8').catch(() => {
      throw new UserError(`LinkBench source edit ${edit.id} (pin.js sourceEdits): ${edit.file} is not in the tree of the pinned commit`);
    });
    const count = text.split(edit.find).length - 1;
    if (count !== 1) {
      throw new UserError(`LinkBench source edit ${edit.id} (pin.js sourceEdits): ${edit.file} holds ${JSON.stringify(edit.find)} ${count} times, `
        + 'must be exactly once; re-check the edit against the pinned commit');
    }
    await writeFile(file, text.replace(edit.find, () => edit.replace));
    log(`linkbench: source edit ${edit.id} in ${edit.file}`);
  }
}

/**
 * Run Maven in the source tree; its output goes to `log` line by line and is kept for errors.
 * @param {string} mvnBin
 * @param {string[]} args
 * @param {string} cwd
 * @param {(line: string) => void} log
 * @returns {Promise<void>}
 */
function runMaven(mvnBin, args, cwd, log) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(mvnBin, ['--batch-mode', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    /** @type {string[]} */
    const tail = [];
    const onData = (/** @type {Buffer} */ b) => {
      for (const line of b.toString('utf8').split('\n').filter((l) => l.trim() !== '')) {
        tail.push(line);
        if (tail.length > 40) tail.shift();
        log(`[mvn] ${line}`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (err) => reject(new UserError(`cannot run ${mvnBin}: ${err.message}; install ${DEBIAN_PACKAGES.join(' and ')}`)));
    child.once('close', (code) => {
      if (code === 0) resolvePromise();
      else reject(new UserError(`LinkBench build failed: ${mvnBin} ${args.join(' ')} exited ${code} in ${cwd}; last lines:\n${tail.join('\n')}`));
    });
  });
}

/**
 * @param {string} home
 * @param {string} commit
 * @param {readonly import('./pin.js').SourceEdit[]} edits the pin's edits
 * @param {string} jarName
 * @param {(line: string) => void} log
 * @returns {Promise<LinkbenchBuild|null>} the cached build, null when none
 * @throws {UserError} when the folder is there but is not this commit's intact build
 */
async function readCached(home, commit, edits, jarName, log) {
  const text = await readFile(join(home, MARKER), 'utf8').catch(() => null);
  if (text === null) return null;
  /** @type {LinkbenchProvenance} */
  const provenance = JSON.parse(text);
  const jar = join(home, jarName);
  if (provenance.commit !== commit) {
    throw new UserError(`LinkBench cache folder ${home} holds commit ${provenance.commit}, not ${commit}; remove it`);
  }
  const builtWith = provenance.schemaVersion === MARKER_SCHEMA ? provenance.sourceEdits.map((e) => e.id).join(',') : null;
  if (builtWith !== edits.map((e) => e.id).join(',')) {
    // The jar is only a cache of the pin's recipe: a build with other fixes is replaced, never used.
    log(`linkbench: cached build in ${home} was made with ${builtWith === null ? `marker schema ${provenance.schemaVersion}` : `source edits [${builtWith}]`}, `
      + `the pin has [${edits.map((e) => e.id).join(',')}]: rebuilding`);
    return null;
  }
  const sha = await sha256Of(jar).catch(() => 'missing');
  if (sha !== provenance.jarSha256) throw new UserError(`LinkBench cache folder ${home}: ${jarName} is ${sha === 'missing' ? 'missing' : `changed (sha256 ${sha})`}, recorded ${provenance.jarSha256}; remove the folder to rebuild`);
  return { home, jar, cached: true, provenance };
}

/**
 * The jar of the pinned commit: from the cache, else fetched, built and cached.
 * @param {object} opts
 * @param {import('./pin.js').LinkbenchPin} [opts.config] default the pin of pin.js
 * @param {string} opts.cacheDir the install cache (TAGBENCH_CACHE)
 * @param {string} [opts.source] git URL/path or archive; default $TAGBENCH_LINKBENCH_SOURCE, else config.gitUrl
 * @param {{javaBin?: string, javacBin?: string, mvnBin?: string}} [opts.tools]
 * @param {(line: string) => void} [opts.log]
 * @returns {Promise<LinkbenchBuild>}
 * @throws {UserError} missing JDK/Maven (naming the Debian packages), wrong source, failed build
 */
export async function ensureLinkbench({ config = LINKBENCH_PIN, cacheDir, source, tools = {}, log = (l) => process.stderr.write(`${l}\n`) }) {
  const home = join(cacheDir, `linkbench-${config.commit}`);
  const jarName = 'FacebookLinkBench.jar';
  const cached = await readCached(home, config.commit, config.sourceEdits, jarName, log);
  if (cached) {
    log(`linkbench: ${cached.jar} of ${config.commit.slice(0, 12)} from the install cache`);
    return cached;
  }

  const { javaVersion, mavenVersion } = await checkBuildTools(tools);
  const from = source ?? process.env[SOURCE_ENV] ?? config.gitUrl;
  await mkdir(cacheDir, { recursive: true });
  const work = await mkdtemp(join(tmpdir(), 'tagbench-linkbench-build-'));
  try {
    const tree = join(work, 'src');
    log(`linkbench: fetching ${config.commit.slice(0, 12)} from ${from}`);
    const sourceFacts = await fetchSource(from, config, tree);
    await applySourceEdits(tree, config.sourceEdits, log);
    log(`linkbench: building with ${mavenVersion}, ${javaVersion}`);
    const started = Date.now();
    await runMaven(tools.mvnBin ?? 'mvn', [...config.mavenArgs], tree, log);
    const buildS = Math.round((Date.now() - started) / 100) / 10;
    const built = join(tree, config.jar);
    if (!(await stat(built).catch(() => null))?.isFile()) throw new UserError(`LinkBench build in ${tree} did not produce ${config.jar} (pin.js jar)`);

    // The marker goes last: a folder without one is an unfinished build, redone from scratch.
    await rm(home, { recursive: true, force: true });
    await mkdir(home, { recursive: true });
    await cp(built, join(home, jarName));
    await cp(join(tree, 'config'), join(home, 'config'), { recursive: true });
    await cp(join(tree, 'LICENSE'), join(home, 'LICENSE')).catch(() => {});
    /** @type {LinkbenchProvenance} */
    const provenance = {
      schemaVersion: MARKER_SCHEMA, commit: config.commit, source: sourceFacts, javaVersion, mavenVersion,
      mavenArgs: [...config.mavenArgs], builtAt: new Date().toISOString(), buildS, jarSha256: await sha256Of(join(home, jarName)),
      sourceEdits: config.sourceEdits.map(({ id, file, why }) => ({ id, file, why })),
    };
    await writeFile(join(home, MARKER), `${JSON.stringify(provenance, null, 2)}\n`);
    log(`linkbench: cached ${join(home, jarName)} (${buildS} s build)`);
    return { home, jar: join(home, jarName), cached: false, provenance };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

