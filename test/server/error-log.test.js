import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { scanErrorLog } from '../../scripts/server/error-log.js';

/** @param {string} name */
const fixture = (name) => readFile(new URL(`../fixtures/server/${name}`, import.meta.url), 'utf8');

// Real error logs captured from servers started by scripts/server: a clean start, and the same
// server sent SIGSEGV (which runs the server's own fatal-signal handler, as a real crash does).
const CASES = [
  { file: 'mariadb/10.11.18-clean-start.txt', crash: null, errors: 0 },
  { file: 'mariadb/10.11.18-sigsegv.txt', crash: /mariadbd got signal 11/, errors: 1 },
  { file: 'mysql/9.7.4-clean-start.txt', crash: null, errors: 0 },
  { file: 'mysql/9.7.4-sigsegv.txt', crash: /mysqld got signal 11/, errors: 0 },
];

for (const c of CASES) {
  test(`scanErrorLog: ${c.file}`, async () => {
    const r = scanErrorLog(await fixture(c.file));
    if (c.crash === null) assert.equal(r.crash, null);
    else assert.match(String(r.crash), c.crash);
    assert.equal(r.errors.length, c.errors);
  });
}

test('InnoDB assertion failures and startup aborts count as crashes; other [ERROR] lines are only listed', () => {
  const assertion = scanErrorLog('2024-01-01 0 [ERROR] InnoDB: Assertion failure in file btr0cur.cc line 300\n');
  assert.match(String(assertion.crash), /Assertion failure/);
  const abort = scanErrorLog('2024-01-01 0 [ERROR] Aborting\n');
  assert.match(String(abort.crash), /Aborting/);
  const plain = scanErrorLog("2024-01-01 5 [ERROR] mariadbd: Table './sbtest/sbtest1' is marked as crashed and should be repaired\n");
  assert.equal(plain.crash, null);
  assert.equal(plain.errors.length, 1);
});
