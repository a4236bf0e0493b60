// What happened to a release's tag upstream, on the site: a run made because the tag moved says
// "moved from <old> to <new>" (its record's release.movedFrom and commit), and a tag watch found
// deleted (watch --deleted-tags-out, site --deleted-tags) marks its release "tag deleted".
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSite } from '../../scripts/site-build/build-site.js';
import { readDeletedTags } from '../../scripts/site-build/read-site-inputs.js';
import { writeRecord } from '../../scripts/store/index.js';
import { dataPaths } from '../../site/js/paths.js';
import { deletedTagsFile } from '../../scripts/watch/commands.js';
import { UserError } from '../../scripts/errors.js';
import { serveSite } from '../../scripts/site-build/serve-site.js';
import { launchBrowser, openPage, gotoReady } from '../support/browser.js';

const tmp = await mkdtemp(join(tmpdir(), 'tagbench-site-tags-'));
after(() => rm(tmp, { recursive: true, force: true }));

const OLD = 'a'.repeat(40);
const NEW = 'b'.repeat(40);

/**
 * A stored run of a source build.
 * @param {string} id
 * @param {string} version
 * @param {{commit: string, movedFrom?: string, startedAt: string}} o
 */
async function sourceRun(id, version, o) {
  const r = JSON.parse(await readFile(new URL('../fixtures/store/run-record-v2.json', import.meta.url), 'utf8'));
  r.id = id;
  r.status = 'ok';
  r.steps = r.steps.filter((/** @type {any} */ s) => s.status !== 'failed');
  r.startedAt = o.startedAt;
  r.finishedAt = o.startedAt.replace('T10:', 'T11:');
  Object.assign(r.release, { version, tag: `mariadb-${version}`, commit: o.commit, provider: 'source', ...(o.movedFrom ? { movedFrom: o.movedFrom } : {}) });
  return r;
}

