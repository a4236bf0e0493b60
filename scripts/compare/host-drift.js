/**
 * The host is watched too: a host class names a reference release (configs/hosts/<class>.yml
 * `reference`) that is rerun in every benchmark cycle. The same binary on the same host should
 * give the same throughput, so a lasting change of the reference's series is a change of the
 * HOST (firmware, a noisy neighbour, thermal limits, a kernel update), never a release's
 * regression.
 *
 * Two things are found here, both pure (records in, a report out):
 * - host series: the reference's runs split where the run record's host facts change (CPU
 *   model, cores, kernel, memory, governor, turbo, pinning), or its own settings (my.cnf,
 *   scale, engine: an edited template is not the host). Numbers from different hardware or
 *   kernels are not one series: a new one starts, with the change that started it, and no
 *   drift is looked for across it.
 * - drift inside a host series: the release-series rule (release-series.js: dips, steps and
 *   slow drifts, at most `alpha` false events per series, sizes from the test's `warn`
 *   threshold) over the reference's RUNS in time order, each run standing where a release
 *   stands in a release series, its repeats (or instance medians) as its units. So each newer
 *   run is judged against the earlier ones with the project's change statistics, and the run-to-
 *   run scatter of one binary (its instances and restarts) is the noise. The rule is made for
 *   at most MAX_SHORT_SERIES points: a longer host series is scanned in windows of that many
 *   runs, half overlapping, each at alpha / windows so the whole series keeps alpha.
 */
import { median } from 'simple-statistics';
import { UserError } from '../errors.js';
import { formatPercent, formatValue } from '../format-number.js';
import { collectSide, listTests } from './compare-runs.js';
import { findReleaseSeriesEvents, MAX_SHORT_SERIES, RELEASE_SERIES_DEFAULTS, RELEASE_SERIES_VERSION } from './release-series.js';
import { findThreshold } from './thresholds.js';
import { runIdLabel, REFERENCE_LABEL } from '../run-id.js';

/** @typedef {import('../types.js').RunRecord} RunRecord */
/** @typedef {import('../types.js').RecordHost} RecordHost */

/**
 * The records of a host class's reference release: the Debian package's runs (the workflow runs
 * the reference from Debian's package), unlabelled or labelled `reference` (the label the
 * workflow gives the reference's run when the leg benchmarks the same version from source, so
 * the two builds stay apart). A source build of that version, or any other labelled server of
 * it, is not the reference: its numbers are not the host's series.
 * @param {RunRecord[]} records
 * @param {{product: string, version: string}} reference
 * @returns {RunRecord[]}
 */
export function referenceRecords(records, reference) {
  return records.filter((r) => {
    if (r.release.product !== reference.product || r.release.version !== reference.version || r.release.provider !== 'deb') return false;
    const label = runIdLabel(r);
    return label === null || label === REFERENCE_LABEL;
  });
}

/**
 * The run record's host facts whose change starts a new series. The host name is not one of
 * them: runners of one class are interchangeable when their facts agree.
 */
export const HOST_FACT_FIELDS = /** @type {const} */ (['cpuModel', 'cores', 'kernel', 'memoryBytes', 'governor', 'turbo', 'pinning']);

/**
 * The run's own settings whose change also starts a new series of the reference (not of a
 * release history, where releases legitimately differ in them): an edited my.cnf template or
 * scale would otherwise read as a drift of the host.
 */
export const RUN_SETTING_FIELDS = /** @type {const} */ (['mycnf', 'scale', 'engine']);

/** @typedef {typeof HOST_FACT_FIELDS[number] | typeof RUN_SETTING_FIELDS[number]} HostFactField */

/**
 * @typedef {object} HostFactChange one fact that differs from the previous series
 * @property {HostFactField} field
 * @property {string} from as shown (e.g. "6.1.0-27-amd64")
 * @property {string} to
 */

/**
 * @typedef {object} HostSegment a run of the reference on unchanged host facts
 * @property {number} index 0 = the oldest series
 * @property {Partial<Record<HostFactField, string>>} facts as shown (the run settings only when asked for)
 * @property {string[]} runIds in time order
 * @property {string} firstAt startedAt of its first run
 * @property {string} lastAt startedAt of its last run
 * @property {{at: string, runId: string, fields: HostFactChange[], label: string}|null} change
 *   what started it (null for the first series), e.g. label "kernel 6.1 → 6.18 on 2026-11-20"
 */

