/**
 * The calibration reports (bench/calibration-<host-class>.md, and
 * bench/calibration-<meter>-<host-class>.md for a counted meter) from the numbers of
 * scripts/verify/calibrate/ (timed.js, counted.js): false issues per run with their exact bound, detection per
 * injected slowdown or cost, and the detectable effect or the counts' noise per test.
 */
import { formatPercent, formatRatio, MISSING } from '../../format-number.js';
import { INJECTED_FUNCTION, INJECTED_CPU_FUNCTION } from './inject-cost/build-inject-cost.js';

/**
 * @param {any} r the calibration result (pipeline.js)
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
  if (r.inject === 'preload') {
    out.push(`Every server loads the injected-cost library (scripts/verify/calibrate/inject-cost/), A's and B's spinning for nothing; S's spins in \`${INJECTED_CPU_FUNCTION}\` on each query answer (its send()) until its thread has used slowdown / (1 - slowdown) more of the CPU time it spent on that query, so that S's server does each query's work at (1 - slowdown) of the speed, background threads untouched; slowdowns ${r.slowdowns.map((/** @type {number} */ s) => formatPercent(s)).join(', ')} in turn.`);
  } else {
    out.push(`S's server runs in a cgroup CPU quota of (1 - slowdown) x the CPU each test's server used in a reference run (${Object.entries(r.reference?.serverCpusByTest ?? {}).map(([k, v]) => `${k} ${Number(v).toFixed(3)} CPU`).join(', ')}); slowdowns ${r.slowdowns.map((/** @type {number} */ s) => formatPercent(s)).join(', ')} in turn.`);
  }
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
  out.push(`A detection is a throughput regression of the slowed test at the issue level, confirmed by the rerun. The realised slowdown is the measured ratio (${r.inject === 'preload' ? 'the client shares the CPU and is not slowed, so a test slows by less than the server\'s share of each query\'s time' : 'a test whose server is not CPU-bound slows less than the quota'}).\n\n`);
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

/**
 * A counted meter's calibration report (instructions: its callgrind counts and profiles).
 * @param {any} r the report of the counted strategy (summaries included)
 * @returns {string} Markdown
 */
export function renderCountedCalibration(r) {
  const out = [];
  const h = r.host ?? {};
  const dep = r.meterSetup?.dependsOn ?? {};
  const ref = r.reference ?? {};
  const rounds = r.counting?.rounds ?? '?';
  const runs = r.runs ?? [];
  // The judged metrics are the keys of the report's thresholds, the query path's first (counted.js).
  const [queryMetric, processMetric] = Object.keys(r.thresholds ?? {});
  out.push(`# Calibration of the ${r.meter} meter: ${r.product} ${r.version}, suite ${r.suite}, host class ${r.hostClass}\n\n`);
  out.push(`Measured with \`tagbench calibrate --meter ${r.meter}\` (last run ${r.measuredAt}) on ${h.cpuModel ?? 'unknown CPU'} (${h.cores ?? '?'} cores, kernel ${h.kernel ?? '?'}), ${dep.valgrind ?? 'valgrind ?'}, ${dep.glibc ?? 'glibc ?'}. `);
  out.push(`Tests: ${r.tests.join(', ')}. Each run starts servers of the release side by side, every one under callgrind (the ${r.meter} meter: ${rounds} rounds, one server process per server and round, alternating, each test a fixed number of events with a fixed seed): `);
  out.push(`A and B for A/A, and injected servers. Every server loads the injected-cost library (scripts/verify/calibrate/inject-cost/), A and B at 0, so that an injected server differs from A by exactly its injected count. `);
  out.push('Every comparison goes through the path that opens issues: the run\'s family-wise rule (Holm over the run\'s gated counted verdicts, paired by round), then a confirmation rerun of the tests regressed at the issue level (one rerun of A and every server that needs it); adaptive repeats do not apply to counted figures.\n\n');
  out.push(`The sizes are shares of ${ref.test ?? 'point-query'}'s query-path instructions per query in a reference run (${count(ref.queryPathPerOp)} instructions per query, one process, run ${ref.runId ?? MISSING}), rounded up to the library loop's 2-instruction step; the library adds them in \`${INJECTED_FUNCTION}\` on each query answer (its send()). `);
  const inj = r.injections ?? [];
  out.push(`The first is injected in every run, the others take turns as a fourth server: ${inj.map((/** @type {any} */ i, /** @type {number} */ k) => `${i.label} ${i.share === null ? '(performance_schema on, a real server-side cost)' : `(${pct(i.share, 1)}: +${count(i[r.meter])} instructions per query)`}${k === 0 ? ' every run' : ''}`).join(', ')}.\n\n`);
  out.push(renderTimes(r));

  const f = r.falseIssues ?? { runs: 0, runsWithFalseIssue: 0, runsFlagged: 0, upper95: 1 };
  out.push('## A/A: false issues per run\n\n');
  out.push(`**${f.runsWithFalseIssue} of ${f.runs} runs opened an issue for a release compared with itself; the per-run false-issue rate is at most ${formatPercent(f.upper95)} (one-sided 95 % Clopper-Pearson bound).** ${f.runsFlagged} of ${f.runs} runs flagged a regression at any level before confirmation.\n\n`);
  out.push('| run | started | finished | seconds | load 1/5/15 min (end) | injected | gated verdicts (family) | A/A query-path ratios B / A | regressions flagged | issue opened |\n| ---: | --- | --- | ---: | --- | --- | ---: | --- | --- | --- |\n');
  for (const run of runs) {
    const ratios = run.aa.verdicts.filter((/** @type {any} */ v) => v.metric === queryMetric).map((/** @type {any} */ v) => `${v.test} ${formatRatio(v.ratio, { digits: 5 })}`).join(', ');
    const l = run.loadAverage ?? {};
    out.push(`| ${run.index} | ${hhmm(run.startedAt)} | ${hhmm(run.finishedAt)} | ${run.seconds} | ${l.one ?? MISSING} / ${l.five ?? MISSING} / ${l.fifteen ?? MISSING} | ${run.injections.map((/** @type {any} */ i) => i.label).join(', ')} | ${run.aa.family?.size ?? MISSING} | ${ratios || MISSING} | ${run.aa.flagged.join(', ') || 'none'} | ${run.aa.issue ? '**yes**' : 'no'} |\n`);
  }

  out.push('\nThe A/A verdicts, by test and metric (a decided change between two servers of one release is wrong in either direction; only a confirmed issue-level regression opens an issue):\n\n| test and metric | verdicts |\n| --- | --- |\n');
  for (const [key, tally] of Object.entries(r.aaVerdicts ?? {})) {
    out.push(`| ${key} | ${Object.entries(/** @type {Record<string, number>} */ (tally)).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')} |\n`);
  }
  out.push('\n## Injected costs: detection\n\n');
  const th = r.thresholds?.[queryMetric];
  const thText = th ? `warn ${pct(th.warn, 2)}, issue ${pct(th.issue, 2)}` : 'thresholds not recorded';
  const pth = r.thresholds?.[processMetric];
  out.push(`A detection is what opens an issue: a regression of the test's query-path instructions per operation (\`${queryMetric}\`, ${thText}) at the issue level after Holm, confirmed by the rerun. The same count added to every query is a smaller share of a costlier query (a write), so the realised ratio is given per test. `);
  out.push(`A size at the issue threshold itself is an issue only when the realised ratio reaches it both in the run and in its confirmation rerun (the verdict compares the point estimate with the threshold, and a confirmed regression keeps the lower level of the two). The whole-process count (\`${processMetric}\`${pth ? `, issue ${pct(pth.issue, 2)}` : ''}) is in the last column.\n\n`);
  // Reports summarized before the calibration judged names by the function findings kept the
  // profile difference's first name over the detections; they render as they were written.
  const byFindings = Object.values(r.detection ?? {}).some((d) => Object.values(d.byTest ?? {}).some((t) => t.named));
  const namedHead = byFindings ? 'function findings: the injected cost found (trials judged), the largest finding' : 'named first by the profile diff (detections)';
  out.push(`| injected | test | trials | detected | 95 % interval | flagged at any level | realised ratio S / A, median (min–max) | ${namedHead} | process count: detected |\n| --- | --- | ---: | ---: | --- | ---: | --- | --- | --- |\n`);
  for (const d of Object.values(r.detection ?? {})) {
    const what = d.share === null ? 'performance_schema on' : `${pct(d.share, 1)} (+${count(d[r.meter])})`;
    for (const [test, t] of Object.entries(/** @type {Record<string, any>} */ (d.byTest))) {
      const first = Object.entries(/** @type {Record<string, number>} */ (t.firstNames)).sort((a, b) => b[1] - a[1]).map(([n, k]) => `\`${n}\` ${k}`).join(', ') || MISSING;
      const named = !t.named ? first : `${d.share === null ? '' : `found in ${t.named.found} of ${t.named.judged}${t.named.interval ? ` (${formatPercent(t.named.interval[0])}–${formatPercent(t.named.interval[1])})` : ''}; `}largest: ${first}`;
      out.push(`| ${what} | ${test} | ${t.trials} | ${t.detected} | ${t.interval ? `${formatPercent(t.interval[0])}–${formatPercent(t.interval[1])}` : MISSING} | ${t.flagged} | ${formatRatio(t.medianRatio, { digits: 5 })} (${formatRatio(t.minRatio, { digits: 5 })}–${formatRatio(t.maxRatio, { digits: 5 })}) | ${named} | ${t.process.detected} of ${t.process.trials} |\n`);
    }
  }
  if (byFindings) {
    out.push(`\nNamed: for each injected server and test, the function findings compare attaches to the query-path verdict and a run's report, issue and site show ("below the threshold, named": scripts/compare/function-findings.js, the per-function profiles the meter stored beside each counted repeat judged round by round with the thresholds' \`functionFindings\`), whatever the total's verdict. The injected cost is found when a finding is in the injected-cost library: \`${INJECTED_FUNCTION}\`, or its caller there (the library's send()) when the function ran below the profile's cut; its 95 % interval is Clopper-Pearson's. performance_schema's cost is named as the findings name it (Debian's binaries name only exported functions; code without a symbol is never a finding).\n`);
  } else {
    out.push(`\nAttribution: for each injected server and test, the per-function profiles the meter stored beside each counted repeat are differenced (scripts/compare/function-diff.js, means over each side's rounds); the column names the function that gained the most self instructions per operation, counted over the detections. For the injected sizes it must be \`${INJECTED_FUNCTION}\`; performance_schema's cost is named as the diff names it (Debian's binaries name only exported functions; code without a symbol is summed apart, never ranked).\n`);
  }
  out.push(renderAttributionSamples(r, byFindings));

  out.push('\n## A/A noise of the counts per test\n\n');
  out.push('Every server process of A and B is one value (the median of its counted repeats). Within: the sd of ln(count) among one server\'s processes in one run, pooled over servers and runs (what an unpaired comparison sees). Paired: the sd of the rounds\' ln(B / A) about their mean, / √2 (per side, what compare\'s paired test sees). Spread: the largest (max - min) / min among one server\'s processes in one run.\n\n');
  out.push('| test | processes | query path, instructions/op (mean) | query path: within | paired | largest spread | A/A ratio range | whole process: within | paired | largest spread |\n| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |\n');
  for (const [test, n] of Object.entries(r.noiseByTest ?? {})) {
    out.push(`| ${test} | ${n.processes} | ${count(n.meanQueryPath)} | ${sdText(n.queryPath.within)} | ${sdText(n.queryPath.paired)} | ${pct(n.queryPath.maxSpread, 4)} | ${n.aaRatio ? `${formatRatio(n.aaRatio.min, { digits: 5 })}–${formatRatio(n.aaRatio.max, { digits: 5 })}` : MISSING} | ${sdText(n.process.within)} | ${sdText(n.process.paired)} | ${pct(n.process.maxSpread, 3)} |\n`);
  }
  return out.join('');
}

