/**
 * The test page's per-second charts of the picked repeats (throughput and latency), or, in place
 * of bare axes, a note saying why there is nothing to draw: the step ran too short for a
 * per-second picture, no run is picked, no samples are on this site, or the benchmark records no
 * per-second figure (LinkBench's latencies are per operation over a phase).
 */
import { loadJson } from '../data.js';
import { fmtSeconds } from '../format.js';

/**
 * What a per-second chart says instead of bare axes: that the repeats it would draw (the picked
 * ones, or every repeat when none has samples on this site) ran too short for a per-second
 * picture, that none is picked, or that no samples of the test are here.
 * @param {any} d
 * @param {any[]} choices repeats with a per-second series file
 * @param {any[]} chosen the picked ones
 * @returns {string|null} null: draw the chart
 */
function perSecondNote(d, choices, chosen) {
  /** @type {any[]} */
  const repeats = chosen.length > 0
    ? chosen.map((c) => c.run.repeats.find((/** @type {any} */ r) => r.index === c.repeat))
    : choices.length > 0 ? [] : d.releases.flatMap((/** @type {any} */ r) => r.runs.flatMap((/** @type {any} */ run) => run.repeats));
  if (repeats.length > 0 && repeats.every((r) => r.tooShortForPerSecond)) {
    return `this step ran ${fmtSeconds(Math.max(...repeats.map((r) => r.durationS)))}: too short for a per-second picture`;
  }
  if (chosen.length > 0) return null;
  return choices.length > 0 ? 'no run picked: pick runs above to overlay' : 'no per-second samples of this test on this site';
}

/**
 * A chart that says why it draws nothing, in place of bare axes.
 * @param {string} note
 */
function noteOption(note) {
  return {
    title: { show: true, text: note, left: 'center', top: 'middle', textStyle: { fontSize: 14, fontWeight: 'normal' } },
    tooltip: { show: false }, legend: { show: false }, xAxis: { show: false }, yAxis: { show: false }, series: [],
  };
}

/**
 * @param {any} d
 * @param {any[]} choices
 * @param {string[]} ids chosen `<run-id>:<repeat>`
 * @param {'qps'|'latency'} what
 */
export async function perSecondOption(d, choices, ids, what) {
  const chosen = choices.filter((c) => ids.includes(c.id));
  const note = perSecondNote(d, choices, chosen);
  if (note) return noteOption(note);
  const files = await Promise.all(chosen.map((c) => loadJson(c.run.series)));
  let longest = 0;
  const series = chosen.map((c, i) => {
    const rep = files[i].repeats.find((/** @type {any} */ r) => r.index === c.repeat);
    const ys = what === 'qps' ? rep.qps : (rep.maxLatencyMs ?? rep.latencyMs);
    longest = Math.max(longest, rep.t.length);
    return { name: c.short, type: 'line', showSymbol: false, sampling: 'lttb',
      data: rep.t.map((/** @type {number} */ t, /** @type {number} */ j) => [t, ys?.[j] ?? null]) };
  });
  // LinkBench reports no per-second latency (its latencies are per operation type over a phase):
  // bare axes would look like a chart that failed to load.
  if (series.every((x) => x.data.every((/** @type {any[]} */ [, y]) => y === null || y === undefined))) {
    return noteOption(what === 'qps' ? `no per-second ${d.metric} recorded for ${d.test}` : `no per-second latency recorded for ${d.test}: its benchmark times each operation over a phase (the release page has them)`);
  }
  // show: true and an empty title undo a note drawn before (chart updates merge options)
  return {
    title: { show: false, text: '' },
    tooltip: { show: true, trigger: 'axis' },
    legend: { show: true, type: 'scroll', top: 0 },
    grid: { left: 70, right: 16, top: 36, bottom: longest > 300 ? 64 : 40 },
    xAxis: { show: true, type: 'value', name: 's', min: 0 },
    yAxis: { show: true, type: 'value', name: what === 'qps' ? d.metric : 'ms', scale: what === 'qps' ? false : true },
    dataZoom: longest > 300 ? [{ type: 'slider', bottom: 6, height: 18 }, { type: 'inside' }] : [],
    series,
  };
}
