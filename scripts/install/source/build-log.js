/**
 * Reading a build's output: progress lines (make's `[ 42%]`, ninja's `[123/4567]`) and the
 * excerpt that explains a failure. Pure: text in, data out.
 */

/**
 * Fraction of the build done, from one output line.
 * @param {string} line
 * @returns {number|null} 0..1, or null when the line says nothing about progress
 */
export function parseBuildProgress(line) {
  const make = /^\[\s*(\d{1,3})%\]/.exec(line);
  if (make) return Math.min(1, Number(make[1]) / 100);
  const ninja = /^\[(\d+)\/(\d+)\]/.exec(line);
  if (ninja && Number(ninja[2]) > 0) return Math.min(1, Number(ninja[1]) / Number(ninja[2]));
  return null;
}

/**
 * `1h02m`, `12m30s`, `8s`.
 * @param {number} durationS
 * @returns {string}
 */
export function formatDuration(durationS) {
  const s = Math.max(0, Math.round(durationS));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h}h${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/**
 * One progress line: how far, how long so far, and a linear estimate of the rest.
 * @param {number} fraction 0..1 from parseBuildProgress
 * @param {number} elapsedS seconds since the build step started
 * @returns {string} e.g. `42% after 12m30s, about 17m15s left`
 */
export function describeProgress(fraction, elapsedS) {
  const pct = Math.floor(fraction * 100);
  // The first percent comes from configure-time generated files and says little about the rest.
  const left = fraction >= 0.02 ? `, about ${formatDuration((elapsedS * (1 - fraction)) / fraction)} left` : '';
  return `${pct}% after ${formatDuration(elapsedS)}${left}`;
}

/** Lines that name the cause of a failed fetch, configure, compile or link. */
const ERROR_LINE = /(\berror\b|^FAILED:|^CMake Error|^fatal:|undefined reference|\*\*\* \[)/i;

/**
 * What a person needs from a failed build's log: the first error lines (with a parallel build
 * the first compiler error can be far from the end) and the last lines.
 * @param {string} text the log, or its last part
 * @param {{errors?: number, tail?: number}} [limits] how many error lines and tail lines (default 12 and 25)
 * @returns {string} indented lines, ready to append to a message
 */
export function excerptBuildLog(text, limits = {}) {
  const lines = text.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '');
  // Parallel jobs repeat the same error from several targets: each distinct line once.
  const errors = [...new Set(lines.filter((l) => ERROR_LINE.test(l)))].slice(0, limits.errors ?? 12);
  const tail = lines.slice(-(limits.tail ?? 25));
  const parts = [];
  if (errors.length) parts.push('  first error lines:', ...errors.map((l) => `    ${l}`));
  parts.push('  last lines of the log:', ...tail.map((l) => `    ${l}`));
  return parts.join('\n');
}
