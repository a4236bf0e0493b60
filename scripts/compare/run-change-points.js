/**
 * Change points across a release series. Short series (3 to MAX_SHORT_SERIES releases, the usual
 * shape of a MySQL-family product line) go through the release-series rule of
 * release-series.js: one value per release, dips, steps and drifts placed between releases.
 * Longer series go to apache-otava (PyPI), run as a Python child process fed JSON on stdin
 * (detect-change-points.py) over the throughput of every valid repeat, releases in order, so that
 * otava sees the within-release noise; a point it places between two repeats of one release is
 * moved to the nearest release boundary (never reported inside a release). Missing python3 /
 * otava on a long series degrades to the release-series rule with a note saying how to install
 * it; it never fails the comparison. Which python3 to run is the caller's choice
 * (scripts/verify/ looks at the environment); this module reads no env.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { listTests, collectSide } from './compare-runs.js';
import { THRESHOLD_DEFAULTS, findThreshold } from './thresholds.js';
import { METRICS } from './metrics.js';
import { findReleaseSeriesEvents, MAX_SHORT_SERIES, RELEASE_SERIES_DEFAULTS, RELEASE_SERIES_VERSION, DRIFT_PENALTY } from './release-series.js';
import { computeShiftInterval } from './shift-interval.js';
import { formatPercent, formatQps, formatInterval } from '../format-number.js';

const THROUGHPUT = /** @type {import('./types.js').MetricDef} */ (METRICS.find((m) => m.name === 'throughput'));

const SCRIPT = fileURLToPath(new URL('./detect-change-points.py', import.meta.url));

/** otava's own defaults, overridable in thresholds.yml `changePoints`. */
/** @type {{windowLen: number, maxPValue: number, minMagnitude: number}} */
export const CHANGE_POINT_DEFAULTS = THRESHOLD_DEFAULTS.changePoints;

/**
 * Smallest change the release-series rule reports when no thresholds are passed: the warn level
 * of every throughput group shipped in configs/thresholds.yml.
 */
const DEFAULT_MIN_CHANGE = 0.03;

/**
 * @param {import('./types.js').ReleaseRecords[]} releases in series order
 * @returns {{key: string, test: string, group: string, metric: string, higherIsBetter: boolean, values: number[], labels: string[], instances: (string|null)[]}[]}
 */
export function buildChangePointSeries(releases) {
  const tests = listTests(releases.flatMap((r) => r.records), []);
  return tests.map(({ name, group }) => {
    /** @type {number[]} */
    const values = [];
    /** @type {string[]} */
    const labels = [];
    /** @type {(string|null)[]} */
    const instances = [];
    for (const rel of releases) {
      for (const record of rel.records) {
        for (const rep of collectSide([record], name).repeats) {
          if (rep.throughput === null) continue;
          values.push(rep.throughput);
          labels.push(rel.version);
          // instance numbers count within one run: run id + number names one server instance
          instances.push(rep.instance === undefined ? null : `${record.id}#${rep.instance}`);
        }
      }
    }
    return { key: `${name}|throughput`, test: name, group, metric: 'throughput', higherIsBetter: THROUGHPUT.higherIsBetter, values, labels, instances };
  });
}

/**
 * @param {import('./types.js').ReleaseRecords[]} releases in series order (at least 3 to find anything)
 * @param {{python: string, options?: Partial<typeof CHANGE_POINT_DEFAULTS>, timeoutMs?: number,
 *   thresholds?: import('./types.js').CompareThresholds, releaseSeries?: Partial<typeof RELEASE_SERIES_DEFAULTS>}} opts
 *   python: the python3 that has apache-otava (a command name or a path; run only for series of
 *   more than MAX_SHORT_SERIES releases); thresholds: configs/thresholds.yml, whose throughput
 *   `warn` level per group is the smallest change the release-series rule reports (default 3 %)
 * @returns {Promise<import('./types.js').ChangePointReport>}
 */
