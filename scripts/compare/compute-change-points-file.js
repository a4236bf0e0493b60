/**
 * The stored form of a change-point report (scripts/store/schemas/change-points.schema.json):
 * per test, the series' releases and its change points, with the method and the runs behind
 * each release, so that the site can mark them and a reader can tell how they were found.
 * Pure.
 */

/**
 * @param {import('./types.js').ChangePointReport} report from detectChangePoints
 * @param {{hostClass: string, product: string, line: string, suite: string, createdAt: string,
 *   releases: import('./types.js').ReleaseRecords[]}} ctx the series it was computed over, in order
 * @returns {import('../store/index.js').ChangePoints|null} null when otava did not run (nothing
 *   to store: an empty file would claim "no change point")
 */
export function computeChangePointsFile(report, ctx) {
  if (report.status !== 'ok' || !report.method) return null;
  return {
    schemaVersion: 1,
    createdAt: ctx.createdAt,
    hostClass: ctx.hostClass,
    product: ctx.product,
    line: ctx.line,
    suite: ctx.suite,
    method: { ...report.method },
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
