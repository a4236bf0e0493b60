/**
 * Bisects on the site, end to end: a store with the generator's records of five MariaDB 10.11
 * releases and one bisect report (test/support/bisect-report.js: 10.11.18 good .. 10.11.22 bad,
 * first bad 10.11.21), the site built from it, served and read in headless Chromium: the bad
 * release's page and the first bad release's page show the outcome and a row per probe with
 * its numbers; a release the bisect only probed shows none.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeBisectReport, writeRecord, writeLegAttempt } from '../../scripts/store/index.js';
import { gotoReady } from '../support/browser.js';
import { startSite } from './fixture-store.js';
import { generateHistory } from '../support/generate-history.js';
import { makeBisectReport } from '../support/bisect-report.js';

const VERSIONS = ['10.11.18', '10.11.19', '10.11.20', '10.11.21', '10.11.22'];
const { records } = generateHistory({
  lines: [{ product: 'mariadb', line: '10.11', versions: VERSIONS }],
  hosts: ['local'], tests: 2, repeats: 3, intervalsS: 4, changes: [], seed: 12,
});
for (const r of records) r.config.suite = 'smoke';

/** @type {string} */
let bisectId;
/** @type {Awaited<ReturnType<typeof startSite>>} */
let site;
/** @type {string} */
let out;
/** @type {{url: string}} */
let server;
/** @type {import('playwright-core').Page} */
let page;
/** @type {string[]} */
let problems;

before(async () => {
  site = await startSite('tagbench-bisect-site-', async (store) => {
    for (const r of records) await writeRecord(store, r);
    ({ id: bisectId } = await writeBisectReport(store, makeBisectReport()));
    // Failed legs (issue 21): one of a release nothing has benchmarked since, one of a release
    // benchmarked after its failure (not listed).
    const attempt = { schemaVersion: /** @type {const} */ (1), hostClass: 'local', product: 'mariadb', suite: 'smoke', runUrl: 'https://github.example/acme/bench/actions/runs/5' };
    await writeLegAttempt(store, { ...attempt, version: '10.11.23', at: '2026-11-22T06:00:00.000Z', outcome: 'cancelled', reason: 'the bench job ended cancelled' });
    await writeLegAttempt(store, { ...attempt, version: '10.11.23', at: '2026-11-22T18:00:00.000Z', outcome: 'failure', reason: 'the bench job ended failure' });
    await writeLegAttempt(store, { ...attempt, version: '10.11.18', at: '2024-12-01T06:00:00.000Z', outcome: 'failure', reason: 'since benchmarked' });
  }, { now: new Date('2026-11-23T00:00:00Z') });
  ({ out, server, page, problems } = site);
});

after(async () => {
  await site?.close();
});

/** @param {string} version */
async function releaseData(version) {
  return JSON.parse(await readFile(join(out, 'data', 'releases', 'local', 'mariadb', version, 'smoke.json'), 'utf8'));
}

/** @param {string} version */
async function readBisectSection(version) {
  assert.equal(await gotoReady(page, `${server.url}site/release.html?product=mariadb&version=${version}&host=local&suite=smoke`), 'true');
  return page.evaluate(() => {
    const section = document.querySelector('#bisects');
    if (!section) return null;
    return {
      heading: section.querySelector('h2')?.textContent,
      cards: [...section.querySelectorAll('article')].map((a) => ({
        id: /** @type {HTMLElement} */ (a).dataset.bisect, status: /** @type {HTMLElement} */ (a).dataset.status,
        outcome: a.querySelector('.bisect-outcome')?.textContent, note: a.querySelector('.note')?.textContent,
        rows: [...a.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent?.trim())),
      })),
    };
  });
}

describe('bisect on the site', () => {
  it('the release data of the bad and of the first bad release carry the bisect, others not', async () => {
    assert.deepEqual((await releaseData('10.11.22')).bisects.map((/** @type {any} */ b) => [b.id, b.roles]), [[bisectId, ['bad']]]);
    const firstBad = (await releaseData('10.11.21')).bisects;
    assert.deepEqual(firstBad.map((/** @type {any} */ b) => [b.id, b.roles]), [[bisectId, ['firstBad']]]);
    assert.deepEqual(firstBad[0].probes.map((/** @type {any} */ p) => [p.candidate, p.call, p.evidence[0].ratio]), [['10.11.20', 'good', 0.996], ['10.11.21', 'bad', 0.71]]);
    assert.deepEqual((await releaseData('10.11.20')).bisects, [], 'a probed good release is not the finding');
  });

  it('the first bad release\'s page names it and shows every probe\'s numbers', async () => {
    const section = await readBisectSection('10.11.21');
    assert.equal(section?.heading, 'Bisect');
    const [card] = section?.cards ?? [];
    assert.equal(card.id, bisectId);
    assert.equal(card.status, 'found');
    assert.match(card.outcome ?? '', /^10\.11\.21 is the first bad release between 10\.11\.18 and 10\.11\.22\. First bad release: 10\.11\.21/);
    assert.match(card.note ?? '', /a stand-in report made by hand for tests/);
    assert.deepEqual(card.rows, [
      // the verdict cell: the badge (glyph, and the word for screen readers), then the word
      ['1', '10.11.20', 'good', 'point-query throughput', '= unchanged unchanged', '1.00', '0.97 – 1.02', '5 / 5', '4 %', 'run-good-1, run-10.11.20'],
      ['2', '10.11.21', 'bad', 'point-query throughput', '▼ regression regression (issue)', '0.71', '0.66 – 0.77', '5 / 5', '4 %', 'run-good-2, run-10.11.21'],
    ]);
    assert.deepEqual(problems, [], 'no console error');
  });

  it('the home page lists the failed leg nothing has benchmarked since, with its attempts and run, and not the one benchmarked after', async () => {
    assert.equal(await gotoReady(page, `${server.url}site/index.html`), 'true');
    const rows = await page.evaluate(() => [...document.querySelectorAll('#failed-legs tbody tr')].map((tr) => ({
      leg: /** @type {HTMLElement} */ (tr).dataset.leg, cells: [...tr.children].map((c) => c.textContent?.trim()),
      link: tr.querySelector('a')?.getAttribute('href'),
    })));
    assert.equal(rows.length, 1, JSON.stringify(rows));
    assert.equal(rows[0].leg, 'local/mariadb/10.11.23/smoke');
    assert.deepEqual(rows[0].cells.slice(0, 4), ['local', 'mariadb 10.11.23', 'smoke', '2']);
    assert.match(rows[0].cells[4] ?? '', /^failure, /);
    assert.equal(rows[0].cells[5], 'the bench job ended failure');
    assert.equal(rows[0].link, 'https://github.example/acme/bench/actions/runs/5');
    assert.match(await page.locator('#failed-legs h2').innerText(), /^Failed benchmark legs \(1\)$/);
    assert.deepEqual(problems, [], 'no console error');
  });

  it('the bad release\'s page names the first bad release; a probed release shows no bisect', async () => {
    const section = await readBisectSection('10.11.22');
    assert.match(section?.cards[0].outcome ?? '', /^The first bad release between 10\.11\.18 and this release is 10\.11\.21\./);
    assert.equal(section?.cards[0].rows.length, 2);
    assert.equal(await readBisectSection('10.11.20'), null);
    assert.deepEqual(problems, [], 'no console error');
  });
});
