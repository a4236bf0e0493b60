// `tagbench watch` (scripts/watch/commands.js): the matrix on stdout and in GITHUB_OUTPUT.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeRecord, buildIndex } from '../../scripts/store/index.js';
import { watchCommand } from '../../scripts/watch/commands.js';
import { upstreamRepos, record, tempDir, cleanupTempDirs } from './watch-testkit.js';

const root = fileURLToPath(new URL('../fixtures/watch', import.meta.url));
after(cleanupTempDirs);

/** @type {Awaited<ReturnType<typeof upstreamRepos>>} */
let up;

before(async () => {
  up = await upstreamRepos();
});

test('`tagbench watch` writes the matrix to GITHUB_OUTPUT and as JSON; the results branch index is honoured', async () => {
  const store = await tempDir('store');
  await writeRecord(store, await record('done', { product: 'mysql', version: '9.7.4', hostClass: 'bench-b', suite: 'small', status: 'ok' }));
  await buildIndex(store);
  const out = join(await tempDir('gh'), 'output');
  await writeFile(out, 'earlier=1\n');
  const code = await watchCommand({
    root, store, products: 'mysql', hostClass: ['bench-b'], max: 10,
    remoteOverride: [`mysql=${up.mysql.bare}`], githubOutput: out,
  });
  assert.equal(code, 0);
  const lines = (await readFile(out, 'utf8')).trim().split('\n');
  assert.equal(lines[0], 'earlier=1', 'appends, never truncates');
  const matrix = JSON.parse(lines[1].replace(/^matrix=/, ''));
  assert.deepEqual(matrix.include.map((/** @type {any} */ e) => e.tag), ['mysql-8.4.4', 'mysql-8.4.3']);
  assert.deepEqual(Object.keys(matrix.include[0]).sort(), ['commit', 'hostClass', 'line', 'product', 'suite', 'tag', 'version']);
  assert.equal(lines[2], 'count=2');
  await assert.rejects(watchCommand({ root, store, remoteOverride: ['mysql'] }), /expected <product>=<git URL or path>/);
});

test('in GitHub Actions (GITHUB_OUTPUT set) the matrix goes to the step outputs without a flag', async () => {
  const out = join(await tempDir('gh'), 'output');
  const saved = process.env.GITHUB_OUTPUT;
  process.env.GITHUB_OUTPUT = out;
  try {
    await watchCommand({ root, store: join(out, '..', 'no-store-yet'), products: 'mariadb', hostClass: ['bench-a'], max: 2, remoteOverride: [`mariadb=${up.mariadb.bare}`] });
  } finally {
    if (saved === undefined) delete process.env.GITHUB_OUTPUT;
    else process.env.GITHUB_OUTPUT = saved;
  }
  const text = await readFile(out, 'utf8');
  assert.match(text, /^matrix=\{"include":\[\{"product":"mariadb","line":"10\.11","version":"10\.11\.20"/);
  assert.match(text, /\ncount=2\n$/);
});
