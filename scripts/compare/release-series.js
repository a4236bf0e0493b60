/**
 * Events in a short release series (3–10 releases, a few repeats each): a one-release dip that
 * recovers, a step that stays, and a slow drift over several releases, each placed between two
 * releases, never inside one. Method and measured rates: docs/method.md, "Change points across
 * releases"; bench/release-series.js measures them.
 *
 * One value per release: the median of ln(value) over its units (its repeats, or the medians of
 * its server instances when the repeats carry `instance` labels from two or more instances, since
 * repeats of one instance share that instance's offset). Every candidate event is a
 * release-aligned regressor x (0 before, 1 after; a dip is 1 at one release only; a drift rises
 * linearly from 0 to 1 over two or more release intervals), fitted as ln(value) = a + b·x by
 * weighted least squares (weight 1 / variance factor of a median of that many units). Noise: the
 * within-release variance of the units (with one value per release, the fit's residual variance);
 * when the units are repeats of one instance, an overdispersion check afterwards scales it up by
 * how much more the releases scatter around the fitted events. The scan takes the largest |z| =
 * |b| / se(b) over every candidate; its critical value is the (1 - alpha) quantile of the same
 * maximum over simulated no-event series of the same shape (same releases, same units each, normal
 * noise), so the chance of flagging anything in a series without an event is alpha, whatever the
 * number of candidates. An event is reported when it passes the scan and its size reaches the
 * test's `warn` threshold; the next event is scanned with the ones found kept in the model.
 *
 * Pure: no file system, clock or environment; the simulation uses a fixed seed.
 */
import { seededUniform } from '../seeded-random.js';

/**
 * A drift has two positions (start and end) where a step or a dip has one: like AIC, it must
 * explain 2 more units of z² (twice the log-likelihood) to be chosen over them.
 */
export const DRIFT_PENALTY = 2;

/** Version of the rule, stored with its results: raise it when what it flags changes. */
export const RELEASE_SERIES_VERSION = '1';

/** Largest series this rule is made for; longer series go to apache-otava. */
export const MAX_SHORT_SERIES = 10;

/** @type {{alpha: number, maxEvents: number, simulations: number, seed: number, overdispersion: boolean}} */
export const RELEASE_SERIES_DEFAULTS = Object.freeze({ alpha: 0.01, maxEvents: 3, simulations: 10000, seed: 20261122, overdispersion: true });

/**
 * @typedef {object} ReleaseSample one release of one test's series
 * @property {string} version
 * @property {number[]} values valid repeats, in the metric's unit (positive)
 * @property {(string|null)[]} [instances] server instance of each repeat (same length), when known
 */

/**
 * @typedef {object} ReleaseSeriesEvent
 * @property {'dip'|'step'|'drift'} kind
 * @property {number} releaseIndex the first release that moved (index into the releases given)
 * @property {number} previousIndex the release before it
 * @property {number} untilIndex last release of a drift; the release that recovered from a dip;
 *   releaseIndex for a step
 * @property {number} change relative change of the event (-0.1 = 10 % lower)
 * @property {number} levelBefore fitted level before the event, in the metric's unit
 * @property {number} levelAfter fitted level after it (for a dip: at the dip)
 * @property {number} z b / se(b)
 * @property {number} critical the scan's critical |z|
 * @property {number} pValue share of simulated no-event series whose largest |z| reaches |z|
 * @property {number} noise per-unit noise (sd of ln values, ≈ CV)
 * @property {number} noiseDf its degrees of freedom
 * @property {'repeats'|'instances'|'releases'} noiseFrom what the noise is the spread of:
 *   `repeats` within a release, `instances` (their medians) within a release, or, when no
 *   release has two units (one value per release), `releases`: the residual scatter of the
 *   releases' values around the fitted events, with k - 1 - events df
 * @property {number} noiseScale overdispersion factor on the variance of repeats of one instance
 *   (the releases scatter around the fitted events this much more than their repeats); 1 = none
 * @property {number} candidates how many release-aligned shapes were scanned
 */

