/**
 * `tagbench compare` of one product line: the releases of the line on one host class and suite,
 * the relative-to-base table, the verdicts of every release against the base (stored in the
 * results store) and the change points across the releases (stored as the series' change-point
 * file when the compare covers the whole series).
 */
import { join, resolve } from 'node:path';
import { UserError, EXIT } from '../errors.js';
import { readRecords, readBaseline, replaceFileAtomic, readCalibrations } from '../store/index.js';
import {
  compareRuns, hasIssueRegression, chooseBase, computeRelativeTable, detectChangePoints, renderRelativeTable,
  renderComparison, renderChangePoints, estimateNoiseHistory, findHostDrift, renderHostDrift, referenceRecords, computeSequenceTables,
  renderSequenceTables, renderLatencyTables,
} from '../compare/index.js';
import { extendUndecided, resolveAdaptiveLimits } from './adaptive-repeats.js';
import { readCalibrationSummary } from './calibration-summary.js';
import { parseReleaseEntry, releaseEntryKey, selectEntryRecords, checkOneBuild, checkOneEngine } from './release-entry.js';
import { writeCompareResults } from './write-compare-results.js';
import { attachFunctionMoves } from './attach-function-moves.js';
import { cacheDirFrom, otavaPythonFrom, workDirFrom } from '../run-options.js';
import { compareVersions } from '../version-order.js';

/** @typedef {import('../types.js').RunRecord} RunRecord */
/** @typedef {import('../compare/index.js').ReleaseRecords} ReleaseRecords */
/** @typedef {import('../compare/index.js').FullComparison} FullComparison */

/**
 * @typedef {import('./load-verify-context.js').VerifyContext & {product: import('../types.js').ProductConfig}} LineContext
 *   the command's context and the product it compares
 */

/**
 * @typedef {object} LineScope which runs a compare reads
 * @property {import('../types.js').ProductConfig} product
 * @property {string} hostClass
 * @property {string} suite
 * @property {string} storeDir
 */

/**
 * @typedef {object} Columns the releases a compare judges, base first among them when not named
 * @property {string} line
 * @property {RunRecord[]} records every record of the line (the whole series)
 * @property {{version: string, source: 'option'|'baseline'|'line'|'first'}} base
 * @property {import('../types.js').Baseline|null} baseline the line's baseline file, if any
 * @property {string} baselines the baselines folder
 * @property {string[]} columns versions (or `version#label`) in column order
 * @property {ReleaseRecords[]} releases one per column
 */

/**
 * Compare the releases of one product line (see the module comment).
 * @param {Record<string, any>} options see CompareOptions in compare-releases.js; releases
 *   already split into a list
 * @param {LineContext} ctx
 * @returns {Promise<number>} 0, or 2 when a regression at the issue level is found
 * @throws {UserError} no records, records of two lines without --line, a column of two engines or
 *   builds, --adaptive with labelled releases, an unreadable store or baseline
 */
export async function compareLine(options, ctx) {
  const scope = { product: ctx.product, hostClass: options.hostClass ?? 'local', suite: options.suite ?? 'smoke', storeDir: resolve(options.store ?? 'results') };
  const cols = await chooseColumns(options, scope);
  const createdAt = new Date().toISOString();
  const comparisons = await judgeColumns(options, ctx, scope, cols, createdAt);
  const calibration = await readCalibrationSummary(ctx.root, scope.hostClass);
  const calibrations = await readCalibrations(join(ctx.root, 'bench'), scope.hostClass);
  // One ratio per test: the table shows the throughput verdicts' own estimates against its base.
  /** @type {Record<string, Record<string, number>>} */
  const verdictRatios = {};
  for (const c of comparisons.filter((x) => x.base.version === cols.base.version)) {
    for (const t of c.tests) {
      if (t.metric === 'throughput' && typeof t.ratio === 'number') (verdictRatios[c.candidate.version] ??= {})[t.test] = t.ratio;
    }
  }
  // Tests compare refused to judge (too short a step): marked, and out of the group means.
  /** @type {Record<string, Record<string, string>>} */
  const refused = {};
  for (const c of comparisons) {
    for (const n of c.notJudged ?? []) if (n.metric === 'throughput') (refused[c.candidate.version] ??= {})[n.test] = n.reason;
  }
  const table = computeRelativeTable({ product: scope.product.name, line: cols.line, base: cols.base.version, releases: cols.releases, verdictRatios, refused });
  options.onTable?.(table);
  const changePoints = options.changePoints === false
    ? { status: /** @type {const} */ ('unavailable'), note: 'change points skipped (--no-change-points)', changePoints: [], method: null, series: [] }
    : await detectChangePoints(cols.releases, { python: otavaPythonFrom(process.env), options: ctx.thresholds.changePoints, thresholds: ctx.thresholds });
  const report = { table, comparisons, changePoints, calibration, calibrations };
  const printed = await printLineReport(ctx, scope, cols, report, options);
  if (options.storeVerdicts !== false) await writeCompareResults(scope, cols, { comparisons, changePoints, createdAt, storeChangePoints: options.changePoints !== false });
  await writeLineFiles(options, scope, cols, { ...report, ...printed, createdAt });
  return comparisons.some((c) => hasIssueRegression(c)) ? EXIT.regression : EXIT.ok;
}

