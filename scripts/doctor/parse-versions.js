/**
 * Version parsing for doctor's checks (pure).
 */

/**
 * @param {string} text output of `sysbench --version` (`sysbench 1.0.20`, `sysbench 1.1.0-df89d34`)
 * @returns {{version: string, major: number, minor: number}|null} null when no version is found
 */
export function parseSysbenchVersion(text) {
  const m = /sysbench\s+(\d+)\.(\d+)(?:\.(\d+))?\S*/.exec(text);
  if (!m) return null;
  return { version: m[0].replace(/^sysbench\s+/, ''), major: Number(m[1]), minor: Number(m[2]) };
}

/**
 * @param {string} version `20.11.1` or `v20.11.1`
 * @returns {number} the major number, NaN when unreadable
 */
export function majorOf(version) {
  return Number(/^v?(\d+)/.exec(version)?.[1]);
}

/**
 * /proc/stat's aggregate `cpu` line as tick counters.
 * @param {string} text content of /proc/stat
 * @returns {{total: number, steal: number}|null} null without a `cpu ` line
 */
export function parseProcStatCpu(text) {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  // user nice system idle iowait irq softirq steal guest guest_nice; guest time is already
  // counted in user, so it is not added to the total again
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  return { total, steal: Number.isFinite(f[7]) ? f[7] : 0 };
}