/**
 * @typedef {object} ReleaseSeriesOptions
 * @property {number} [alpha] chance of a false event per test series (family-wise over the scan)
 * @property {number} [maxEvents] most events reported per series
 * @property {number} [simulations] no-event series simulated for the critical value
 * @property {number} [seed]
 * @property {boolean} [overdispersion] false: trust the repeats' spread even when they all come
 *   from one server instance per release (for measuring what the check costs and buys)
 * @property {number} minChange smallest relative change reported (the test's warn threshold)
 */

/**
 * Variance of the median of m standard normal draws (m = 1..10; beyond, the asymptotic π / 2m).
 * Only the weights depend on it; the critical value is simulated with the same estimator.
 */
const MEDIAN_VARIANCE = [1, 1, 0.5, 0.4487, 0.2982, 0.2868, 0.2147, 0.2104, 0.1682, 0.1661, 0.1383];

/** @param {number} m */
const medianVarianceFactor = (m) => (m < MEDIAN_VARIANCE.length ? MEDIAN_VARIANCE[m] : Math.PI / (2 * m));

/**
 * @param {number[]} xs non-empty
 * @returns {number}
 */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The units of one release, in ln: per-instance medians when two or more instances are labelled,
 * else the repeats.
 * @param {ReleaseSample} release
 * @returns {{units: number[], byInstance: boolean}}
 */
export function releaseUnits(release) {
  const logs = release.values.map((v) => Math.log(v));
  const labels = release.instances;
  if (!labels || labels.length !== logs.length || labels.some((l) => l === null || l === undefined)) return { units: logs, byInstance: false };
  /** @type {Map<string, number[]>} */
  const groups = new Map();
  labels.forEach((label, i) => groups.set(/** @type {string} */ (label), [...(groups.get(/** @type {string} */ (label)) ?? []), logs[i]]));
  return groups.size >= 2 ? { units: [...groups.values()].map(median), byInstance: true } : { units: logs, byInstance: false };
}

/**
 * Release-aligned candidate regressors for k releases.
 * @param {number} k
 * @returns {{kind: 'dip'|'step'|'drift', from: number, to: number, x: number[]}[]} from = last
 *   release before the event, to = its last moving release (step: from + 1; dip: the dip release)
 */
export function listCandidates(k) {
  /** @type {{kind: 'dip'|'step'|'drift', from: number, to: number, x: number[]}[]} */
  const out = [];
  for (let at = 1; at < k; at++) out.push({ kind: 'step', from: at - 1, to: at, x: Array.from({ length: k }, (_, i) => (i >= at ? 1 : 0)) });
  // a change at the last release cannot have recovered yet: that is a step
  for (let at = 1; at < k - 1; at++) out.push({ kind: 'dip', from: at - 1, to: at, x: Array.from({ length: k }, (_, i) => (i === at ? 1 : 0)) });
  for (let from = 0; from < k; from++) {
    for (let to = from + 2; to < k; to++) out.push({ kind: 'drift', from, to, x: Array.from({ length: k }, (_, i) => Math.min(1, Math.max(0, (i - from) / (to - from)))) });
  }
  return out;
}

/**
 * Weighted least squares of y on [1, ...columns]; coefficient, se factor and weighted RSS of the
 * last column. Null when the columns are (nearly) collinear.
 * @param {number[]} y
 * @param {number[]} w
 * @param {number[][]} columns regressors after the intercept
 * @returns {{coefs: number[], varFactors: number[], lastVarFactor: number, rss: number}|null}
 *   varFactors: diagonal of (X'WX)⁻¹ (variance of each coefficient per unit of noise variance)
 */
