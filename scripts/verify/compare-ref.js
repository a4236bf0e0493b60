/**
 * `tagbench compare --ref`: the verdicts of an ad-hoc ref run (`tagbench run --ref`), its
 * candidate's commit against the base that ran beside it. The commit is the one the ref names
 * now (git ls-remote through the install stage's resolver) unless `--commit` pins it (what
 * `run --ref --json` printed). The records are the ref runs' (refs/runs/), the comparison is
 * stored apart (refs/verdicts/) with `ref`: no release series, baseline or change point is read
 * or written here.
 */
import { join, resolve } from 'node:path';
import { UserError, EXIT } from '../errors.js';
import { readRecords, writeComparison, replaceFileAtomic, refRunPagePath, readCalibrations } from '../store/index.js';
import { compareRuns, hasIssueRegression, renderComparison, estimateNoiseHistory } from '../compare/index.js';
import { resolveRefCommit, COMMIT_RE } from '../install/index.js';
import { runGroupKey } from '../run-id.js';
import { cacheDirFrom } from '../run-options.js';
import { checkOneBuild, checkOneEngine } from './release-entry.js';
import { attachFunctionMoves } from './attach-function-moves.js';
import { readCalibrationSummary } from './calibration-summary.js';

/** @typedef {import('../types.js').RunRecord} RunRecord */

/**
 * @typedef {object} RefSelection the records a ref comparison judges
 * @property {RunRecord[]} candidate the candidate's records of the commit
 * @property {RunRecord[]} base the base's records of the same runs
 * @property {import('../types.js').ComparisonRef} ref what the comparison says of the ref run
 */

/**
 * Pick the candidate's records of a commit and the base records that ran beside them (same
 * `tagbench run`: runGroupKey), optionally only the runs with a given base. Pure.
 * @param {RunRecord[]} records ref runs' records of one host class, product and suite
 * @param {{commit: string, base?: string, baseRef?: string, product: string, ref: string}} want
 *   base: the base's version; baseRef: its --base-ref; ref: as the user named it (messages)
 * @returns {RefSelection}
 * @throws {UserError} no ref run of the commit, none with that base, runs of several bases
 */