export async function detectChangePoints(releases, opts) {
  const options = { ...CHANGE_POINT_DEFAULTS, ...(opts.options ?? {}) };
  const series = buildChangePointSeries(releases);
  const order = releases.map((r) => r.version).join(', ');
  const summary = series.map(({ test, metric, higherIsBetter, labels }) => ({ test, metric, higherIsBetter, releases: countRuns(labels) }));
  const ruleOptions = { ...RELEASE_SERIES_DEFAULTS, ...(opts.releaseSeries ?? {}) };
  const ruleNote = `release-series rule (one value per release, the median of its repeats; dips, steps and drifts between releases, ${formatPercent(ruleOptions.alpha)} false-event chance per test, changes from the test's warn threshold up) over ${order}`;
  if (releases.length < 3) return { status: 'ok', note: `${ruleNote}: fewer than 3 releases have no dip, step or drift to find`, changePoints: [], method: null, series: summary, rule: null };
  if (releases.length <= MAX_SHORT_SERIES) {
    return { status: 'ok', note: ruleNote, changePoints: detectReleaseSeries(series, opts.thresholds, ruleOptions), method: null, series: summary, rule: describeRule(ruleOptions) };
  }
  const describe = `apache-otava E-divisive (t-test, window ${options.windowLen}, max p-value ${options.maxPValue}) over the throughput of every repeat, releases in order ${order}; a change point between two repeats of one release is moved to the nearest release boundary`;
  const result = await runPython(opts.python, JSON.stringify({ options, series: series.map(({ key, values }) => ({ key, values })) }), opts.timeoutMs ?? 120_000);
  if (!result.ok) {
    // a long series without otava still gets the release-series rule rather than nothing
    return {
      status: 'ok',
      note: `${ruleNote}; apache-otava not run on this series of ${releases.length} releases: ${result.why}. Install apache-otava with setup/compare.sh (or point TAGBENCH_PYTHON at a python3 that has it)`,
      changePoints: detectReleaseSeries(series, opts.thresholds, ruleOptions),
      method: null,
      series: summary,
      rule: describeRule(ruleOptions),
    };
  }
  /** @type {{otavaVersion: string, results: {key: string, changePoints: {index: number, pValue: number, meanBefore: number, meanAfter: number, forwardChangePct: number}[]}[]}} */
  const parsed = JSON.parse(result.stdout);
  /** @type {import('./types.js').ChangePoint[]} */
  const changePoints = [];
  let moved = 0;
  for (const r of parsed.results) {
    const s = series.find((x) => x.key === r.key);
    if (!s) continue;
    for (const cp of r.changePoints) {
      // otava splits a series between two points, so 0 < index < length; anything else would
      // be a bug in the child's output, not a change point.
      if (!(cp.index >= 1 && cp.index < s.labels.length)) throw new Error(`otava reported index ${cp.index} for ${s.key} of ${s.labels.length} points`);
    }
    const placed = placeAtReleaseBoundaries(r.changePoints, s.labels, s.values);
    moved += placed.moved;
    for (const cp of placed.points) {
      changePoints.push({
        test: s.test,
        metric: s.metric,
        index: cp.index,
        version: s.labels[cp.index],
        previousVersion: s.labels[cp.index - 1],
        atReleaseBoundary: true,
        forwardChangePct: cp.forwardChangePct,
        pValue: cp.pValue,
        meanBefore: cp.meanBefore,
        meanAfter: cp.meanAfter,
      });
    }
  }
  return {
    status: 'ok',
    note: `${describe}${moved > 0 ? ` (${moved} moved)` : ''}; apache-otava ${parsed.otavaVersion}`,
    changePoints,
    method: { tool: 'apache-otava', version: parsed.otavaVersion, windowLen: options.windowLen, maxPValue: options.maxPValue, minMagnitude: options.minMagnitude },
    series: summary,
    rule: null,
  };
}

/**
 * @param {typeof RELEASE_SERIES_DEFAULTS} o
 * @returns {NonNullable<import('./types.js').ChangePointReport['rule']>}
 */
function describeRule(o) {
  return { name: 'release-series', version: RELEASE_SERIES_VERSION, alpha: o.alpha, maxEvents: o.maxEvents, simulations: o.simulations, driftPenalty: DRIFT_PENALTY, maxReleases: MAX_SHORT_SERIES };
}

/**
 * The release-series rule over every test's series, as change points with kind and evidence.
 * @param {ReturnType<typeof buildChangePointSeries>} series
 * @param {import('./types.js').CompareThresholds|undefined} thresholds
 * @param {typeof RELEASE_SERIES_DEFAULTS} ruleOptions
 * @returns {import('./types.js').ChangePoint[]}
 */