function fitWeighted(y, w, columns) {
  const k = y.length;
  const p = columns.length + 1;
  /** @param {number} i @param {number} j */
  const col = (i, j) => (j === 0 ? 1 : columns[j - 1][i]);
  /** @type {number[][]} augmented [X'WX | I | X'Wy] */
  const a = [];
  for (let r = 0; r < p; r++) {
    const row = new Array(2 * p + 1).fill(0);
    for (let c = 0; c < p; c++) for (let i = 0; i < k; i++) row[c] += w[i] * col(i, r) * col(i, c);
    row[p + r] = 1;
    for (let i = 0; i < k; i++) row[2 * p] += w[i] * col(i, r) * y[i];
    a.push(row);
  }
  const scale = a.reduce((m, row, i) => Math.max(m, Math.abs(row[i])), 0);
  for (let c = 0; c < p; c++) {
    let pivot = c;
    for (let r = c + 1; r < p; r++) if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) pivot = r;
    if (Math.abs(a[pivot][c]) < 1e-9 * scale) return null;
    [a[c], a[pivot]] = [a[pivot], a[c]];
    const d = a[c][c];
    for (let j = 0; j <= 2 * p; j++) a[c][j] /= d;
    for (let r = 0; r < p; r++) {
      if (r === c || a[r][c] === 0) continue;
      const f = a[r][c];
      for (let j = 0; j <= 2 * p; j++) a[r][j] -= f * a[c][j];
    }
  }
  const coefs = a.map((row) => row[2 * p]);
  let rss = 0;
  for (let i = 0; i < k; i++) {
    let fit = 0;
    for (let j = 0; j < p; j++) fit += coefs[j] * col(i, j);
    rss += w[i] * (y[i] - fit) ** 2;
  }
  const varFactors = a.map((row, j) => row[p + j]);
  return { coefs, varFactors, lastVarFactor: varFactors[p - 1], rss };
}

/**
 * @typedef {object} SeriesShape what the statistic sees of one series
 * @property {number[]} y ln of each release's value
 * @property {number[]} w weight of each release (1 / variance factor of its median)
 * @property {number} withinSs pooled within-release sum of squares of the units
 * @property {number} withinDf its degrees of freedom
 * @property {boolean} pooled true: the units are repeats of one server instance, which cannot
 *   show that instance's own offset, so the events found are checked against the scatter of the
 *   releases around the fitted model (overdispersion); false: the units are instance medians,
 *   whose spread already holds it
 */

/**
 * Best next candidate given the events already in the model.
 * @param {SeriesShape} s
 * @param {ReturnType<typeof listCandidates>} candidates
 * @param {number[][]} kept regressors already in the model
 * @returns {{index: number, z: number, b: number, a: number, noise: number, df: number, maxAbsZ: number}|null} maxAbsZ
 *   decides whether there is an event; the chosen candidate (largest z² less its shape penalty)
 *   says which
 */
function scanOnce(s, candidates, kept) {
  /** @type {{maxAbsZ: number, chosen?: {index: number, z: number, b: number, a: number, noise: number, df: number, score: number}}|null} */
  let best = null;
  // one value per release: the fit's residuals are the only noise there is
  const residualDf = s.withinDf < 1 ? s.y.length - kept.length - 2 : 0;
  const df = s.withinDf + Math.max(0, residualDf);
  if (df < 1) return null;
  for (let c = 0; c < candidates.length; c++) {
    const fit = fitWeighted(s.y, s.w, [...kept, candidates[c].x]);
    if (!fit) continue;
    const variance = Math.max((s.withinSs + (residualDf > 0 ? fit.rss : 0)) / df, 1e-12);
    const b = fit.coefs.at(-1) ?? 0;
    const z = b / Math.sqrt(variance * fit.lastVarFactor);
    if (!best || Math.abs(z) > best.maxAbsZ) best = { ...(best ?? {}), maxAbsZ: Math.abs(z) };
    const score = z * z - (candidates[c].kind === 'drift' ? DRIFT_PENALTY : 0);
    if (!best.chosen || score > best.chosen.score) best.chosen = { index: c, z, b, a: fit.coefs[0], noise: Math.sqrt(variance), df, score };
  }
  return best?.chosen ? { ...best.chosen, maxAbsZ: best.maxAbsZ } : null;
}

/**
 * @param {number[][]} unitsPerRelease ln units of each release
 * @param {boolean} pooled see SeriesShape
 * @returns {SeriesShape}
 */
