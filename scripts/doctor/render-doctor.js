/**
 * Doctor's report as text (pure): one ✓/✗ line per check, the fix indented under it.
 */

/** @typedef {import('./types.js').DoctorReport} DoctorReport */

const MARK = /** @type {const} */ ({ ok: '✓', fail: '✗', warn: '!', info: '·' });

/**
 * @param {DoctorReport} report
 * @returns {string} lines ending in a newline; the last line sums up and says the exit status
 */
export function renderDoctor(report) {
  const width = Math.max(...report.checks.map((c) => c.title.length));
  const lines = report.checks.map((c) => {
    const tag = c.status === 'fail' && !c.required ? ' (optional)' : '';
    const head = `${MARK[c.status]} ${c.title.padEnd(width)}  ${c.detail}${tag}`;
    return c.fix ? `${head}\n  ${' '.repeat(width)}  fix: ${c.fix}` : head;
  });
  const failed = report.checks.filter((c) => c.required && c.status === 'fail').length;
  const optional = report.checks.filter((c) => !c.required && c.status === 'fail').length;
  const warns = report.checks.filter((c) => c.status === 'warn').length;
  const summary = failed > 0
    ? `${failed} required check${failed > 1 ? 's' : ''} failed: tagbench cannot run benchmarks here until fixed`
    : 'ready to run benchmarks';
  lines.push('', `${summary} (${optional} optional missing, ${warns} warning${warns === 1 ? '' : 's'})`);
  return `${lines.join('\n')}\n`;
}
