// Integration tests of `tagbench run`: real MariaDB servers from the deb provider, real
// sysbench, a real results directory. Short durations keep the whole file to a few minutes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, execFileSync } from 'node:child_process';
import { loadConfig } from '../../scripts/config/index.js';
import { runReleases } from '../../scripts/run/index.js';
import { installRelease } from '../../scripts/install/index.js';
import { validateRecord, readRecords } from '../../scripts/store/index.js';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);
/** The smoke suite cut to a couple of seconds per test. */
const config = {
  ...loaded,
  suites: { ...loaded.suites, 'test-tiny': { ...loaded.suites.smoke, name: 'test-tiny', tableSize: 5000, readDurationS: 2, writeDurationS: 2, warmupS: 1, scanWarmDurationS: 1, restS: 0 } },
};

/** @param {string} needle */
function pidsMatching(needle) {
  try {
    return execFileSync('pgrep', ['-f', '--', needle], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function dirs() {
  const base = await mkdtemp(join(tmpdir(), 'tagbench-run-'));
  return { storeDir: join(base, 'results'), workDir: join(base, 'work') };
}

test('two releases alternate, records are valid and complete, servers are stopped', { timeout: 600_000 }, async () => {
  const { storeDir, workDir } = await dirs();
  const lines = /** @type {string[]} */ ([]);
  const outcome = await runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: 'test-tiny', hostClass: 'local', repeats: 2, only: ['point-query', 'update-index'],
    storeDir, workDir, cacheDir, portBase: 23710, write: (t) => lines.push(t),
  });
  assert.equal(outcome.interrupted, false);
  assert.equal(outcome.records.length, 2);
  for (const record of outcome.records) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    assert.equal(record.status, 'ok', record.reason ?? '');
    const measured = record.steps.filter((s) => s.reported);
    assert.deepEqual(measured.map((s) => s.name), ['update-index', 'point-query'], 'suite order, not the order of --only');
    for (const step of measured) {
      assert.equal(step.repeats.length, 2);
      // local spreads repeats over instances: one repeat per restart of the server here
      assert.deepEqual(step.repeats.map((r) => r.instance), [0, 1], `${step.name} repeats come from two server instances`);
      for (const rep of step.repeats) {
        assert.ok((rep.throughput ?? 0) > 0, `${step.name} throughput`);
        assert.ok(rep.intervals.length >= 1, `${step.name} per-second intervals`);
        assert.ok(rep.efficiency && rep.efficiency.cpuUsPerOp > 0, `${step.name} CPU per op`);
      }
    }
    assert.ok(record.dbSize.afterLoad && record.dbSize.afterLoad.logicalBytes > 0);
    assert.ok(record.dbSize.atEnd && record.dbSize.atEnd.onDiskBytes > 0);
    assert.match(record.config.mycnf.text, /innodb/i);
    assert.equal(record.config.alternatedWith?.length, 1);
    // The sysbench plug-in reports its tool; node and tagbench follow: the shape records always had.
    assert.deepEqual(Object.keys(record.config.tools), ['sysbench', 'node', 'tagbench']);
    assert.match(record.config.tools.sysbench, /^\d+\.\d+\.\d+/);
    assert.equal(record.config.tools.node, process.version);
    assert.ok(existsSync(join(storeDir, 'logs', record.id, 'server-error.log')));
  }
  // Alternation, the order turning each round: A B in the first round, B A in the second.
  const [a, b] = outcome.records;
  const stepA = a.steps.find((s) => s.name === 'point-query');
  const stepB = b.steps.find((s) => s.name === 'point-query');
  assert.ok(stepA && stepB);
  const order = [stepA.repeats[0].startedAt, stepB.repeats[0].startedAt, stepB.repeats[1].startedAt, stepA.repeats[1].startedAt];
  assert.deepEqual([...order].sort(), order, 'A B B A');
  // What was written is what readRecords gives back.
  const stored = await readRecords(storeDir, {});
  assert.equal(stored.length, 2);
  assert.match(lines.join(''), /\[\d+\/\d+\] mariadb@10\.11\.19 point-query repeat 2\/2 .* left/);
  // Round 2 is a new instance on the datadir snapshot taken after the load (issue 35).
  assert.match(lines.join(''), /snapshot mariadb@10\.11\.18 after the load: /);
  assert.match(lines.join(''), /restore mariadb@10\.11\.18 for round 2: /);
  assert.equal(a.config.instances, 2);
  // the warm-up ran again on the restarted server (its repeats are numbered by instance)
  assert.deepEqual(a.steps.find((s) => s.name === 'point-query.warm')?.repeats.map((r) => r.instance), [0, 1]);
  assert.deepEqual(pidsMatching(workDir), [], 'no server left running');
});