/**
 * When the calls ran and under what load: a count does not depend on the load, but a reader can
 * see what the machine was doing.
 * @param {any} r
 * @returns {string} Markdown
 */
function renderTimes(r) {
  const calls = r.calls ?? [];
  const runs = r.runs ?? [];
  const secs = runs.map((/** @type {any} */ x) => x.seconds).sort((/** @type {number} */ a, /** @type {number} */ b) => a - b);
  const lines = [`Time: ${runs.length} runs, ${secs.length ? `${secs[Math.floor(secs.length / 2)]} s per run (median; ${secs[0]}–${secs.at(-1)} s), ${Math.round(secs.reduce((/** @type {number} */ s, /** @type {number} */ x) => s + x, 0) / 60)} min in all` : 'none yet'}; the calls that measured them:\n\n`];
  lines.push('| call | started | ended | runs added | load 1/5/15 min at start | at end | conditions |\n| ---: | --- | --- | ---: | --- | --- | --- |\n');
  calls.forEach((/** @type {any} */ c, /** @type {number} */ i) => {
    const l = (/** @type {any} */ x) => (x ? `${x.one} / ${x.five} / ${x.fifteen}` : MISSING);
    lines.push(`| ${i + 1} | ${c.startedAt} | ${c.endedAt ?? 'running'}${c.interruptedBy ? ` (stopped by ${c.interruptedBy})` : ''} | ${c.runsAdded} | ${l(c.loadAverageAtStart)} | ${l(c.loadAverageAtEnd)} | ${c.note ?? 'not stated (--note)'} |\n`);
  });
  lines.push('\nCounts do not depend on the machine\'s load (callgrind counts instructions, not time), so the runs shared the machine with other work; its load is recorded anyway.\n\n');
  return lines.join('');
}

