/** Shapes of the watch stage (discover). */
export {};

/**
 * @typedef {object} RemoteTag one tag of an upstream repository
 * @property {string} name tag name without refs/tags/
 * @property {string} commit the commit it points at (annotated tags dereferenced)
 */

/**
 * @typedef {object} TagCandidate a tag that matched a product line's tagPattern
 * @property {string} product
 * @property {string} line
 * @property {string} version group 1 of the tagPattern
 * @property {string} tag
 * @property {string} commit
 */

/**
 * @typedef {object} MatrixEntry one job of the benchmark workflow's matrix
 * @property {string} product
 * @property {string} line
 * @property {string} version
 * @property {string} tag
 * @property {string} commit
 * @property {string} hostClass
 * @property {string} suite the host class's suite (its `scale`) unless overridden
 */

/**
 * @typedef {object} DiscoverResult
 * @property {{include: MatrixEntry[]}} matrix newest versions first, lines interleaved, at most `max` entries
 * @property {number} pending entries not yet benchmarked (before the `max` cut)
 * @property {{product: string, line: string, version: string, hostClass: string, reason: string}[]} skipped
 *   versions left out, with why (already benchmarked, below the floor)
 */
