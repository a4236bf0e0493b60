/**
 * checkCounters for real on this VM (perf 6.1 installed, no PMU, run as root), without perf, and
 * the advice for each perf_event_paranoid level a non-root runner may meet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCounters, countersCheckResult, renderCountersAdvice } from '../../scripts/doctor/check-counters.js';

test('checkCounters on this host: perf installed, no PMU, perf_event_paranoid read from /proc', async () => {
  const report = await checkCounters();
  assert.match(report.perfVersion ?? '', /^\d+\.\d+/);
  assert.equal(report.pmu, 'not available', 'this VM has no hardware PMU (perf stat -e instructions: <not supported>)');
  assert.equal(report.ok, false);
  assert.ok(report.paranoid !== null && Number.isInteger(report.paranoid));
  assert.match(report.advice, /<not supported>: no hardware PMU perf can use .* event sources: .*software/);
  assert.match(report.advice, process.getuid?.() === 0 ? /Running as root: perf_event_paranoid \(now -?\d+\) does not limit root/ : /Not root: attaching/);
  const line = countersCheckResult(report);
  assert.deepEqual([line.id, line.status, line.required], ['perf-counters', 'info', false]);
  assert.match(line.detail, /^perf \d+\.\d+\S*, PMU not available, perf_event_paranoid -?\d+$/);
});

test('checkCounters without perf: names the Debian package, and reads paranoid from the given root', async () => {
  const root = await mkdtemp(join(tmpdir(), 'check-counters-'));
  try {
    await mkdir(join(root, 'proc/sys/kernel'), { recursive: true });
    await writeFile(join(root, 'proc/sys/kernel/perf_event_paranoid'), '3\n');
    const report = await checkCounters({ perf: '/nonexistent/perf', root, isRoot: false });
    assert.deepEqual({ ...report, advice: '' }, { ok: false, perfVersion: null, pmu: 'unknown', paranoid: 3, advice: '' });
    assert.match(report.advice, /^perf is not installed .*apt-get install linux-perf\./);
    assert.match(report.advice, /At 3 this user cannot attach at all \(3 is the Debian\/Ubuntu kernel patch's level/);
    const line = countersCheckResult(report);
    assert.equal(line.status, 'fail');
    assert.equal(line.detail, 'perf not installed, PMU unknown, perf_event_paranoid 3');
    const unreadable = await checkCounters({ perf: '/nonexistent/perf', root: join(root, 'missing'), isRoot: false });
    assert.equal(unreadable.paranoid, null);
    assert.match(unreadable.advice, /≤ 2 \(unreadable here\)/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('renderCountersAdvice: what each perf_event_paranoid level allows a non-root runner', () => {
  /** @param {number|null} paranoid @param {boolean} [isRoot] */
  const advice = (paranoid, isRoot = false) => renderCountersAdvice({ perfVersion: '6.1.187', pmu: 'available', paranoid, isRoot, sources: ['cpu', 'software'] });
  assert.match(advice(2), /^perf 6\.1\.187 counts hardware events here/);
  assert.match(advice(2), /needs perf_event_paranoid ≤ 2 \(now 2\) and ptrace read access .* or CAP_PERFMON/);
  assert.match(advice(2), /At 2 only user space is counted .*instructions:u.* counted only at ≤ 1: sysctl -w kernel\.perf_event_paranoid=1/);
  assert.match(advice(2), /This user can attach, user space only\.$/);
  assert.match(advice(1), /This user can attach and count kernel space too\.$/);
  assert.match(advice(-1), /This user can attach and count kernel space too\.$/);
  assert.match(advice(0), /0 only adds CPU-wide counting and -1 raw tracepoints/);
  assert.match(advice(4), /At 4 this user cannot attach at all \(3 is/);
  assert.match(advice(3, true), /Running as root: perf_event_paranoid \(now 3\) does not limit root/);
  assert.doesNotMatch(advice(3, true), /Not root/);
  const unknown = renderCountersAdvice({ perfVersion: '6.1.187', pmu: 'unknown', paranoid: 3, isRoot: false, sources: [], probeNote: 'Error: Access to performance monitoring and observability operations is limited.' });
  assert.match(unknown, /^perf 6\.1\.187 could not count instructions \(Error: Access to performance monitoring/);
  assert.equal(countersCheckResult({ ok: false, perfVersion: '6.1.187', pmu: 'unknown', paranoid: 3, advice: unknown }).status, 'unknown');
  assert.equal(countersCheckResult({ ok: false, perfVersion: '6.1.187', pmu: 'available', paranoid: 3, advice: 'x' }).status, 'warn');
  assert.deepEqual(countersCheckResult({ ok: true, perfVersion: '6.1.187', pmu: 'available', paranoid: 2, advice: 'x' }),
    { id: 'perf-counters', title: 'perf counters', required: false, status: 'ok', detail: 'perf 6.1.187, PMU available, perf_event_paranoid 2', fix: null });
});