function detectReleaseSeries(series, thresholds, ruleOptions) {
  /** @type {import('./types.js').ChangePoint[]} */
  const out = [];
  for (const s of series) {
    const runs = countRuns(s.labels);
    /** @type {import('./release-series.js').ReleaseSample[]} */
    const samples = [];
    /** @type {number[]} position of each release's first point in the per-repeat series */
    const starts = [];
    let at = 0;
    for (const run of runs) {
      samples.push({ version: run.version, values: s.values.slice(at, at + run.n), instances: s.instances.slice(at, at + run.n) });
      starts.push(at);
      at += run.n;
    }
    const minChange = thresholds ? (findThreshold(thresholds, s.test, s.group, s.metric)?.warn ?? DEFAULT_MIN_CHANGE) : DEFAULT_MIN_CHANGE;
    const found = findReleaseSeriesEvents(samples, { ...ruleOptions, minChange });
    for (const e of found.events) {
      out.push({
        test: s.test,
        metric: s.metric,
        index: starts[e.releaseIndex],
        version: samples[e.releaseIndex].version,
        previousVersion: samples[e.previousIndex].version,
        atReleaseBoundary: true,
        forwardChangePct: e.change * 100,
        pValue: e.pValue,
        meanBefore: e.levelBefore,
        meanAfter: e.levelAfter,
        kind: e.kind,
        untilVersion: samples[e.untilIndex]?.version ?? samples[e.releaseIndex].version,
        worse: s.higherIsBetter ? e.change < 0 : e.change > 0,
        evidence: describeEvidence(e, samples, s.higherIsBetter, thresholds?.confidence ?? 0.9),
      });
    }
  }
  return out;
}

/**
 * One sentence a person can check against the table: the levels, the releases, the size, the
 * release-to-release interval of the repeats and the scan's numbers.
 * @param {import('./release-series.js').ReleaseSeriesEvent} e
 * @param {import('./release-series.js').ReleaseSample[]} samples
 * @param {boolean} higherIsBetter
 * @param {number} confidence
 * @returns {string}
 */
function describeEvidence(e, samples, higherIsBetter, confidence) {
  const v = (/** @type {number} */ i) => samples[i].version;
  const size = formatPercent(e.change, { signed: true });
  const pair = (/** @type {number} */ i, /** @type {number} */ j) => {
    const ci = computeShiftInterval(samples[i].values, samples[j].values, confidence, 'ratio');
    return ci ? `${v(j)}/${v(i)} ${ci.estimate.toFixed(2)} ${formatInterval([ci.lo, ci.hi])} (exact ${Math.round(ci.coverage * 100)} % rank interval of the repeats)` : `${v(j)}/${v(i)} (too few repeats for a ${Math.round(confidence * 100)} % interval)`;
  };
  const levels = `${formatQps(e.levelBefore)} → ${formatQps(e.levelAfter)}`;
  const scan = `scan |z| ${Math.abs(e.z).toFixed(1)} ≥ ${e.critical.toFixed(1)} over ${e.candidates} release-aligned shapes (p ${e.pValue < 0.001 ? '< 0.001' : e.pValue.toFixed(3)}); ${describeNoise(e)}`;
  const direction = (e.change < 0) === higherIsBetter ? 'worse' : 'better';
  if (e.kind === 'dip') {
    const recovered = e.untilIndex < samples.length ? `, back in ${v(e.untilIndex)}` : '';
    return `${v(e.releaseIndex)} alone ${size} (${direction}; ${levels})${recovered}: ${pair(e.previousIndex, e.releaseIndex)}${e.untilIndex < samples.length ? `, ${pair(e.releaseIndex, e.untilIndex)}` : ''}; ${scan}`;
  }
  if (e.kind === 'step') {
    return `${size} from ${v(e.releaseIndex)} on, held through ${v(samples.length - 1)} (${direction}; ${levels}): ${pair(e.previousIndex, e.releaseIndex)}; ${scan}`;
  }
  const steps = e.untilIndex - e.previousIndex;
  const perRelease = formatPercent(Math.expm1(Math.log1p(e.change) / steps), { signed: true });
  return `${size} over ${steps} releases, ${v(e.previousIndex)} to ${v(e.untilIndex)} (${perRelease} a release, ${direction}; ${levels}), no single step explains it as well: ${pair(e.previousIndex, e.untilIndex)}; ${scan}`;
}

/**
 * What the event's noise estimate rests on, with its degrees of freedom.
 * @param {import('./release-series.js').ReleaseSeriesEvent} e
 * @returns {string}
 */
