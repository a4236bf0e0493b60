/**
 * Turn the samplers' raw output into StepSamples (pure): parse vmstat and iostat text, drop their
 * since-boot first line/report, sum the counted devices, and diff SHOW GLOBAL STATUS.
 */
import { parseVmstat } from './parse-vmstat.js';
import { parseIostat } from './parse-iostat.js';

/** @typedef {import('./types.js').StepSamples} StepSamples */
/** @typedef {import('./types.js').IoSecond} IoSecond */
/** @typedef {import('./types.js').DeviceSelection} DeviceSelection */
/** @typedef {import('./types.js').RssSecond} RssSecond */

/**
 * @typedef {object} RawSamples
 * @property {string} startedAt ISO 8601
 * @property {number} durationS wall-clock seconds sampled
 * @property {number} intervalS
 * @property {number} cores online CPUs
 * @property {string} vmstatText stdout of `vmstat -n <intervalS>`
 * @property {string} iostatText stdout of `iostat -dxk <intervalS>`
 * @property {DeviceSelection} devices
 * @property {RssSecond[]} rss
 * @property {number|null} rssKb at stop
 * @property {Record<string, string>|null} [statusIdle] SHOW GLOBAL STATUS read right before statusBefore
 * @property {Record<string, string>|null} statusBefore SHOW GLOBAL STATUS as name -> value
 * @property {Record<string, string>|null} statusAfter
 * @property {string[]} warnings
 */

/**
 * @param {RawSamples} raw
 * @returns {StepSamples}
 * @throws never: a parse failure becomes a warning and empty samples for that tool
 */
export function computeStepSamples(raw) {
  const warnings = [...raw.warnings];
  const { intervalS } = raw;
  /** @type {StepSamples['cpu']} */
  let cpu = [];
  try {
    cpu = parseVmstat(raw.vmstatText).slice(1).map((s, i) => ({
      t: (i + 1) * intervalS, usPct: s.usPct, syPct: s.syPct, idPct: s.idPct, waPct: s.waPct, stPct: s.stPct, csPerS: s.csPerS, runnable: s.runnable,
    }));
  } catch (err) {
    warnings.push(`vmstat output not understood: ${err instanceof Error ? err.message : String(err)}`);
  }
  /** @type {Record<string, IoSecond[]>} */
  const ioByDevice = {};
  /** @type {IoSecond[]} */
  const io = [];
  try {
    const counted = new Set(raw.devices.devices);
    for (const [i, report] of parseIostat(raw.iostatText).slice(1).entries()) {
      const t = (i + 1) * intervalS;
      /** @type {IoSecond} */
      const sum = { t, readsPerS: 0, writesPerS: 0, kbReadPerS: 0, kbWrittenPerS: 0 };
      for (const d of report.devices) {
        const sec = { t, readsPerS: d.readsPerS, writesPerS: d.writesPerS, kbReadPerS: d.kbReadPerS, kbWrittenPerS: d.kbWrittenPerS };
        (ioByDevice[d.device] ??= []).push(sec);
        if (!counted.has(d.device)) continue;
        sum.readsPerS += d.readsPerS;
        sum.writesPerS += d.writesPerS;
        sum.kbReadPerS += d.kbReadPerS;
        sum.kbWrittenPerS += d.kbWrittenPerS;
      }
      io.push(sum);
    }
  } catch (err) {
    warnings.push(`iostat output not understood: ${err instanceof Error ? err.message : String(err)}`);
  }
  const rssValues = raw.rss.map((r) => r.rssKb).concat(raw.rssKb ?? []);
  return {
    startedAt: raw.startedAt,
    durationS: raw.durationS,
    intervalS,
    cores: raw.cores,
    cpu,
    io,
    ioByDevice,
    devices: raw.devices,
    rss: raw.rss,
    rssKb: raw.rssKb,
    rssMaxKb: rssValues.length > 0 ? Math.max(...rssValues) : null,
    status: raw.statusBefore && raw.statusAfter
      ? { before: raw.statusBefore, after: raw.statusAfter, delta: computeStatusDelta(raw.statusBefore, raw.statusAfter), ...(raw.statusIdle ? { idle: raw.statusIdle } : {}) }
      : null,
    warnings,
  };
}

/**
 * after - before for every variable numeric in both (counters and gauges alike; a gauge's
 * delta is its change). Non-numeric variables (ON/OFF, versions) are left out.
 * @param {Record<string, string>} before
 * @param {Record<string, string>} after
 * @returns {Record<string, number>}
 */
export function computeStatusDelta(before, after) {
  /** @type {Record<string, number>} */
  const delta = {};
  for (const [name, a] of Object.entries(after)) {
    const b = before[name];
    if (b === undefined || a.trim() === '' || b.trim() === '') continue;
    const na = Number(a);
    const nb = Number(b);
    if (Number.isFinite(na) && Number.isFinite(nb)) delta[name] = na - nb;
  }
  return delta;
}
