/**
 * The results a pull request's bench job hands back are data made on a host where the pull
 * request's code ran: it could have written anything into them. The hosted job that posts the
 * verdict (pull-request.yml) reads them only after these checks: the artifact's size and file
 * count are capped (no regular file beyond the caps, no link, no device), and the comparison it
 * posts must be about exactly the pull request, repository, ref and commit the plan job resolved
 * from the request, not about whatever the artifact claims. Schema checks are the store's own
 * (readComparisonFile validates every field before this sees it).
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Caps of an artifact: a ref-smoke leg stores a few dozen files of a few MiB (records, the
 * comparison, server and bench logs); a full ref suite some hundreds. Ten times that is room
 * for any real leg, and small enough that a planted flood is refused before anything parses it.
 */
export const ARTIFACT_LIMITS = Object.freeze({ files: 2000, bytes: 256 * 1024 * 1024 });

/**
 * Walk the downloaded artifact and refuse what a leg never writes.
 * @param {string} dir where the artifact was downloaded
 * @param {{files: number, bytes: number}} [limits]
 * @returns {Promise<string[]>} problems (empty: within the caps, regular files and folders only)
 */
export async function readArtifactProblems(dir, limits = ARTIFACT_LIMITS) {
  /** @type {string[]} */
  const problems = [];
  let files = 0;
  let bytes = 0;
  const entries = await readdir(dir, { recursive: true });
  for (const name of entries) {
    const info = await lstat(join(dir, name));
    if (info.isDirectory()) continue;
    if (!info.isFile()) {
      problems.push(`${name} is not a regular file (a link or a device): an artifact of results holds files only`);
      continue;
    }
    files += 1;
    bytes += info.size;
  }
  if (files > limits.files) problems.push(`the artifact holds ${files} files; at most ${limits.files} are read`);
  if (bytes > limits.bytes) problems.push(`the artifact holds ${bytes} bytes; at most ${limits.bytes} are read`);
  return problems;
}

/**
 * @typedef {object} ExpectedRef what the plan job resolved from the request (its outputs)
 * @property {string} product
 * @property {string} hostClass
 * @property {string} suite
 * @property {string} ref pull/N/head
 * @property {string} repository the clone URL the plan checked
 * @property {number} pull
 * @property {string} commit the full SHA approved and built
 */

/**
 * Whether a comparison from the artifact is the one this run made. Pure.
 * @param {import('../types/comparison.js').Comparison} comparison validated by the store
 * @param {ExpectedRef} expected
 * @returns {string[]} one sentence per field that differs (empty: it is this run's)
 */
export function validateComparisonIdentity(comparison, expected) {
  const ref = comparison.ref;
  if (!ref) return ['the comparison is of a release, not of a ref: a pull request\'s run compares its ref only'];
  /** @type {[string, unknown, unknown][]} */
  const fields = [
    ['product', comparison.product, expected.product],
    ['host class', comparison.hostClass, expected.hostClass],
    ['suite', comparison.suite, expected.suite],
    ['ref', ref.name, expected.ref],
    ['repository', ref.repository, expected.repository],
    ['pull request', ref.pullRequest, expected.pull],
    ['commit', String(ref.commit).toLowerCase(), expected.commit.toLowerCase()],
  ];
  return fields.filter(([, got, want]) => got !== want).map(([what, got, want]) => `the comparison's ${what} is ${JSON.stringify(got)}, the plan's ${JSON.stringify(want)}`);
}
