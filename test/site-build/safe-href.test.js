// Stored XSS (issue 34): a leg attempt's run URL, an issue's URL and every other address the
// pages link from data become an href only when they are a site path or https:. The page
// function runs on a DOM stand-in (test/support/fake-dom.js); the store refuses such a URL
// before it is ever written (the leg attempt's schema).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { installFakeDom, FakeElement } from '../support/fake-dom.js';
import { writeLegAttempt, readLegAttempts } from '../../scripts/store/index.js';
import { tempDir, cleanupTempDirs } from '../store/store-testkit.js';

installFakeDom();
const { h, safeHref } = await import('../../site/js/dom.js');
const { failedLegs } = await import('../../site/js/pages/home.js');

after(cleanupTempDirs);

const HOSTILE = ['javascript:alert(document.domain)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox', 'http://evil.example/', '', '   '];

test('safeHref: site paths and https: pass, every other scheme (however spelled) is refused', () => {
  for (const ok of ['https://github.com/acme/tagbench/actions/runs/42', 'index.html', 'ref.html?host=local&commit=1a2b', 'data/tables/x.csv', '#top']) {
    assert.equal(safeHref(ok), ok);
  }
  for (const bad of HOSTILE) assert.equal(safeHref(bad), null, JSON.stringify(bad));
  assert.equal(safeHref(null), null);
});

/** @param {Partial<import('../../scripts/store/index.js').LegAttempts>} over */
const leg = (over) => ({ hostClass: 'local', product: 'mariadb', version: '10.11.20', suite: 'smoke', count: 3, firstAt: '2026-11-20T00:00:00Z', lastAt: '2026-11-22T00:00:00Z', lastOutcome: 'failure', lastReason: 'x', lastRunUrl: null, ...over });

test('the home page\'s failed legs link a run only when its URL is https:', () => {
  const section = /** @type {FakeElement} */ (/** @type {unknown} */ (failedLegs([
    leg({ version: '10.11.20', lastRunUrl: 'javascript:alert(document.domain)' }),
    leg({ version: '10.11.21', lastRunUrl: 'https://github.com/acme/tagbench/actions/runs/42' }),
  ])));
  const links = section.findAll('a');
  assert.deepEqual(links.map((a) => a.getAttribute('href')), ['https://github.com/acme/tagbench/actions/runs/42'], 'only the https: run is a link');
  const rows = section.findAll('tr').slice(1);
  assert.equal(rows[0].findAll('a').length, 0);
  assert.match(rows[0].textContent, /—$/, 'the refused one shows a dash');
});

test('the element builder drops an unsafe href from any page, and keeps the link\'s text', () => {
  for (const bad of HOSTILE) {
    const a = /** @type {FakeElement} */ (/** @type {unknown} */ (h('a', { href: bad, text: '#12' })));
    assert.equal(a.getAttribute('href'), null, JSON.stringify(bad));
    assert.equal(a.textContent, '#12');
  }
  assert.equal(/** @type {FakeElement} */ (/** @type {unknown} */ (h('a', { href: 'index.html' }))).getAttribute('href'), 'index.html');
});

test('the store refuses a javascript: run URL before anything is written or read (an issue\'s URL, from GitHub\'s API, is checked by the page: a test\'s fake GitHub serves http:)', async () => {
  const store = await tempDir('xss');
  const attempt = { schemaVersion: /** @type {1} */ (1), at: '2026-11-22T00:00:00Z', hostClass: 'local', product: 'mariadb', version: '10.11.20', suite: 'smoke', outcome: /** @type {const} */ ('failure'), reason: 'x', runUrl: 'javascript:alert(1)' };
  await assert.rejects(writeLegAttempt(store, attempt), /runUrl.*must match pattern/);
  await writeLegAttempt(store, { ...attempt, runUrl: 'https://github.com/acme/tagbench/actions/runs/42' });
  // A file planted by hand (or by another writer) is refused by the reader too.
  const dir = join(store, 'attempts/local/mariadb/10.11.20/smoke');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'attempt-20261122T000000Z-00000000.json'), JSON.stringify(attempt));
  await assert.rejects(readLegAttempts(store), /attempt-20261122T000000Z-00000000\.json.*runUrl/s);
});
