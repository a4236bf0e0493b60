/**
 * The provenance section of an issue: what exactly was compared (release, build, host, my.cnf)
 * for the baseline and the candidate, read from their run records, and the my.cnf diff.
 * Engineers distrust a number whose provenance is hidden, so anything missing is said so.
 */
import { createTwoFilesPatch } from 'diff';

/** @typedef {import('../types.js').RunRecord} RunRecord */

/**
 * @param {{version: string, runIds: string[]}} base
 * @param {{version: string, runIds: string[]}} candidate
 * @param {Map<string, RunRecord>} records run records by id (those found)
 * @returns {string} Markdown
 */
export function renderProvenance(base, candidate, records) {
  const baseRec = firstRecord(base.runIds, records);
  const candRec = firstRecord(candidate.runIds, records);
  const missing = [...base.runIds, ...candidate.runIds].filter((id) => !records.has(id));
  const lines = ['### Provenance', ''];
  lines.push(`| | baseline ${code(base.version)} | candidate ${code(candidate.version)} |`, '|---|---|---|');
  /** @type {[string, (r: RunRecord) => string][]} */
  const rows = [
    ['run records', (r) => runIdsOf(r, base, candidate)],
    ['tag / commit', (r) => `${code(r.release.tag ?? 'n/a')} / ${code(r.release.commit ?? 'n/a')}${r.release.movedFrom ? ` (tag moved from ${code(r.release.movedFrom)})` : ''}`],
    ['provider', (r) => code(r.release.provider)],
    ['build profile', (r) => code(r.release.buildProfile ?? 'n/a')],
    ['build flags', (r) => (r.release.buildFlags && r.release.buildFlags.length > 0 ? r.release.buildFlags.map(code).join(' ') : 'n/a')],
    ['server binary sha256', (r) => code(r.release.binarySha256.slice(0, 16))],
    ['server version', (r) => code(r.release.serverVersionString)],
    ['packages', (r) => r.release.packages.map((p) => code(`${p.name}=${p.version}`)).join(' ') || 'n/a'],
    ['host', (r) => `${code(r.host.hostname)}, ${r.host.cpuModel}, ${r.host.cores} cores, kernel ${code(r.host.kernel)}`],
    ['governor / turbo', (r) => `${r.host.governor ?? 'n/a'} / ${r.host.turbo === null ? 'unknown' : r.host.turbo ? 'on' : 'off'}`],
    ['pinning (server / client)', (r) => `${r.host.pinning.serverCpus ?? 'none'} / ${r.host.pinning.clientCpus ?? 'none'}`],
    ['engine, repeats', (r) => `${r.config.engine}, ${r.config.repeats}`],
    ['my.cnf', (r) => `${code(r.config.mycnf.name)} sha256 ${code(r.config.mycnf.sha256.slice(0, 16))}`],
    ['tools', (r) => Object.entries(r.config.tools).map(([k, v]) => `${k} ${code(v)}`).join(', ')],
  ];
  for (const [label, cell] of rows) {
    lines.push(`| ${label} | ${baseRec ? escapeCell(cell(baseRec)) : 'n/a'} | ${candRec ? escapeCell(cell(candRec)) : 'n/a'} |`);
  }
  lines.push('');
  if (missing.length > 0) {
    lines.push(`Run records not found in the results store: ${missing.map(code).join(', ')}. The columns above show what was found.`, '');
  }
  lines.push(renderMycnfDiff(baseRec, candRec));
  return lines.join('\n');
}

/**
 * @param {RunRecord|null} baseRec
 * @param {RunRecord|null} candRec
 * @returns {string}
 */
function renderMycnfDiff(baseRec, candRec) {
  if (!baseRec || !candRec) return '**my.cnf diff**: not available (a run record is missing).\n';
  const a = baseRec.config.mycnf;
  const b = candRec.config.mycnf;
  if (a.text === b.text) return `**my.cnf**: identical for both (sha256 ${code(a.sha256.slice(0, 16))}).\n`;
  const patch = createTwoFilesPatch(`baseline/${a.name}`, `candidate/${b.name}`, a.text, b.text, '', '', { context: 2 });
  // The first line of the patch is a separator of '=' that adds nothing in Markdown.
  const body = patch.split('\n').filter((l) => !/^=+$/.test(l)).join('\n').trimEnd();
  return `**my.cnf diff** (baseline → candidate):\n\n\`\`\`diff\n${body}\n\`\`\`\n`;
}

/**
 * @param {string[]} ids
 * @param {Map<string, RunRecord>} records
 */
function firstRecord(ids, records) {
  for (const id of ids) {
    const r = records.get(id);
    if (r) return r;
  }
  return null;
}

/**
 * @param {RunRecord} r
 * @param {{version: string, runIds: string[]}} base
 * @param {{version: string, runIds: string[]}} candidate
 */
function runIdsOf(r, base, candidate) {
  const side = base.runIds.includes(r.id) ? base : candidate;
  return side.runIds.map(code).join(', ');
}

/** @param {string} s */
function code(s) {
  return '`' + String(s).replace(/`/g, "'") + '`';
}

/** @param {string} s */
function escapeCell(s) {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
