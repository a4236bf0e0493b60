/**
 * Builds and updates RunRecords in memory as a run proceeds. Pure: the caller supplies times
 * and results; nothing here touches the disk or the clock.
 */

/** The format this run stage writes: run-record.schema.json's schemaVersion (test/store/migrate-store.test.js checks they agree). */
export const RECORD_SCHEMA_VERSION = 2;

/**
 * @param {object} p
 * @param {string} p.id
 * @param {string} p.startedAt ISO time
 * @param {import('./types.js').RunRelease} p.release
 * @param {import('../types.js').RecordHost} p.host
 * @param {import('../types.js').RecordConfig} p.config
 * @param {import('./types.js').StepPlanLike[]} p.steps
 * @returns {import('../types.js').RunRecord}
 */
export function createRecord({ id, startedAt, release, host, config, steps }) {
  const { install } = release;
  const prov = install.provenance;
  return {
    schemaVersion: RECORD_SCHEMA_VERSION,
    id,
    startedAt,
    finishedAt: null,
    status: 'partial',
    release: {
      product: release.product,
      line: release.line,
      version: release.version,
      tag: prov.tag ?? null,
      commit: prov.commit ?? null,
      ...(release.movedFrom ? { movedFrom: release.movedFrom } : {}),
      ...(release.refRun ? { ref: structuredClone(release.refRun) } : {}),
      provider: install.provider,
      buildProfile: prov.buildProfile ?? null,
      buildFlags: prov.buildFlags ?? null,
      binarySha256: prov.serverSha256,
      serverVersionString: prov.serverVersionString,
      packages: prov.packages.map((p) => ({ name: p.name, version: p.version })),
    },
    host,
    config,
    steps: steps.map((s) => ({
      name: s.name,
      kind: s.kind,
      group: s.group,
      reported: s.reported,
      metric: s.metric,
      params: { ...(s.params ?? {}) },
      status: 'skipped',
      reason: 'not run yet',
      repeats: [],
    })),
    dbSize: { afterLoad: null, atEnd: null },
  };
}

/**
 * Add one repeat's result to a step; the step's status follows its repeats: failed as soon as
 * one repeat failed (a failed repeat is never averaged in as 0 QPS), ok when all are ok.
 * @param {import('../types.js').RunRecord} record
 * @param {number} stepIndex
 * @param {import('../types.js').Repeat} repeat
 * @param {string} [logExcerpt] tail of the server error log / tool output when it failed
 */
export function addRepeat(record, stepIndex, repeat, logExcerpt) {
  const step = record.steps[stepIndex];
  step.repeats.push(repeat);
  if (repeat.status === 'failed') {
    step.status = 'failed';
    step.reason = repeat.reason ?? 'repeat failed';
    if (logExcerpt) step.logExcerpt = logExcerpt;
  } else if (step.status !== 'failed') {
    step.status = 'ok';
    delete step.reason;
  }
}

/**
 * Mark a setup step (load, postwrite, warm-up) done or failed.
 * @param {import('../types.js').RunRecord} record
 * @param {number} stepIndex
 * @param {{ok: boolean, reason?: string, logExcerpt?: string}} outcome
 */
export function markStep(record, stepIndex, outcome) {
  const step = record.steps[stepIndex];
  step.status = outcome.ok ? 'ok' : 'failed';
  if (outcome.ok) delete step.reason;
  else step.reason = outcome.reason ?? 'failed';
  if (outcome.logExcerpt) step.logExcerpt = outcome.logExcerpt;
}

/**
 * Every step not run yet is skipped with `reason` (after a crash, or on interruption).
 * @param {import('../types.js').RunRecord} record
 * @param {string} reason
 */
export function skipRemaining(record, reason) {
  for (const step of record.steps) {
    if (step.status === 'skipped' && step.reason === 'not run yet') step.reason = reason;
  }
}

/**
 * Close the record: status `partial` when interrupted, `failed` when any step failed or was
 * skipped because of a failure, `ok` otherwise.
 * @param {import('../types.js').RunRecord} record
 * @param {string} finishedAt
 * @param {{interrupted?: boolean, reason?: string}} [how]
 * @returns {import('../types.js').RunRecord}
 */
export function finishRecord(record, finishedAt, how = {}) {
  record.finishedAt = finishedAt;
  // A counting meter's failed repeats fail the record too, named with the meter.
  const failed = record.steps.flatMap((s) => [
    ...(s.status === 'failed' ? [s.name] : []),
    ...Object.entries(s.meters ?? {}).filter(([, m]) => m.status === 'failed').map(([meter]) => `${s.name} (${meter})`),
  ]);
  if (how.interrupted) {
    record.status = 'partial';
    record.reason = how.reason ?? 'interrupted';
    skipRemaining(record, record.reason);
  } else if (failed.length > 0 || how.reason) {
    record.status = 'failed';
    record.reason = how.reason ?? `${failed.length} step(s) failed: ${failed.join(', ')}`;
  } else {
    record.status = 'ok';
    delete record.reason;
  }
  return record;
}
