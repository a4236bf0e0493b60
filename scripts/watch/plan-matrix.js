/**
 * Turn matched tags into the benchmark workflow's matrix: one entry per (version, host class)
 * not benchmarked yet, newest first, product lines interleaved so that one busy line does not
 * starve the others, cut at `max`.
 */

/**
 * @param {object} input
 * @param {import('./types.js').TagCandidate[]} input.candidates every product and line, newest
 *   version first within each line (lines are taken in the order they first appear)
 * @param {{name: string, suite: string}[]} input.hostClasses
 * @param {{id: string, hostClass: string, product: string, version: string, suite: string, status: string}[]} input.runs
 *   the results index's runs
 * @param {number} input.max most entries to return
 * @param {boolean} [input.retryFailed] propose versions whose runs all failed again (default:
 *   a failed run counts as benchmarked; a partial, i.e. interrupted, run never does)
 * @returns {import('./types.js').DiscoverResult}
 */
export function planMatrix({ candidates, hostClasses, runs, max, retryFailed = false }) {
  /** @type {Map<string, {id: string, status: string}>} */
  const done = new Map();
  for (const r of runs) {
    if (r.status === 'partial' || (retryFailed && r.status === 'failed')) continue;
    const key = [r.hostClass, r.product, r.version, r.suite].join('\0');
    if (!done.has(key) || r.status === 'ok') done.set(key, r);
  }
  /** @type {import('./types.js').DiscoverResult['skipped']} */
  const skipped = [];
  /** @type {Map<string, import('./types.js').MatrixEntry[][]>} product+line -> per version, its entries */
  const byLine = new Map();
  for (const c of candidates) {
    /** @type {import('./types.js').MatrixEntry[]} */
    const entries = [];
    for (const h of hostClasses) {
      const run = done.get([h.name, c.product, c.version, h.suite].join('\0'));
      if (run) skipped.push({ product: c.product, line: c.line, version: c.version, hostClass: h.name, reason: `already benchmarked: run ${run.id} (${run.status}), suite ${h.suite}` });
      else entries.push({ product: c.product, line: c.line, version: c.version, tag: c.tag, commit: c.commit, hostClass: h.name, suite: h.suite });
    }
    if (entries.length === 0) continue;
    const key = `${c.product}\0${c.line}`;
    if (!byLine.has(key)) byLine.set(key, []);
    byLine.get(key)?.push(entries);
  }
  /** @type {import('./types.js').MatrixEntry[]} */
  const include = [];
  let pending = 0;
  for (const versions of byLine.values()) for (const v of versions) pending += v.length;
  // Round-robin over lines (in the order given: products, then config line order): the
  // newest version of every line before the second of any.
  const queues = [...byLine.values()];
  for (let round = 0; include.length < max && queues.some((q) => q.length > round); round++) {
    for (const q of queues) {
      const entries = q[round];
      if (!entries) continue;
      for (const e of entries) if (include.length < max) include.push(e);
    }
  }
  return { matrix: { include }, pending, skipped };
}
