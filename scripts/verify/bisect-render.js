/**
 * A bisect report as text: Markdown for an issue comment (and the terminal, which shows the
 * same table), from the stored report alone, so a comment can be rendered again later. Pure.
 */
import { formatRatio, formatInterval, formatPercent } from '../format-number.js';

/** @typedef {import('../store/index.js').BisectReport} BisectReport */

/**
 * @param {BisectReport} report
 * @returns {string} Markdown
 */
export function renderBisectReport(report) {
  const o = report.outcome;
  const head = o.status === 'found'
    ? `**First bad release: ${report.product} ${o.firstBad}** (last good: ${o.lastGood}).`
    : o.status === 'interrupted'
      ? `**Bisect interrupted** before it could name the first bad release; it is one of ${o.suspects.join(', ')}.`
      : `**Bisect stopped: the evidence is not enough to go on.** The first bad release is one of ${o.suspects.join(', ')}.`;
  const lines = [
    `## Bisect of ${report.product} ${report.good.name} (good) .. ${report.bad.name} (bad)`,
    '',
    head,
    '',
    o.message,
    '',
    `Host class \`${report.hostClass}\`, suite \`${report.suite}\`; tests ${report.targets.map((t) => `\`${t.test}\` ${t.metric}`).join(', ')}`
      + (report.source.comparisonId ? ` (the issue-level regressions of comparison \`${report.source.comparisonId}\`)` : ' (named with --only)') + '.',
    `Candidates, oldest first: ${report.candidates.map((c) => c.name).join(', ') || 'none'}. Each probe ran the tests of the candidate and of the good release ${report.good.name} side by side, alternating, with adaptive repeats of undecided tests; a candidate is bad on an issue-level regression of every test, good when every test is unchanged or better within the thresholds, and anything else stops the search.`,
    '',
  ];
  for (const note of report.notes) lines.push(`> **Note:** ${note}`, '');
  if (report.probes.length > 0) {
    lines.push('| # | candidate | call | test | verdict | ratio | interval | instances (good/cand.) | MDE |', '|---|---|---|---|---|---|---|---|---|');
    report.probes.forEach((p, i) => {
      for (const e of p.evidence) {
        const verdict = e.verdict === null ? 'no result' : `${e.verdict}${e.level ? ` (${e.level})` : ''}`;
        lines.push(`| ${i + 1} | ${p.candidate} | **${p.call}** | ${e.test} ${e.metric} | ${verdict} | ${formatRatio(e.ratio)} | ${formatInterval(e.ci)} | ${e.instances[0]} / ${e.instances[1]} | ${formatPercent(e.mde)} |`);
      }
    });
    lines.push('');
    report.probes.forEach((p, i) => {
      const adaptive = p.adaptive ? `; adaptive repeats: ${p.adaptive.rounds} round(s), stopped: ${p.adaptive.stopped}` : '';
      lines.push(`${i + 1}. ${p.candidate}: **${p.call}**, ${p.reason} (${Math.round(p.seconds)} s${adaptive}; runs ${[...p.runIds.good, ...p.runIds.candidate].join(', ')})`);
    });
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
