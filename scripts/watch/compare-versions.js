/**
 * Order of release versions (`10.11.9` < `10.11.18`): numeric parts compare as numbers, other
 * parts as text. Written here because versions of MySQL-family tags are plain dotted numbers
 * and a semver library would reject `9.7` or a four-part version.
 */

/**
 * @param {string} a version
 * @param {string} b version
 * @returns {number} < 0 when a is older, > 0 when newer, 0 when equal
 */
export function compareVersions(a, b) {
  const pa = a.split(/[.-]/);
  const pb = b.split(/[.-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
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
