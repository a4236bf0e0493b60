/**
 * Order release versions the way people read them (10.11.9 < 10.11.18), not as strings.
 * Hand-written rather than a semver library because MySQL-family versions are not semver
 * (`10.11.18`, `8.0.40-31`, `11.8.6-rc`): compare dot/dash separated parts, numbers as numbers.
 */

/**
 * @param {string} a
 * @param {string} b
 * @returns {number} negative when a sorts before b, 0 when equal, positive after
 */
export function compareVersions(a, b) {
  const pa = String(a).split(/[.\-+_]/);
  const pb = String(b).split(/[.\-+_]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return y !== undefined && /^\d+$/.test(y) ? -1 : 1;
    if (y === undefined) return /^\d+$/.test(x) ? 1 : -1;
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) {
      if (nx !== ny) return nx - ny;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}
