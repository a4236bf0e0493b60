/**
 * Which releases a compare covers and which one is the base. Pure.
 */

/**
 * Order versions by their numeric parts (10.11.9 before 10.11.18), then as text.
 * @param {string} a
 * @param {string} b
 * @returns {number}
 */
export function compareVersions(a, b) {
  const pa = a.split(/[^0-9]+/).filter(Boolean).map(Number);
  const pb = b.split(/[^0-9]+/).filter(Boolean).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0) return d;
  }
  return a.localeCompare(b);
}

/**
 * @param {{explicit?: string, baseline?: string|null, lineBase?: string, versions: string[]}} c
 *   versions in column order
 * @returns {{version: string, source: 'option'|'baseline'|'line'|'first'}}
 */
export function chooseBase(c) {
  if (c.explicit) return { version: c.explicit, source: 'option' };
  if (c.baseline) return { version: c.baseline, source: 'baseline' };
  if (c.lineBase && c.versions.includes(c.lineBase)) return { version: c.lineBase, source: 'line' };
  return { version: c.versions[0], source: 'first' };
}
