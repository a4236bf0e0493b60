/**
 * Page entry: every HTML shell loads this module; it picks the page's renderer from
 * <body data-page>, marks the current navigation link and shows any failure on the page (and
 * in the console, where the browser tests look).
 */
import { h } from './dom.js';
import { loadJson } from './data.js';
import { dataPaths } from './paths.js';
import { fmtDate } from './format.js';

const RENDERERS = /** @type {Record<string, () => Promise<{render: (main: HTMLElement) => Promise<void>}>>} */ ({
  index: () => import('./pages/home.js'),
  line: () => import('./pages/line.js'),
  release: () => import('./pages/release.js'),
  test: () => import('./pages/test.js'),
  regressions: () => import('./pages/regressions.js'),
  downloads: () => import('./pages/downloads.js'),
  host: () => import('./pages/host.js'),
  cross: () => import('./pages/cross.js'),
  matrix: () => import('./pages/matrix.js'),
  refs: () => import('./pages/refs.js'),
  ref: () => import('./pages/ref.js'),
});

async function start() {
  const page = document.body.dataset.page ?? 'index';
  for (const a of document.querySelectorAll('[data-nav]')) {
    // One ref run's page is under "Under review", as a release's is under its line.
    if (/** @type {HTMLElement} */ (a).dataset.nav === (page === 'ref' ? 'refs' : page)) a.setAttribute('aria-current', 'page');
  }
  const main = /** @type {HTMLElement} */ (document.getElementById('main'));
  try {
    const mod = await RENDERERS[page]();
    // Pages replace main's content themselves, then draw charts into the attached (sized)
    // containers.
    await mod.render(main);
    // Loops, DDL and reload timings, reads per operation (issue 12's views), where the table has them.
    if (page === 'line' || page === 'test') await (await import('./pages/table-views.js')).enhance(page, main);
    document.body.dataset.ready = 'true';
    loadJson(dataPaths.manifest()).then((m) => {
      const el = document.querySelector('[data-footer="versions"]');
      if (el) el.textContent = `${m.tools?.tagbench ?? ''} on ${fmtDate(m.generatedAt)}, charts by Apache ECharts ${m.tools?.echarts ?? ''}`;
    }, () => {});
  } catch (err) {
    console.error(err);
    main.replaceChildren(h('h1', { text: 'This page could not be shown' }),
      h('p', { class: 'error', role: 'alert', text: err instanceof Error ? err.message : String(err) }),
      h('p', null, h('a', { href: 'index.html', text: 'Back to the home page' })));
    document.body.dataset.ready = 'error';
  }
}

start();
