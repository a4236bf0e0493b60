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

test('--index reads the results branch\'s index.json alone (no records beside it); a missing one is refused, never "nothing benchmarked"', async () => {
  const store = await tempDir('store');
  await writeRecord(store, await record('done', { product: 'mysql', version: '9.7.4', hostClass: 'bench-b', suite: 'small', status: 'ok' }));
  await writeRecord(store, await record('done-843', { product: 'mysql', version: '8.4.3', hostClass: 'bench-b', suite: 'small', status: 'ok' }));
  await buildIndex(store);
  const alone = join(await tempDir('index-only'), 'results-index.json');
  await writeFile(alone, await readFile(join(store, 'index.json'), 'utf8'));
  const out = join(await tempDir('gh'), 'output');
  await watchCommand({ root, index: alone, products: 'mysql', hostClass: ['bench-b'], max: 10, remoteOverride: [`mysql=${up.mysql.bare}`], githubOutput: out });
  const matrix = JSON.parse((await readFile(out, 'utf8')).split('\n')[0].replace(/^matrix=/, ''));
  assert.deepEqual(matrix.include.map((/** @type {any} */ e) => e.tag), ['mysql-8.4.4'], 'the index alone says 9.7.4 and 8.4.3 are benchmarked');
  await assert.rejects(watchCommand({ root, index: join(alone, '..', 'missing.json'), githubOutput: out }), /--index .*missing\.json: no such file; for a results branch that does not exist yet pass --store/);
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

test('the failed legs watch backs off from go to the job summary, one row each with why', async () => {
  const { writeLegAttempt } = await import('../../scripts/store/index.js');
  const store = await tempDir('store');
  const recent = new Date(Date.now() - 3600_000).toISOString();
  await writeLegAttempt(store, { schemaVersion: 1, at: recent, hostClass: 'bench-b', product: 'mysql', version: '8.4.4', suite: 'small', outcome: 'failure', reason: 'the bench job ended failure', runUrl: null });
  const dir = await tempDir('gh');
  const summary = join(dir, 'summary.md');
  const out = process.stdout.write;
  process.stdout.write = () => true;
  try {
    await watchCommand({ root, store, products: 'mysql', hostClass: ['bench-b'], max: 10, remoteOverride: [`mysql=${up.mysql.bare}`], githubOutput: join(dir, 'output'), stepSummary: summary });
  } finally {
    process.stdout.write = out;
  }
  const text = await readFile(summary, 'utf8');
  assert.match(text, /^### Failed benchmark legs \(1\)$/m);
  assert.match(text, /^\| bench-b \| mysql 8\.4\.4 \| small \| 1 \| backing off after 1 failed attempt: not before \S+; last: failure at \S+: the bench job ended failure \|$/m);
  // The matrix leaves that leg out and keeps the other.
  const matrix = JSON.parse((await readFile(join(dir, 'output'), 'utf8')).split('\n')[0].replace(/^matrix=/, ''));
  const versions = matrix.include.map((/** @type {any} */ e) => e.version);
  assert.ok(!versions.includes('8.4.4') && versions.includes('8.4.3'), versions.join(', '));
});

test('a failed leg whose finished run records were published is proposed as a resume, in the matrix and on stdout', async () => {
  const { writeLegAttempt } = await import('../../scripts/store/index.js');
  const store = await tempDir('store');
  // One `tagbench run` of 8.4.4 beside its base (one stamp and tag), published before the bench job died.
  const ids = ['20250301T101500Z-bench-b-mysql-8.4.4-small-a1b2c3', '20250301T101500Z-bench-b-mysql-8.4.3-small-a1b2c3'];
  await writeRecord(store, await record(ids[0], { product: 'mysql', version: '8.4.4', hostClass: 'bench-b', suite: 'small', status: 'ok' }));
  await writeRecord(store, await record(ids[1], { product: 'mysql', version: '8.4.3', hostClass: 'bench-b', suite: 'small', status: 'ok' }));
  await writeLegAttempt(store, { schemaVersion: 1, at: new Date(Date.now() - 3600_000).toISOString(), hostClass: 'bench-b', product: 'mysql', version: '8.4.4', suite: 'small', outcome: 'cancelled', reason: 'the bench job ended cancelled', runUrl: null });
  await buildIndex(store);
  const alone = join(await tempDir('index-only'), 'results-index.json');
  await writeFile(alone, await readFile(join(store, 'index.json'), 'utf8'));
  const dir = await tempDir('gh');
  /** @type {string[]} */
  const stdout = [];
  const write = process.stdout.write;
  process.stdout.write = (/** @type {any} */ chunk) => { stdout.push(String(chunk)); return true; };
  try {
    await watchCommand({ root, index: alone, products: 'mysql', hostClass: ['bench-b'], max: 10, backOffHours: 0, remoteOverride: [`mysql=${up.mysql.bare}`], githubOutput: join(dir, 'output') });
  } finally {
    process.stdout.write = write;
  }
  const matrix = JSON.parse((await readFile(join(dir, 'output'), 'utf8')).split('\n')[0].replace(/^matrix=/, ''));
  const leg = matrix.include.find((/** @type {any} */ e) => e.version === '8.4.4');
  assert.deepEqual({ attempt: leg?.attempt, resume: leg?.resume }, { attempt: 2, resume: ids.join(',') });
  assert.ok(!matrix.include.some((/** @type {any} */ e) => e.version === '8.4.3'), 'the base\'s finished record counts it as benchmarked');
  assert.match(stdout.join(''), new RegExp(`^bench-b\\tmysql\\t8\\.4\\t8\\.4\\.4\\tmysql-8\\.4\\.4\\tsmall\\tresume ${ids.join(',')}$`, 'm'));
});
