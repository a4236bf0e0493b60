/**
 * `tagbench compare`: for a product line's releases on one host class and suite, print the
 * relative-to-base table, the verdicts of every release against the base (stored in the
 * results store), and the change points across the releases (stored as the series' change-point
 * file when the compare covers the whole series). Exit 2 when a regression at the issue level
 * is found.
 */
import { resolve } from 'node:path';
import { parseList } from '../command-spec.js';
import { loadConfig } from '../config/index.js';
import { UserError, EXIT } from '../errors.js';
import { readRecords, readBaseline, writeComparison, writeChangePoints, replaceFileAtomic } from '../store/index.js';
import { runIdLabel } from '../run-id.js';
import {
  compareRuns, resolveThresholds, hasIssueRegression, chooseBase, computeRelativeTable, detectChangePoints,
  renderRelativeTable, renderComparison, renderChangePoints, estimateNoiseHistory, findHostDrift, renderHostDrift,
  computeCrossTable, renderCrossTable, releaseKey, renderMatrixTables, computeSequenceTables, renderSequenceTables,
} from '../compare/index.js';
import { extendUndecided, ADAPTIVE_DEFAULTS } from './adaptive-repeats.js';
import { readCalibrationSummary } from './calibration-summary.js';
import { cacheDirFrom, otavaPythonFrom, workDirFrom } from '../run-options.js';
import { compareVersions } from '../version-order.js';

/**
 * @typedef {object} CompareOptions
 * @property {string} [store] results store (default `results`)
 * @property {string} [hostClass] default `local`
 * @property {string} [suite] default `smoke`
 * @property {string} product
 * @property {string} [line] product line; default: the line of the releases' records
 * @property {string[]|string} [releases] versions in column order; default: every version in the store.
 *   `version#label` names one server kind of a release: `10.11.18#rocksdb` (label = engine: its
 *   MyRocks records, from `tagbench run --engine innodb,rocksdb` or `--engine rocksdb`) or another
 *   run label (`#b` of an A/A run: the records whose id carries it). A plain version never pools
 *   records of two engines.
 * @property {string} [base] base version; default: the baseline file, else the line's baseVersion, else the first
 * @property {string} [baselines] baselines folder (default `baselines`)
 * @property {string} [markdown] write the Markdown report here
 * @property {string} [json] write {table, comparisons, changePoints} here
 * @property {boolean} [storeVerdicts] false = do not write comparison files nor the change-point
 *   file to the store
 * @property {boolean} [changePoints] false = skip apache-otava (and write no change-point file)
 * @property {boolean} [adaptive] run more instances of undecided tests before judging
 *   (scripts/verify/adaptive-repeats.js), within the host class's budget
 * @property {number} [adaptiveBudget] seconds, instead of the host class's adaptive.budgetS
 * @property {string} [workDir] datadirs of the adaptive rounds
 * @property {string} [cacheDir] install cache of the adaptive rounds
 * @property {string} [root] project root holding configs/ (default: this checkout)
 * @property {(text: string) => void} [out] stdout writer (tests capture it)
 * @property {boolean} [color] ANSI colours (default: stdout is a terminal and NO_COLOR unset)
 */

/**
 * `tagbench compare` (see the module comment).
 * @param {Record<string, any>} options see CompareOptions
 * @returns {Promise<number>} 0, or 2 when a regression at the issue level is found
 * @throws {UserError} bad options, no records, unreadable store or baseline
 */
