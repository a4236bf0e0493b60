/**
 * The calibration report (bench/calibration-<host-class>.md): false-alarm rate and noise from
 * A/A runs, detection rate of an injected slowdown, MDE per test. Pure: result in, Markdown out.
 */
import { formatPercent, formatRatio, formatValue } from '../format-number.js';

/**
 * @param {any} r the calibration result (see calibrate-host.js)
 * @returns {string}
 */
export function renderCalibration(r) {
  const tp = (/** @type {any} */ c) => c.tests.filter((/** @type {any} */ t) => t.metric === 'throughput');
  const out = [];
  out.push(`# Calibration: ${r.product} ${r.version}, suite ${r.suite}, host class ${r.hostClass}\n\n`);
  out.push(`Measured ${r.createdAt} with \`tagbench calibrate\` on ${r.host.cpuModel} (${r.host.cores} cores, kernel ${r.host.kernel}, pinning server ${r.host.pinning.serverCpus ?? 'none'} / client ${r.host.pinning.clientCpus ?? 'none'}). `);
  out.push(`Tests: ${r.tests.join(', ')}; ${r.repeatsPerSide} repeats per side; thresholds warn/issue per configs/thresholds.yml; ${formatPercent(r.thresholds.confidence)} exact rank intervals (docs/method.md). `);
  out.push('The machine was shared with other work while this ran, so the noise below is what such a host really shows.\n\n');

  out.push('## A/A: false alarms and noise\n\n');
  out.push('Each round runs the release once with twice the repeats; even repeats are compared with odd repeats (they alternate in time, as A B A B does). Regressions found are rerun the same way; a regression confirmed by the rerun is a false alarm.\n\n');
  out.push('| round | run | tests | throughput verdicts: regression / improvement / unchanged / inconclusive / failed | regressions flagged (any metric) | confirmed (false alarms) |\n| --- | --- | ---: | --- | ---: | ---: |\n');
  let flagged = 0;
  let confirmed = 0;
  let gated = 0;
  r.aa.forEach((/** @type {any} */ round, /** @type {number} */ i) => {
    const t = tp(round.comparison);
    const count = (/** @type {string} */ v) => t.filter((/** @type {any} */ x) => x.verdict === v).length;
    const f = round.comparison.tests.filter((/** @type {any} */ x) => x.verdict === 'regression');
    const c = f.filter((/** @type {any} */ x) => x.confirmed === true);
    flagged += f.length;
    confirmed += c.length;
    gated += round.comparison.tests.length;
    out.push(`| ${i + 1} | ${round.runId} | ${t.length} | ${count('regression')} / ${count('improvement')} / ${count('unchanged')} / ${count('inconclusive')} / ${count('failed')} | ${f.length}${f.length ? ` (${f.map((/** @type {any} */ x) => `${x.test} ${x.metric}`).join(', ')})` : ''} | ${c.length}${c.length ? ` (${c.map((/** @type {any} */ x) => `${x.test} ${x.metric}`).join(', ')})` : ''} |\n`);
  });
  out.push(`\n**False-alarm rate: ${confirmed} confirmed of ${gated} gated verdicts (${formatPercent(gated ? confirmed / gated : null)}); before confirmation ${flagged} (${formatPercent(gated ? flagged / gated : null)}).**\n\n`);
  out.push('Noise and minimum detectable effect (MDE) of throughput per test, per A/A round (noise = pooled sd of ln(QPS) within each half, ≈ CV; MDE at the configured power for the repeats per side of a real comparison):\n\n');
  out.push(`| test | ${r.aa.map((/** @type {any} */ _x, /** @type {number} */ i) => `noise ${i + 1}`).join(' | ')} | ${r.aa.map((/** @type {any} */ _x, /** @type {number} */ i) => `MDE ${i + 1}`).join(' | ')} |\n| --- |${r.aa.map(() => ' ---: |').join('')}${r.aa.map(() => ' ---: |').join('')}\n`);
  for (const test of r.tests) {
    const vs = r.aa.map((/** @type {any} */ round) => tp(round.comparison).find((/** @type {any} */ x) => x.test === test));
    out.push(`| ${test} | ${vs.map((/** @type {any} */ v) => formatPercent(v?.noiseCv)).join(' | ')} | ${vs.map((/** @type {any} */ v) => formatPercent(v?.mde)).join(' | ')} |\n`);
  }

  out.push(`\n## Injected slowdown: detection\n\n`);
  const perTest = Object.entries(r.cgroup.quotaByTest ?? {});
  if (perTest.length > 0) {
    out.push(`The release ran once as is and once with its server in a cgroup v${r.cgroup.version} CPU quota set, test by test, to (1 - ${r.cgroup.slowdown}) x the CPU that test's server used during its measured repeats in the reference run (${perTest.map(([k, q]) => `${k} ${formatValue(q)} of ${formatValue(r.cgroup.serverCpusByTest?.[k] ?? 0)} CPU`).join('; ')}; ${formatValue(r.cgroup.quotaCpus)} CPU between tests). A test whose server was CPU-bound slows by about ${formatPercent(r.cgroup.slowdown)}; the realised slowdown is the measured ratio below. Regressions are confirmed by a rerun of both.\n\n`);
  } else {
    out.push(`The release ran once as is and once with its server in a cgroup v${r.cgroup.version} CPU quota of ${formatValue(r.cgroup.quotaCpus)} CPU = (1 - ${r.cgroup.slowdown}) x the ${formatValue(r.cgroup.serverCpus)} CPU it used during the measured repeats of the reference run. A test whose server was CPU-bound slows by about ${formatPercent(r.cgroup.slowdown)}; the realised slowdown is the measured ratio below. Regressions are confirmed by a rerun of both.\n\n`);
  }
  out.push('| test | ratio (throttled / reference) | interval | noise | MDE | verdict | confirmed |\n| --- | ---: | --- | ---: | ---: | --- | --- |\n');
  let detected = 0;
  const inj = tp(r.injected);
  for (const v of inj) {
    if (v.verdict === 'regression' && v.confirmed === true) detected++;
    out.push(`| ${v.test} | ${formatRatio(v.ratio)} | ${v.ci ? `${formatRatio(v.ci[0])}–${formatRatio(v.ci[1])}` : 'n/a'} | ${formatPercent(v.noiseCv)} | ${formatPercent(v.mde)} | ${v.verdict}${v.level ? ` (${v.level})` : ''} | ${v.confirmed === undefined ? '' : v.confirmed ? 'yes' : 'no'}${v.confirmation ? ` (rerun ratio ${formatRatio(v.confirmation.ratio)}, ${v.confirmation.verdict})` : ''} |\n`);
  }
  out.push(`\n**Detection rate: ${detected} of ${inj.length} tests (${formatPercent(inj.length ? detected / inj.length : null)}) flagged as a throughput regression and confirmed.**\n`);
  const blind = inj.filter((/** @type {any} */ v) => v.mde !== null && v.mde > r.cgroup.slowdown).map((/** @type {any} */ v) => v.test);
  if (blind.length > 0) out.push(`\nOn this host and at this load, the MDE of ${blind.join(', ')} exceeds the injected ${formatPercent(r.cgroup.slowdown)}: those tests cannot reliably show a slowdown of that size here. Rerun \`tagbench calibrate\` on a quiet host (nothing else running) before trusting its verdicts.\n`);
  return out.join('');
}