export function selectRefRecords(records, want) {
  const ofCommit = records.filter((r) => r.release.ref?.commit === want.commit);
  const candidates = ofCommit.filter((r) => r.release.ref?.role === 'candidate');
  if (candidates.length === 0) {
    const runs = [...new Set(records.filter((r) => r.release.ref?.role === 'candidate' && r.release.ref.name === want.ref).map((r) => r.release.commit))];
    throw new UserError(`no ref run of ${want.product} at ${want.commit} (${want.ref}) in the store${runs.length ? `; the ref's runs are of ${runs.join(', ')}: give --commit <one of them>` : ': run it first with tagbench run --ref'}`);
  }
  const describe = (/** @type {RunRecord} */ r) => `${r.release.ref?.base.version} (${r.release.ref?.base.how}${r.release.ref?.base.ref ? ` ${r.release.ref.base.ref}` : ''})`;
  const matching = candidates.filter((r) => (want.base === undefined || r.release.ref?.base.version === want.base) && (want.baseRef === undefined || r.release.ref?.base.ref === want.baseRef));
  if (matching.length === 0) {
    throw new UserError(`the ref runs of ${want.commit} have the base${[...new Set(candidates.map(describe))].length > 1 ? 's' : ''} ${[...new Set(candidates.map(describe))].join(', ')}, not ${want.base ?? want.baseRef}: run it against that base (tagbench run --ref ${want.ref} ${want.base ? `--base ${want.base}` : `--base-ref ${want.baseRef}`})`);
  }
  const bases = [...new Set(matching.map((r) => JSON.stringify(r.release.ref?.base)))];
  if (bases.length > 1) throw new UserError(`the ref runs of ${want.commit} have different bases: ${[...new Set(matching.map(describe))].join(', ')}; say which with --base <version> or --base-ref <ref>`);
  const groups = new Set(matching.map((r) => runGroupKey(r) ?? r.id));
  const base = ofCommit.filter((r) => r.release.ref?.role === 'base' && groups.has(runGroupKey(r) ?? ''));
  if (base.length === 0) throw new UserError(`the ref runs of ${want.commit} (${matching.map((r) => r.id).join(', ')}) have no base record beside them in the store`);
  const newest = matching[matching.length - 1].release.ref;
  if (!newest) throw new Error('unreachable: a candidate record has release.ref');
  const { role: _role, ...ref } = newest;
  return { candidate: matching, base, ref: { ...ref, base: { ...ref.base } } };
}

/**
 * `tagbench compare --ref` (see the module comment).
 * @param {Record<string, any>} options ref, repo, commit, base, baseRef, hostClass, suite, store,
 *   markdown, json, storeVerdicts, functions, cacheDir
 * @param {import('./compare-line.js').LineContext} ctx
 * @returns {Promise<number>} 0, or 2 when a regression at the issue level is found
 * @throws {UserError} see selectRefRecords; a ref git cannot resolve
 */
export async function compareRef(options, ctx) {
  const { product, thresholds, out, color } = ctx;
  const hostClass = options.hostClass ?? 'local';
  const suite = options.suite ?? 'smoke';
  const storeDir = resolve(options.store ?? 'results');
  for (const flag of ['releases', 'line', 'adaptive']) {
    if (options[flag] !== undefined && options[flag] !== false) throw new UserError(`--${flag} does not go with --ref: a ref comparison judges the ref run's candidate against the base that ran beside it`);
  }
  if (options.commit !== undefined && !COMMIT_RE.test(options.commit)) throw new UserError(`--commit '${options.commit}' is not a full commit id (40 or 64 lower-case hex digits): give what run --ref --json printed`);
  const repo = options.repo ?? product.gitUrl;
  if (!options.commit && !repo) throw new UserError(`configs/products/${product.name}.yml has no gitUrl: give --repo or --commit`);
  const commit = options.commit ?? await resolveRefCommit({ product: /** @type {any} */ (product), ref: options.ref, repo, cacheDir: resolve(cacheDirFrom(options.cacheDir)) });
  const records = await readRecords(storeDir, { hostClass, product: product.name, suite, status: ['ok', 'failed'], refs: true });
  const picked = selectRefRecords(records, { commit, product: product.name, ref: options.ref, ...(options.base ? { base: options.base } : {}), ...(options.baseRef ? { baseRef: options.baseRef } : {}) });
  const baseRel = { version: picked.base[0].release.version, records: picked.base };
  const candidateRel = { version: picked.candidate[0].release.version, records: picked.candidate };
  for (const rel of [baseRel, candidateRel]) {
    checkOneEngine(rel.records, { version: rel.version }, product.name);
    checkOneBuild(rel.records, { version: rel.version }, product.name);
  }
  // The detectable effect uses the host class's release runs of this suite: noise is a property
  // of the host and the test more than of the code.
  const noiseHistory = estimateNoiseHistory(await readRecords(storeDir, { hostClass, suite, status: ['ok', 'failed'] }), thresholds);
  const createdAt = new Date().toISOString();
  const comparison = compareRuns({ base: baseRel, candidate: candidateRel, thresholds, createdAt, noiseHistory });
  await attachFunctionMoves(comparison, baseRel, candidateRel, storeDir);
  const stored = { ...comparison, ref: picked.ref };
  const calibration = await readCalibrationSummary(ctx.root, hostClass);
  const calibrations = await readCalibrations(join(ctx.root, 'bench'), hostClass);
  const head = describeRefComparison(stored);
  out(`${head}\n\n${renderComparison(stored, { format: 'terminal', color, calibration, calibrations, functions: options.functions ? 'all' : 'changed' })}`);
  if (options.storeVerdicts !== false) {
    const { path } = await writeComparison(storeDir, /** @type {any} */ (stored));
    process.stderr.write(`stored ${path}\nsite page: ${refRunPagePath(/** @type {any} */ (stored))}\n`);
  }
  if (options.markdown) await replaceFileAtomic(resolve(options.markdown), `# ${product.displayName} ${head}\n\n${renderComparison(stored, { format: 'markdown', calibration, calibrations, functions: options.functions ? 'all' : 'changed' })}\n`);
  if (options.json) await replaceFileAtomic(resolve(options.json), `${JSON.stringify({ comparison: stored, page: refRunPagePath(/** @type {any} */ (stored)) }, null, 2)}\n`);
  return hasIssueRegression(comparison) ? EXIT.regression : EXIT.ok;
}

/**
 * One line saying what was compared with what.
 * @param {{ref: import('../types.js').ComparisonRef, base: {version: string}, candidate: {version: string}, suite: string, hostClass: string}} c
 * @returns {string}
 */
export function describeRefComparison(c) {
  const { ref } = c;
  const pr = ref.pullRequest ? ` (pull request #${ref.pullRequest})` : '';
  const how = { 'branched-from': 'the release it branched from', 'pull-request-base': `the merge base with ${ref.base.ref}`, named: 'the named release' }[ref.base.how];
  return `${ref.name}${pr} of ${ref.repository} at ${ref.commit.slice(0, 12)} (${c.candidate.version}) against ${c.base.version} at ${ref.base.commit.slice(0, 12)} (${how}): ${c.suite} on ${c.hostClass}`;
}
