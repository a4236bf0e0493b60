/**
 * The calibration report (bench/calibration-<host-class>.md) from the numbers of
 * scripts/verify/calibrate-host.js: false issues per run with their exact bound, detection per
 * injected slowdown, and the detectable effect per test.
 */
import { formatPercent, formatRatio } from '../format-number.js';

/**
 * @param {any} r the calibration result (calibrate-host.js)
 * @returns {string} Markdown
 */
export function renderCalibration(r) {
  const out = [];
  const h = r.host ?? {};
  out.push(`# Calibration: ${r.product} ${r.version}, suite ${r.suite}, host class ${r.hostClass}\n\n`);
  out.push(`Measured with \`tagbench calibrate\` (last run ${r.measuredAt}) on ${h.cpuModel ?? 'unknown CPU'} (${h.cores ?? '?'} cores, kernel ${h.kernel ?? '?'}, pinning server ${h.pinning?.serverCpus ?? 'none'} / client ${h.pinning?.clientCpus ?? 'none'}). `);
  const spread = r.instances ? `${r.repeats ?? r.instances} repeats per test and side over ${r.instances} instances` : 'the host class\'s repeats and instances';
  out.push(`Tests: ${r.tests.join(', ')}. Each run starts three servers of the release side by side, each from its own install and datadir (A, B and S), alternating, with ${spread}; `);
  out.push(`every comparison goes through the path that opens issues: the run's family-wise rule (Holm), adaptive repeats of undecided tests (budget ${r.budgetS} s, at most ${r.maxInstances} instances per side), and a confirmation rerun. `);
  out.push(`S's server runs in a cgroup CPU quota of (1 - slowdown) x the CPU each test's server used in a reference run (${Object.entries(r.reference?.serverCpusByTest ?? {}).map(([k, v]) => `${k} ${Number(v).toFixed(3)} CPU`).join(', ')}); slowdowns ${r.slowdowns.map((/** @type {number} */ s) => formatPercent(s)).join(', ')} in turn.`);
  out.push('\n\n');
  // The conditions are the measurer's to state (--note), per run; the table's load column backs them.
  out.push(`${renderConditions(r)}The host's 5-minute load average after each run is in the table${onePinnedCpu(h.pinning) ? ': the benchmark itself keeps one CPU busy, so about 1 is a host running nothing else' : ''}.\n\n`);

  const f = r.falseIssues;
  out.push('## A/A: false issues per run\n\n');
  out.push(`**${f.runsWithFalseIssue} of ${f.runs} runs opened an issue for a release compared with itself; the per-run false-issue rate is at most ${formatPercent(f.upper95)} (one-sided 95 % Clopper-Pearson bound).**\n\n`);
  out.push('| run | finished | seconds | host load (5 min) | gated verdicts (family) | regressions flagged | after adaptive repeats: undecided resolved | issue opened |\n| ---: | --- | ---: | ---: | ---: | --- | --- | --- |\n');
  for (const run of r.runs) {
    const a = run.aa.adaptive;
    out.push(`| ${run.index} | ${String(run.finishedAt).slice(11, 16)} | ${run.seconds} | ${run.loadAverage ?? 'n/a'} | ${run.aa.family?.size ?? 'n/a'} | ${run.aa.flagged.join(', ') || 'none'} | ${a ? `${a.resolved} of ${a.undecidedBefore} in ${a.rounds} round(s), ${a.seconds} s` : 'n/a'} | ${run.aa.issue ? '**yes**' : 'no'} |\n`);
  }
  out.push('\n## Injected slowdowns: detection\n\n');
  out.push('A detection is a throughput regression of the slowed test at the issue level, confirmed by the rerun. The realised slowdown is the measured ratio (a test whose server is not CPU-bound slows less than the quota).\n\n');
  out.push('| slowdown | trials (test x run) | detected | 95 % interval | flagged as a regression at any level | median ratio S / A |\n| ---: | ---: | ---: | --- | ---: | ---: |\n');
  for (const [s, d] of Object.entries(r.detection ?? {})) {
    out.push(`| ${formatPercent(Number(s))} | ${d.trials} | ${d.detected} | ${d.interval ? `${formatPercent(d.interval[0])}–${formatPercent(d.interval[1])}` : 'n/a'} | ${d.flagged} | ${formatRatio(d.medianRatio)} |\n`);
  }
  out.push('\n## Detectable effect per test (last A/A run)\n\n');
  out.push('Noise is the sd of ln(throughput) between server instances, pooled with the host\'s history when the calibration store has one; MDE at the configured confidence and power for the instances the verdict had.\n\n');
  out.push('| test | instances per side | noise | df | MDE drop | MDE rise |\n| --- | --- | ---: | ---: | ---: | ---: |\n');
  for (const [test, m] of Object.entries(r.mdeByTest ?? {})) {
    out.push(`| ${test} | ${m.instances.join(' vs ')} | ${formatPercent(m.noiseCv)} | ${m.df ?? 'n/a'} | ${formatPercent(m.drop)} | ${formatPercent(m.rise)} |\n`);
  }
  return out.join('');
}

/**
 * The conditions each run was measured under (--note), grouped over consecutive runs; a report
 * from before notes were kept per run has one for all its runs.
 * @param {any} r the calibration result
 * @returns {string} Markdown, ending in a space or a blank line
 */
function renderConditions(r) {
  /** @type {{from: number, to: number, text: string}[]} */
  const groups = [];
  for (const run of r.runs) {
    const text = run.conditions ?? r.conditions ?? 'not stated (tagbench calibrate --note)';
    const last = groups.at(-1);
    if (last && last.text === text && last.to === run.index - 1) last.to = run.index;
    else groups.push({ from: run.index, to: run.index, text });
  }
  if (groups.length === 0) return '';
  if (groups.length === 1) return `Conditions: ${groups[0].text} `;
  return `Conditions:\n\n${groups.map((g) => `- runs ${g.from === g.to ? g.from : `${g.from}–${g.to}`}: ${g.text}`).join('\n')}\n\n`;
}

/**
 * Whether server and client share one CPU (the local class's 1-client setting), where a load
 * of about 1 means nothing but the benchmark ran.
 * @param {{serverCpus?: string|null, clientCpus?: string|null}|undefined} pinning
 * @returns {boolean}
 */
function onePinnedCpu(pinning) {
  return Boolean(pinning?.serverCpus && pinning.serverCpus === pinning.clientCpus && /^\d+$/.test(pinning.serverCpus));
}
