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
  for await (const event of source) {
    const { file, name } = event.data ?? {};
    if (typeof file !== 'string') continue;
    if (name === file) {
      // The runner's own entry for the file's process, reported when the process has ended
      // (before the file's own test events when files run side by side: those come in file order).
      if (event.type === 'test:complete') {
        yield `${JSON.stringify({ kind: 'file', file, spanMs: event.data.details?.duration_ms ?? null, passed: event.data.details?.passed ?? null })}\n`;
      }
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    yield `${JSON.stringify({
      kind: 'test', file, name, nesting: event.data.nesting,
      status: event.type === 'test:pass' ? 'pass' : 'fail', durationMs: event.data.details?.duration_ms ?? null,
    })}\n`;
  }
}
