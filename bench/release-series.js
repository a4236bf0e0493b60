#!/usr/bin/env node
/**
 * How well the release-series rule (scripts/compare/release-series.js) finds what release series
 * look like: Monte Carlo over seeded series of 6 releases × 3 repeats with lognormal noise of 2 %
 * and 5 % per repeat, one shape each (no event, a one-release dip that recovers, a step that
 * stays, a drift over four releases), built as run records and fed through detectChangePoints,
 * the path `tagbench compare` uses. Prints, per shape and noise, how often anything is flagged,
 * how often the event is flagged with the right kind at the right release, with 95 % Wilson
 * intervals, and the same for apache-otava with the shipped settings over every repeat (when a
 * python3 with otava is given or found), for contrast. Markdown on stdout; asserts nothing.
 *
 * Usage: node bench/release-series.js [--series 1000] [--seed 1] [--alpha 0.05] [--python PATH|none]
 */
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { detectChangePoints } from '../scripts/compare/index.js';
import { seededNormal, RELEASE_SERIES_DEFAULTS, DRIFT_PENALTY } from '../scripts/compare/release-series.js';
import { CHANGE_POINT_DEFAULTS, placeAtReleaseBoundaries } from '../scripts/compare/run-change-points.js';
import { makeRecord } from '../test/compare/make-record.js';

