/**
 * Render a relative-to-base table for the terminal (aligned columns, ANSI colour on marked
 * ratios) or as Markdown. Marked ratios also carry ▼ / ▲ so that the mark survives without
 * colour (NO_COLOR, pipes, colour-blind readers).
 */
import { formatQps, formatTableRatio, formatValue } from '../format-number.js';
import { GROUPS } from './relative-table.js';
import { computeSweepTables, renderSweepTables } from './sweep-table.js';

/**
 * Storage reads per operation are shown once any cell reaches this: a cached run reads next to
 * nothing (its column would be noise), an IO-bound one reads about a page per lookup.
 */
export const READS_SHOWN_FROM = 0.2;

/**
 * @param {import('./types.js').RelativeTable} table
 * @param {{format: 'markdown'|'terminal', color?: boolean, title?: string, labels?: Record<string, string>, note?: string}} options
 *   color only for terminal; title, labels (column key -> heading) and a note line for tables
 *   whose column keys are not plain versions (cross-table.js)
 * @returns {string} text ending with a newline
 */
export function renderRelativeTable(table, options) {
  const md = options.format === 'markdown';
  const color = !md && options.color === true;
  const label = (/** @type {string} */ key) => options.labels?.[key] ?? key;
  const out = [];
  const title = options.title ?? `${table.product} ${table.line}: throughput and ratio to ${table.base}`;
  out.push(md ? `## ${title}\n` : `${title}\n`);
  if (options.note) out.push(options.note);
  const ratioIs = {
    medians: `ratio = median / median of ${label(table.base)}`,
    verdict: `ratio = the throughput verdict's estimate against ${label(table.base)}, as in the verdicts below (paired by round: the geometric mean of the rounds' ratios)`,
    mixed: `ratio = the throughput verdict's estimate against ${label(table.base)} where there is a verdict, as in the verdicts below (paired by round: the geometric mean of the rounds' ratios); median / median where there is none (marked *)`,
  }[table.ratiosFrom ?? 'medians'];
  out.push(`Median of the repeats [min–max]; ${ratioIs}; ▼ below ${table.marks.low}, ▲ above ${table.marks.high}.\n`);
  const showReads = table.groups.some((g) => g.rows.some((r) => Object.values(r.cells).some((c) => (c.readsPerOp ?? 0) >= READS_SHOWN_FROM)));
  if (showReads) out.push('reads/op = storage reads per operation (median of the repeats): the data does not fit the buffer pool.\n');
  for (const g of table.groups) {
    const heading = GROUPS.find((x) => x.group === g.group)?.title ?? g.group;
    out.push(md ? `\n### ${heading}\n` : `\n${heading}\n`);
    const header = ['test'];
    for (const v of table.versions) {
      header.push(v === table.base ? `${label(v)} (base)` : label(v));
      if (showReads) header.push('reads/op');
      if (v !== table.base) header.push('ratio');
    }
    /** @type {{text: string, mark: 'low'|'high'|null}[][]} */
    const body = [];
    for (const row of g.rows) {
      /** @type {{text: string, mark: 'low'|'high'|null}[]} */
      const line = [{ text: row.metric === 'qps' ? row.test : `${row.test} (${row.metric})`, mark: null }];
      for (const v of table.versions) {
        const c = row.cells[v];
        const s = c.stats;
        line.push({ text: s ? (s.n > 1 ? `${formatQps(s.median)} [${formatQps(s.min)}–${formatQps(s.max)}]` : formatQps(s.median)) : c.status ?? 'n/a', mark: null });
        if (showReads) line.push({ text: c.readsPerOp === undefined ? 'n/a' : formatValue(c.readsPerOp), mark: null });
        if (v !== table.base) {
          const cell = ratioCell(c.ratio, table.marks);
          // Not judged: no colour mark (it is not a verdict), and † to its reason under the table.
          if (c.refused && c.ratio !== null) line.push({ text: `${formatTableRatio(c.ratio)} †`, mark: null });
          else line.push(table.ratiosFrom === 'mixed' && c.ratio !== null && c.ratioFrom !== 'verdict' ? { ...cell, text: `${cell.text} *` } : cell);
        }
      }
      body.push(line);
    }
    /** @type {{text: string, mark: 'low'|'high'|null}[]} */
    const gm = [{ text: 'geometric mean', mark: null }];
    for (const v of table.versions) {
      gm.push({ text: '', mark: null });
      if (showReads) gm.push({ text: '', mark: null });
      if (v !== table.base) gm.push(ratioCell(g.geomean[v], table.marks));
    }
    body.push(gm);
    out.push(md ? renderMarkdown(header, body) : renderTerminal(header, body, color));
  }
  const refused = table.groups.flatMap((g) => g.rows.flatMap((r) => table.versions.flatMap((v) => (r.cells[v].refused ? [`${r.test} on ${label(v)}: ${r.cells[v].refused}`] : []))));
  if (refused.length > 0) out.push(`\n† not judged, left out of the group's geometric mean:\n${refused.map((x) => `${md ? '- ' : '  '}${x}\n`).join('')}`);
  // Swept tests again as seed 004 prints them: a row per release, a column per client count.
  out.push(renderSweepTables(computeSweepTables(table), { format: options.format, base: table.base, labels: options.labels }));
  return out.join('');
}

/**
 * @param {number|null} ratio
 * @param {{low: number, high: number}} marks
 * @returns {{text: string, mark: 'low'|'high'|null}}
 */
function ratioCell(ratio, marks) {
  const text = formatTableRatio(ratio); // two decimals, as the seed posts print ratios
  if (ratio === null) return { text, mark: null };
  // compare the printed value, so that a mark never contradicts the number shown
  const shown = Number(text);
  if (shown < marks.low) return { text: `${text} ▼`, mark: 'low' };
  if (shown > marks.high) return { text: `${text} ▲`, mark: 'high' };
  return { text, mark: null };
}

/**
 * @param {string[]} header
 * @param {{text: string, mark: 'low'|'high'|null}[][]} body
 */
function renderMarkdown(header, body) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_h, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const row of body) lines.push(`| ${row.map((c) => (c.mark ? `**${c.text}**` : c.text)).join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}

/**
 * @param {string[]} header
 * @param {{text: string, mark: 'low'|'high'|null}[][]} body
 * @param {boolean} color
 */
function renderTerminal(header, body, color) {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].text.length)));
  /** @param {string} s @param {number} i */
  const pad = (s, i) => (i === 0 ? s.padEnd(widths[i]) : s.padStart(widths[i]));
  const lines = [header.map(pad).join('  ')];
  for (const row of body) {
    lines.push(
      row
        .map((c, i) => {
          const text = pad(c.text, i);
          if (!color || !c.mark) return text;
          return `${c.mark === 'low' ? '\x1b[31m' : '\x1b[32m'}${text}\x1b[0m`;
        })
        .join('  '),
    );
  }
  return `${lines.join('\n')}\n`;
}