/**
 * @typedef {object} HostDriftRun one run of one test in the report
 * @property {string} runId
 * @property {string} startedAt
 * @property {number} segment index of its host series
 * @property {number[]} values its valid repeats' throughput
 * @property {number} median median of values
 */

/**
 * @typedef {object} HostDrift an event of a test's reference series within one host series
 * @property {string} test
 * @property {string} group
 * @property {number} segment
 * @property {'dip'|'step'|'drift'} kind a dip recovers; a step stays; a drift moves over several runs
 * @property {string} runId the first run that moved
 * @property {string} startedAt its start
 * @property {string} previousRunId the run before it
 * @property {string} untilRunId last run of a drift; the run that recovered from a dip; runId for a step
 * @property {number} change relative change (-0.2 = 20 % lower)
 * @property {number} levelBefore fitted throughput before it
 * @property {number} levelAfter fitted throughput after it (for a dip: at the dip)
 * @property {number} pValue the rule's p-value within its window
 * @property {number} warn the test's warn threshold the change reached
 * @property {number} earlierRuns runs of the same host series before it
 */

/**
 * @typedef {object} HostDriftReport
 * @property {string} hostClass
 * @property {string} suite
 * @property {{product: string, version: string}} reference
 * @property {{name: 'release-series', version: string, alpha: number, windowRuns: number}} method
 *   alpha: chance of a false event per test and host series
 * @property {HostSegment[]} segments
 * @property {{test: string, group: string, metric: string, warn: number, runs: HostDriftRun[]}[]} tests suite order
 * @property {HostDrift[]} drifts in time order
 * @property {{fromRunId: string, toRunId: string, runs: number, moves: {test: string, change: number, warn: number}[]}|null} lastPair
 *   the latest host series' last two runs and the tests whose median moved between them by more
 *   than their warn threshold, largest first: what a series too short for the drift rule (fewer
 *   than 3 runs) can still show; null when the latest series has one run
 */

/**
 * @param {RunRecord} record
 * @param {HostFactField} field
 * @returns {string}
 */
function showFact(record, field) {
  if (field === 'mycnf') return `${record.config.mycnf.name} ${record.config.mycnf.sha256.slice(0, 12)}`;
  if (field === 'scale') {
    const c = record.config.scale;
    return `${c.tables}x${c.tableSize} rows, ${c.clients} clients, R ${c.readDurationS} s, W ${c.writeDurationS} s`;
  }
  if (field === 'engine') return record.config.engine;
  const host = record.host;
  const v = host[field];
  if (field === 'pinning') {
    const p = host.pinning;
    return `server ${p.serverCpus ?? 'unpinned'}, client ${p.clientCpus ?? 'unpinned'}`;
  }
  if (field === 'memoryBytes') return `${(Number(v) / 2 ** 30).toFixed(1)} GiB`;
  if (field === 'turbo') return v === null ? 'unknown' : v ? 'on' : 'off';
  if (v === null || v === undefined) return 'unknown';
  return String(v);
}

/** @type {Record<HostFactField, string>} */
const FACT_WORDS = { cpuModel: 'CPU', cores: 'cores', kernel: 'kernel', memoryBytes: 'memory', governor: 'governor', turbo: 'turbo', pinning: 'pinning', mycnf: 'my.cnf', scale: 'scale', engine: 'engine' };

/**
 * Records in time order (startedAt, then id, so equal times still give one order).
 * @param {RunRecord[]} records
 */