test('a moved tag\'s run says from which commit to which; a deleted tag marks its release; others say nothing', async () => {
  const store = join(tmp, 'store');
  const before = await sourceRun('run-19-old', '10.11.19', { commit: OLD, startedAt: '2026-11-20T10:00:00.000Z' });
  for (const step of before.steps) for (const rep of step.repeats) if (rep.throughput !== null) rep.throughput *= 1e6;
  await writeRecord(store, before);
  await writeRecord(store, await sourceRun('run-19-new', '10.11.19', { commit: NEW, movedFrom: OLD, startedAt: '2026-11-27T10:00:00.000Z' }));
  await writeRecord(store, await sourceRun('run-20', '10.11.20', { commit: 'c'.repeat(40), startedAt: '2026-11-21T10:00:00.000Z' }));
  await writeRecord(store, await sourceRun('run-18', '10.11.18', { commit: 'd'.repeat(40), startedAt: '2026-11-19T10:00:00.000Z' }));
  const deletedFile = join(tmp, 'deleted-tags.json');
  await writeFile(deletedFile, JSON.stringify(deletedTagsFile([{ product: 'mariadb', tag: 'mariadb-10.11.20', versions: ['10.11.20'], runs: [{ id: 'run-20', hostClass: 'local', suite: 'smoke', commit: 'c'.repeat(40) }] }], new Date('2026-11-27T06:17:00Z'))));

  const out = join(tmp, 'site');
  await buildSite({ store, out, deletedTags: deletedFile, now: new Date('2026-11-27T08:00:00Z') });
  const page = async (/** @type {string} */ version) => JSON.parse(await readFile(join(out, dataPaths.release({ host: 'local', product: 'mariadb', version, suite: 'smoke' })), 'utf8'));

  const moved = await page('10.11.19');
  assert.deepEqual(moved.tag, { moved: [{ runId: 'run-19-new', tag: 'mariadb-10.11.19', from: OLD, to: NEW }], deleted: null });
  assert.equal(moved.runs.find((/** @type {any} */ r) => r.id === 'run-19-new').release.movedFrom, OLD, 'the provenance shows it per run');
  assert.deepEqual(moved.runs.map((/** @type {any} */ r) => [r.id, r.superseded]), [['run-19-new', false], ['run-19-old', true]],
    'the old commit\'s run is listed, marked superseded');
  // Its numbers are the new commit's only: the old run's throughput is made far off to tell.
  const table = JSON.parse(await readFile(join(out, dataPaths.table({ product: 'mariadb', line: '10.11', host: 'local', suite: 'smoke' })), 'utf8'));
  const column = table.releases.findIndex((/** @type {any} */ r) => r.version === '10.11.19');
  assert.deepEqual(table.releases[column].runs.map((/** @type {any} */ r) => r.id), ['run-19-new']);
  const test = moved.tests.find((/** @type {any} */ t) => t.present && t.median !== null);
  assert.ok(test, 'a test with numbers');
  assert.ok(test.median < 1000 * 1000, `median ${test.median} from the new commit's run, not the old run's inflated ones`);

  const deleted = await page('10.11.20');
  assert.deepEqual(deleted.tag, { moved: [], deleted: { tags: ['mariadb-10.11.20'], checkedAt: '2026-11-27T06:17:00.000Z' } });

  assert.deepEqual((await page('10.11.18')).tag, { moved: [], deleted: null });

  // The release pages say it, in Chromium.
  const server = await serveSite(out, { port: 0 });
  const browser = await launchBrowser();
  try {
    const { page: tab, problems } = await openPage(browser.context);
    const notes = async (/** @type {string} */ version) => {
      assert.equal(await gotoReady(tab, `${server.url}release.html?product=mariadb&version=${version}&host=local&suite=smoke`), 'true');
      return (await tab.$('#tag-notes')) ? tab.textContent('#tag-notes') : null;
    };
    assert.equal(await notes('10.11.19'), `Tag moved: mariadb-10.11.19 moved from ${OLD} to ${NEW}; run run-19-new benchmarked the new commit. Runs of the old commit are listed below, not counted.`);
    assert.ok((await tab.textContent('main'))?.includes(`Moved from${OLD} (the tag's commit when it was benchmarked before)`), 'the run\'s provenance names the old commit');
    assert.match(await notes('10.11.20') ?? '', /^Tag deleted: upstream no longer has mariadb-10\.11\.20 \(checked .*2026.*\)\. Its runs stay here as they were measured\.$/);
    assert.equal(await notes('10.11.18'), null, 'nothing to say about a tag that stayed');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    await server.close();
  }

  // Without the file the site knows of no deleted tag, and says so by saying nothing.
  const plain = join(tmp, 'site-plain');
  await buildSite({ store, out: plain, now: new Date('2026-11-27T08:00:00Z') });
  const data = JSON.parse(await readFile(join(plain, dataPaths.release({ host: 'local', product: 'mariadb', version: '10.11.20', suite: 'smoke' })), 'utf8'));
  assert.equal(data.tag.deleted, null);
});

test('a deleted-tags file that is not one is refused, naming the file and the field', async () => {
  const bad = join(tmp, 'bad.json');
  await writeFile(bad, JSON.stringify({ schemaVersion: 1, checkedAt: '2026-11-27T06:17:00Z', deleted: [{ product: 'mariadb' }] }));
  await assert.rejects(readDeletedTags(bad), (err) => err instanceof UserError && /--deleted-tags .*bad\.json: field 'deleted\.0' is \{"product":"mariadb"\}/.test(err.message));
  await writeFile(bad, JSON.stringify({ schemaVersion: 2, checkedAt: '2026-11-27T06:17:00Z', deleted: [] }));
  await assert.rejects(readDeletedTags(bad), /schemaVersion is 2, this tagbench reads 1/);
  await writeFile(bad, '{');
  await assert.rejects(readDeletedTags(bad), /--deleted-tags .*bad\.json: .*JSON/);
});
