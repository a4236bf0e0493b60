/**
 * Render a change-point report per test, as Markdown or terminal text: what kind of change
 * (dip, step, drift), at which release, how large, and the evidence behind it.
 */
import { formatPercent, formatQps } from '../format-number.js';

/**
 * @param {import('./types.js').ChangePoint} cp
 * @returns {string} e.g. `step`, `dip (recovered in 10.11.21)`, `drift (to 10.11.22)`
 */
function describeKind(cp) {
  if (!cp.kind) return 'step (apache-otava)';
  if (cp.kind === 'dip') return cp.untilVersion && cp.untilVersion !== cp.version ? `one-release ${cp.forwardChangePct < 0 ? 'dip' : 'rise'}, back in ${cp.untilVersion}` : `one-release ${cp.forwardChangePct < 0 ? 'dip' : 'rise'}`;
  if (cp.kind === 'drift') return `drift through ${cp.untilVersion ?? cp.version}`;
  return 'step';
}

/**
 * @param {import('./types.js').ChangePoint} cp
 * @returns {string}
 */
function describeEvidence(cp) {
  return cp.evidence ?? `mean ${formatQps(cp.meanBefore)} before, ${formatQps(cp.meanAfter)} after; p ${cp.pValue.toExponential(1)}`;
}

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
    out.push(md ? 'No dip, step or drift found.\n' : '  none found\n');
    return out.join('');
  }
  if (md) out.push('| test | metric | kind | at release | from | change | evidence |\n| --- | --- | --- | --- | --- | ---: | --- |\n');
  for (const cp of report.changePoints) {
    // detectChangePoints never reports one inside a release; a report read back from an older
    // file still may, and says so
    const where = cp.atReleaseBoundary ? cp.version : `${cp.version} (inside the release's repeats)`;
    const change = formatPercent(cp.forwardChangePct / 100, { signed: true });
    const tag = cp.worse === undefined ? '' : cp.worse ? ' (worse)' : ' (better)';
    if (md) out.push(`| ${cp.test} | ${cp.metric} | ${describeKind(cp)} | ${where} | ${cp.previousVersion ?? 'n/a'} | ${change}${tag} | ${describeEvidence(cp).replaceAll('|', '\\|')} |\n`);
    else out.push(`  ${cp.test} ${cp.metric}: ${describeKind(cp)} ${change}${tag} at ${where} (from ${cp.previousVersion ?? 'n/a'})\n      ${describeEvidence(cp)}\n`);
  }
  return out.join('');
}