export async function compareReleases(options) {
  const root = options.root ?? resolve(new URL('../..', import.meta.url).pathname);
  const config = await loadConfig(root);
  const out = options.out ?? ((/** @type {string} */ t) => process.stdout.write(t));
  const color = options.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR);
  /** @type {string[]|undefined} */
  const named = typeof options.releases === 'string' ? parseList(options.releases) : options.releases;
  if (named?.some((r) => r.includes('@'))) {
    return compareAcross({ ...options, releases: named }, { config, out, color });
  }
  if (!options.product) throw new UserError(`missing --product; known: ${Object.keys(config.products).join(', ')}`);
  const product = config.products[options.product];
  if (!product) throw new UserError(`unknown --product '${options.product}'; known: ${Object.keys(config.products).join(', ')}`);
  const hostClass = options.hostClass ?? 'local';
  const suite = options.suite ?? 'smoke';
  const storeDir = resolve(options.store ?? 'results');
  const thresholds = resolveThresholds(config.thresholds);
  // A matrix suite has no records of its own: each cell is a series `<suite>--<cell>`.
  const matrix = /** @type {{matrix?: Record<string, Record<string, unknown>>}} */ (config.suites[suite] ?? {}).matrix;
  if (matrix) return compareMatrix({ ...options, suite }, matrix, out);

  const all = await readRecords(storeDir, { hostClass, product: product.name, suite, status: ['ok', 'failed'] });
  /** @type {string[]|undefined} */
  const wanted = named?.map((item) => releaseEntryKey(parseReleaseEntry(item)));
  const wantedVersions = wanted?.map((item) => parseReleaseEntry(item).version);
  const lines = [...new Set(all.filter((r) => !wantedVersions || wantedVersions.includes(r.release.version)).map((r) => r.release.line))];
  const line = options.line ?? (lines.length === 1 ? lines[0] : undefined);
  if (!line) {
    throw new UserError(lines.length === 0
      ? `no run record of ${product.name}${wanted ? ` ${wanted.join(', ')}` : ''} for host class '${hostClass}' and suite '${suite}' in ${storeDir}: run \`tagbench run\` first or check --store, --host-class, --suite`
      : `the releases span product lines ${lines.join(', ')}: give --line (one of them) for verdicts against that line's base, or name them as product@version (--releases ${(wanted ?? [...new Set(all.map((r) => r.release.version))].sort(compareVersions)).map((v) => `${product.name}@${v}`).join(',')}) for one table across lines, without verdicts`);
  }
  const records = all.filter((r) => r.release.line === line);
  const versions = wanted ?? [...new Set(records.map((r) => r.release.version))].sort(compareVersions);
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
  const releases = columns.map((version) => {
    const useBaselineRuns = version === base.version && base.source === 'baseline' && baseline;
    const entry = parseReleaseEntry(version);
    const recs = selectEntryRecords(records, entry).filter((r) => !useBaselineRuns || baseline.runIds.includes(r.id));
    if (recs.length === 0) {
      throw new UserError(`no run record of ${product.name} ${version} (line ${line}, host class '${hostClass}', suite '${suite}') in ${storeDir}${useBaselineRuns ? ` among the baseline's runs ${baseline.runIds.join(', ')} (${baselines})` : ''}; versions with records: ${[...new Set(records.map((r) => r.release.version))].join(', ') || 'none'}`);
    }
    checkOneEngine(recs, entry, product.name);
    checkOneBuild(recs, entry, product.name);
    return { version, records: recs };
  });
  // A labelled column is one server kind of a release, not the release: its verdicts would be
  // stored under the bare version, beside (and mistaken for) the release's own.
  const labelled = releases.filter((r) => parseReleaseEntry(r.version).label !== undefined).map((r) => r.version);
  const baseRel = releases.find((r) => r.version === base.version);
  if (!baseRel) throw new Error('unreachable: base is among the columns');

  const createdAt = new Date().toISOString();
  const compared = new Set(releases.flatMap((r) => r.records.map((rec) => rec.id)));
  // The detectable effect uses every earlier run of this host class and suite (any product):
  // noise is a property of the host and the test more than of the release.
  const history = (await readRecords(storeDir, { hostClass, suite, status: ['ok', 'failed'] })).filter((r) => !compared.has(r.id));
  const noiseHistory = estimateNoiseHistory(history, thresholds);
  const host = config.hosts[hostClass];
  /** @type {import('../compare/index.js').FullComparison[]} */
  const comparisons = [];
  for (const candidate of releases.filter((r) => r !== baseRel)) {
    if (!options.adaptive) {
      comparisons.push(compareRuns({ base: baseRel, candidate, thresholds, createdAt, noiseHistory }));
      continue;
    }
    // More servers of the build each column measured (one build per column, checkOneBuild):
    // the install cache may hold another build of the same version.
    const rerunOf = (/** @type {{version: string, records: import('../types.js').RunRecord[]}} */ rel) => {
      const provider = rel.records[0]?.release.provider;
      return { product: product.name, version: rel.version, ...(provider && provider !== 'path' ? { provider } : {}) };
    };
    const extended = await extendUndecided(baseRel, candidate, createdAt, {
      config, thresholds, product: product.name, suite, hostClass, storeDir, noiseHistory,
      releases: [rerunOf(baseRel), rerunOf(candidate)],
      workDir: resolve(workDirFrom(options.workDir, host)),
      cacheDir: resolve(cacheDirFrom(options.cacheDir)),
      budgetS: options.adaptiveBudget ?? host?.adaptive?.budgetS ?? ADAPTIVE_DEFAULTS.budgetS,
      maxInstances: host?.adaptive?.maxInstances ?? ADAPTIVE_DEFAULTS.maxInstances,
      write: (t) => process.stderr.write(t),
    });
    comparisons.push(extended.comparison);
    // Later candidates are compared with every instance of the base measured so far.
    baseRel.records = extended.base.records;
    candidate.records = extended.candidate.records;
  }
  const calibration = await readCalibrationSummary(root, hostClass);
  const table = computeRelativeTable({ product: product.name, line, base: base.version, releases });
  options.onTable?.(table);
  const changePoints = options.changePoints === false
    ? { status: /** @type {const} */ ('unavailable'), note: 'change points skipped (--no-change-points)', changePoints: [], method: null, series: [] }
    : await detectChangePoints(releases, { python: otavaPythonFrom(process.env), options: thresholds.changePoints, thresholds });

  const baseNote = `base ${base.version} (${{ option: '--base', baseline: `baseline file, runs ${baseline?.runIds.join(', ')}`, line: `line ${line} baseVersion`, first: 'first release' }[base.source]})`;
  out(renderRelativeTable(table, { format: 'terminal', color }));
  out(`\n${baseNote}\n`);
  for (const c of comparisons) out(`\n${renderComparison(c, { format: 'terminal', color, calibration })}`);
  // The insert benchmark's per-step rates, stalls and per-second chart; LinkBench's seed 000 table.
  const sequenceTables = computeSequenceTables(releases, { stallFraction: thresholds.qos.stallFraction });
  const sequenceText = renderSequenceTables(sequenceTables, { format: 'terminal' });
  if (sequenceText) out(`\n${sequenceText}`);
  out(`\n${renderChangePoints(changePoints, { format: 'terminal' })}`);
  // The host class's reference release watches the host: its drift is a note, never a verdict.
  const reference = host?.reference;
  const referenceRecords = reference ? await readRecords(storeDir, { hostClass, product: reference.product, suite, version: reference.version, status: ['ok'] }) : [];
  const hostNote = referenceRecords.length > 0 ? renderHostDrift(findHostDrift({ records: referenceRecords, thresholds })) : '';
  if (hostNote) out(`\n${hostNote}`);

  if (options.storeVerdicts !== false && labelled.length > 0) {
    process.stderr.write(`verdicts and change points not stored: ${labelled.join(', ')} ${labelled.length === 1 ? 'is a labelled release' : 'are labelled releases'} (one engine or server of a release, not the release); the printed and --json/--markdown verdicts stand\n`);
  } else if (options.storeVerdicts !== false) {
    for (const c of comparisons) {
      const { path } = await writeComparison(storeDir, /** @type {any} */ (c));
      process.stderr.write(`stored ${path}\n`);
    }
    if (options.changePoints !== false) {
      const whole = [...new Set(records.map((r) => r.release.version))].sort(compareVersions);
      const file = computeChangePointsFile(changePoints, { hostClass, product: product.name, line, suite, createdAt, releases });
      // The file stands for the whole series (the site marks it on every test's history), so a
      // compare of a few releases, or in another order, must not replace it.
      if (!file) process.stderr.write(`change points not stored: ${changePoints.status === 'ok' ? 'fewer than 3 releases have none' : 'apache-otava did not run'}\n`);
      else if (columns.join('\n') !== whole.join('\n')) {
        process.stderr.write(`change points not stored: they cover ${columns.join(', ')}, not the whole series of ${product.name} ${line} in the store (${whole.join(', ')}, oldest first); run without --releases to store them\n`);
      } else {
        process.stderr.write(`stored ${await writeChangePoints(storeDir, file)} (change points over the whole series, replacing the previous ones)\n`);
      }
    }
  }
  if (options.markdown) {
    const md = [`# ${product.displayName} ${line}: ${suite} on ${hostClass}\n\n`, `Compared ${createdAt}; ${baseNote}.\n\n`, renderRelativeTable(table, { format: 'markdown' }), ...comparisons.map((c) => `\n${renderComparison(c, { format: 'markdown', calibration })}`), sequenceText ? `\n## Sequence benchmarks\n\n${renderSequenceTables(sequenceTables, { format: 'markdown' })}` : '', `\n${renderChangePoints(changePoints, { format: 'markdown' })}`, hostNote ? `\n## Host check\n\n${hostNote}` : ''].join('');
    await replaceFileAtomic(resolve(options.markdown), md);
  }
  if (options.json) await replaceFileAtomic(resolve(options.json), `${JSON.stringify({ base: { ...base }, table, comparisons, changePoints, sequences: sequenceTables }, null, 2)}\n`);
  return comparisons.some((c) => hasIssueRegression(c)) ? EXIT.regression : EXIT.ok;
}

