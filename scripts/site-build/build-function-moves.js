/**
 * Where a test's instructions went, as the pages draw it: the compare stage's function moves of
 * its instructions verdict, with only what the page shows of each function, and compare's own
 * sentences (the label of a named list that explains under half of the difference, where the
 * code without a name is and the command that names it), so the release page, the test page,
 * the terminal and the report say it in the same words. Pure.
 */
import { describeListedShare, describeUnnamed, namingCommand } from '../compare/index.js';

/** @import { FunctionMoves, Comparison } from './types.js' */

/**
 * @typedef {object} TestFunctionMoves
 * @property {string} test
 * @property {string} metric the metric of the verdict the functions break down
 * @property {FunctionMoves} functions
 * @property {{listed: string|null, unnamed: string}} words
 */

/**
 * @param {Comparison} comparison
 * @param {string} test
 * @returns {TestFunctionMoves|null} null when the test's instructions verdict has no function moves
 */
export function testFunctionMoves(comparison, test) {
  const v = comparison.tests.find((t) => t.test === test && t.functions);
  if (!v) return null;
  const m = /** @type {FunctionMoves} */ (v.functions);
  return { test, metric: v.metric, functions: slimMoves(m), words: { listed: describeListedShare(m), unnamed: describeUnnamed(m, { command: namingCommand(comparison) }) } };
}

/**
 * The functions with only what the page draws of each (the compare stage's bookkeeping, missing
 * repeats and ranking, stays in the comparison download).
 * @param {FunctionMoves} m
 * @returns {FunctionMoves}
 */
function slimMoves(m) {
  const row = (/** @type {FunctionMoves['added'][number]} */ f) => ({
    name: f.name, object: f.object, base: f.base, candidate: f.candidate, selfDelta: f.selfDelta, inclusiveDelta: f.inclusiveDelta,
  });
  return /** @type {FunctionMoves} */ ({ ...m, added: m.added.map(row), removed: m.removed.map(row) });
}
