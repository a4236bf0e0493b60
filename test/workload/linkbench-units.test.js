/**
 * LinkBench pieces that need no server: the pin (pin.js) and its checks, the
 * properties file, the DDL per engine, the plan of a suite, the build's refusals (missing JDK
 * or Maven, an archive of another commit or checksum, a git source without the pinned commit),
 * the git source path itself on a small local repository, and the pin's source edits against the
 * real tree of the pinned commit.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../../scripts/errors.js';
import { loadConfig } from '../../scripts/config/index.js';
import { planSuite } from '../../scripts/workload/index.js';
import {
  LINKBENCH_PIN, checkPin, checkBuildTools, ensureLinkbench, fetchSource,
  linkbenchProperties, createSchemaStatements, createIndexStatement, linkbenchCommand,
} from '../../scripts/workload/linkbench/index.js';
import { applySourceEdits, MARKER } from '../../scripts/workload/linkbench/build.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ARCHIVE = join(root, '..', 'shared', 'linkbench', 'linkbench-9ef9cc8.tar.gz');

test('the pin names the fork by URL and full commit, and the offline archive by sha256', async () => {
  const c = checkPin({ ...LINKBENCH_PIN });
  assert.equal(c.gitUrl, 'https://github.com/mdcallag/linkbench.git');
  assert.equal(c.commit, '9ef9cc8785dbd0921abd0bbfea971680a493a4fe');
  assert.equal(c.archiveSha256, 'fe24e817619b4254d0866fb90b61bda29acef58699a48cb4f8bd88c7e04b2486');
  // The archive beside the clone is the one pinned (its README gives the same sha256), and its
  // tar header names the pinned commit.
  const readme = await readFile(join(root, '..', 'shared', 'linkbench', 'README.md'), 'utf8');
  assert.ok(readme.includes(c.archiveSha256));
  assert.equal(createHash('sha256').update(await readFile(ARCHIVE)).digest('hex'), c.archiveSha256);
  assert.equal(execFileSync('sh', ['-c', 'gzip -dc "$1" | git get-tar-commit-id', 'sh', ARCHIVE]).toString().trim(), c.commit);
  assert.deepEqual(c.mavenArgs, ['-q', '-DskipTests', 'package']);
});

test('a bad pin names the field, the value and what is valid', () => {
  const good = { ...LINKBENCH_PIN, jar: 'target/a.jar' };
  assert.equal(checkPin(good).jar, 'target/a.jar');
  assert.throws(() => checkPin({ ...good, commit: '9ef9cc8' }), /commit is "9ef9cc8"; must be a full commit sha/);
  assert.throws(() => checkPin({ ...good, extra: 1 }), /unknown key extra/);
  assert.throws(() => checkPin({ ...good, jar: '../a.jar' }), /jar is "\.\.\/a\.jar"; must be a relative path/);
  assert.throws(() => checkPin({ ...good, mavenArgs: [] }), /mavenArgs is \[\]; must be a non-empty list/);
  const edit = LINKBENCH_PIN.sourceEdits[0];
  assert.throws(() => checkPin({ ...good, sourceEdits: [edit, edit] }), /sourceEdits is .*distinct ids/);
  assert.throws(() => checkPin({ ...good, sourceEdits: [{ ...edit, file: '../pom.xml' }] }), /sourceEdits is .*relative files/);
  assert.throws(() => checkPin({ ...good, sourceEdits: [{ ...edit, find: '' }] }), /sourceEdits is .*non-empty strings/);
});

test('source edits: each pinned edit finds its text exactly once in the real tree of the pinned commit and replaces it; a missing or repeated text stops the build', async () => {
  const work = await mkdtemp(join(tmpdir(), 'tagbench-lb-edit-'));
  try {
    const tree = join(work, 'tree');
    await fetchSource(ARCHIVE, LINKBENCH_PIN, tree);
    /** @type {string[]} */
    const logged = [];
    await applySourceEdits(tree, LINKBENCH_PIN.sourceEdits, (l) => logged.push(l));
    const histogram = await readFile(join(tree, 'src/main/java/com/facebook/LinkBench/stats/HdrLatencyHistogram.java'), 'utf8');
    // every per-operation histogram the requester threads share is the synchronized class now
    assert.match(histogram, /histograms\[op\.ordinal\(\)\] = new org\.HdrHistogram\.SynchronizedHistogram\(maxHistogramValue, histogramAccuracy\);/);
    assert.doesNotMatch(histogram, /new Histogram\(/);
    assert.deepEqual(logged, [`linkbench: source edit hdr-histogram-synchronized in ${LINKBENCH_PIN.sourceEdits[0].file}`]);
    // applied again, the text is gone: a tree that no longer matches the pin is refused
    await assert.rejects(applySourceEdits(tree, LINKBENCH_PIN.sourceEdits, () => {}),
      (e) => e instanceof UserError && /source edit hdr-histogram-synchronized .* 0 times, must be exactly once/.test(e.message));
    const twice = { id: 'twice', file: 'pom.xml', find: '<dependency>', replace: 'x', why: 'test' };
    await assert.rejects(applySourceEdits(tree, [twice], () => {}), /pom\.xml holds "<dependency>" \d+ times/);
    await assert.rejects(applySourceEdits(tree, [{ ...twice, file: 'no/such.java' }], () => {}), /no\/such\.java is not in the tree/);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

test('cache: a build made with other source edits (or an older marker) is rebuilt, never used; one with the pin\'s edits is reused', async () => {
  const cacheDir = await mkdtemp(join(tmpdir(), 'tagbench-lb-stale-'));
  try {
    const home = join(cacheDir, `linkbench-${LINKBENCH_PIN.commit}`);
    await mkdir(home, { recursive: true });
    await writeFile(join(home, 'FacebookLinkBench.jar'), 'a jar');
    const jarSha256 = createHash('sha256').update('a jar').digest('hex');
    const base = { commit: LINKBENCH_PIN.commit, jarSha256 };
    const noTools = { mvnBin: '/nonexistent/mvn' };
    for (const marker of [{ ...base, schemaVersion: 1 }, { ...base, schemaVersion: 2, sourceEdits: [] }]) {
      await writeFile(join(home, MARKER), JSON.stringify(marker));
      /** @type {string[]} */
      const logged = [];
      // a rebuild starts by checking the tools: here it stops there, so the folder is untouched
      await assert.rejects(ensureLinkbench({ cacheDir, source: ARCHIVE, tools: noTools, log: (l) => logged.push(l) }), /openjdk-17-jdk-headless and maven/);
      assert.match(logged.join('\n'), /was made with (marker schema 1|source edits \[\]), the pin has \[hdr-histogram-synchronized\]: rebuilding/);
    }
    const current = { ...base, schemaVersion: 2, sourceEdits: LINKBENCH_PIN.sourceEdits.map(({ id, file, why }) => ({ id, file, why })) };
    await writeFile(join(home, MARKER), JSON.stringify(current));
    const reused = await ensureLinkbench({ cacheDir, source: ARCHIVE, tools: noTools, log: () => {} });
    assert.equal(reused.cached, true);
    await writeFile(join(home, MARKER), JSON.stringify({ ...current, commit: '1'.repeat(40) }));
    await assert.rejects(ensureLinkbench({ cacheDir, source: ARCHIVE, tools: noTools, log: () => {} }), /holds commit 1111.*not 9ef9cc8/);
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
});

test('a missing java, javac or mvn is a UserError naming the Debian packages', async () => {
  for (const tools of [{ javaBin: '/nonexistent/java' }, { javacBin: '/nonexistent/javac' }, { mvnBin: '/nonexistent/mvn' }]) {
    await assert.rejects(checkBuildTools(tools), (e) => e instanceof UserError
      && /not found/.test(e.message) && /openjdk-17-jdk-headless and maven/.test(e.message) && /setup\/linkbench\.sh/.test(e.message));
  }
  const cacheDir = await mkdtemp(join(tmpdir(), 'tagbench-lb-cache-'));
  try {
    await assert.rejects(ensureLinkbench({ cacheDir, source: ARCHIVE, tools: { mvnBin: '/nonexistent/mvn' }, log: () => {} }),
      (e) => e instanceof UserError && /openjdk-17-jdk-headless and maven/.test(e.message));
  } finally {
    await rm(cacheDir, { recursive: true, force: true });
  }
});

test('fetchSource: the archive is checked (sha256, commit in its header) before it is unpacked', async () => {
  const config = LINKBENCH_PIN;
  const work = await mkdtemp(join(tmpdir(), 'tagbench-lb-src-'));
  try {
    const facts = await fetchSource(ARCHIVE, config, join(work, 'ok'));
    assert.deepEqual(facts, { kind: 'archive', location: ARCHIVE, sha256: config.archiveSha256, sha256Of: 'archive file' });
    assert.match(await readFile(join(work, 'ok', 'pom.xml'), 'utf8'), /<artifactId>linkbench<\/artifactId>/);
    await assert.rejects(fetchSource(ARCHIVE, { ...config, archiveSha256: '0'.repeat(64) }, join(work, 'sha')), /has sha256 fe24e8.*expects 0000/);
    await assert.rejects(fetchSource(ARCHIVE, { ...config, commit: '1'.repeat(40) }, join(work, 'commit')), /is of commit '9ef9cc8785dbd0921abd0bbfea971680a493a4fe', not the pinned 1111/);
    await assert.rejects(fetchSource(join(work, 'missing.tar.gz'), config, join(work, 'missing')), /does not exist/);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

test('fetchSource: a git source is cloned and the pinned commit checked out (here a small local repository); a source without it is refused', async () => {
  const work = await mkdtemp(join(tmpdir(), 'tagbench-lb-git-'));
  try {
    const repo = join(work, 'repo');
    await mkdir(repo);
    const git = (/** @type {string[]} */ ...args) => execFileSync('git', ['-C', repo, ...args], { env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } }).toString().trim();
    git('init', '-q');
    await writeFile(join(repo, 'pom.xml'), 'first\n');
    git('add', '.'); git('commit', '-qm', 'one');
    const pinned = git('rev-parse', 'HEAD');
    await writeFile(join(repo, 'pom.xml'), 'second\n');
    git('commit', '-qam', 'two');
    const config = { ...LINKBENCH_PIN, commit: pinned };
    const facts = await fetchSource(repo, config, join(work, 'checkout'));
    assert.equal(facts.kind, 'git');
    assert.match(facts.sha256, /^[0-9a-f]{64}$/);
    // The pinned commit, not the branch head.
    assert.equal(await readFile(join(work, 'checkout', 'pom.xml'), 'utf8'), 'first\n');
    await assert.rejects(fetchSource(repo, { ...config, commit: 'a'.repeat(40) }, join(work, 'nope')), /has no commit aaaa/);
    await assert.rejects(fetchSource(join(work, 'no-repo'), config, join(work, 'nope2')), /cannot clone LinkBench from/);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
});

test('properties: connection, scale, fixed seeds, histogram choice, absolute workload paths', () => {
  const text = linkbenchProperties({ maxid1: 1001, loaders: 3, requesters: 4, maxtimeS: 7, hdrHistogram: true, nlinks: { func: 'multiples', default: 4, config: 8 } },
    { host: '127.0.0.1', port: 3307, user: 'root', password: '' }, '/cache/lb');
  /** @type {Record<string, string>} */
  const props = Object.fromEntries(text.split('\n').filter((l) => l.includes(' = ')).map((l) => l.split(' = ')));
  assert.equal(props.workload_file, '/cache/lb/config/FBWorkload.properties');
  assert.equal(props.data_file, '/cache/lb/config/Distribution.dat');
  assert.equal(props.port, '3307');
  assert.equal(props.maxid1, '1001');
  assert.equal(props.loaders, '3');
  assert.equal(props.requesters, '4');
  assert.equal(props.maxtime, '7');
  assert.equal(props.load_random_seed, '1');
  assert.equal(props.request_random_seed, '2');
  assert.equal(props.use_hdr_histogram, 'true');
  assert.equal(props.dbprefix, 'linkdb');
  assert.equal(props.nlinks_func, 'multiples');
  assert.equal(props.nlinks_config, '8');
  assert.ok(!linkbenchProperties({ maxid1: 11, loaders: 1, requesters: 1, maxtimeS: 1 }, { host: 'h', port: 1, user: 'u' }, '/x').includes('nlinks_func'));
  assert.throws(() => linkbenchProperties({ maxid1: 1, loaders: 1, requesters: 1, maxtimeS: 1 }, { host: 'h', port: 1, user: 'u' }, '/x'), /maxid1 must be at least 2/);
  assert.throws(() => linkbenchProperties({ maxid1: 10, loaders: 0, requesters: 1, maxtimeS: 1 }, { host: 'h', port: 1, user: 'u' }, '/x'), /loaders 0/);
  assert.deepEqual(linkbenchCommand('load', { jar: '/c/lb.jar', home: '/c' }, '/t/p', '/t/s.csv').slice(-5), ['-c', '/t/p', '-l', '-csvstats', '/t/s.csv']);
});

test('schema: InnoDB and MyRocks tables with the fork\'s keys; id1_type only after the load', () => {
  const innodb = createSchemaStatements({ engine: 'innodb' });
  assert.equal(innodb[0], 'DROP DATABASE IF EXISTS `linkdb0`');
  assert.match(innodb[2], /PRIMARY KEY \(`link_type`, `id1`, `id2`\)\n\) ENGINE=InnoDB DEFAULT CHARSET=latin1$/);
  assert.ok(innodb.every((s) => !s.includes('id1_type')));
  const rocks = createSchemaStatements({ engine: 'rocksdb', partitions: 16 });
  assert.match(rocks[2], /COMMENT 'cf_link_pk'\n\) ENGINE=RocksDB DEFAULT CHARSET=latin1 COLLATE=latin1_bin PARTITION BY KEY\(`id1`\) PARTITIONS 16$/);
  assert.match(rocks[4], /ENGINE=RocksDB/);
  assert.equal(createIndexStatement({ engine: 'innodb' }), 'ALTER TABLE `linkdb0`.`linktable` ADD INDEX `id1_type` (`id1`, `link_type`, `visibility`, `time`, `id2`, `version`, `data`)');
  assert.match(createIndexStatement({ engine: 'rocksdb' }), /COMMENT 'rev:cf_link_id1_type'$/);
  assert.throws(() => createSchemaStatements({ engine: /** @type {any} */ ('myisam') }), /engine 'myisam'/);
});

test('plan: the LinkBench presets plan load, index and N request phases as one sequence', async () => {
  const config = await loadConfig(root);
  const smoke = planSuite(config.suites['linkbench-smoke']);
  assert.deepEqual(smoke.map((s) => s.name), ['linkbench.load', 'linkbench.index', 'linkbench.request.1']);
  assert.ok(smoke.every((s) => s.kind === 'linkbench' && s.sequence === 'linkbench' && s.reported));
  assert.deepEqual(smoke.map((s) => s.metric), ['inserts/s', 'rows/s', 'qps']);
  assert.equal(smoke[2].durationS, 10);
  assert.equal(smoke[0].params.nlinksFunc, 'multiples');
  const cached = planSuite(config.suites['linkbench-cached'], { engine: 'rocksdb' });
  assert.equal(cached.length, 14);
  assert.equal(cached[13].name, 'linkbench.request.12');
  assert.equal(cached[0].params.maxid1, 20000001);
  assert.equal(cached[0].engine, 'rocksdb');
  assert.equal(planSuite(config.suites['linkbench-large']).at(-1)?.name, 'linkbench.request.24');
  assert.throws(() => planSuite(/** @type {any} */ ({ ...config.suites['linkbench-smoke'], linkbench: undefined })), /no 'linkbench' block/);
});