function describeNoise(e) {
  const noise = `noise ${formatPercent(e.noise)}`;
  // No release has two values: nothing measures the noise inside a release, so the scatter of
  // the releases around the fitted events stands for it, and the df are releases, not repeats.
  if (e.noiseFrom === 'releases') return `${noise} per release, from the scatter of the releases' single values around the fitted events (one value per release, no repeats within one; ${e.noiseDf} df)`;
  const per = e.noiseFrom === 'instances' ? 'per server instance (the spread of instance medians within a release' : 'per repeat (the spread of repeats within a release';
  const scaled = e.noiseScale > 1 ? `, its variance scaled ×${e.noiseScale.toFixed(1)} to how much more the releases scatter around the fitted events` : '';
  return `${noise} ${per}${scaled}; ${e.noiseDf} df)`;
}

/**
 * Move every otava change point that falls between two repeats of one release to the nearest
 * boundary of that release (the first repeat of the release, or of the next one), recompute the
 * means of the segments around it, and keep one point per boundary (the smaller p-value).
 * @param {{index: number, pValue: number, meanBefore: number, meanAfter: number, forwardChangePct: number}[]} points
 * @param {string[]} labels release of each point of the series
 * @param {number[]} values
 * @returns {{points: {index: number, pValue: number, meanBefore: number, meanAfter: number, forwardChangePct: number}[], moved: number}}
 */
export function placeAtReleaseBoundaries(points, labels, values) {
  let moved = 0;
  /** @type {Map<number, {index: number, pValue: number, meanBefore: number, meanAfter: number, forwardChangePct: number, wasMoved: boolean}>} */
  const byIndex = new Map();
  for (const cp of points) {
    let index = cp.index;
    if (labels[index] === labels[index - 1]) {
      let first = index;
      while (first > 0 && labels[first - 1] === labels[index]) first--;
      let next = index;
      while (next < labels.length && labels[next] === labels[index]) next++;
      // ties go to the release's own start: the change is then attributed to this release
      index = next < labels.length && next - index < index - first ? next : first;
      if (index === 0) continue; // the series' first release has no boundary before it
      moved++;
    }
    const prev = byIndex.get(index);
    if (!prev || cp.pValue < prev.pValue) byIndex.set(index, { ...cp, index, wasMoved: index !== cp.index });
  }
  const sorted = [...byIndex.values()].sort((a, b) => a.index - b.index);
  const mean = (/** @type {number} */ from, /** @type {number} */ to) => values.slice(from, to).reduce((x, y) => x + y, 0) / (to - from);
  return {
    moved,
    points: sorted.map((cp, i) => {
      if (!cp.wasMoved) return { index: cp.index, pValue: cp.pValue, meanBefore: cp.meanBefore, meanAfter: cp.meanAfter, forwardChangePct: cp.forwardChangePct };
      const before = mean(i === 0 ? 0 : sorted[i - 1].index, cp.index);
      const after = mean(cp.index, i + 1 < sorted.length ? sorted[i + 1].index : values.length);
      return { index: cp.index, pValue: cp.pValue, meanBefore: before, meanAfter: after, forwardChangePct: (after / before - 1) * 100 };
    }),
  };
}

/**
 * @param {string[]} labels the release of each point, in series order
 * @returns {{version: string, n: number}[]} consecutive points per release
 */
function countRuns(labels) {
  /** @type {{version: string, n: number}[]} */
  const out = [];
  for (const v of labels) {
    const last = out.at(-1);
    if (last?.version === v) last.n += 1;
    else out.push({ version: v, n: 1 });
  }
  return out;
}

/**
 * @param {string} python
 * @param {string} input
 * @param {number} timeoutMs
 * @returns {Promise<{ok: true, stdout: string}|{ok: false, why: string}>}
 */
function runPython(python, input, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn(python, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    // own timer (unref'd): spawn's `timeout` option keeps the process alive after a spawn error
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    timer.unref();
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ ok: false, why: `cannot start ${python} (${/** @type {NodeJS.ErrnoException} */ (err).code ?? err.message})` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ok: true, stdout });
      else resolve({ ok: false, why: code === 3 ? stderr.trim() : `${python} ${SCRIPT} ended with ${signal ?? `exit ${code}`}: ${stderr.trim().split('\n').slice(-3).join(' ')}` });
    });
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}
