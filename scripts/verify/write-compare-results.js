/**
 * What `tagbench compare` of one product line keeps in the results store: the comparison of
 * every release against the base, and the change points of the series. Verdicts of labelled
 * releases (one engine or server of a release) are not stored, and change points only when the
 * compare covered the whole series: either would be read later as the release's own.
 */
import { writeComparison, writeChangePoints } from '../store/index.js';
import { parseReleaseEntry } from './release-entry.js';
import { compareVersions } from '../version-order.js';

/**
 * Store the comparisons and the series' change points, saying on stderr what was stored and
 * what not, and why.
 * @param {import('./compare-line.js').LineScope} scope
 * @param {import('./compare-line.js').Columns} cols
 * @param {{comparisons: import('../compare/index.js').FullComparison[],
 *   changePoints: import('../compare/index.js').ChangePointReport, createdAt: string,
 *   storeChangePoints: boolean}} results storeChangePoints: false with --no-change-points
 * @returns {Promise<void>}
 * @throws {import('../errors.js').UserError|Error} when the store cannot be written
 */
export async function writeCompareResults(scope, cols, { comparisons, changePoints, createdAt, storeChangePoints }) {
  const labelled = cols.releases.filter((r) => parseReleaseEntry(r.version).label !== undefined).map((r) => r.version);
  if (labelled.length > 0) {
    process.stderr.write(`verdicts and change points not stored: ${labelled.join(', ')} ${labelled.length === 1 ? 'is a labelled release' : 'are labelled releases'} (one engine or server of a release, not the release); the printed and --json/--markdown verdicts stand\n`);
    return;
  }
  for (const c of comparisons) {
    const { path } = await writeComparison(scope.storeDir, /** @type {any} */ (c));
    process.stderr.write(`stored ${path}\n`);
  }
  if (!storeChangePoints) return;
  const { product, hostClass, suite, storeDir } = scope;
  const whole = [...new Set(cols.records.map((r) => r.release.version))].sort(compareVersions);
  const file = computeChangePointsFile(changePoints, { hostClass, product: product.name, line: cols.line, suite, createdAt, releases: cols.releases });
  // The file stands for the whole series (the site marks it on every test's history), so a
  // compare of a few releases, or in another order, must not replace it.
  if (!file) process.stderr.write(`change points not stored: ${changePoints.status === 'ok' ? 'fewer than 3 releases have none' : 'apache-otava did not run'}\n`);
  else if (cols.columns.join('\n') !== whole.join('\n')) {
    process.stderr.write(`change points not stored: they cover ${cols.columns.join(', ')}, not the whole series of ${product.name} ${cols.line} in the store (${whole.join(', ')}, oldest first); run without --releases to store them\n`);
  } else {
    process.stderr.write(`stored ${await writeChangePoints(storeDir, file)} (change points over the whole series, replacing the previous ones)\n`);
  }
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