const { values: args } = parseArgs({
  options: {
    series: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    python: { type: 'string' },
    alpha: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (args.help) {
  process.stdout.write('Usage: node bench/release-series.js [--series 1000] [--seed 1] [--alpha 0.05] [--python PATH|none]\n');
  process.exit(0);
}
const seriesPerCell = Number(args.series);
const alpha = args.alpha === undefined ? RELEASE_SERIES_DEFAULTS.alpha : Number(args.alpha);
const python = args.python ?? (existsSync('/opt/tagbench-otava/bin/python3') ? '/opt/tagbench-otava/bin/python3' : 'none');

const VERSIONS = ['8.0.36', '8.0.37', '8.0.38', '8.0.39', '8.0.40', '8.0.41'];
const REPEATS = 3;
const DRIFT_STEP = Math.log(0.8) / 4;

/**
 * Shapes: level of each release (× the first) and what counts as found at the right release.
 * @type {{name: string, levels: number[], expect: {kind: 'dip'|'step'|'drift', version: string, untilVersion: string}|null}[]}
 */
const SHAPES = [
  { name: 'no event (A/A)', levels: [1, 1, 1, 1, 1, 1], expect: null },
  { name: 'dip −10 % at release 3, recovers', levels: [1, 1, 0.9, 1, 1, 1], expect: { kind: 'dip', version: VERSIONS[2], untilVersion: VERSIONS[3] } },
  { name: 'dip −20 % at release 3, recovers', levels: [1, 1, 0.8, 1, 1, 1], expect: { kind: 'dip', version: VERSIONS[2], untilVersion: VERSIONS[3] } },
  { name: 'dip −30 % at release 3, recovers', levels: [1, 1, 0.7, 1, 1, 1], expect: { kind: 'dip', version: VERSIONS[2], untilVersion: VERSIONS[3] } },
  { name: 'step −5 % at release 4', levels: [1, 1, 1, 0.95, 0.95, 0.95], expect: { kind: 'step', version: VERSIONS[3], untilVersion: VERSIONS[3] } },
  { name: 'step −10 % at release 4', levels: [1, 1, 1, 0.9, 0.9, 0.9], expect: { kind: 'step', version: VERSIONS[3], untilVersion: VERSIONS[3] } },
  { name: 'step −20 % at release 4', levels: [1, 1, 1, 0.8, 0.8, 0.8], expect: { kind: 'step', version: VERSIONS[3], untilVersion: VERSIONS[3] } },
  { name: 'drift −20 % over releases 2–6', levels: [0, 0, 1, 2, 3, 4].map((i) => Math.exp(DRIFT_STEP * i)), expect: { kind: 'drift', version: VERSIONS[2], untilVersion: VERSIONS[5] } },
  { name: 'drift −30 % over releases 2–6', levels: [0, 0, 1, 2, 3, 4].map((i) => Math.exp((Math.log(0.7) / 4) * i)), expect: { kind: 'drift', version: VERSIONS[2], untilVersion: VERSIONS[5] } },
];
const NOISES = [0.02, 0.05];

/**
 * 95 % Wilson score interval of a proportion.
 * @param {number} hits
 * @param {number} n
 * @returns {[number, number]}
 */
function wilson(hits, n) {
  const z = 1.959963984540054;
  const p = hits / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** @param {number} hits @param {number} n */
const rate = (hits, n) => {
  const [lo, hi] = wilson(hits, n);
  return `${((100 * hits) / n).toFixed(1)} % [${(100 * lo).toFixed(1)}, ${(100 * hi).toFixed(1)}]`;
};

/**
 * One series as run records, one record per release.
 * @param {number[]} levels
 * @param {number} noise sd of ln(throughput) per repeat
 * @param {() => number} normal
 * @param {number} [instanceOffset] sd of an offset shared by all repeats of a release (its one
 *   server instance), invisible in the repeats' spread
 * @returns {import('../scripts/compare/types.js').ReleaseRecords[]}
 */
function makeSeries(levels, noise, normal, instanceOffset = 0) {
  return levels.map((level, i) => {
    const offset = instanceOffset * normal();
    return {
      version: VERSIONS[i],
      records: [makeRecord({ id: `r${i}`, version: VERSIONS[i], steps: [{ name: 'point-query', group: 'point', throughput: Array.from({ length: REPEATS }, () => 10000 * level * Math.exp(offset + noise * normal())) }] })],
    };
  });
}

/**
 * apache-otava over every repeat of many series in one child process (detect-change-points.py).
 * @param {number[][]} valueLists
 * @returns {{index: number}[][]|null} change points per series; null when otava cannot run
 */
function runOtava(valueLists) {
  if (python === 'none') return null;
  const script = fileURLToPath(new URL('../scripts/compare/detect-change-points.py', import.meta.url));
  const input = JSON.stringify({ options: CHANGE_POINT_DEFAULTS, series: valueLists.map((values, i) => ({ key: String(i), values })) });
  const res = spawnSync(python, [script], { input, maxBuffer: 1 << 28 });
  if (res.status !== 0) return null;
  /** @type {{results: {key: string, changePoints: {index: number}[]}[]}} */
  const parsed = JSON.parse(res.stdout.toString());
  return parsed.results.map((r) => r.changePoints);
}

/**
 * A dip or a step must be at its release exactly; a drift must be a drift whose first and last
 * moving releases are each within one release of the true ones (a gradual change has no sharp
 * ends to find).
 * @param {import('../scripts/compare/types.js').ChangePoint} c
 * @param {{kind: string, version: string, untilVersion: string}} expect
 */
function isRight(c, expect) {
  if (c.kind !== expect.kind) return false;
  if (expect.kind !== 'drift') return c.version === expect.version && c.untilVersion === expect.untilVersion;
  const near = (/** @type {string|undefined} */ a, /** @type {string} */ b) => a !== undefined && Math.abs(VERSIONS.indexOf(a) - VERSIONS.indexOf(b)) <= 1;
  return near(c.version, expect.version) && near(c.untilVersion, expect.untilVersion);
}

const rows = [];
let otavaVersion = null;
const started = Date.now();
for (const noise of NOISES) {
  for (const [shapeIndex, shape] of SHAPES.entries()) {
    const normal = seededNormal(Number(args.seed) * 1000 + shapeIndex * 10 + Math.round(noise * 100));
    let flagged = 0;
    let right = 0;
    let wrong = 0;
    /** @type {number[][]} */
    const otavaInputs = [];
    for (let s = 0; s < seriesPerCell; s++) {
      const releases = makeSeries(shape.levels, noise, normal);
      const report = await detectChangePoints(releases, { python: 'unused-for-short-series', releaseSeries: { alpha } });
      const cps = report.changePoints;
      if (cps.some((c) => !c.atReleaseBoundary)) throw new Error('a change point inside a release');
      if (cps.length > 0) flagged++;
      const hit = shape.expect && cps.find((c) => isRight(c, /** @type {NonNullable<typeof shape.expect>} */ (shape.expect)));
      if (hit) right++;
      else if (cps.length > 0 && shape.expect) wrong++;
      otavaInputs.push(releases.flatMap((r) => r.records[0].steps[0].repeats.map((rep) => /** @type {number} */ (rep.throughput))));
    }
    const otava = runOtava(otavaInputs);
    let otavaFound = null;
    let otavaInside = null;
    let otavaRight = null;
    let otavaPoints = 0;
    if (otava) {
      otavaFound = 0;
      otavaInside = 0;
      otavaRight = 0;
      const labels = VERSIONS.flatMap((v) => Array.from({ length: REPEATS }, () => v));
      for (const [i, points] of otava.entries()) {
        if (points.length > 0) otavaFound++;
        for (const p of points) {
          otavaPoints++;
          if (p.index % REPEATS !== 0) otavaInside++;
        }
        // a step is otava's one shape: at the right release once moved to a release boundary
        const moved = placeAtReleaseBoundaries(points.map((p) => ({ ...p, pValue: 0, meanBefore: 0, meanAfter: 0, forwardChangePct: 0 })), labels, otavaInputs[i]);
        if (shape.expect?.kind === 'step' && moved.points.some((p) => labels[p.index] === shape.expect?.version)) otavaRight++;
      }
    }
    rows.push({ noise, shape, flagged, right, wrong, otavaFound, otavaInside, otavaRight, otavaPoints });
  }
}
if (python !== 'none') {
  const v = spawnSync(python, ['-c', 'from importlib.metadata import version; print(version("apache-otava"))']);
  otavaVersion = v.status === 0 ? v.stdout.toString().trim() : null;
}

const out = [];
out.push(`# Release-series detection: measured rates, false-event chance ${alpha} per test series\n\n`);
out.push(`Printed by \`node bench/release-series.js ${process.argv.slice(2).join(' ')}\` (${((Date.now() - started) / 1000).toFixed(0)} s). `);
out.push(`${seriesPerCell} seeded series per row: ${VERSIONS.length} releases × ${REPEATS} repeats of one test, lognormal noise per repeat, built as run records and fed through \`detectChangePoints\` (the path \`tagbench compare\` uses). `);
out.push(`Rule settings: false-event chance ${alpha} per test series, at most ${RELEASE_SERIES_DEFAULTS.maxEvents} events, ${RELEASE_SERIES_DEFAULTS.simulations} simulated no-event series for the critical value, drift penalty ${DRIFT_PENALTY}, smallest change reported 3 % (the shipped warn level). `);
out.push('Rates with 95 % Wilson intervals.\n\n');
out.push('- **flagged**: any event reported in the series (for the no-event rows: the false-flag rate per test series).\n');
out.push('- **right kind and release**: an event of the expected kind at the expected release: a dip at the dip release, recovering in the next; a step at its first release; a drift whose first and last moving releases are each within one release of the true ones.\n');
out.push('- **flagged, not right**: series with events, none of them the right one (a step read as a short drift, a drift with other ends).\n');
out.push(`- **otava**: apache-otava ${otavaVersion ?? '(not run)'} with the shipped settings (window ${CHANGE_POINT_DEFAULTS.windowLen}, max p-value ${CHANGE_POINT_DEFAULTS.maxPValue}) over every repeat of the same series: series with any change point (before any move), step series with a point at the step's release once points inside a release are moved to its nearest boundary (what \`tagbench compare\` does with series of more than 10 releases), and how many of its points fall inside a release.\n\n`);
out.push('| noise | shape | flagged | right kind and release | flagged, not right | otava: any point | otava: step at the right release, once moved | otava: points inside a release |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n');
for (const r of rows) {
  const right = r.shape.expect ? rate(r.right, seriesPerCell) : '—';
  const wrong = r.shape.expect ? rate(r.wrong, seriesPerCell) : '—';
  const otavaAny = r.otavaFound === null ? 'not run' : rate(r.otavaFound, seriesPerCell);
  const inside = r.otavaInside === null ? 'not run' : r.otavaPoints === 0 ? 'no points' : `${r.otavaInside} of ${r.otavaPoints}`;
  const otavaRight = r.otavaRight === null ? 'not run' : r.shape.expect?.kind === 'step' ? rate(r.otavaRight, seriesPerCell) : '—';
  out.push(`| ${(r.noise * 100).toFixed(0)} % | ${r.shape.name} | ${rate(r.flagged, seriesPerCell)} | ${right} | ${wrong} | ${otavaAny} | ${otavaRight} | ${inside} |\n`);
}

// What the overdispersion check buys and costs: every release on its own server instance with an
// offset of 2 % (sd) that its 3 repeats (2 % noise) cannot show.
out.push('\n## Repeats of one server instance per release\n\n');
out.push(`Every release runs on its own server instance; an instance offset (sd 0 or 2 %, the size the issue measured) is shared by the release's 3 repeats (noise 2 %) and invisible in their spread. Rate of series flagged, ${seriesPerCell} series per cell, with the overdispersion check (the default) and without it.\n\n`);
out.push('| instance offset | shape | flagged, with the check | flagged, without it |\n| ---: | --- | ---: | ---: |\n');
for (const offset of [0, 0.02]) {
  for (const shape of [SHAPES[0], SHAPES.find((x) => x.name.startsWith('dip −10')), SHAPES.find((x) => x.name.startsWith('step −10'))]) {
    if (!shape) continue;
    const cells = [];
    for (const overdispersion of [true, false]) {
      const normal = seededNormal(Number(args.seed) * 7919 + Math.round(offset * 1000));
      let flagged = 0;
      for (let s = 0; s < seriesPerCell; s++) {
        const report = await detectChangePoints(makeSeries(shape.levels, 0.02, normal, offset), { python: 'unused-for-short-series', releaseSeries: { alpha, overdispersion } });
        if (report.changePoints.length > 0) flagged++;
      }
      cells.push(rate(flagged, seriesPerCell));
    }
    out.push(`| ${(offset * 100).toFixed(0)} % | ${shape.name} | ${cells[0]} | ${cells[1]} |\n`);
  }
}
process.stdout.write(out.join(''));