/**
 * The largest function findings (or, in older reports, the top of the profile difference) for
 * the last run of each injected size and test.
 * @param {any} r
 * @param {boolean} byFindings the report's attributions are function findings
 * @returns {string} Markdown
 */
function renderAttributionSamples(r, byFindings) {
  const lines = [byFindings
    ? '\nThe largest function findings, in the last run of each size:\n\n| injected | test | run | first | second | third | injected function Δ self/op | query path Δ/op | unnamed code Δ/op |\n| --- | --- | ---: | --- | --- | --- | ---: | ---: | ---: |\n'
    : '\nThe functions that gained the most, in the last run of each size:\n\n| injected | test | run | first | second | third | injected function Δ self/op | query path Δ/op | unnamed code Δ/op |\n| --- | --- | ---: | --- | --- | --- | ---: | ---: | ---: |\n'];
  for (const name of Object.keys(r.detection ?? {})) {
    const run = [...(r.runs ?? [])].reverse().find((/** @type {any} */ x) => x.injections.some((/** @type {any} */ i) => i.name === name));
    if (!run) continue;
    const i = run.injections.find((/** @type {any} */ x) => x.name === name);
    for (const [test, a] of Object.entries(/** @type {Record<string, any>} */ (i.attribution ?? {}))) {
      if (!a) continue;
      const finding = (/** @type {any} */ x) => `\`${shorten(x.name)}\` ${x.kind === 'appeared' ? 'appeared' : x.measure} +${count(x.deltaPerOp)}`;
      const top = [0, 1, 2].map((k) => (a.findings ? (a.findings[k] ? finding(a.findings[k]) : MISSING) : a.top?.[k] ? `\`${shorten(a.top[k].name)}\` +${count(a.top[k].selfDelta)}` : MISSING));
      lines.push(`| ${i.label} | ${test} | ${run.index} | ${top.join(' | ')} | ${count(a.injectedSelfDelta)} | ${count(a.queryPathDelta)} | ${count(a.unnamedDelta)} |\n`);
    }
  }
  return lines.join('');
}

/**
 * @param {{sd: number, df: number}|null} x
 * @returns {string} the sd as a percentage with its df
 */
function sdText(x) {
  return x ? `${pct(x.sd, 4)} (df ${x.df})` : MISSING;
}

/**
 * @param {number|null|undefined} fraction
 * @param {number} digits decimals of the percentage (counts move by thousandths of a percent)
 * @returns {string}
 */
function pct(fraction, digits) {
  return typeof fraction === 'number' && Number.isFinite(fraction) ? `${(fraction * 100).toFixed(digits)} %` : MISSING;
}

/**
 * @param {number|null|undefined} v
 * @returns {string} a count with thousands separators, one decimal below 100
 */
function count(v) {
  if (typeof v !== 'number' || !Number.isFinite(v)) return MISSING;
  return Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : String(Number(v.toFixed(1)));
}

/** @param {string|undefined} iso */
function hhmm(iso) {
  return iso ? String(iso).slice(11, 16) : MISSING;
}

/** @param {string} name */
function shorten(name) {
  return name.length > 50 ? `${name.slice(0, 49)}…` : name;
}