function byTime(records) {
  return [...records].sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Split runs into host series: a new series starts at every run whose host facts differ from
 * the run before it (a return to earlier facts is a new series too: it is a boundary in time).
 * @param {RunRecord[]} records any runs of one host class (any releases)
 * @param {{settings?: boolean}} [options] settings: the run's my.cnf, scale and engine start a
 *   new series too (for one release's runs: the reference)
 * @returns {HostSegment[]} oldest first
 */
export function splitHostSegments(records, options = {}) {
  /** @type {HostFactField[]} */
  const watched = [...HOST_FACT_FIELDS, ...(options.settings ? RUN_SETTING_FIELDS : [])];
  /** @type {HostSegment[]} */
  const segments = [];
  for (const r of byTime(records)) {
    const facts = /** @type {Record<HostFactField, string>} */ (Object.fromEntries(watched.map((f) => [f, showFact(r, f)])));
    const last = segments.at(-1);
    const fields = last ? watched.filter((f) => last.facts[f] !== facts[f]).map((f) => ({ field: f, from: last.facts[f] ?? 'unknown', to: facts[f] })) : [];
    if (last && fields.length === 0) {
      last.runIds.push(r.id);
      last.lastAt = r.startedAt;
      continue;
    }
    segments.push({
      index: segments.length, facts, runIds: [r.id], firstAt: r.startedAt, lastAt: r.startedAt,
      change: last ? { at: r.startedAt, runId: r.id, fields, label: describeChange(fields, r.startedAt) } : null,
    });
  }
  return segments;
}

/**
 * @param {HostFactChange[]} fields
 * @param {string} at ISO 8601
 * @returns {string} e.g. "kernel 6.1 → 6.18 on 2026-11-20"
 */
function describeChange(fields, at) {
  return `${fields.map((c) => `${FACT_WORDS[c.field]} ${c.from} → ${c.to}`).join(', ')} on ${at.slice(0, 10)}`;
}

/**
 * Windows of at most `size` consecutive points covering 0..n-1, half overlapping, the last
 * ending at the newest point.
 * @param {number} n
 * @param {number} size
 * @returns {[number, number][]} [start, end) pairs
 */
export function windowsOf(n, size) {
  if (n <= size) return [[0, n]];
  const stride = Math.max(1, Math.floor(size / 2));
  /** @type {[number, number][]} */
  const out = [];
  for (let start = 0; start + size < n; start += stride) out.push([start, start + size]);
  out.push([n - size, n]);
  return out;
}

/**
 * Find drifts of a host class's reference release.
 * @param {{records: RunRecord[], thresholds: import('./types.js').CompareThresholds, alpha?: number, simulations?: number}} input
 *   records: every run of the reference release on one host class with one suite; alpha: chance
 *   of a false event per test and host series (default the release-series rule's); simulations:
 *   of the rule's critical value (default the rule's)
 * @returns {HostDriftReport}
 * @throws {UserError} when there is no record, or they mix host classes, suites, products or versions
 */
export function findHostDrift(input) {
  const { records, thresholds } = input;
  const alpha = input.alpha ?? RELEASE_SERIES_DEFAULTS.alpha;
  if (records.length === 0) throw new UserError('host drift: no run record of the reference release; the benchmark workflow must rerun it every cycle (configs/hosts/<class>.yml `reference`)');
  const first = records[0];
  for (const r of records) {
    for (const [what, a, b] of /** @type {const} */ ([['host class', r.host.class, first.host.class], ['suite', r.config.suite, first.config.suite],
      ['product', r.release.product, first.release.product], ['version', r.release.version, first.release.version]])) {
      if (a !== b) throw new UserError(`host drift: run record ${r.id} has ${what} '${a}' but ${first.id} has '${b}': give the runs of one reference release on one host class and suite`);
    }
  }
  const ordered = byTime(records);
  const segments = splitHostSegments(ordered, { settings: true });
  /** @type {Map<string, number>} */
  const segmentOf = new Map(segments.flatMap((s) => s.runIds.map((id) => /** @type {[string, number]} */ ([id, s.index]))));

  /** @type {HostDrift[]} */
  const drifts = [];
  const tests = listTests(ordered, []).map(({ name, group }) => {
    const warn = /** @type {import('./types.js').LevelThreshold} */ (findThreshold(thresholds, name, group, 'throughput')).warn;
    /** @type {(HostDriftRun & {instances: (string|null)[]})[]} */
    const runs = [];
    let metric = 'qps';
    for (const r of ordered) {
      const side = collectSide([r], name);
      const valid = side.repeats.filter((rep) => typeof rep.throughput === 'number' && rep.throughput > 0);
      metric = r.steps.find((st) => st.name === name)?.metric ?? metric;
      if (valid.length === 0) continue; // failed or missing in that run: not a point of the series
      const values = valid.map((rep) => /** @type {number} */ (rep.throughput));
      runs.push({ runId: r.id, startedAt: r.startedAt, segment: /** @type {number} */ (segmentOf.get(r.id)), values, median: median(values),
        instances: valid.map((rep) => (rep.instance === undefined || rep.instance === null ? null : String(rep.instance))) });
    }
    for (const s of segments) {
      const series = runs.filter((r) => r.segment === s.index);
      const windows = windowsOf(series.length, MAX_SHORT_SERIES);
      /** @type {Map<string, HostDrift>} */
      const found = new Map();
      for (const [from, to] of windows) {
        const points = series.slice(from, to);
        const { events } = findReleaseSeriesEvents(points.map((p) => ({ version: p.runId, values: p.values, instances: p.instances })), {
          alpha: alpha / windows.length, minChange: warn, ...(input.simulations ? { simulations: input.simulations } : {}),
        });
        for (const e of events) {
          const at = points[e.releaseIndex];
          const drift = {
            test: name, group, segment: s.index, kind: e.kind, runId: at.runId, startedAt: at.startedAt,
            previousRunId: points[e.previousIndex].runId, untilRunId: (points[e.untilIndex] ?? at).runId,
            change: e.change, levelBefore: e.levelBefore, levelAfter: e.levelAfter, pValue: e.pValue, warn,
            earlierRuns: from + e.releaseIndex,
          };
          // overlapping windows can find one event twice: keep its strongest evidence
          const key = `${drift.kind}|${drift.runId}`;
          const seen = found.get(key);
          if (!seen || seen.pValue > drift.pValue) found.set(key, drift);
        }
      }
      drifts.push(...found.values());
    }
    return { test: name, group, metric, warn, runs: runs.map(({ instances, ...run }) => run) };
  });
  drifts.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.test < b.test ? -1 : 1));
  const lastPair = findLastPairMoves(segments, tests);
  return {
    hostClass: first.host.class, suite: first.config.suite,
    reference: { product: first.release.product, version: first.release.version },
    method: { name: 'release-series', version: RELEASE_SERIES_VERSION, alpha, windowRuns: MAX_SHORT_SERIES },
    segments, tests, drifts, lastPair,
  };
}

