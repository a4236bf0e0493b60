/**
 * Which release is the base of a compare (the order of versions is scripts/version-order.js). Pure.
 */

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
