/**
 * Render a change-point report (apache-otava) per test, as Markdown or terminal text.
 */
import { formatPercent, formatQps } from '../format-number.js';

/**
 * @param {import('./types.js').ChangePointReport} report
 * @param {{format: 'markdown'|'terminal'}} options
 * @returns {string} text ending with a newline
 */
export function renderChangePoints(report, options) {
  const md = options.format === 'markdown';
  const out = [md ? '## Change points across the releases\n\n' : 'change points:\n'];
  out.push(md ? `${report.note}.\n\n` : `  ${report.note}\n`);
  if (report.status !== 'ok') return out.join('');
  if (report.changePoints.length === 0) {
    out.push(md ? 'No change point found.\n' : '  none found\n');
    return out.join('');
  }
  if (md) out.push('| test | metric | change at | from | change | mean before | mean after | p-value |\n| --- | --- | --- | --- | ---: | ---: | ---: | ---: |\n');
  for (const cp of report.changePoints) {
    const where = cp.atReleaseBoundary ? cp.version : `${cp.version} (inside the release's repeats)`;
    const change = formatPercent(cp.forwardChangePct / 100, { signed: true });
    if (md) out.push(`| ${cp.test} | ${cp.metric} | ${where} | ${cp.previousVersion ?? 'n/a'} | ${change} | ${formatQps(cp.meanBefore)} | ${formatQps(cp.meanAfter)} | ${cp.pValue.toExponential(1)} |\n`);
    else out.push(`  ${cp.test} ${cp.metric}: ${change} at ${where} (from ${cp.previousVersion ?? 'n/a'}; p ${cp.pValue.toExponential(1)})\n`);
  }
  return out.join('');
}
