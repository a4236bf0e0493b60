/**
 * Confirmation: a regression stands only when an independent rerun (both releases again,
 * alternating) finds a regression of the same test and metric too. Pure: two comparisons in,
 * the original with `confirmed` and the rerun's own numbers set on each regression, out.
 */

/** @typedef {import('./types.js').FullVerdict} FullVerdict */
/** @typedef {import("./types.js").FullComparison} FullComparison */

/**
 * Tests whose verdict is a regression (any gated metric: not a context one), in suite order, each once.
 * @param {FullComparison} comparison
 * @returns {string[]} test names
 */
export function listRegressedTests(comparison) {
  // A context verdict (shown, not gated: ./context-verdicts.js) calls for no rerun.
  return [...new Set(comparison.tests.filter((t) => t.verdict === 'regression' && !t.context).map((t) => t.test))];
}

/**
 * @param {FullComparison} original the comparison whose regressions are to be confirmed
 * @param {FullComparison} rerun comparison of the rerun alone (same base and candidate versions)
 * @returns {FullComparison} a copy of original; every regression gets `confirmed` and
 *   `confirmation`; a confirmed regression keeps the lower of the two levels (an issue needs
 *   both runs at the issue level)
 * @throws {Error} when the rerun compares other versions (a bug in the caller)
 */
export function confirmVerdicts(original, rerun) {
  if (original.base.version !== rerun.base.version || original.candidate.version !== rerun.candidate.version) {
    throw new Error(`rerun compares ${rerun.candidate.version} vs ${rerun.base.version}, not ${original.candidate.version} vs ${original.base.version}`);
  }
  const tests = original.tests.map((t) => {
    if (t.verdict !== 'regression' || t.context) return t;
    const again = rerun.tests.find((r) => r.test === t.test && r.metric === t.metric);
    if (!again) {
      return { ...t, confirmed: false, reason: `${t.reason}. Not confirmed: the rerun has no result for this test` };
    }
    const confirmed = again.verdict === 'regression';
    const level = confirmed && (t.level === 'warn' || again.level === 'warn') ? 'warn' : t.level;
    return {
      ...t,
      confirmed,
      level,
      confirmation: {
        verdict: again.verdict,
        level: again.level,
        ratio: again.ratio,
        ci: again.ci,
        reason: again.reason,
        runIds: { base: rerun.base.runIds, candidate: rerun.candidate.runIds },
      },
      reason: `${t.reason}. ${confirmed ? 'Confirmed' : 'Not confirmed'} by the rerun: ${again.verdict} (${again.reason})`,
    };
  });
  return { ...original, tests };
}

/**
 * Whether a comparison holds a regression at the issue level (the CLI exits 2 then). When
 * `confirmedOnly`, only regressions confirmed by a rerun count.
 * @param {FullComparison} comparison
 * @param {{confirmedOnly?: boolean}} [options]
 * @returns {boolean}
 */
export function hasIssueRegression(comparison, options = {}) {
  return comparison.tests.some((t) => t.verdict === 'regression' && t.level === 'issue' && (!options.confirmedOnly || t.confirmed === true));
}
