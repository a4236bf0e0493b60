/**
 * The release page's response times per operation (data from
 * scripts/site-build/build-latency-data.js, the release file's `latencies`): LinkBench's
 * per-operation latencies and the insert benchmark's per statement kind, per step, a row for
 * the release and one for the release it is compared with.
 */
import { h, scrollTable } from '../dom.js';
import { fmtNum, fmtQps, fmtWholeMs } from '../format.js';

/**
 * @param {any} d the release file
 * @returns {HTMLElement|null}
 */
export function latencySection(d) {
  const l = d.latencies;
  if (!l) return null;
  const against = l.base ? ` Each operation has a row for ${d.version} and one for ${l.base.version} (${l.base.source === 'comparison' ? 'the base of its comparison' : 'the default base of this product line'}).` : '';
  return h('section', { id: 'latencies' },
    h('h2', { text: 'Response times per operation' }),
    h('p', { class: 'muted', text: `What the benchmarks recorded of every operation they timed, in milliseconds: medians over the repeats that timed it of each figure (and of the operations counted per repeat); a failed repeat counts when it kept its times (a query step whose background writers missed their target), and the Repeats column says how many failed. Shown, not judged.${against}` }),
    l.linkbench ? latencyTable(d, l.base, l.linkbench, { id: 'linkbench-latency', title: 'LinkBench', operation: 'Operation' }) : null,
    l.ibench ? latencyTable(d, l.base, l.ibench, { id: 'ibench-latency', title: 'Insert benchmark', operation: 'Statement' }) : null);
}

/**
 * @param {any} d
 * @param {{version: string}|null} base
 * @param {{columns: string[], formats: string[], notes: string[], wholeMsColumns?: string[], rows: any[]}} table notes: what
 *   each way of measuring can say (scripts/compare/latency-tables.js FORMAT_NOTES); wholeMsColumns:
 *   the columns of whole-millisecond readings
 * @param {{id: string, title: string, operation: string}} labels
 */
function latencyTable(d, base, table, labels) {
  const sides = [{ version: d.version, field: 'release' }, ...(base ? [{ version: base.version, field: 'base' }] : [])];
  const measured = table.notes.join('; ');
  // Tables built before whole-ms readings were marked have no list: their figures print as numbers.
  const whole = new Set(table.wholeMsColumns ?? []);
  const rows = table.rows.flatMap((row) => sides.map((side, i) => {
    const figures = row[side.field];
    const isRelease = side.field === 'release';
    return h('tr', { class: isRelease && base ? 'current' : null, dataset: { step: row.step, engine: row.engine ?? '', op: row.op, version: side.version } },
      i === 0 ? [
        h('th', { scope: 'rowgroup', class: 'text', rowspan: String(sides.length), text: row.engine ? `${row.step} (${row.engine})` : row.step }),
        h('th', { scope: 'rowgroup', class: 'text', rowspan: String(sides.length), text: row.op }),
      ] : null,
      h('td', { class: 'text' }, isRelease ? h('strong', { text: side.version }) : h('span', { class: 'muted', text: side.version })),
      figures ? [
        h('td', { dataset: { failedRepeats: figures.failedRepeats } }, String(figures.repeats),
          figures.failedRepeats ? h('span', { class: 'sub-line keep-up-missed', text: `${figures.failedRepeats} failed` }) : null),
        h('td', { text: fmtQps(figures.count) }),
        table.columns.map((c) => h('td', { dataset: { column: c, ms: figures.ms[c] ?? '' }, text: whole.has(c) ? fmtWholeMs(figures.ms[c]) : fmtNum(figures.ms[c]) })),
      ] : h('td', { class: 'muted', colspan: String(table.columns.length + 2), text: 'not timed in these runs' }));
  }));
  return h('div', null,
    h('h3', { text: labels.title }),
    scrollTable(`${labels.title}: response time per step and ${labels.operation.toLowerCase()} (ms; measured with ${measured})`, [
      h('thead', null, h('tr', null, ['Step', labels.operation, 'Release', 'Repeats', 'Count per repeat', ...table.columns]
        .map((c, i) => h('th', { scope: 'col', class: i < 3 ? 'text' : null, text: c })))),
      h('tbody', null, rows),
    ], { id: labels.id }));
}
