/**
 * Golden-file helper for table-driven parser tests: compares a value with `<name>.expected.json`
 * beside the fixture; UPDATE_GOLDEN=1 rewrites the file instead (then review the diff).
 */
import { readFile, writeFile } from 'node:fs/promises';
import assert from 'node:assert/strict';

/**
 * @param {URL} fixture the input file; the golden file is `<fixture without .txt>.expected.json`
 * @param {unknown} actual
 */
export async function assertGolden(fixture, actual) {
  const golden = new URL(fixture.href.replace(/\.txt$/, '.expected.json'));
  const json = `${JSON.stringify(actual, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') {
    await writeFile(golden, json);
    return;
  }
  const expected = await readFile(golden, 'utf8').catch(() => {
    throw new Error(`no golden file ${golden.pathname}; run with UPDATE_GOLDEN=1 to create it, then review it`);
  });
  assert.deepEqual(actual, JSON.parse(expected));
}

/**
 * @param {string} rel path under test/fixtures/metrics/
 */
export function fixture(rel) {
  return new URL(`../fixtures/metrics/${rel}`, import.meta.url);
}
