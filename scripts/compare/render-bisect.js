/**
 * A bisect report as text: Markdown for an issue comment (tagbench report --bisects) and the
 * terminal (tagbench bisect), which show the same table, from the stored report alone, so a
 * comment can be rendered again later. Pure. Here in compare/ because verify/ and github/ both
 * print it and neither may import the other.
 */
import { formatRatio, formatInterval, formatPercent } from '../format-number.js';
import { renderUntrustedText } from './markdown-text.js';

/**
 * The fields of a stored bisect report (scripts/store/bisect-report.js, BisectReport) this
 * renderer reads. compare/ may not import store/, not even a typedef, so the shape is spelled
 * out here; store's BisectReport is assignable to it, which tsc checks where verify/ and
 * github/ pass one in.
 * @typedef {object} BisectReportView
 * @property {string} hostClass
 * @property {string} product
 * @property {string} suite
 * @property {{name: string}} good
 * @property {{name: string}} bad
 * @property {{name: string}[]} candidates
 * @property {{comparisonId: string|null}} source
 * @property {{test: string, metric: string}[]} targets
 * @property {{candidate: string, call: string, reason: string, seconds: number,
 *   runIds: {good: string[], candidate: string[]}, adaptive: Record<string, any>|null,
 *   evidence: {test: string, metric: string, verdict: string|null, level: string|null, ratio: number|null,
 *     ci: [number, number]|null, mde: number|null, instances: [number, number], pairedRounds?: number}[]}[]} probes
 * @property {{status: 'found'|'stopped'|'interrupted', lastGood: string, firstBad: string, suspects: string[], message: string}} outcome
 * @property {string[]} notes
 */

/**
 * @param {BisectReportView} report
 * @returns {string} Markdown
 */
export function renderBisectReport(report) {
  const o = report.outcome;
  // A commit bisect names its candidates `<12-hex id> (<subject>)`.
  const what = [o.firstBad, ...o.suspects].some((c) => /^[0-9a-f]{12} \(/.test(c ?? '')) ? 'commit' : 'release';
  // Candidate names hold commit subjects, refs and test names their authors chose: code spans
  // (in a table, with its pipes escaped), and the sentences that quote them escaped.
  const name = (/** @type {string} */ n) => renderUntrustedText(n);
  const cell = (/** @type {string} */ n) => renderUntrustedText(n, { table: true });
  const prose = (/** @type {string} */ t) => renderUntrustedText(t, { span: false });
  const head = o.status === 'found'
    ? `**First bad ${what}: ${report.product} ${name(o.firstBad)}** (last good: ${name(o.lastGood)}).`
    : o.status === 'interrupted'
      ? `**Bisect interrupted** before it could name the first bad ${what}; it is one of ${o.suspects.map(name).join(', ')}.`
      : `**Bisect stopped: the evidence is not enough to go on.** The first bad ${what} is one of ${o.suspects.map(name).join(', ')}.`;
  const lines = [
    `## Bisect of ${report.product} ${prose(report.good.name)} (good) .. ${prose(report.bad.name)} (bad)`,
    '',
    head,
    '',
    prose(o.message),
    '',
    `Host class \`${report.hostClass}\`, suite \`${report.suite}\`; tests ${report.targets.map((t) => `${name(t.test)} ${prose(t.metric)}`).join(', ')}`
      + (report.source.comparisonId ? ` (the issue-level regressions of comparison \`${report.source.comparisonId}\`)` : ' (named with --only)') + '.',
    `Candidates, oldest first: ${report.candidates.map((c) => name(c.name)).join(', ') || 'none'}. Each probe ran the tests of the candidate and of the good release ${prose(report.good.name)} side by side, alternating, with adaptive repeats of undecided tests; a candidate is bad on an issue-level regression of every test, good when every test is unchanged or better within the thresholds, and anything else stops the search.`,
    '',
  ];
  for (const note of report.notes) lines.push(`> **Note:** ${prose(note)}`, '');
  if (report.probes.length > 0) {
    lines.push('| # | candidate | call | test | verdict | ratio | interval | instances (good/cand.) | MDE |', '|---|---|---|---|---|---|---|---|---|');
    report.probes.forEach((p, i) => {
      for (const e of p.evidence) {
        const verdict = e.verdict === null ? 'no result' : `${e.verdict}${e.level ? ` (${e.level})` : ''}`;
        lines.push(`| ${i + 1} | ${cell(p.candidate)} | **${p.call}** | ${cell(e.test)} ${prose(e.metric)} | ${verdict} | ${formatRatio(e.ratio)} | ${formatInterval(e.ci)} | ${e.instances[0]} / ${e.instances[1]}${e.pairedRounds ? ` (${e.pairedRounds} rounds, paired)` : ''} | ${formatPercent(e.mde)} |`);
      }
    });
    lines.push('');
    report.probes.forEach((p, i) => {
      const adaptive = p.adaptive ? `; adaptive repeats: ${p.adaptive.rounds} round(s), stopped: ${p.adaptive.stopped}` : '';
      lines.push(`${i + 1}. ${name(p.candidate)}: **${p.call}**, ${prose(p.reason)} (${Math.round(p.seconds)} s${adaptive}; runs ${[...p.runIds.good, ...p.runIds.candidate].join(', ')})`);
    });
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
