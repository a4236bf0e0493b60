/**
 * Quality of service of one repeat from its per-second rates: low percentiles of the rate, the
 * coefficient of variation, and stalls. A stall is a run of consecutive seconds whose rate is
 * below `stallFraction` x the repeat's median per-second rate (the seed posts' "stalls" show
 * as such dips in per-second insert rates). The insert benchmark reuses this on its rates.
 */
import { quantileSorted, mean, sampleStandardDeviation } from 'simple-statistics';

/**
 * @param {{t: number, qps: number}[]} intervals per-second samples in time order (t = seconds
 *   since start, the end of each interval as sysbench prints it)
 * @param {{stallFraction: number}} options
 * @returns {import('./types.js').Qos|null} null when there are no samples
 */
export function computeQos(intervals, options) {
  if (intervals.length === 0) return null;
  const rates = intervals.map((i) => i.qps);
  const sorted = [...rates].sort((a, b) => a - b);
  const p50 = quantileSorted(sorted, 0.5);
  const avg = mean(rates);
  // cv of a single sample is undefined; 0 keeps the shape numeric and is flagged by `seconds`
  const cv = rates.length > 1 && avg > 0 ? sampleStandardDeviation(rates) / avg : 0;
  const stallThreshold = options.stallFraction * p50;
  /** @type {{startT: number, lengthS: number}[]} */
  const stalls = [];
  /** @type {{startT: number, lengthS: number}|null} */
  let open = null;
  const lengths = intervalLengthsS(intervals);
  for (let i = 0; i < intervals.length; i++) {
    const lengthS = lengths[i];
    if (rates[i] < stallThreshold) {
      if (open) open.lengthS += lengthS;
      else {
        open = { startT: intervals[i].t - lengthS, lengthS };
        stalls.push(open);
      }
    } else open = null;
  }
  const stallS = stalls.reduce((s, x) => s + x.lengthS, 0);
  const totalS = lengths.reduce((a, b) => a + b, 0);
  return {
    seconds: intervals.length,
    p1: quantileSorted(sorted, 0.01),
    p5: quantileSorted(sorted, 0.05),
    p50,
    cv,
    stallThreshold,
    stalls,
    stallCount: stalls.length,
    stallS,
    longestStallS: stalls.reduce((m, x) => Math.max(m, x.lengthS), 0),
    stallShare: totalS > 0 ? stallS / totalS : 0,
  };
}

/**
 * Length of each sample's interval: the gap to the previous sample; the first sample gets the
 * next gap (sysbench's --report-interval is regular), or 1 s when it is alone.
 * @param {{t: number}[]} intervals
 * @returns {number[]} seconds
 */
function intervalLengthsS(intervals) {
  return intervals.map((x, i) => {
    if (i > 0) return x.t - intervals[i - 1].t;
    return intervals.length > 1 ? intervals[1].t - x.t : 1;
  });
}