function describeShape(unitsPerRelease, pooled) {
  let withinSs = 0;
  let withinDf = 0;
  for (const u of unitsPerRelease) {
    if (u.length < 2) continue;
    const mean = u.reduce((x, v) => x + v, 0) / u.length;
    withinSs += u.reduce((x, v) => x + (v - mean) ** 2, 0);
    withinDf += u.length - 1;
  }
  return { y: unitsPerRelease.map(median), w: unitsPerRelease.map((u) => 1 / medianVarianceFactor(u.length)), withinSs, withinDf, pooled };
}

/**
 * @param {number} seed
 * @returns {() => number} standard normal draws (mulberry32 + Box–Muller; reproducible)
 */
export function seededNormal(seed) {
  const uniform = seededUniform(seed);
  /** @type {number|null} */
  let spare = null;
  return () => {
    if (spare !== null) {
      const v = spare;
      spare = null;
      return v;
    }
    const r = Math.sqrt(-2 * Math.log(1 - uniform()));
    const theta = 2 * Math.PI * uniform();
    spare = r * Math.sin(theta);
    return r * Math.cos(theta);
  };
}

/** Sorted null maxima per series shape: the simulation is the same for every test of a run. */
const nullMaxima = new Map();

/**
 * Largest |z| of the first scan over simulated no-event series with these units per release.
 * @param {number[]} unitCounts
 * @param {boolean} pooled
 * @param {number} simulations
 * @param {number} seed
 * @returns {Float64Array} sorted ascending
 */
function simulateNullMaxima(unitCounts, pooled, simulations, seed) {
  const key = `${unitCounts.join(',')}|${pooled}|${simulations}|${seed}`;
  const cached = nullMaxima.get(key);
  if (cached) return cached;
  const normal = seededNormal(seed);
  const candidates = listCandidates(unitCounts.length);
  const out = new Float64Array(simulations);
  for (let s = 0; s < simulations; s++) {
    const units = unitCounts.map((m) => Array.from({ length: m }, normal));
    out[s] = scanOnce(describeShape(units, pooled), candidates, [])?.maxAbsZ ?? 0;
  }
  out.sort();
  if (nullMaxima.size > 64) nullMaxima.clear();
  nullMaxima.set(key, out);
  return out;
}

/**
 * Dips, steps and drifts of one test's release series.
 * @param {ReleaseSample[]} releases in series order; releases without a valid value are left out
 *   by the caller
 * @param {ReleaseSeriesOptions} options
 * @returns {{events: ReleaseSeriesEvent[], candidates: number, critical: number|null, noise: number|null, noiseDf: number}}
 *   critical / noise are null when the series is too short to judge (fewer than 3 releases, or
 *   no degree of freedom left for the noise)
 */
