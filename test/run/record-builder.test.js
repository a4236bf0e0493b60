import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRecord, addRepeat, markStep, skipRemaining, finishRecord } from '../../scripts/run/record-builder.js';

function newRecord() {
  const install = /** @type {any} */ ({
    provider: 'deb',
    provenance: { serverSha256: 'ab'.repeat(32), serverVersionString: 'mariadbd Ver 10.11.18', packages: [{ name: 'mariadb-server-core', version: '1:10.11.18-0+deb12u1', sha256: 'x' }], tag: null, commit: null, buildProfile: null, buildFlags: null },
  });
  return createRecord({
    id: 'r1', startedAt: '2026-11-21T13:00:00Z',
    release: { key: 'mariadb@10.11.18', product: 'mariadb', version: '10.11.18', line: '10.11', install },
    host: /** @type {any} */ ({ class: 'local' }),
    config: /** @type {any} */ ({ suite: 'smoke' }),
    steps: /** @type {any[]} */ ([
      { name: 'load', kind: 'load', group: 'setup', reported: false, metric: 'qps' },
      { name: 'point-query', kind: 'sysbench', group: 'point', reported: true, metric: 'qps' },
      { name: 'insert', kind: 'sysbench', group: 'write', reported: true, metric: 'qps' },
    ]),
  });
}

/** @param {'ok'|'failed'} status */
const repeat = (status, index = 0) => ({ index, startedAt: 't', durationS: 3, status, throughput: status === 'ok' ? 100 : 0, tps: 0, latencyMs: { avg: 1, p95: 2, p99: null, max: 3 }, errors: 0, reconnects: 0, intervals: [], efficiency: null, mysqldRssKb: null, ...(status === 'failed' ? { reason: 'boom' } : {}) });

test('a new record is partial, keeps provenance, and every step waits', () => {
  const r = newRecord();
  assert.equal(r.status, 'partial');
  assert.equal(r.release.binarySha256, 'ab'.repeat(32));
  assert.deepEqual(r.release.packages, [{ name: 'mariadb-server-core', version: '1:10.11.18-0+deb12u1' }]);
  assert.ok(r.steps.every((s) => s.status === 'skipped' && s.reason === 'not run yet'));
});

test('all ok steps give an ok record', () => {
  const r = newRecord();
  markStep(r, 0, { ok: true });
  addRepeat(r, 1, repeat('ok'));
  addRepeat(r, 2, repeat('ok'));
  finishRecord(r, 'end');
  assert.equal(r.status, 'ok');
  assert.equal(r.reason, undefined);
});

test('one failed repeat fails its step and the record, and later repeats do not hide it', () => {
  const r = newRecord();
  markStep(r, 0, { ok: true });
  addRepeat(r, 1, repeat('failed', 0), 'mysqld got signal 9');
  addRepeat(r, 1, repeat('ok', 1));
  skipRemaining(r, 'not run: server crashed');
  finishRecord(r, 'end');
  assert.equal(r.steps[1].status, 'failed');
  assert.equal(r.steps[1].logExcerpt, 'mysqld got signal 9');
  assert.equal(r.steps[2].reason, 'not run: server crashed');
  assert.equal(r.status, 'failed');
  assert.match(r.reason ?? '', /1 step\(s\) failed: point-query/);
});

test('an interrupted record is partial with every unrun step explained', () => {
  const r = newRecord();
  markStep(r, 0, { ok: true });
  finishRecord(r, 'end', { interrupted: true, reason: 'interrupted by a signal' });
  assert.equal(r.status, 'partial');
  assert.equal(r.steps[1].reason, 'interrupted by a signal');
});