test('kill -9 of the server mid-step: the step fails with the error log, later steps never run', { timeout: 600_000 }, async () => {
  const { storeDir, workDir } = await dirs();
  const suites = { ...config.suites, 'test-crash': { ...config.suites['test-tiny'], name: 'test-crash', writeDurationS: 8 } };
  /** @type {NodeJS.Timeout|undefined} */
  let killer;
  const outcome = await runReleases({ ...config, suites }, {
    releases: [{ product: 'mariadb', version: '10.11.18' }],
    suite: 'test-crash', hostClass: 'local', repeats: 1, only: ['point-query.pre', 'update-index', 'point-query'],
    storeDir, workDir, cacheDir, portBase: 23720,
    write: (t) => {
      if (/\] mariadb@10\.11\.18 update-index/.test(t) && !killer) {
        killer = setTimeout(() => {
          for (const pid of pidsMatching(`--datadir=${workDir}`)) process.kill(pid, "SIGKILL");
        }, 3000);
      }
    },
  });
  const [record] = outcome.records;
  assert.deepEqual(validateRecord(record), []);
  assert.equal(record.status, 'failed');
  const byName = Object.fromEntries(record.steps.map((s) => [s.name, s]));
  assert.equal(byName['point-query.pre'].status, 'ok');
  assert.equal(byName['update-index'].status, 'failed');
  assert.match(byName['update-index'].reason ?? '', /crash|not running|gone|signal|killed/i);
  assert.ok((byName['update-index'].logExcerpt ?? '').length > 0, 'error log excerpt kept');
  assert.ok(byName['update-index'].repeats.every((r) => r.status === 'failed' && r.throughput === null), 'never 0 QPS');
  assert.equal(byName['point-query'].status, 'skipped');
  assert.match(byName['point-query'].reason ?? '', /not run/);
  const logs = await readdir(join(storeDir, 'logs', record.id));
  assert.ok(!logs.some((f) => f.startsWith('point-query.r')), 'no sysbench ran against the dead server');
  assert.deepEqual(pidsMatching(workDir), []);
});

test('Ctrl-C stores a partial record, stops the server and exits 130', { timeout: 600_000 }, async () => {
  const { storeDir, workDir } = await dirs();
  const child = spawn(process.execPath, [join(root, 'scripts/cli.js'), 'run', '--releases', 'mariadb@10.11.18', '--suite', 'smoke',
    '--only', 'point-query,point-query.pre', '--repeats', '5', '--store', storeDir, '--work-dir', workDir, '--cache-dir', cacheDir,
    '--port-base', '23730'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const exit = new Promise((resolve) => { child.on('exit', (code) => resolve(code)); });
  child.stderr.on('data', (d) => {
    stderr += d;
    if (/point-query\.pre repeat 2\/5/.test(stderr) && !child.killed) child.kill('SIGINT');
  });
  const code = await exit;
  assert.equal(code, 130, stderr);
  const records = await readRecords(storeDir, {});
  assert.equal(records.length, 1);
  assert.equal(records[0].status, 'partial');
  assert.match(records[0].reason ?? '', /^interrupted by SIGINT after \d+ of \d+ steps had run/, 'the partial record says what stopped it');
  assert.deepEqual(validateRecord(records[0]), []);
  assert.deepEqual(pidsMatching(workDir), [], 'server stopped');
  const text = await readFile(join(storeDir, 'logs', records[0].id, 'server-error.log'), 'utf8');
  assert.ok(text.length > 0);
});

test('a release that is done is stored at once; an interrupt then stores the other as partial, naming the signal and how far it got', { timeout: 600_000 }, async () => {
  const { storeDir, workDir } = await dirs();
  const controller = new AbortController();
  /** @type {string[]} */
  const lines = [];
  /** @type {NodeJS.Timeout|undefined} */
  let killer;
  /** @type {boolean|undefined} the dead release's record was on disk when the run printed it */
  let onDiskWhenPrinted;
  const outcome = await runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: 'test-tiny', hostClass: 'local', repeats: 2, only: ['point-query', 'update-index'],
    storeDir, workDir, cacheDir, portBase: 23770, signal: controller.signal,
    write: (t) => {
      lines.push(t);
      // The first release's server dies in its first test: that release is done.
      if (/\] mariadb@10\.11\.18 update-index/.test(t) && !killer) {
        killer = setTimeout(() => {
          for (const pid of pidsMatching(`--datadir=${workDir}/[^ ]*mariadb-10\\.11\\.18`)) process.kill(pid, 'SIGKILL');
        }, 1000);
      }
      const stored = t.match(/^record failed: (.*)\n$/);
      if (stored && onDiskWhenPrinted === undefined) {
        onDiskWhenPrinted = existsSync(stored[1]);
        // As a cancelled job's SIGTERM does through withInterrupt, while the other still runs.
        controller.abort(new DOMException('interrupted by SIGTERM', 'AbortError'));
      }
    },
  });
  assert.equal(onDiskWhenPrinted, true, `the dead release's record is stored before the run ends:\n${lines.join('')}`);
  assert.equal(outcome.interrupted, true);
  const [dead, cut] = outcome.records;
  assert.equal(dead.release.version, '10.11.18');
  assert.equal(dead.status, 'failed', 'stored when it was done, before the interrupt: not partial');
  assert.equal(cut.release.version, '10.11.19');
  assert.equal(cut.status, 'partial');
  assert.match(cut.reason ?? '', /^interrupted by SIGTERM after \d+ of \d+ steps had run; the others are skipped/);
  const ran = cut.steps.filter((s) => s.status !== 'skipped').length;
  assert.ok(ran >= 1 && ran < cut.steps.length, `some steps ran and some did not (${ran} of ${cut.steps.length})`);
  assert.equal(cut.reason?.match(/after (\d+) of/)?.[1], String(ran), 'the reason counts the steps in the record');
  for (const s of cut.steps.filter((x) => x.status === 'skipped')) assert.equal(s.reason, cut.reason);
  const stored = await readRecords(storeDir, {});
  assert.deepEqual(stored.map((r) => [r.release.version, r.status]).sort(), [['10.11.18', 'failed'], ['10.11.19', 'partial']]);
  for (const r of stored) assert.deepEqual(validateRecord(r), []);
  assert.deepEqual(pidsMatching(workDir), [], 'no server left running');
});

