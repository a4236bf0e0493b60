/**
 * Change points across a release series with apache-otava (PyPI), run as a Python child
 * process fed JSON on stdin (detect-change-points.py). The series of a test is the throughput
 * of every valid repeat, releases in the order given, so that otava sees the within-release
 * noise. Missing python3 / otava degrades to a report with status `unavailable` and a note
 * saying how to install it; it never fails the comparison. Which python3 to run is the
 * caller's choice (scripts/verify/ looks at the environment); this module reads no env.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { listTests, collectSide } from './compare-runs.js';
import { THRESHOLD_DEFAULTS } from './thresholds.js';
import { METRICS } from './metrics.js';

const THROUGHPUT = /** @type {import('./types.js').MetricDef} */ (METRICS.find((m) => m.name === 'throughput'));

const SCRIPT = fileURLToPath(new URL('./detect-change-points.py', import.meta.url));

/** otava's own defaults, overridable in thresholds.yml `changePoints`. */
/** @type {{windowLen: number, maxPValue: number, minMagnitude: number}} */
export const CHANGE_POINT_DEFAULTS = THRESHOLD_DEFAULTS.changePoints;

/**
 * @param {import('./types.js').ReleaseRecords[]} releases in series order
 * @returns {{key: string, test: string, metric: string, higherIsBetter: boolean, values: number[], labels: string[]}[]}
 */
export function buildChangePointSeries(releases) {
  const tests = listTests(releases.flatMap((r) => r.records), []);
  return tests.map(({ name }) => {
    /** @type {number[]} */
    const values = [];
    /** @type {string[]} */
    const labels = [];
    for (const rel of releases) {
      for (const rep of collectSide(rel.records, name).repeats) {
        if (rep.throughput === null) continue;
        values.push(rep.throughput);
        labels.push(rel.version);
      }
    }
    return { key: `${name}|throughput`, test: name, metric: 'throughput', higherIsBetter: THROUGHPUT.higherIsBetter, values, labels };
  });
}

/**
 * @param {import('./types.js').ReleaseRecords[]} releases in series order (at least 2 to find anything)
 * @param {{python: string, options?: Partial<typeof CHANGE_POINT_DEFAULTS>, timeoutMs?: number}} opts
 *   python: the python3 that has apache-otava (a command name or a path)
 * @returns {Promise<import('./types.js').ChangePointReport>}
 */
export async function detectChangePoints(releases, opts) {
  const options = { ...CHANGE_POINT_DEFAULTS, ...(opts.options ?? {}) };
  const series = buildChangePointSeries(releases);
  const describe = `apache-otava E-divisive (t-test, window ${options.windowLen}, max p-value ${options.maxPValue}) over the throughput of every repeat, releases in order ${releases.map((r) => r.version).join(', ')}`;
  const summary = series.map(({ test, metric, higherIsBetter, labels }) => ({ test, metric, higherIsBetter, releases: countRuns(labels) }));
  if (releases.length < 2) return { status: 'ok', note: `${describe}: a single release has no change point`, changePoints: [], method: null, series: summary };
  const result = await runPython(opts.python, JSON.stringify({ options, series }), opts.timeoutMs ?? 120_000);
  if (!result.ok) {
    return { status: 'unavailable', note: `change points not computed: ${result.why}. Install apache-otava with setup/compare.sh (or point TAGBENCH_PYTHON at a python3 that has it)`, changePoints: [], method: null, series: summary };
  }
  /** @type {{otavaVersion: string, results: {key: string, changePoints: {index: number, pValue: number, meanBefore: number, meanAfter: number, forwardChangePct: number}[]}[]}} */
  const parsed = JSON.parse(result.stdout);
  /** @type {import('./types.js').ChangePoint[]} */
  const changePoints = [];
  for (const r of parsed.results) {
    const s = series.find((x) => x.key === r.key);
    if (!s) continue;
    for (const cp of r.changePoints) {
      // otava splits a series between two points, so 0 < index < length; anything else would
      // be a bug in the child's output, not a change point.
      if (!(cp.index >= 1 && cp.index < s.labels.length)) throw new Error(`otava reported index ${cp.index} for ${s.key} of ${s.labels.length} points`);
      changePoints.push({
        test: s.test,
        metric: s.metric,
        index: cp.index,
        version: s.labels[cp.index],
        previousVersion: s.labels[cp.index - 1],
        atReleaseBoundary: s.labels[cp.index] !== s.labels[cp.index - 1],
        forwardChangePct: cp.forwardChangePct,
        pValue: cp.pValue,
        meanBefore: cp.meanBefore,
        meanAfter: cp.meanAfter,
      });
    }
  }
  return {
    status: 'ok',
    note: `${describe}; apache-otava ${parsed.otavaVersion}`,
    changePoints,
    method: { tool: 'apache-otava', version: parsed.otavaVersion, windowLen: options.windowLen, maxPValue: options.maxPValue, minMagnitude: options.minMagnitude },
    series: summary,
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
