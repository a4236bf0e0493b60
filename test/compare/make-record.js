/**
 * Builds RunRecords with exact, hand-chosen numbers for the compare tests (no randomness).
 * Not a test file: imported by them.
 */

/**
 * @typedef {object} StepSpec
 * @property {string} name
 * @property {'point'|'range'|'range-agg'|'write'} [group]
 * @property {number[]} [throughput] one per repeat
 * @property {number[]} [cpuUsPerOp] one per repeat
 * @property {number[][]} [intervals] per repeat, per-second qps
 * @property {number[]} [kbWrittenPerOp] one per repeat
 * @property {'processes'} [cpuScope] how cpuUsPerOp was counted (absent: the whole machine, older records)
 * @property {number[]} [instances] server instance of each repeat (absent: older records)
 * @property {number} [durationS] of every repeat (default 3)
 * @property {'ok'|'failed'} [status]
 * @property {string} [reason]
 */

/**
 * @param {{id: string, version: string, steps: StepSpec[], hostClass?: string, line?: string}} spec
 * @returns {import('../../scripts/types.js').RunRecord}
 */
export function makeRecord(spec) {
  return {
    schemaVersion: 2,
    id: spec.id,
    startedAt: '2025-01-01T00:00:00Z',
    finishedAt: '2025-01-01T01:00:00Z',
    status: spec.steps.some((s) => s.status === 'failed') ? 'failed' : 'ok',
    release: { product: 'mariadb', line: spec.line ?? '10.11', version: spec.version, tag: null, commit: null, provider: 'deb', buildProfile: null, buildFlags: null, binarySha256: '0'.repeat(64), serverVersionString: spec.version, packages: [] },
    host: { class: spec.hostClass ?? 'local', hostname: 'h', cpuModel: 'cpu', cores: 2, kernel: 'k', memoryBytes: 1, governor: null, turbo: null, pinning: { serverCpus: '1', clientCpus: '1' } },
    config: { suite: 'smoke', scale: { tables: 1, tableSize: 1, clients: 1, readDurationS: 3, writeDurationS: 3, warmupS: 1 }, engine: 'innodb', mycnf: { name: 'x', text: '', sha256: '0'.repeat(64) }, tools: {}, repeats: 3 },
    steps: spec.steps.map((s) => ({
      name: s.name,
      kind: 'sysbench',
      group: s.group ?? 'point',
      reported: true,
      metric: 'qps',
      params: {},
      status: s.status ?? 'ok',
      ...(s.reason ? { reason: s.reason } : {}),
      repeats: s.status === 'failed' ? [] : (s.throughput ?? []).map((tp, i) => ({
        index: i,
        ...(s.instances ? { instance: s.instances[i] } : {}),
        startedAt: '2025-01-01T00:00:00Z',
        durationS: s.durationS ?? 3,
        status: /** @type {'ok'} */ ('ok'),
        throughput: tp,
        tps: tp,
        latencyMs: { avg: 1, p95: 2, p99: null, max: 3 },
        errors: 0,
        reconnects: 0,
        intervals: (s.intervals?.[i] ?? []).map((q, t) => ({ t: t + 1, qps: q, tps: q, latencyMs: 1, errors: 0 })),
        efficiency: s.cpuUsPerOp || s.kbWrittenPerOp ? { cpuUsPerOp: s.cpuUsPerOp?.[i] ?? 1, csPerOp: 1, readsPerOp: 0, kbReadPerOp: 0, kbWrittenPerOp: s.kbWrittenPerOp?.[i] ?? 0, ...(s.cpuScope ? { cpuScope: s.cpuScope } : {}) } : null,
        mysqldRssKb: null,
      })),
    })),
    dbSize: { afterLoad: null, atEnd: null },
  };
}
