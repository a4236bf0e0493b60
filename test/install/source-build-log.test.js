// Progress and failure excerpts from real build output (captured from cmake 3.25 building
// test/fixtures/install/source-fake-server with make and with ninja, and a broken tag with gcc 12).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describeProgress, excerptBuildLog, formatDuration, parseBuildProgress } from '../../scripts/install/source/build-log.js';

/** @param {string} name */
const fixture = (name) => readFile(new URL(`../fixtures/install/source-build-output/${name}`, import.meta.url), 'utf8');

for (const name of ['cmake-3.25-make-ok.txt', 'cmake-3.25-ninja-ok.txt']) {
  test(`build progress: ${name} rises to 100 %`, async () => {
    const values = (await fixture(name)).split('\n').map(parseBuildProgress).filter((v) => v !== null);
    assert.ok(values.length >= 3, `progress lines found: ${values.length}`);
    for (let i = 1; i < values.length; i++) assert.ok(values[i] >= values[i - 1], `line ${i}: ${values[i]} after ${values[i - 1]}`);
    assert.equal(values.at(-1), 1);
  });
}

test('build progress: lines that are not progress', () => {
  for (const line of ['', '-- Configuring done', 'make[2]: Leaving directory', '[100%] Built target x extra'.slice(1), 'warning: [ 5%] odd']) {
    assert.equal(parseBuildProgress(line), null, line);
  }
  assert.equal(parseBuildProgress('[ 42%] Building CXX object sql/CMakeFiles/sql.dir/handler.cc.o'), 0.42);
  assert.equal(parseBuildProgress('[1234/4936] Building CXX object storage/innobase/CMakeFiles/innobase.dir/btr/btr0cur.cc.o'), 1234 / 4936);
});

test('build failure excerpt: the compiler error comes first, then the tail', async () => {
  const text = await fixture('cmake-3.25-make-gcc-12-error.txt');
  const excerpt = excerptBuildLog(text);
  const [errors, tail] = excerpt.split('  last lines of the log:');
  assert.match(errors, /first error lines:\n.*error: .*tagbench_undeclared_identifier/);
  const lastLine = text.trimEnd().split('\n').at(-1) ?? '';
  assert.ok(tail.trimEnd().endsWith(lastLine.trim()), 'the tail ends with the log\'s last line');
  assert.equal(excerptBuildLog('a\nb\n', { tail: 1 }), '  last lines of the log:\n    b');
});

test('durations and progress lines', () => {
  assert.deepEqual([8, 750, 3720, 0].map(formatDuration), ['8s', '12m30s', '1h02m', '0s']);
  assert.equal(describeProgress(0.5, 600), '50% after 10m00s, about 10m00s left');
  assert.equal(describeProgress(0.01, 30), '1% after 30s');
});