test('Oracle MySQL 9.7.4 and MariaDB 11.8.9 run side by side', { timeout: 600_000 }, async () => {
  const { storeDir, workDir } = await dirs();
  const outcome = await runReleases(config, {
    releases: [{ product: 'mysql', version: '9.7.4' }, { product: 'mariadb', version: '11.8.9' }],
    suite: 'test-tiny', hostClass: 'local', repeats: 1, only: ['point-query', 'update-nonindex', 'scan'],
    storeDir, workDir, cacheDir, write: () => {},
  });
  for (const record of outcome.records) {
    assert.deepEqual(validateRecord(record), []);
    assert.equal(record.status, 'ok', `${record.release.product} ${record.release.version}: ${record.reason ?? ''}`);
    assert.match(record.release.serverVersionString, new RegExp(record.release.version.replace(/\./g, '\\.')));
    for (const step of record.steps.filter((s) => s.reported)) assert.ok((step.repeats[0].throughput ?? 0) > 0, step.name);
  }
  assert.deepEqual(outcome.records.map((r) => r.release.line), ['9', '11.8']);
});

test('MyRocks: engine rocksdb on MariaDB 10.11.18 and 10.5.23', { timeout: 600_000 }, async () => {
  const { storeDir, workDir } = await dirs();
  const outcome = await runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.5.23' }],
    suite: 'test-tiny', hostClass: 'local', engine: 'rocksdb', repeats: 1, only: ['point-query', 'update-index', 'insert'],
    storeDir, workDir, cacheDir, write: () => {},
  });
  for (const record of outcome.records) {
    assert.deepEqual(validateRecord(record), []);
    assert.equal(record.status, 'ok', record.reason ?? '');
    assert.equal(record.config.engine, 'rocksdb');
    assert.match(record.config.mycnf.text, /rocksdb/);
    // postwrite for MyRocks flushes memtables: the step ran and is recorded
    assert.ok(record.steps.some((s) => s.kind === 'postwrite' && s.status === 'ok'));
  }
});

test('a release already in the install cache runs even when no deb entry names it (built by another provider)', { timeout: 600_000 }, async () => {
  const { storeDir, workDir } = await dirs();
  await installRelease({ product: 'mariadb', version: '10.11.18', provider: 'deb' }, { config: loaded, cacheDir });
  // The same config without any deb entry: only the cache can provide the release now.
  const { deb: _unused, ...mariadbWithoutDeb } = config.products.mariadb;
  const noDeb = { ...config, products: { ...config.products, mariadb: mariadbWithoutDeb } };
  const lines = /** @type {string[]} */ ([]);
  const outcome = await runReleases(noDeb, {
    releases: [{ product: 'mariadb', version: '10.11.18' }],
    suite: 'test-tiny', hostClass: 'local', repeats: 1, only: ['point-query'],
    storeDir, workDir, cacheDir, write: (t) => lines.push(t),
  });
  assert.equal(outcome.records[0].status, 'ok', outcome.records[0].reason ?? '');
  assert.match(lines.join(''), /install mariadb 10\.11\.18 \(deb, already in the cache\)/);
  // And a version in neither place is refused before anything starts, saying how to get it.
  await assert.rejects(runReleases(noDeb, {
    releases: [{ product: 'mariadb', version: '10.11.42' }], suite: 'test-tiny', hostClass: 'local', storeDir, workDir, cacheDir, write: () => {},
  }), /mariadb 10\.11\.42 is not available from the deb provider.*--provider source/);
});
