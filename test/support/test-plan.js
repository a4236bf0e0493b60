#!/usr/bin/env node
/**
 * Which test files run alone and which run side by side, and in what order (setup/test.sh).
 *
 * Most files run side by side (`node --test --test-concurrency=N`): their real servers run fixed
 * durations or fixed work, each on its own ports and work folders, and what they assert holds
 * on a loaded host (a throttled server at a tenth of a CPU is a regression whatever the
 * neighbours do). A file whose assertion needs a decided verdict between two releases that
 * perform alike (an A/A probe must come out "unchanged") measures the host's noise, and runs
 * alone, before the others, on a quiet machine.
 *
 * Usage: node test/support/test-plan.js alone|together   prints one file per line
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Files that need a quiet host, and why. */
export const ALONE = Object.freeze({
  // Its A/A probe (c2) must be decided unchanged within the adaptive budget: noise from other
  // files' servers would leave it inconclusive and the bisection would stop.
  'test/verify/bisect-servers.test.js': 'an A/A probe must be decided unchanged',
});

/**
 * The slowest files first (measured with test/support/slowest-tests.js on the 2-core host), so
 * the side-by-side run does not end waiting on one long file started last. Files not listed
 * follow in name order.
 */
export const SLOW_FIRST = Object.freeze([
  'test/github-workflows/benchmark-act.test.js',
  'test/github-workflows/watch-act.test.js',
]);

/**
 * @param {'alone'|'together'} which
 * @returns {Promise<string[]>} test files relative to the project root
 * @throws {Error} for another argument, or a listed file that does not exist
 */
export async function planTestFiles(which) {
  if (which !== 'alone' && which !== 'together') throw new Error(`test-plan: expected 'alone' or 'together', got '${which}'`);
  const entries = await readdir(join(ROOT, 'test'), { recursive: true, withFileTypes: true });
  const all = entries.filter((e) => e.isFile() && e.name.endsWith('.test.js'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name))).sort();
  const missing = [...Object.keys(ALONE), ...SLOW_FIRST].filter((f) => !all.includes(f));
  if (missing.length > 0) throw new Error(`test/support/test-plan.js lists files that do not exist: ${missing.join(', ')}`);
  if (which === 'alone') return Object.keys(ALONE);
  const together = all.filter((f) => !(f in ALONE));
  return [...SLOW_FIRST.filter((f) => together.includes(f)), ...together.filter((f) => !SLOW_FIRST.includes(f))];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const f of await planTestFiles(/** @type {any} */ (process.argv[2]))) console.log(f);
}
