/**
 * The injected-cost library of `tagbench calibrate` (inject-cost.c beside this file): built with
 * gcc into the cache, once per version of its source, and the server environment that loads it
 * with a given cost: a count of instructions per query answer (the counted strategy,
 * ../counted.js), or a share of each query's own CPU time (the timed strategy's `--inject
 * preload`, ../timed.js).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { link, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { UserError } from '../../../errors.js';

const execFileP = promisify(execFile);
const SOURCE = fileURLToPath(new URL('./inject-cost.c', import.meta.url));

/** The function the library adds its instructions in: what a profile must name. */
export const INJECTED_FUNCTION = 'tagbench_injected_cost';
/**
 * The library's object name in a profile: buildInjectCost names the built file by its source's
 * sha256. A function finding there is the injected cost, named by its function or, when that
 * function ran below the profile's cut, by its caller in the library (its send()).
 */
export const INJECTED_OBJECT = /^[0-9a-f]{64}\.so$/;
/** The function the library spends its CPU-time share in (the wall meter's injected cost). */
export const INJECTED_CPU_FUNCTION = 'tagbench_injected_cpu';

/**
 * Build the library, or find it built: `<cacheDir>/inject-cost/<sha256 of the source>.so`.
 * Concurrent callers each compile to a private name and link it into place (the first link
 * wins; a link never shows a half-written file), so none ever loads a half-written library.
 * @param {{cacheDir: string}} where the install cache (.tagbench/installs by default)
 * @returns {Promise<{path: string, instructionsPerIteration: number}>} the shared object, and
 *   the instructions one iteration of its loop executes (the added count is a multiple of it)
 * @throws {UserError} gcc is missing, or the source does not compile here
 */
export async function buildInjectCost({ cacheDir }) {
  const source = await readFile(SOURCE, 'utf8');
  const perIteration = Number(/#define INSTRUCTIONS_PER_ITERATION (\d+)/.exec(source)?.[1]);
  if (!(perIteration > 0)) throw new Error(`${SOURCE} does not define INSTRUCTIONS_PER_ITERATION`);
  const dir = join(cacheDir, 'inject-cost');
  const path = join(dir, `${createHash('sha256').update(source).digest('hex')}.so`);
  if (await stat(path).then((s) => s.size > 0, () => false)) return { path, instructionsPerIteration: perIteration };
  await mkdir(dir, { recursive: true });
  const partial = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    // -ldl: glibc before 2.34 keeps dlsym in libdl; later ones accept the flag.
    await execFileP('gcc', ['-O2', '-shared', '-fPIC', '-Wall', '-o', partial, SOURCE, '-ldl'], { timeout: 120_000 });
    await link(partial, path).catch((/** @type {any} */ e) => { if (e?.code !== 'EEXIST') throw e; });
    await rm(partial, { force: true });
  } catch (err) {
    await rm(partial, { force: true });
    if (/** @type {{code?: string}} */ (err).code === 'ENOENT') {
      throw new UserError('gcc is not installed: the injected-cost library of `tagbench calibrate` is built from C (Debian: apt-get install gcc)', { cause: err });
    }
    const stderr = String(/** @type {{stderr?: string}} */ (err).stderr ?? '').trim();
    throw new UserError(`gcc could not build ${SOURCE}: ${stderr || (err instanceof Error ? err.message : String(err))}`, { cause: err });
  }
  return { path, instructionsPerIteration: perIteration };
}

/**
 * The environment of a server that runs with the library: each of its query answers (send())
 * then costs `added` instructions more, rounded down to the loop's step.
 * @param {string} libraryPath from buildInjectCost
 * @param {number} added instructions added per send(), >= 0 (0: the library is loaded and adds nothing)
 * @returns {Record<string, string>} LD_PRELOAD and TAGBENCH_INJECT_INSTRUCTIONS
 * @throws {Error} a negative or non-integer count (a bug of the caller)
 */
export function injectCostEnv(libraryPath, added) {
  if (!(Number.isInteger(added) && added >= 0)) throw new Error(`injected instructions must be a whole number >= 0, got ${added}`);
  return { LD_PRELOAD: libraryPath, TAGBENCH_INJECT_INSTRUCTIONS: String(added) };
}

/**
 * The environment of a server whose every query costs `share` times more of its own CPU time:
 * each send() spins until its thread has used `share` x the CPU time it used since its previous
 * send(). A slowdown s of the server (its work at 1 - s of the speed) is share s / (1 - s).
 * @param {string} libraryPath from buildInjectCost
 * @param {number} share >= 0 (0: the library reads the thread's CPU clock and adds nothing, as
 *   the injected servers do, so that the only difference between them is the spin)
 * @returns {Record<string, string>} LD_PRELOAD and TAGBENCH_INJECT_CPU_SHARE
 * @throws {Error} a negative or non-finite share (a bug of the caller)
 */
export function injectCpuShareEnv(libraryPath, share) {
  if (!(Number.isFinite(share) && share >= 0)) throw new Error(`injected CPU share must be a number >= 0, got ${share}`);
  return { LD_PRELOAD: libraryPath, TAGBENCH_INJECT_CPU_SHARE: String(share) };
}
