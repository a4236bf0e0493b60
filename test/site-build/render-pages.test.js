// Every page the build writes carries a strict Content-Security-Policy (issue 34): scripts and
// styles from the site's own files only, before any script of the page; and nothing of the
// site's own needs more (no inline script or style in the template, no style attribute set by
// the pages). That ECharts and every page work under it: site-browser.test.js (Chromium fails
// the test on a console error, which a CSP violation is).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { renderPages, CONTENT_SECURITY_POLICY } from '../../scripts/site-build/render-pages.js';

const TEMPLATE = await readFile(new URL('../../site/templates/page.html', import.meta.url), 'utf8');

test('each page has the policy in a meta element ahead of its first script', () => {
  const pages = renderPages(TEMPLATE, 'Bench <&> "x"', { charts: true });
  assert.ok(pages.length > 10, `${pages.length} pages`);
  for (const [file, html] of pages) {
    const meta = html.indexOf(`<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`);
    assert.ok(meta > 0, `${file}: the policy`);
    assert.ok(meta < html.indexOf('<script'), `${file}: before any script`);
    assert.doesNotMatch(html, /\{\{\w+\}\}/, `${file}: every placeholder filled`);
  }
});

test('the policy is strict: self only for scripts and style sheets, no inline script, no eval, no base, no plugins', () => {
  const directives = Object.fromEntries(CONTENT_SECURITY_POLICY.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  assert.deepEqual(directives['script-src'], ["'self'"]);
  assert.deepEqual(directives['style-src'], ["'self'"]);
  assert.deepEqual(directives['default-src'], ["'self'"]);
  assert.deepEqual(directives['object-src'], ["'none'"]);
  assert.deepEqual(directives['base-uri'], ["'none'"]);
  // Inline style attributes only (ECharts' HTML tooltips): no inline script, no eval, no <style>.
  assert.deepEqual(directives['style-src-attr'], ["'unsafe-inline'"]);
  assert.deepEqual(Object.entries(directives).filter(([, v]) => v.some((x) => x.startsWith("'unsafe-"))).map(([k]) => k), ['style-src-attr']);
  assert.equal(directives['style-src-elem'], undefined, '<style> elements fall back to style-src: self only');
  assert.doesNotMatch(CONTENT_SECURITY_POLICY, /\*|https?:/);
  assert.doesNotMatch(CONTENT_SECURITY_POLICY, /"/, 'fits a double-quoted attribute');
});

test('the template and the pages need nothing the policy forbids', async () => {
  assert.doesNotMatch(TEMPLATE, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
  assert.doesNotMatch(TEMPLATE, /<style|\sstyle=|\son[a-z]+=/i, 'no inline style or handler');
  const dir = new URL('../../site/js/', import.meta.url);
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.js'));
  for (const f of files) {
    const src = await readFile(new URL(f, dir), 'utf8');
    assert.doesNotMatch(src, /setAttribute\(\s*['"]style['"]|\bstyle:\s|innerHTML|\beval\(|new Function\(/, `site/js/${f}`);
  }
});