/**
 * `tagbench compare --releases product@version,...`: one table of releases of any product lines
 * and products run on the same host class and suite, with ratios to the chosen base (seed post
 * 003's form). A view: no verdict is made or stored, since verdicts against a baseline belong to
 * one product line.
 * @param {Record<string, any> & {releases: string[]}} options see CompareOptions; releases as
 *   `product@version`, or plain versions of --product
 * @param {{config: Awaited<ReturnType<typeof loadConfig>>, out: (text: string) => void, color: boolean}} ctx
 * @returns {Promise<number>} 0
 * @throws {UserError} bad options, or a release with no run record on the host class and suite
 */
async function compareAcross(options, { config, out, color }) {
  if (options.line) throw new UserError(`--line ${options.line}: a table of releases named product@version spans lines and takes no --line; to judge releases of one line against its base, give --product and plain versions`);
  if (options.adaptive) throw new UserError('--adaptive runs more instances of undecided verdicts; a table of releases named product@version makes no verdicts: give --product and plain versions of one line');
  const hostClass = options.hostClass ?? 'local';
  const suite = options.suite ?? 'smoke';
  const storeDir = resolve(options.store ?? 'results');
  const known = Object.keys(config.products).join(', ');
  const named = options.releases.map((item) => {
    const m = /^([a-z][a-z0-9-]*)@(\S+)$/.exec(item);
    const product = m ? m[1] : options.product;
    if (!product) throw new UserError(`release '${item}' in --releases names no product: write product@version (e.g. mariadb@${item}), or give --product`);
    if (!config.products[product]) throw new UserError(`unknown product '${product}' in --releases '${item}'; known: ${known}`);
    return { product, ...parseReleaseEntry(m ? m[2] : item) };
  });
  const keys = named.map(releaseKey);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice) throw new UserError(`--releases names ${twice} twice`);
  const base = chooseCrossBase(options.base, named, options.product);
  /** @type {import('../compare/index.js').CrossRelease[]} */
  const releases = [];
  for (const entry of named) {
    const { product, version } = entry;
    const records = selectEntryRecords(await readRecords(storeDir, { hostClass, product, version, suite, status: ['ok', 'failed'] }), entry);
    if (records.length === 0) {
      const versions = [...new Set((await readRecords(storeDir, { hostClass, product, suite })).map((r) => r.release.version))].sort(compareVersions);
      throw new UserError(`no run record of ${product} ${releaseEntryKey(entry)} for host class '${hostClass}' and suite '${suite}' in ${storeDir}; ${product} versions with records there: ${versions.join(', ') || 'none'} (run \`tagbench run --releases ${keys.join(',')}\` first, or check --store, --host-class, --suite)`);
    }
    // The newest run's line: a release belongs to one line, unless the product's lines were redrawn.
    checkOneEngine(records, entry, product);
    checkOneBuild(records, entry, product);
    const line = records.at(-1)?.release.line ?? '';
    releases.push({ product, productName: config.products[product].displayName, line, version, ...(entry.label ? { label: entry.label } : {}), records });
  }
  const table = computeCrossTable({ hostClass, suite, base: base.key, releases });
  const baseLabel = table.columns.find((c) => c.key === base.key)?.label;
  const runs = table.columns.map((c, i) => `${c.label} (line ${c.line}): ${releases[i].records.map((r) => r.id).join(', ')}`).join('; ');
  const baseNote = `base ${baseLabel} (${base.source === 'option' ? '--base' : 'first release'}); runs: ${runs}`;
  out(renderCrossTable(table, { format: 'terminal', color }));
  out(`\n${baseNote}\n`);
  const createdAt = new Date().toISOString();
  if (options.markdown) {
    const md = [`# Across lines and products: ${suite} on ${hostClass}\n\n`, `Compared ${createdAt}; ${baseNote}.\n\n`, renderCrossTable(table, { format: 'markdown' })].join('');
    await replaceFileAtomic(resolve(options.markdown), md);
  }
  if (options.json) await replaceFileAtomic(resolve(options.json), `${JSON.stringify({ base, table }, null, 2)}\n`);
  return EXIT.ok;
}

