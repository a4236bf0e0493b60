/**
 * A node:test reporter that writes one JSON line per finished test and one per test file, for
 * `test/support/slowest-tests.js`. A file's time is what the runner reports for the file as a
 * whole (its `test:complete` whose name is the file: module-level setup such as installs, server
 * starts and table loads in `before` hooks included), which no single test's duration shows.
 *
 * Use: `node --test --test-reporter=./test/support/timing-reporter.js
 *   --test-reporter-destination=FILE ...` (beside any other reporter).
 */

/**
 * @param {AsyncIterable<{type: string, data: any}>} source node:test's event stream
 * @returns {AsyncGenerator<string>}
 */
export default async function* timingReporter(source) {
  /** @type {Map<string, {tests: number, failed: number}>} */
  const counts = new Map();
  for await (const event of source) {
    const { file, name } = event.data ?? {};
    if (typeof file !== 'string') continue;
    const count = counts.get(file) ?? { tests: 0, failed: 0 };
    counts.set(file, count);
    if (name === file) {
      // The runner's own entry for the file's process, reported when the process has ended.
      if (event.type === 'test:complete') {
        yield `${JSON.stringify({ kind: 'file', file, spanMs: event.data.details?.duration_ms ?? null, tests: count.tests, failed: count.failed })}\n`;
      }
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    count.tests += 1;
    if (event.type === 'test:fail') count.failed += 1;
    yield `${JSON.stringify({
      kind: 'test', file, name, nesting: event.data.nesting,
      status: event.type === 'test:pass' ? 'pass' : 'fail', durationMs: event.data.details?.duration_ms ?? null,
    })}\n`;
  }
}