/**
 * The latest host series' last two runs, test by test: the reference moving between two runs
 * minutes apart (the demo: l.i1 -32 %, range-covered-si +38 %) is what a short series can say.
 * @param {HostDriftReport['segments']} segments the host series, oldest first
 * @param {HostDriftReport['tests']} tests each test's runs and warn threshold
 * @returns {HostDriftReport['lastPair']} the tests that moved beyond their warn threshold, largest
 *   move first; null when the latest series has fewer than two runs
 */
function findLastPairMoves(segments, tests) {
  const latest = segments.at(-1);
  const pairIds = latest ? latest.runIds.slice(-2) : [];
  if (!latest || pairIds.length !== 2) return null;
  const moves = [];
  for (const t of tests) {
    const from = t.runs.find((r) => r.runId === pairIds[0]);
    const to = t.runs.find((r) => r.runId === pairIds[1]);
    if (!from || !to || !(from.median > 0)) continue;
    const change = to.median / from.median - 1;
    if (Math.abs(Math.log1p(change)) > Math.abs(Math.log1p(-t.warn))) moves.push({ test: t.test, change, warn: t.warn });
  }
  moves.sort((a, b) => Math.abs(Math.log1p(b.change)) - Math.abs(Math.log1p(a.change)));
  return { fromRunId: pairIds[0], toRunId: pairIds[1], runs: latest.runIds.length, moves };
}

/** Runs of a host series the drift rule needs before it can judge it (release-series.js: 3). */
const MIN_DRIFT_RUNS = 3;

