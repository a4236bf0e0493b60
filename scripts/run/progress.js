/**
 * Progress of a run on stderr: which release, which step, which repeat, how long it has taken
 * and how long is left, and a sparkline of the per-second rate of the repeat that just ended
 * (a stall shows as a dip at a glance).
 */
import { estimateRemainingS } from './schedule.js';

const BARS = '▁▂▃▄▅▆▇█';

/**
 * Render per-second values as a one-line sparkline scaled from 0 to the maximum, so that a
 * dip to half the rate looks like half height.
 * @param {number[]} values
 * @param {number} [width] at most this many characters (values are bucket-averaged)
 * @returns {string}
 */
export function renderSparkline(values, width = 40) {
  if (values.length === 0) return '';
  const buckets = bucketAverages(values, width);
  const max = Math.max(...buckets);
  if (!(max > 0)) return BARS[0].repeat(buckets.length);
  return buckets.map((v) => BARS[Math.min(BARS.length - 1, Math.floor((v / max) * (BARS.length - 1) + 0.5))]).join('');
}

/**
 * @param {number[]} values
 * @param {number} width
 */
function bucketAverages(values, width) {
  if (values.length <= width) return values;
  const out = [];
  for (let i = 0; i < width; i++) {
    const from = Math.floor((i * values.length) / width);
    const to = Math.floor(((i + 1) * values.length) / width);
    const slice = values.slice(from, Math.max(to, from + 1));
    out.push(slice.reduce((s, v) => s + v, 0) / slice.length);
  }
  return out;
}

/**
 * @param {number} s seconds
 * @returns {string} e.g. `4m05s`, `7h05m` from an hour on
 */
export function formatDuration(s) {
  const total = Math.max(0, Math.round(s));
  if (total >= 3600) {
    const minutes = Math.round(total / 60);
    return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
  }
  const m = Math.floor(total / 60);
  const sec = total % 60;
  return m > 0 ? `${m}m${String(sec).padStart(2, '0')}s` : `${sec}s`;
}

/**
 * @param {import('./schedule.js').ScheduledAction[]} schedule
 * @param {{write: (text: string) => void, now: () => number}} io
 */
export function createProgress(schedule, io) {
  const started = io.now();
  let done = 0;
  const total = schedule.length;
  return {
    /** @param {import('./schedule.js').ScheduledAction} action */
    begin(action) {
      const elapsedS = (io.now() - started) / 1000;
      const left = done > 0 ? `~${formatDuration(estimateRemainingS(schedule, done, elapsedS))} left` : 'estimating';
      const rep = action.repeats > 1 ? ` repeat ${action.repeat + 1}/${action.repeats}` : '';
      io.write(`[${done + 1}/${total}] ${action.release} ${action.step.name}${rep} · ${formatDuration(elapsedS)} elapsed, ${left}\n`);
    },
    /**
     * @param {import('./schedule.js').ScheduledAction} action
     * @param {{status: string, throughput?: number|null, metric?: string, intervals?: number[], reason?: string}} result
     */
    end(action, result) {
      done += 1;
      if (result.status !== 'ok') {
        io.write(`    ✗ ${action.step.name} failed: ${result.reason ?? 'unknown reason'}\n`);
      } else if (typeof result.throughput === 'number') {
        const spark = result.intervals?.length ? `  ${renderSparkline(result.intervals)}` : '';
        io.write(`    ${Math.round(result.throughput).toLocaleString('en-US')} ${result.metric ?? ''}${spark}\n`);
      }
    },
    /** @param {string} text */
    note(text) {
      io.write(`    ${text}\n`);
    },
  };
}