/**
 * The line, its base and the columns: the releases named (or every one of the line in the
 * store), with the base first when it is not among them, each with its records.
 * @param {Record<string, any>} options
 * @param {LineScope} scope
 * @returns {Promise<Columns>}
 * @throws {UserError} see compareLine
 */
async function chooseColumns(options, scope) {
  const { product, hostClass, suite } = scope;
  const { line, records, versions } = await readLineSeries(options, scope);
  const baselines = resolve(options.baselines ?? 'baselines');
  const baseline = await readBaseline(baselines, { hostClass, product: product.name, line, suite });
  // Labelled releases (engines of one release) are compared with each other: the line's baseline
  // and base version, one engine's or both engines' runs, are no base for them unless --base says so.
  const anyLabel = versions.some((v) => parseReleaseEntry(v).label !== undefined);
  // Its rounds start servers of product@version with the run's engine: a labelled column's would
  // run on another engine than the records they join.
  if (anyLabel && options.adaptive) throw new UserError(`--adaptive runs more servers of plain releases; ${versions.filter((v) => v.includes('#')).join(', ')} name one engine or server of a release: run more repeats with \`tagbench run --engine\` and compare again without --adaptive`);
  const base = chooseBase({ explicit: options.base, baseline: anyLabel ? undefined : baseline?.version, lineBase: anyLabel ? undefined : product.lines.find((l) => l.name === line)?.baseVersion, versions });
  const columns = versions.includes(base.version) ? versions : [base.version, ...versions];
  const cols = { line, records, base, baseline, baselines, columns };
  return { ...cols, releases: columns.map((version) => readColumn(version, cols, scope)) };
}

/**
 * The product line the compare covers, its records, and the versions to compare.
 * @param {Record<string, any>} options releases (list), line
 * @param {LineScope} scope
 * @returns {Promise<{line: string, records: RunRecord[], versions: string[]}>} versions in
 *   column order: as named, else every version of the line in the store, oldest first
 * @throws {UserError} no record, or records of several lines and no --line
 */
async function readLineSeries(options, { product, hostClass, suite, storeDir }) {
  const all = await readRecords(storeDir, { hostClass, product: product.name, suite, status: ['ok', 'failed'] });
  /** @type {string[]|undefined} */
  const wanted = options.releases?.map((/** @type {string} */ item) => releaseEntryKey(parseReleaseEntry(item)));
  const wantedVersions = wanted?.map((item) => parseReleaseEntry(item).version);
  const lines = [...new Set(all.filter((r) => !wantedVersions || wantedVersions.includes(r.release.version)).map((r) => r.release.line))];
  const line = options.line ?? (lines.length === 1 ? lines[0] : undefined);
  if (!line) {
    throw new UserError(lines.length === 0
      ? `no run record of ${product.name}${wanted ? ` ${wanted.join(', ')}` : ''} for host class '${hostClass}' and suite '${suite}' in ${storeDir}: run \`tagbench run\` first or check --store, --host-class, --suite`
      : `the releases span product lines ${lines.join(', ')}: give --line (one of them) for verdicts against that line's base, or name them as product@version (--releases ${(wanted ?? [...new Set(all.map((r) => r.release.version))].sort(compareVersions)).map((v) => `${product.name}@${v}`).join(',')}) for one table across lines, without verdicts`);
  }
  const records = all.filter((r) => r.release.line === line);
  return { line, records, versions: wanted ?? [...new Set(records.map((r) => r.release.version))].sort(compareVersions) };
}

/**
 * One column: the records of a release entry; for the base taken from the baseline file, only
 * the baseline's runs.
 * @param {string} version `version` or `version#label`
 * @param {Omit<Columns, 'releases'>} cols
 * @param {LineScope} scope
 * @returns {ReleaseRecords}
 * @throws {UserError} no record of the column, or records of two engines or builds
 */