/**
 * The words for the state of the host, decided once for every place that shows it (compare's
 * host check in the terminal and Markdown reports, the site's host page): a drift, a move of the
 * reference between its last two runs, too few runs to judge, or steady, in that order, so no
 * place calls a host steady that another says moved. Pure.
 * @param {Pick<HostDriftReport, 'segments'|'drifts'|'lastPair'|'method'>} report
 * @returns {{state: 'drift'|'moved'|'not-judged'|'steady', lines: string[]}} one sentence a line,
 *   most serious first
 */
export function describeHostDrift(report) {
  const lines = [];
  const latestRuns = report.segments.at(-1)?.runIds.length ?? 0;
  const pair = report.lastPair;
  const moved = pair !== null && pair !== undefined && pair.moves.length > 0;
  if (report.drifts.length > 0) {
    lines.push(`${report.drifts.length} drift${report.drifts.length === 1 ? '' : 's'} of the reference: the HOST changed, not the releases; verdicts measured on this host since then may carry it.`);
  }
  if (moved) {
    const shown = pair.moves.slice(0, 8).map((m) => `${m.test} ${formatPercent(m.change, { signed: true })}`).join(', ');
    lines.push(`REFERENCE MOVED between its last two runs (${pair.fromRunId} -> ${pair.toRunId}), beyond the warn threshold in ${pair.moves.length} test${pair.moves.length === 1 ? '' : 's'}: ${shown}${pair.moves.length > 8 ? ', …' : ''}.` +
      ' The same binary on the same host: this is the host (or the run\'s state), and verdicts of this run may carry it' +
      (pair.runs < MIN_DRIFT_RUNS ? '; one pair of runs is a lead, not a drift: more runs of the reference tell.' : '.'));
  }
  if (report.drifts.length === 0 && latestRuns < MIN_DRIFT_RUNS) {
    lines.push(`Not judged: the latest host series has ${latestRuns} run${latestRuns === 1 ? '' : 's'} of the reference, and the drift rule needs ${MIN_DRIFT_RUNS}: this says nothing about the host's steadiness yet.`);
  } else if (report.drifts.length === 0 && !moved) {
    lines.push(`No drift: no test of the reference moved by its warn threshold (release-series rule, at most ${formatPercent(report.method.alpha)} false events per test and host series); the host looks steady.`);
  }
  const state = report.drifts.length > 0 ? 'drift' : moved ? 'moved' : latestRuns < MIN_DRIFT_RUNS ? 'not-judged' : 'steady';
  return { state, lines };
}

/**
 * The report as text, for `tagbench compare` to print as a note: a drift is the host's, so it
 * never reads as a release's verdict.
 * @param {HostDriftReport} report
 * @returns {string} lines ending in a newline
 */
export function renderHostDrift(report) {
  const { reference: ref } = report;
  const runs = new Set(report.tests.flatMap((t) => t.runs.map((r) => r.runId))).size;
  const lines = [`Host check (not a verdict on any release): reference ${ref.product} ${ref.version} on ${report.hostClass}, suite ${report.suite}: ${runs} runs in ${report.segments.length} host series.`];
  for (const s of report.segments) {
    if (s.change) lines.push(`  new host series ${s.index + 1}: ${s.change.label} (from run ${s.change.runId}); earlier runs are not compared across it`);
  }
  // Only the state's words here: the drifts' own lines follow, one per drift.
  lines.push(...describeHostDrift(report).lines.filter((l) => !/^\d+ drifts? of the reference/.test(l)).map((l) => `  ${l}`));
  for (const d of report.drifts) {
    lines.push(`  HOST DRIFT: ${d.test} ${d.kind} ${formatPercent(d.change, { signed: true })} from ${d.startedAt.slice(0, 10)} (run ${d.runId}, after ${d.earlierRuns} run${d.earlierRuns === 1 ? '' : 's'} of host series ${d.segment + 1}):` +
      ` ${formatValue(d.levelBefore)} -> ${formatValue(d.levelAfter)}, warn ${formatPercent(d.warn)}, p ${formatValue(d.pValue)}`);
  }
  if (report.drifts.length > 0) lines.push('  The host changed, not the releases: verdicts on this host class since the drift may carry it; check the host (tagbench doctor) before blaming a release.');
  return `${lines.join('\n')}\n`;
}