/**
 * A release named in --releases: `version` or `version#label`. Pure.
 * @param {string} item e.g. `10.11.18`, `10.11.18#rocksdb`
 * @returns {{version: string, label?: string}}
 * @throws {UserError} on an empty version or a label that no run could have given
 */
export function parseReleaseEntry(item) {
  const m = /^([^#\s]+)(?:#(.*))?$/.exec(item);
  if (!m) throw new UserError(`release '${item}' in --releases: write a version (10.11.18) or a labelled release (10.11.18#rocksdb)`);
  if (m[2] === undefined) return { version: m[1] };
  // The labels `tagbench run` gives (scripts/run/resolve-run.js): engines, or A/A server labels.
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/.test(m[2])) {
    throw new UserError(`bad label '${m[2]}' in --releases '${item}': a label is an engine (${ENGINES.join(', ')}) or a run label of up to 32 letters, digits, '_' or '-'`);
  }
  return { version: m[1], label: m[2] };
}

/**
 * @param {{version: string, label?: string}} entry
 * @returns {string} `version` or `version#label`
 */
function releaseEntryKey(entry) {
  return `${entry.version}${entry.label ? `#${entry.label}` : ''}`;
}

const ENGINES = /** @type {const} */ (['innodb', 'rocksdb']);

/**
 * The records a release entry stands for. An engine label selects by the engine the record ran
 * (so `#rocksdb` also finds a run of `--engine rocksdb` alone, which has no label); another label
 * selects the records whose id carries it, as run-releases.js writes ids
 * (`<stamp>-<host>-<product>-<version>-<label>-<suite>-<tag>`). Pure.
 * @param {import('../types.js').RunRecord[]} records
 * @param {{version: string, label?: string}} entry
 * @returns {import('../types.js').RunRecord[]}
 */
export function selectEntryRecords(records, entry) {
  const ofVersion = records.filter((r) => r.release.version === entry.version);
  const { label } = entry;
  // A plain version is the release's own server: the runs of another labelled server of that
  // version beside it (our source build `#ours` next to Debian's) are a column of their own.
  if (label === undefined) return ofVersion.filter((r) => { const l = runIdLabel(r); return l === null || ENGINES.includes(/** @type {any} */ (l)); });
  if (/** @type {readonly string[]} */ (ENGINES).includes(label)) return ofVersion.filter((r) => r.config.engine === label);
  return ofVersion.filter((r) => runIdLabel(r) === label);
}

/**
 * Refuse a column whose records come from different builds of the release (a Debian package
 * and our source build, or two build profiles): a median over both compares nothing. Two
 * builds of one version are two columns: run the second with a label
 * (`tagbench run --releases P@V,P@V#ours:source`) and compare `V` with `V#ours`.
 * @param {import('../types.js').RunRecord[]} records one column's
 * @param {{version: string, label?: string}} entry
 * @param {string} product
 * @throws {UserError} naming the builds and their runs
 */
export function checkOneBuild(records, entry, product) {
  const buildOf = (/** @type {import('../types.js').RunRecord} */ r) => `${r.release.provider}${r.release.buildProfile ? ` (profile ${r.release.buildProfile})` : ''}`;
  const builds = [...new Set(records.map(buildOf))].sort();
  if (builds.length <= 1) return;
  const runs = builds.map((b) => `${b}: ${records.filter((r) => buildOf(r) === b).map((r) => r.id).join(', ')}`).join('; ');
  throw new UserError(`${product} ${releaseEntryKey(entry)} has run records of ${builds.length} builds (${runs}); a release column is one build: run the other build under a label (tagbench run --releases ${product}@${entry.version},${product}@${entry.version}#ours:source) and compare ${entry.version} with ${entry.version}#ours, or keep the builds in separate stores`);
}

/**
 * Refuse a column whose records ran on two engines: InnoDB and MyRocks figures pooled into one
 * median compare nothing.
 * @param {import('../types.js').RunRecord[]} records one column's
 * @param {{version: string, label?: string}} entry
 * @param {string} product
 * @throws {UserError} naming the engines, their runs and the labelled form to use
 */
export function checkOneEngine(records, entry, product) {
  const engines = [...new Set(records.map((r) => r.config.engine))].sort();
  if (engines.length <= 1) return;
  const runs = engines.map((e) => `${e}: ${records.filter((r) => r.config.engine === e).map((r) => r.id).join(', ')}`).join('; ');
  const version = entry.version;
  throw new UserError(`${product} ${releaseEntryKey(entry)} has run records of ${engines.length} engines (${runs}); a release is compared on one engine: name each engine as version#engine, e.g. --releases ${engines.map((e) => `${version}#${e}`).join(',')} (or ${engines.map((e) => `${product}@${version}#${e}`).join(',')} in a table across products)`);
}

/**
 * The base of a cross table: --base as product@version, or as a plain version that names one
 * of the releases (of --product when given); else the first release.
 * @param {string|undefined} option --base
 * @param {{product: string, version: string, label?: string}[]} releases
 * @param {string|undefined} product --product
 * @returns {{key: string, source: 'option'|'first'}}
 * @throws {UserError} when --base names none of the releases, or several
 */
function chooseCrossBase(option, releases, product) {
  const keys = releases.map(releaseKey);
  if (!option) return { key: keys[0], source: 'first' };
  const matches = option.includes('@') ? keys.filter((k) => k === option)
    : releases.filter((r) => releaseEntryKey(r) === option && (!product || r.product === product)).map(releaseKey);
  if (matches.length === 1) return { key: matches[0], source: 'option' };
  throw new UserError(matches.length === 0
    ? `--base ${option} is none of --releases ${keys.join(', ')}; give one of them`
    : `--base ${option} names ${matches.join(' and ')}: write it as product@version`);
}

/**
 * The stored form of a change-point report (scripts/store/schemas/change-points.schema.json):
 * per test, the series' releases and its change points, with the method and the runs behind
 * each release, so that the site can mark them and a reader can tell how they were found.
 * Pure.
 * @param {import('../compare/index.js').ChangePointReport} report from detectChangePoints
 * @param {{hostClass: string, product: string, line: string, suite: string, createdAt: string,
 *   releases: import('../compare/index.js').ReleaseRecords[]}} ctx the series it was computed over, in order
 * @returns {import('../types.js').ChangePoints|null} null when no detector ran (nothing
 *   to store: an empty file would claim "no change point")
 */
function computeChangePointsFile(report, ctx) {
  const method = report.method ?? (report.rule ? { tool: /** @type {const} */ ('release-series'), version: report.rule.version, alpha: report.rule.alpha, maxEvents: report.rule.maxEvents, simulations: report.rule.simulations, driftPenalty: report.rule.driftPenalty } : null);
  if (report.status !== 'ok' || !method) return null;
  return {
    schemaVersion: 1,
    createdAt: ctx.createdAt,
    hostClass: ctx.hostClass,
    product: ctx.product,
    line: ctx.line,
    suite: ctx.suite,
    method: { ...method },
    releases: ctx.releases.map((r) => ({ version: r.version, runIds: r.records.map((rec) => rec.id) })),
    tests: report.series.map((s) => ({
      test: s.test,
      metric: s.metric,
      higherIsBetter: s.higherIsBetter,
      releases: s.releases.map((r) => ({ ...r })),
      changePoints: report.changePoints.filter((c) => c.test === s.test && c.metric === s.metric)
        .map(({ test: _test, metric: _metric, ...point }) => point),
    })),
  };
}

/**
 * `tagbench compare --suite <matrix suite>`: each cell's series compared on its own, with its
 * verdicts (as `--suite <suite>--<cell>` does), then seed 000's view of them all: a table per
 * cell, a row per release. A cell without records is named and left out.
 * @param {Record<string, any>} options see CompareOptions (markdown and json: not for a matrix)
 * @param {Record<string, Record<string, unknown>>} matrix the suite's matrix
 * @param {(text: string) => void} out
 * @returns {Promise<number>} 2 when any cell has an issue-level regression, else 0
 * @throws {UserError} when no cell has records, or with --markdown / --json
 */
async function compareMatrix(options, matrix, out) {
  if (options.markdown || options.json) throw new UserError(`--markdown and --json take one series; suite '${options.suite}' is a matrix: compare one cell, e.g. --suite ${options.suite}--${Object.entries(matrix).map(([d, v]) => `${d}-${Object.keys(v)[0]}`).join('--')}`);
  // The cells in the matrix's order, named as scripts/workload/variants.js names them.
  const cells = Object.entries(matrix).reduce((acc, [dim, values]) => acc.flatMap((c) => Object.keys(values).map((v) => (c ? `${c}--${dim}-${v}` : `${dim}-${v}`))), /** @type {string[]} */ ([''])).filter(Boolean);
  /** @type {Parameters<typeof import('../compare/index.js').renderMatrixTables>[0]} */
  const tables = [];
  /** @type {string[]} */
  const missing = [];
  /** @type {number} */
  let exit = EXIT.ok;
  for (const cell of cells) {
    const series = `${options.suite}--${cell}`;
    out(`\n== matrix cell ${cell} (series ${series}) ==\n`);
    try {
      const code = await compareReleases({ ...options, suite: series, onTable: (/** @type {any} */ table) => tables.push({ cell, series, table }) });
      if (code === EXIT.regression) exit = code;
    } catch (err) {
      if (!(err instanceof UserError) || !/^no run record/.test(err.message)) throw err;
      missing.push(series);
      out(`${err.message}\n`);
    }
  }
  if (tables.length === 0) throw new UserError(`no run record of any cell of matrix suite '${options.suite}' (${cells.map((c) => `${options.suite}--${c}`).join(', ')}): run \`tagbench run --suite ${options.suite}\` first`);
  out(`\n${renderMatrixTables(tables, { format: 'terminal', title: `${options.suite}: a table per matrix cell${missing.length ? ` (no records: ${missing.join(', ')})` : ''}` })}`);
  return exit;
}
