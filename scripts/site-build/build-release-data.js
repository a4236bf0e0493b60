/**
 * The release page's data: every test's numbers and verdict, efficiency, latency, database
 * size, provenance, and the my.cnf / settings diff against the release it was compared with.
 * Pure.
 */
import { createTwoFilesPatch } from 'diff';
import { dataPaths } from '../../site/js/paths.js';
import { summarizeRepeats } from './summarize-repeats.js';
import { SCHEMA_VERSION } from './build-table-data.js';

/** @import { RunRecord } from './types.js' */
/** @import { TableGroup, ReleaseGroup } from './group-tables.js' */

/**
 * @param {TableGroup} table
 * @param {ReleaseGroup} rel
 * @returns {{path: string, data: unknown}}
 */
export function buildReleaseData(table, rel) {
  const { key } = table;
  const comparison = rel.comparison?.comparison ?? null;
  const against = pickReference(table, rel);
  const tests = table.tests.map((t) => {
    const steps = rel.records.flatMap((r) => r.steps.filter((s) => s.name === t.name));
    const sum = summarizeRepeats(steps);
    const verdicts = (comparison?.tests ?? []).filter((v) => v.test === t.name);
    return {
      name: t.name, group: t.group, metric: t.metric,
      present: steps.length > 0,
      ...sum,
      verdict: slimVerdict(verdicts.find((v) => v.metric === 'throughput') ?? null),
      otherVerdicts: verdicts.filter((v) => v.metric !== 'throughput').map(slimVerdict),
      params: steps[0]?.params ?? {},
    };
  });
  const first = rel.records[0];
  const data = {
    schemaVersion: SCHEMA_VERSION,
    ...key,
    productName: table.productName,
    version: rel.version,
    defaultBase: table.defaultBase,
    runs: rel.records.map((r) => ({
      id: r.id, status: r.status, reason: r.reason ?? null, startedAt: r.startedAt, finishedAt: r.finishedAt,
      record: dataPaths.runRecord({ host: key.host, product: key.product, version: rel.version, suite: key.suite, id: r.id }),
      release: r.release,
      host: r.host,
      config: {
        suite: r.config.suite, scale: r.config.scale, engine: r.config.engine, tools: r.config.tools,
        repeats: r.config.repeats, alternatedWith: r.config.alternatedWith ?? [],
        mycnf: { name: r.config.mycnf.name, sha256: r.config.mycnf.sha256 },
      },
      dbSize: r.dbSize,
    })),
    mycnf: first ? first.config.mycnf.text : null,
    comparison: comparison && rel.comparison ? {
      id: rel.comparison.id,
      file: dataPaths.comparison({ host: key.host, product: key.product, version: rel.version, suite: key.suite, id: rel.comparison.id }),
      createdAt: comparison.createdAt,
      base: comparison.base,
      candidate: comparison.candidate,
      thresholds: comparison.thresholds,
      summary: comparison.summary,
    } : null,
    reference: against && first ? {
      version: against.version,
      source: against.source,
      runId: against.record.id,
      mycnfDiff: first.config.mycnf.text === against.record.config.mycnf.text ? null
        : createTwoFilesPatch(`${against.version}/${against.record.config.mycnf.name}`, `${rel.version}/${first.config.mycnf.name}`,
          against.record.config.mycnf.text, first.config.mycnf.text, '', '', { context: 2 }),
      settings: diffSettings(against.record, first),
    } : null,
    tests,
  };
  return { path: dataPaths.release({ host: key.host, product: key.product, version: rel.version, suite: key.suite }), data };
}

/**
 * The fields of a verdict the release page shows (the compare stage adds evidence fields:
 * those stay in the comparison file, linked from the page, so release files stay small).
 * @template {import('./types.js').TestVerdict|null} V
 * @param {V} v
 * @returns {V}
 */
export function slimVerdict(v) {
  if (!v) return v;
  const { test, group, metric, higherIsBetter, ratio, ci, mde, verdict, reason, confirmed } = v;
  const evidence = /** @type {any} */ (v);
  return /** @type {V} */ (/** @type {unknown} */ ({
    test, group, metric, higherIsBetter, ratio, ci, mde, verdict, reason, confirmed: confirmed ?? false,
    // the detectable effect per direction and the degrees of freedom of its noise (docs/method.md)
    mdeDrop: evidence.mdeDrop ?? null, mdeRise: evidence.mdeRise ?? null, noiseDf: evidence.noiseDf ?? null,
    base: v.base ? { median: v.base.median, n: v.base.n } : null,
    candidate: v.candidate ? { median: v.candidate.median, n: v.candidate.n } : null,
  }));
}

/**
 * Which release's settings to diff against: the comparison's base (what the verdicts used),
 * else the table's accepted baseline. None for the reference release itself.
 * @param {TableGroup} table
 * @param {ReleaseGroup} rel
 * @returns {{version: string, source: 'comparison'|'baseline', record: RunRecord}|null}
 */
function pickReference(table, rel) {
  const fromComparison = rel.comparison?.comparison.base;
  /** @type {{version: string, runIds: string[], source: 'comparison'|'baseline'}|null} */
  const ref = fromComparison ? { ...fromComparison, source: 'comparison' }
    : table.baseline ? { version: table.baseline.version, runIds: table.baseline.runIds, source: 'baseline' } : null;
  if (!ref || ref.version === rel.version) return null;
  const baseRel = table.releases.find((r) => r.version === ref.version);
  if (!baseRel || baseRel.records.length === 0) return null;
  const record = baseRel.records.find((r) => ref.runIds.includes(r.id)) ?? baseRel.records[0];
  return { version: ref.version, source: ref.source, record };
}

/**
 * Flatten the settings that decide a result (build, tools, scale, host, per-test tool options)
 * and list each with both values, flagging the ones that differ.
 * @param {RunRecord} base
 * @param {RunRecord} cand
 * @returns {{key: string, base: string|null, candidate: string|null, changed: boolean}[]}
 */
export function diffSettings(base, cand) {
  const a = flattenSettings(base);
  const b = flattenSettings(cand);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.map((key) => ({ key, base: a[key] ?? null, candidate: b[key] ?? null, changed: a[key] !== b[key] }));
}

/**
 * @param {RunRecord} r
 * @returns {Record<string, string>}
 */
function flattenSettings(r) {
  /** @type {Record<string, string>} */
  const out = {};
  /** @param {string} k @param {unknown} v */
  const put = (k, v) => { out[k] = Array.isArray(v) ? v.join(' ') : v === null || v === undefined ? '—' : String(v); };
  put('release.provider', r.release.provider);
  put('release.buildProfile', r.release.buildProfile);
  put('release.buildFlags', r.release.buildFlags);
  put('config.engine', r.config.engine);
  put('config.repeats', r.config.repeats);
  put('config.mycnf.name', r.config.mycnf.name);
  for (const [k, v] of Object.entries(r.config.scale ?? {})) put(`config.scale.${k}`, v);
  for (const [k, v] of Object.entries(r.config.tools ?? {})) put(`config.tools.${k}`, v);
  for (const k of /** @type {const} */ (['cpuModel', 'cores', 'kernel', 'memoryBytes', 'governor', 'turbo'])) put(`host.${k}`, r.host[k]);
  put('host.pinning.serverCpus', r.host.pinning?.serverCpus);
  put('host.pinning.clientCpus', r.host.pinning?.clientCpus);
  for (const step of r.steps) {
    for (const [k, v] of Object.entries(step.params ?? {})) put(`step.${step.name}.${k}`, v);
  }
  return out;
}
