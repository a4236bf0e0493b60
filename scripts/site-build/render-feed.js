/**
 * An Atom feed (RFC 4287) of the newest verdicts: one entry per comparison. Pure. Written by
 * hand rather than with a feed library: it is one fixed template with XML escaping, and the
 * packages that exist add RSS/JSON-feed code we don't need.
 */
import { createHash } from 'node:crypto';
import { dataPaths, pageUrl } from '../../site/js/paths.js';
import { formatRatio } from '../format-number.js';
import { isCountedVerdict } from '../compare/index.js';

/** @import { StoredComparison } from './types.js' */

/** Feed readers show a page's worth; older verdicts stay on the site. */
const MAX_ENTRIES = 100;

/**
 * @param {{comparisons: StoredComparison[], title: string, siteUrl: string|null, recordsUrl?: string|null, generatedAt: string}} opts
 *   siteUrl: absolute URL of the site root, or null to keep links relative to the feed;
 *   recordsUrl: the comparisons are on the results branch there, not copied into the site
 * @returns {string} Atom XML
 */
export function renderFeed({ comparisons, title, siteUrl, recordsUrl = null, generatedAt }) {
  const base = siteUrl ? siteUrl.replace(/\/?$/, '/') : '';
  const fileUrl = (/** @type {string} */ path) => (recordsUrl ? `${recordsUrl.replace(/\/+$/, '')}/${path.replace(/^downloads\//, '')}` : base + path);
  const newest = [...comparisons].sort((a, b) => b.comparison.createdAt.localeCompare(a.comparison.createdAt)).slice(0, MAX_ENTRIES);
  const updated = newest[0]?.comparison.createdAt ?? generatedAt;
  const entries = newest.map(({ id, comparison: c }) => {
    const link = base + pageUrl('release', { product: c.product, version: c.candidate.version, host: c.hostClass, suite: c.suite });
    const summary = Object.entries(c.summary ?? {}).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(', ') || 'no tests';
    const lines = c.tests.filter((t) => !t.context && (t.verdict === 'regression' || t.verdict === 'improvement')).map(verdictLine);
    const content = [`${c.product} ${c.candidate.version} vs ${c.base.version} on ${c.hostClass}, suite ${c.suite}: ${summary}.`, ...lines].join('\n');
    return [
      '  <entry>',
      `    <id>${uuidUrn(`${c.hostClass}/${c.product}/${c.candidate.version}/${c.suite}/${id}`)}</id>`,
      `    <title>${esc(`${c.product} ${c.candidate.version} (${c.hostClass}, ${c.suite}): ${summary}`)}</title>`,
      `    <updated>${esc(c.createdAt)}</updated>`,
      `    <link rel="alternate" type="text/html" href="${esc(link)}"/>`,
      `    <link rel="related" type="application/json" href="${esc(fileUrl(dataPaths.comparison({ host: c.hostClass, product: c.product, version: c.candidate.version, suite: c.suite, id })))}"/>`,
      `    <summary>${esc(summary)}</summary>`,
      `    <content type="text">${esc(content)}</content>`,
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${uuidUrn(`feed:${siteUrl ?? title}`)}</id>`,
    `  <title>${esc(`${title}: verdicts`)}</title>`,
    `  <updated>${esc(updated)}</updated>`,
    '  <author><name>tagbench</name></author>',
    `  <link rel="self" href="${esc(`${base}${dataPaths.feed()}`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${esc(base || './')}"/>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

/**
 * One verdict of an entry. A counted metric (instructions per operation) moves by hundredths of
 * a percent, so its ratio gets five decimals and the counts themselves, as the terminal prints them.
 * @param {import('./types.js').TestVerdict} t
 */
function verdictLine(t) {
  const counted = isCountedVerdict(t);
  const digits = counted ? 5 : undefined;
  const ci = t.ci ? ` [${formatRatio(t.ci[0], { digits })}, ${formatRatio(t.ci[1], { digits })}]` : '';
  const perOp = counted && t.base && t.candidate
    ? `, ${Math.round(t.base.median).toLocaleString('en-US')} → ${Math.round(t.candidate.median).toLocaleString('en-US')} ${t.unit ?? 'per op'}` : '';
  return `${t.verdict}: ${t.test} (${t.metric}) ratio ${formatRatio(t.ratio, { digits })}${ci}${perOp}`;
}

/**
 * A stable urn:uuid from a name (SHA-1 name-based, RFC 4122 version 5 layout), so an entry
 * keeps its id across rebuilds.
 * @param {string} name
 */
function uuidUrn(name) {
  const h = createHash('sha1').update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `urn:uuid:${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** @param {string} s */
function esc(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
