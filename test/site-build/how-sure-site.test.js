/**
 * "How sure" and the host's drift words are decided once and read the same everywhere (issue 35,
 * Build item 3): from one real comparison (test/fixtures/compare/time-and-work: a real `tagbench
 * run` of MariaDB 10.11.18 and 10.11.19 under the wall and instructions meters, 3 paired rounds,
 * and its stored comparison) and the project's stored calibrations (bench/calibrations/), the
 * sentence is the same string in the Markdown report, the terminal, the release page's data and
 * home's (the manifest); and the host page's drift words are the host check's lines.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readComparisons, readRecords, readCalibrations } from '../../scripts/store/index.js';
import { renderComparison, describeHowSure, findHostDrift, renderHostDrift, referenceRecords, resolveThresholds } from '../../scripts/compare/index.js';
import { loadConfig } from '../../scripts/config/index.js';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { dataPaths } from '../../site/js/paths.js';
import { PROJECT_ROOT } from './fixture-store.js';

const STORE = fileURLToPath(new URL('../fixtures/compare/time-and-work/', import.meta.url));

/** @type {string} */
let tmp;
/** @type {string} */
let out;

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'tagbench-how-sure-'));
  out = join(tmp, 'site');
  await buildSite({ store: STORE, out, baselines: join(tmp, 'no-baselines'), configRoot: PROJECT_ROOT, now: new Date('2026-11-28T14:00:00Z') });
});

after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** @param {string} path */
async function readData(path) {
  return JSON.parse(await readFile(join(out, path), 'utf8'));
}

test('the how-sure sentence is one string in the Markdown, the terminal, the release page and home', async () => {
  const [stored] = await readComparisons(STORE, { hostClass: 'local', product: 'mariadb', suite: 'smoke' });
  // As compare wrote it (the stored form of a FullComparison, which `tagbench report` renders too).
  const comparison = /** @type {import('../../scripts/compare/index.js').FullComparison} */ (/** @type {unknown} */ (stored));
  const calibrations = await readCalibrations(join(PROJECT_ROOT, 'bench'), 'local');
  const sentence = describeHowSure(comparison, calibrations);
  // It cites the matching instructions calibration and none of the unpaired wall ones.
  assert.match(sentence, /^A throughput drop .*no calibration of this host class matches .*\. A rise in instructions per op in the query path .*the calibration of 2026-11-27 .*bench\/calibration-instructions-held\.json/);
  const md = renderComparison(comparison, { format: 'markdown', calibrations });
  const term = renderComparison(comparison, { format: 'terminal', calibrations });
  const places = {
    Markdown: /\*\*How sure:\*\* (.*)\n/.exec(md)?.[1],
    terminal: /^how sure: (.*)$/m.exec(term)?.[1],
    'release page': (await readData(dataPaths.release({ host: 'local', product: 'mariadb', version: '10.11.19', suite: 'smoke' }))).comparison?.howSure,
    home: (await readData(dataPaths.manifest())).tables.find((/** @type {any} */ t) => t.host === 'local' && t.suite === 'smoke')?.latest?.comparison?.howSure,
  };
  for (const [where, text] of Object.entries(places)) assert.equal(text, sentence, `${where}: the same sentence`);
  // First: right under the title in both reports.
  assert.equal(term.split('\n')[1], `how sure: ${sentence}`);
  assert.equal(md.split('\n\n')[1], `**How sure:** ${sentence}`);
});

test('the host page\'s drift words are the host check\'s', async () => {
  const config = await loadConfig(PROJECT_ROOT);
  const thresholds = resolveThresholds(config.thresholds);
  const records = referenceRecords(await readRecords(STORE, { hostClass: 'local', suite: 'smoke' }), { product: 'mariadb', version: '10.11.18' });
  assert.ok(records.length > 0, 'the fixture has a run of the reference');
  const text = renderHostDrift(findHostDrift({ records, thresholds }));
  const host = await readData(dataPaths.host('local'));
  const suite = host.suites.find((/** @type {any} */ s) => s.suite === 'smoke');
  // One run: too few to judge; the page must not call the host steady while the check does not.
  assert.equal(suite.driftWords.state, 'not-judged');
  assert.ok(suite.driftWords.lines.length > 0);
  for (const line of suite.driftWords.lines) assert.ok(text.includes(`  ${line}`), `the host check prints: ${line}\n${text}`);
  assert.doesNotMatch(suite.driftWords.lines.join(' '), /steady\./);
});

test('the host page lists every stored calibration, newest first, with what decides whether a run may cite it', async () => {
  const host = await readData(dataPaths.host('local'));
  const stored = await readCalibrations(join(PROJECT_ROOT, 'bench'), 'local');
  assert.deepEqual(host.calibrations, [...stored].reverse());
  assert.deepEqual(host.calibrations.map((/** @type {any} */ c) => [c.meter, c.design.paired, c.design.instances]),
    [['instructions', true, 3], ['wall', true, 3], ['instructions', true, 3], ['instructions', true, 3], ['wall', false, 7], ['wall', false, 5]]);
});