export function findReleaseSeriesEvents(releases, options) {
  const o = { ...RELEASE_SERIES_DEFAULTS, ...options };
  if (!(o.alpha > 0 && o.alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${o.alpha}`);
  for (const r of releases) {
    const bad = r.values.find((v) => !(v > 0 && Number.isFinite(v)));
    if (bad !== undefined || r.values.length === 0) throw new RangeError(`release ${r.version}: values must be positive numbers, got [${r.values.join(', ')}]`);
  }
  const k = releases.length;
  const candidates = listCandidates(k);
  if (k < 3) return { events: [], candidates: candidates.length, critical: null, noise: null, noiseDf: 0 };
  const perRelease = releases.map(releaseUnits);
  const units = perRelease.map((r) => r.units);
  // instance medians carry the instance offsets that repeats of one instance cannot show
  const shape = describeShape(units, !perRelease.every((r) => r.byInstance));
  const maxima = simulateNullMaxima(units.map((u) => u.length), shape.pooled, o.simulations, o.seed);
  const critical = maxima[Math.min(maxima.length - 1, Math.ceil((1 - o.alpha) * maxima.length) - 1)];
  /** @type {number[]} candidates found, in the order found */
  const kept = [];
  const first = scanOnce(shape, candidates, []);
  let noise = first?.noise ?? null;
  let noiseDf = first?.df ?? 0;
  while (kept.length < o.maxEvents) {
    const best = kept.length === 0 ? first : scanOnce(shape, candidates, kept.map((c) => candidates[c].x));
    if (!best || best.maxAbsZ < critical || Math.abs(Math.expm1(best.b)) < o.minChange) break;
    kept.push(best.index);
  }
  // Repeats of one server instance cannot show that instance's offset, yet every release runs on
  // its own instance: when the releases scatter around the fitted events more than their repeats
  // do, the noise is scaled up by that ratio (overdispersion, as in quasi-likelihood models) and
  // events that no longer pass are dropped, weakest first. It only ever removes events, so the
  // false-event chance stays at most alpha.
  let scale = 1;
  /** @type {ReturnType<typeof fitWeighted>} */
  let model = null;
  for (;;) {
    model = kept.length > 0 ? fitWeighted(shape.y, shape.w, kept.map((c) => candidates[c].x)) : null;
    if (!model || shape.withinDf < 1) break;
    const residualDf = k - 1 - kept.length;
    const withinVariance = shape.withinSs / shape.withinDf;
    scale = o.overdispersion && shape.pooled && residualDf > 0 ? Math.max(1, model.rss / residualDf / Math.max(withinVariance, 1e-12)) : 1;
    const fitted = /** @type {NonNullable<typeof model>} */ (model);
    const zs = kept.map((_, j) => Math.abs(fitted.coefs[j + 1]) / Math.sqrt(Math.max(withinVariance, 1e-12) * scale * fitted.varFactors[j + 1]));
    const weakest = zs.indexOf(Math.min(...zs));
    if (zs[weakest] >= critical) {
      if (scale > 1) {
        noise = Math.sqrt(withinVariance * scale);
        noiseDf = shape.withinDf;
      }
      break;
    }
    kept.splice(weakest, 1);
  }
  const events = model ? describeEvents(model, kept.map((c) => candidates[c]), { shape, scale, critical, maxima, candidates: candidates.length }) : [];
  events.sort((x, y) => x.releaseIndex - y.releaseIndex);
  return { events, candidates: candidates.length, critical, noise, noiseDf };
}

/**
 * The events a fitted model keeps, each with its size, levels, z, p-value and the noise it was
 * judged against.
 * @param {NonNullable<ReturnType<typeof fitWeighted>>} fitted the model with every kept event
 * @param {ReturnType<typeof listCandidates>} kept the kept candidates, in the model's order
 * @param {{shape: ReturnType<typeof describeShape>, scale: number, critical: number, maxima: Float64Array, candidates: number}} scan
 *   the series' shape, the noise's overdispersion scale, the critical |z|, the simulated null
 *   maxima and how many candidates were scanned
 * @returns {ReleaseSeriesEvent[]}
 */
function describeEvents(fitted, kept, { shape, scale, critical, maxima, candidates }) {
  const k = shape.y.length;
  const withinVariance = shape.withinDf >= 1 ? shape.withinSs / shape.withinDf : null;
  const residualVariance = fitted.rss / Math.max(1, k - 1 - kept.length);
  return kept.map((cand, j) => {
    const b = fitted.coefs[j + 1];
    const variance = withinVariance === null ? residualVariance : withinVariance * scale;
    const z = b / Math.sqrt(Math.max(variance, 1e-12) * fitted.varFactors[j + 1]);
    // the level just before the event, from the model with every event found
    const before = kept.reduce((sum, other, i) => sum + fitted.coefs[i + 1] * other.x[cand.from], fitted.coefs[0]);
    let exceeding = 0;
    for (let i = maxima.length - 1; i >= 0 && maxima[i] >= Math.abs(z); i--) exceeding++;
    return {
      kind: cand.kind, releaseIndex: cand.from + 1, previousIndex: cand.from, untilIndex: cand.kind === 'dip' ? cand.to + 1 : cand.to,
      change: Math.expm1(b), levelBefore: Math.exp(before), levelAfter: Math.exp(before + b),
      z, critical, pValue: (1 + exceeding) / (maxima.length + 1),
      noise: Math.sqrt(variance),
      noiseDf: withinVariance === null ? k - 1 - kept.length : shape.withinDf,
      noiseFrom: withinVariance === null ? 'releases' : shape.pooled ? 'repeats' : 'instances',
      noiseScale: withinVariance === null ? 1 : scale,
      candidates,
    };
  });
}
