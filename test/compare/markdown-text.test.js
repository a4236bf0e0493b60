// Text from data in Markdown (issue 34): a name its author chose renders as exactly that text,
// with no link and no mention, as a code span or, where a span cannot be used, escaped.
// Checked with test/support/markdown-syntax.js, which follows CommonMark's code-span and escape
// rules and looks for what GitHub turns into links and mentions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderUntrustedText } from '../../scripts/compare/markdown-text.js';
import { linksAndMentions, outsideCodeSpans } from '../support/markdown-syntax.js';

const HOSTILE = [
  'lib[pay here](https:evil.example) @octocat.so',
  '`lib[x](https://evil.example)` @octocat',
  '``double`` [x](y) @a',
  'ends with a backtick`',
  '<a href="https://evil.example">x</a> &#64;octocat',
  'www.evil.example/@octocat [ref][1]',
  'line one\n[x](https://evil.example)\n@octocat',
];

/**
 * The text a code span renders (CommonMark: one leading and trailing space stripped when both
 * are there), or null when md is not one span.
 * @param {string} md
 */
function spanContent(md) {
  const m = /^(`+)([^]*)\1$/.exec(md);
  if (!m) return null;
  const inner = m[2];
  return /^ .* $/s.test(inner) && inner.trim() !== '' ? inner.slice(1, -1) : inner;
}

test('a hostile name as a code span: exactly its text (newlines as spaces), no link, no mention', () => {
  for (const name of HOSTILE) {
    const md = renderUntrustedText(name);
    assert.deepEqual(linksAndMentions(md), [], `${JSON.stringify(name)} → ${md}`);
    assert.equal(outsideCodeSpans(md).trim(), '', `one span: ${md}`);
    assert.equal(spanContent(md), name.replace(/\n/g, ' '), md);
  }
  assert.equal(renderUntrustedText('a``b`c'), '```a``b`c```', 'the fence is longer than the longest run inside');
  assert.equal(renderUntrustedText(''), '` `');
});

test('in a table cell its pipes are escaped, inside the span too (GitHub splits cells first)', () => {
  const md = renderUntrustedText('operator|(x) @octocat', { table: true });
  assert.equal(md, '`operator\\|(x) @octocat`');
  assert.equal(`| ${md} | 1 |`.split(/(?<!\\)\|/).length, 4);
});

test('escaped where a span cannot be used: no link, autolink, HTML, entity or mention survives', () => {
  for (const name of HOSTILE) {
    const md = renderUntrustedText(name, { span: false });
    assert.deepEqual(linksAndMentions(md), [], `${JSON.stringify(name)} → ${JSON.stringify(md)}`);
    assert.doesNotMatch(md, /\n/);
  }
  assert.equal(renderUntrustedText('point_select *x*', { span: false }), 'point_select *x*', 'emphasis is harmless and left alone');
});

test('the checker itself finds raw links and mentions (the same names, unescaped)', () => {
  for (const name of HOSTILE.filter((n) => !n.includes('`'))) {
    assert.notDeepEqual(linksAndMentions(name), [], name);
  }
});