function readColumn(version, { line, records, base, baseline, baselines }, { product, hostClass, suite, storeDir }) {
  const useBaselineRuns = version === base.version && base.source === 'baseline' && baseline;
  const entry = parseReleaseEntry(version);
  const recs = selectEntryRecords(records, entry).filter((r) => !useBaselineRuns || baseline.runIds.includes(r.id));
  if (recs.length === 0) {
    throw new UserError(`no run record of ${product.name} ${version} (line ${line}, host class '${hostClass}', suite '${suite}') in ${storeDir}${useBaselineRuns ? ` among the baseline's runs ${baseline.runIds.join(', ')} (${baselines})` : ''}; versions with records: ${[...new Set(records.map((r) => r.release.version))].join(', ') || 'none'}`);
  }
  checkOneEngine(recs, entry, product.name);
  checkOneBuild(recs, entry, product.name);
  return { version, records: recs };
}

/**
 * Every column against the base; with --adaptive, undecided verdicts get more instances first
 * (adaptive-repeats.js), and later candidates meet every instance of the base measured so far.
 * @param {Record<string, any>} options adaptive, adaptiveBudget, workDir, cacheDir
 * @param {LineContext} ctx
 * @param {LineScope} scope
 * @param {Columns} cols
 * @param {string} createdAt ISO time of the compare
 * @returns {Promise<FullComparison[]>} one per column but the base, in column order
 * @throws {UserError} an adaptive round that cannot run
 */
async function judgeColumns(options, ctx, { product, hostClass, suite, storeDir }, cols, createdAt) {
  const { config, thresholds } = ctx;
  const baseRel = cols.releases.find((r) => r.version === cols.base.version);
  if (!baseRel) throw new Error('unreachable: base is among the columns');
  const compared = new Set(cols.releases.flatMap((r) => r.records.map((rec) => rec.id)));
  // The detectable effect uses every earlier run of this host class and suite (any product):
  // noise is a property of the host and the test more than of the release.
  const history = (await readRecords(storeDir, { hostClass, suite, status: ['ok', 'failed'] })).filter((r) => !compared.has(r.id));
  const noiseHistory = estimateNoiseHistory(history, thresholds);
  const host = config.hosts[hostClass];
  /** @type {FullComparison[]} */
  const comparisons = [];
  for (const candidate of cols.releases.filter((r) => r !== baseRel)) {
    if (!options.adaptive) {
      comparisons.push(compareRuns({ base: baseRel, candidate, thresholds, createdAt, noiseHistory }));
      continue;
    }
    const extended = await extendUndecided(baseRel, candidate, createdAt, {
      config, thresholds, product: product.name, suite, hostClass, storeDir, noiseHistory,
      releases: [rerunSpec(product.name, baseRel), rerunSpec(product.name, candidate)],
      workDir: resolve(workDirFrom(options.workDir, host)),
      cacheDir: resolve(cacheDirFrom(options.cacheDir)),
      ...resolveAdaptiveLimits(host, options.adaptiveBudget),
      write: (t) => process.stderr.write(t),
    });
    comparisons.push(extended.comparison);
    baseRel.records = extended.base.records;
    candidate.records = extended.candidate.records;
  }
  // Where the instructions went, from the profiles of the counted repeats each verdict judged.
  for (const [i, candidate] of cols.releases.filter((r) => r !== baseRel).entries()) {
    await attachFunctionMoves(comparisons[i], baseRel, candidate, storeDir);
  }
  return comparisons;
}

/**
 * How an adaptive round runs more servers of a column: the build the column measured (one build
 * per column, checkOneBuild), since the install cache may hold another build of the same version.
 * @param {string} product
 * @param {ReleaseRecords} rel
 * @returns {{product: string, version: string, provider?: string}}
 */
function rerunSpec(product, rel) {
  const provider = rel.records[0]?.release.provider;
  return { product, version: rel.version, ...(provider && provider !== 'path' ? { provider } : {}) };
}

/**
 * Where the base came from, for the reader.
 * @param {Columns} cols
 * @returns {string} e.g. `base 10.11.18 (line 10.11 baseVersion)`
 */
function describeBase({ base, baseline, line }) {
  const why = { option: '--base', baseline: `baseline file, runs ${baseline?.runIds.join(', ')}`, line: `line ${line} baseVersion`, first: 'first release' }[base.source];
  return `base ${base.version} (${why})`;
}

/**
 * @typedef {object} LineReport what compare prints, and writes as Markdown and JSON
 * @property {import('../compare/types.js').RelativeTable} table
 * @property {FullComparison[]} comparisons
 * @property {Awaited<ReturnType<typeof detectChangePoints>>} changePoints
 * @property {Awaited<ReturnType<typeof readCalibrationSummary>>} calibration
 * @property {import('../types.js').Calibration[]} calibrations the host class's, for "how sure"
 */

/**
 * @typedef {object} PrintedExtras the parts of the terminal report the Markdown report reuses
 * @property {ReturnType<typeof computeSequenceTables>} sequenceTables
 * @property {string} sequenceText the terminal rendering of sequenceTables ('' when none)
 * @property {string} hostNote the reference release's drift ('' when none)
 */

/**
 * Print the verdicts (each opening with how sure they are), the base, the table, the sequence
 * benchmarks' tables, the change points and the host check to the terminal: the order of the
 * Markdown report, so the "how sure" sentence comes first in both.
 * @param {LineContext} ctx
 * @param {LineScope} scope
 * @param {Columns} cols
 * @param {LineReport} report
 * @param {Record<string, any>} options functions: where the instructions went for every instruction verdict
 * @returns {Promise<PrintedExtras>}
 * @throws {UserError} an unreadable store (the reference release's records)
 */
async function printLineReport({ out, color, thresholds, config }, { hostClass, suite, storeDir }, cols, report, options) {
  const { table, comparisons, changePoints, calibration, calibrations } = report;
  for (const c of comparisons) out(`${renderComparison(c, { format: 'terminal', color, calibration, calibrations, functions: options.functions ? 'all' : 'changed' })}\n`);
  out(`${describeBase(cols)}\n\n`);
  out(renderRelativeTable(table, { format: 'terminal', color }));
  // The insert benchmark's per-step rates, stalls and per-second chart; LinkBench's seed 000 table.
  const sequenceTables = computeSequenceTables(cols.releases, { stallFraction: thresholds.qos.stallFraction });
  const sequenceText = renderSequenceTables(sequenceTables, { format: 'terminal' });
  if (sequenceText) out(`\n${sequenceText}`);
  out(`\n${renderChangePoints(changePoints, { format: 'terminal' })}`);
  // The host class's reference release watches the host: its drift is a note, never a verdict.
  const reference = config.hosts[hostClass]?.reference;
  const referenceRuns = reference ? referenceRecords(await readRecords(storeDir, { hostClass, product: reference.product, suite, version: reference.version, status: ['ok'] }), reference) : [];
  const hostNote = referenceRuns.length > 0 ? renderHostDrift(findHostDrift({ records: referenceRuns, thresholds })) : '';
  if (hostNote) out(`\n${hostNote}`);
  return { sequenceTables, sequenceText, hostNote };
}

/**
 * The Markdown report's response times per operation (the release page's tables): LinkBench's
 * per-operation latencies and the insert benchmark's per statement, each release beside the base.
 * @param {Columns} cols
 * @returns {string} '' when no release timed an operation
 */
function latencyText(cols) {
  const text = renderLatencyTables(cols.releases, cols.base.version);
  return text ? `\n## Response times per operation\n\n${text}` : '';
}

/**
 * --markdown and --json: the report as a file.
 * @param {Record<string, any>} options markdown, json (paths)
 * @param {LineScope} scope
 * @param {Columns} cols
 * @param {LineReport & PrintedExtras & {createdAt: string}} report
 * @returns {Promise<void>}
 * @throws {Error} when a file cannot be written
 */
async function writeLineFiles(options, { product, hostClass, suite }, cols, report) {
  const { table, comparisons, changePoints, calibration, calibrations, sequenceTables, sequenceText, hostNote, createdAt } = report;
  if (options.markdown) {
    const md = [`# ${product.displayName} ${cols.line}: ${suite} on ${hostClass}\n\n`, `Compared ${createdAt}; ${describeBase(cols)}.\n\n`, ...comparisons.map((c) => `${renderComparison(c, { format: 'markdown', calibration, calibrations, functions: options.functions ? 'all' : 'changed' })}\n`), renderRelativeTable(table, { format: 'markdown' }), sequenceText ? `\n## Sequence benchmarks\n\n${renderSequenceTables(sequenceTables, { format: 'markdown' })}` : '', latencyText(cols), `\n${renderChangePoints(changePoints, { format: 'markdown' })}`, hostNote ? `\n## Host check\n\n${hostNote}` : ''].join('');
    await replaceFileAtomic(resolve(options.markdown), md);
  }
  if (options.json) await replaceFileAtomic(resolve(options.json), `${JSON.stringify({ base: { ...cols.base }, table, comparisons, changePoints, sequences: sequenceTables }, null, 2)}\n`);
}
