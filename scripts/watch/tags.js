/**
 * Upstream release tags: read them with `git ls-remote --tags` (no clone, no history: a few
 * hundred KB even for MySQL's thousands of tags), then match them against a product's lines
 * (tagPattern, group 1 = version) and apply each line's version floor.
 */
import { execFile } from 'node:child_process';
import { UserError } from '../errors.js';
import { compareVersions } from '../version-order.js';
import { upstreamAuthEnv } from '../upstream-auth.js';

/**
 * @typedef {object} RemoteTag one tag of an upstream repository
 * @property {string} name tag name without refs/tags/
 * @property {string} commit the commit it points at (annotated tags dereferenced)
 */

/**
 * @typedef {object} TagCandidate a tag that matched a product line's tagPattern
 * @property {string} product
 * @property {string} line
 * @property {string} version group 1 of the tagPattern
 * @property {string} tag
 * @property {string} commit
 */

/**
 * @param {string} url git URL or local path of the repository
 * @returns {Promise<RemoteTag[]>}
 * @throws {UserError} when git is missing or the repository cannot be read (git's message included)
 */
export function fetchRemoteTags(url) {
  return new Promise((resolve, reject) => {
    execFile('git', ['ls-remote', '--tags', url], {
      // A private upstream's token (TAGBENCH_UPSTREAM_TOKEN) as a header for its host alone.
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...upstreamAuthEnv(url) },
      maxBuffer: 256 * 1024 * 1024,
    }, (err, stdout, stderr) => {
      if (err) {
        const code = /** @type {NodeJS.ErrnoException} */ (err).code;
        if (code === 'ENOENT') reject(new UserError('git is not installed (needed by tagbench watch): apt-get install git'));
        else reject(new UserError(`git ls-remote --tags ${url} failed: ${stderr.trim() || err.message}`));
        return;
      }
      resolve(parseLsRemote(stdout));
    });
  });
}

/**
 * Parse `git ls-remote --tags` output into tags with the commit each points at.
 * @param {string} text lines `<sha>\trefs/tags/<name>` and, for annotated tags,
 *   `<sha>\trefs/tags/<name>^{}` with the commit the tag object points at
 * @returns {RemoteTag[]} sorted by name
 */
export function parseLsRemote(text) {
  /** @type {Map<string, {direct: string, peeled?: string}>} */
  const tags = new Map();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{40,64})\trefs\/tags\/(.+?)(\^\{\})?$/.exec(line.trim());
    if (!m) continue;
    const entry = tags.get(m[2]) ?? { direct: m[1] };
    // The peeled line names the commit; the plain line of an annotated tag names the tag object.
    if (m[3]) entry.peeled = m[1];
    else entry.direct = m[1];
    tags.set(m[2], entry);
  }
  return [...tags]
    .map(([name, e]) => ({ name, commit: e.peeled ?? e.direct }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Lowest version of a line that watch proposes: `minVersion` when the line has one, else its
 * `baseVersion` (the base release of relative tables, which is benchmarked too), else none.
 * @param {import('../types.js').ProductLine & {minVersion?: string}} line
 * @returns {string|null}
 */
export function lineFloor(line) {
  return line.minVersion ?? line.baseVersion ?? null;
}

/**
 * @param {import('../types.js').ProductConfig} product
 * @param {RemoteTag[]} tags
 * @returns {{candidates: TagCandidate[], belowFloor: TagCandidate[]}}
 *   each in config line order, newest version first within a line; a tag matching several lines
 *   goes to the first line only
 */
export function matchTags(product, tags) {
  /** @type {TagCandidate[]} */
  const candidates = [];
  /** @type {TagCandidate[]} */
  const belowFloor = [];
  const lines = product.lines.map((line) => ({ line, re: new RegExp(line.tagPattern), floor: lineFloor(line) }));
  /** @type {Set<string>} */
  const seen = new Set();
  for (const tag of tags) {
    for (const { line, re, floor } of lines) {
      const m = re.exec(tag.name);
      if (!m) continue;
      const version = m[1] ?? m[0];
      const key = `${line.name}\0${version}`;
      if (!seen.has(key)) {
        seen.add(key);
        const c = { product: product.name, line: line.name, version, tag: tag.name, commit: tag.commit };
        (floor && compareVersions(version, floor) < 0 ? belowFloor : candidates).push(c);
      }
      break;
    }
  }
  const order = new Map(product.lines.map((l, i) => [l.name, i]));
  const byLineNewestFirst = (/** @type {TagCandidate} */ a, /** @type {TagCandidate} */ b) =>
    (order.get(a.line) ?? 0) - (order.get(b.line) ?? 0) || compareVersions(b.version, a.version);
  return { candidates: candidates.sort(byLineNewestFirst), belowFloor: belowFloor.sort(byLineNewestFirst) };
}
