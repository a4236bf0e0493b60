// The meter seam's proof (issue 32): a made-up TIMED meter and a made-up COUNTED meter, defined
// here only and plugged in with withMeters (the registry's map is left as it is), run through
// the real run stage (runReleases: two real MariaDB releases, real sysbench, a tiny suite),
// stored (records valid against the schema, figures in their one home), compared (compareRuns
// judges their metrics in the direction each states) and shown on the site (buildSite's output
// holds their verdicts and figures), without any other file knowing them.
//
// The timed one counts the server's Questions over a timed repeat, per operation; the counted
// one counts Handler_read_key over a counted repeat's fixed work, per operation. Both read
// SHOW GLOBAL STATUS through the server handle: cheap, and real figures of the server.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../scripts/config/index.js';
import { runReleases } from '../../../scripts/run/index.js';
import { validateRecord, readRecords, writeComparison } from '../../../scripts/store/index.js';
import { compareRuns, resolveThresholds, isUndecided } from '../../../scripts/compare/index.js';
import { withMeters, METERS } from '../../../scripts/metrics/index.js';
import { stopAllServers } from '../../../scripts/server/index.js';
import { buildSite } from '../../../scripts/site-build/build-site.js';

/** @typedef {import('../../../scripts/metrics/types.js').Meter} Meter */

const root = new URL('../../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
after(() => stopAllServers());

/**
 * @param {import('../../../scripts/metrics/types.js').QueryFn|undefined} query
 * @param {string} name a global status variable
 * @returns {Promise<number>}
 */
async function status(query, name) {
  if (!query) throw new Error('the meter needs the server\'s query function');
  const rows = await query(`SHOW GLOBAL STATUS LIKE '${name}'`);
  const row = rows[0];
  return Number(Array.isArray(row) ? row[1] : row.Value ?? row.value);
}

/** A timed meter: the server's Questions per operation of a timed repeat. @type {Meter} */
const questions = {
  name: 'questions',
  kind: 'timed',
  metrics: [{ name: 'questionsPerOp', figure: 'perOp.questionsPerOp', unit: 'questions/op', higherIsBetter: false, scale: 'log', label: 'questions per op' }],
  needs: { tools: [], wrappedServer: false },
  async start(target) {
    const before = await status(target.query, 'Questions');
    return {
      async stop(repeat) {
        if (repeat === null) return null;
        const delta = (await status(target.query, 'Questions')) - before;
        const ops = repeat.ok && repeat.throughput !== null ? repeat.throughput * repeat.durationS : 0;
        return { meter: 'questions', perOp: {}, repeat: {}, meters: { questions: { perOp: { questionsPerOp: ops > 0 ? delta / ops : null } } } };
      },
    };
  },
};

/** A counted meter: Handler_read_key per operation of a counted repeat's fixed work. @type {Meter} */
const readKeys = {
  name: 'read-keys',
  kind: 'counted',
  metrics: [{ name: 'readKeysPerOp', figure: 'readKeysPerOp', unit: 'reads/op', higherIsBetter: false, scale: 'log', label: 'index reads per op' }],
  needs: { tools: [], wrappedServer: false },
  async start(target) {
    // A counting meter runs the warm-up before it starts counting (MeterTarget.beforeZero).
    await target.beforeZero?.();
    const before = await status(target.query, 'Handler_read_key');
    return {
      async stop(repeat) {
        if (repeat === null) return null;
        const delta = (await status(target.query, 'Handler_read_key')) - before;
        const ops = repeat.operations ?? 0;
        return { meter: 'read-keys', perOp: {}, repeat: { 'read-keys': { operations: ops, readKeysPerOp: ops > 0 ? delta / ops : 0 } } };
      },
    };
  },
};

test('a made-up timed meter and a made-up counted meter: run, stored, compared and shown, from one object each', {
  timeout: 600_000,
}, async () => {
  // Never skipped: npm test (setup/test.sh) installs both releases first; a missing one is a
  // broken setup, and skipping would hide the seam's only end-to-end proof.
  const installed = await readdir(cacheDir).catch(() => /** @type {string[]} */ ([]));
  for (const release of ['mariadb-10.11.18@deb', 'mariadb-10.11.19@deb']) {
    assert.ok(installed.includes(release), `${release} is not in the install cache ${cacheDir} (TAGBENCH_CACHE): run npm test, which installs it, or tagbench install ${release.replace('-', ' ').replace('@deb', ' --provider deb')}`);
  }
  const loaded = await loadConfig(root);
  const config = {
    ...loaded,
    hosts: { ...loaded.hosts, local: { ...loaded.hosts.local, counting: { rounds: 2, repeats: 1, warmupShare: 0.3 } } },
    suites: { ...loaded.suites, 'made-up': { ...loaded.suites.smoke, name: 'made-up', tableSize: 2000, readDurationS: 2, warmupS: 0, scanWarmDurationS: 1, restS: 0 } },
  };
  const base = await mkdtemp(join(tmpdir(), 'tagbench-made-up-meters-'));
  const storeDir = join(base, 'results');
  const lines = /** @type {string[]} */ ([]);
  const outcome = await withMeters({ questions, 'read-keys': readKeys }, () => runReleases(config, {
    releases: [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }],
    suite: 'made-up', hostClass: 'local', repeats: 2, instances: 2, only: ['point-query'],
    meters: ['wall', 'questions', 'read-keys'],
    storeDir, workDir: join(base, 'work'), cacheDir, write: (t) => lines.push(t),
  }));
  const log = lines.join('');
  assert.equal(Object.hasOwn(METERS, 'questions'), false, 'the registry never knew them');

  // Stored: valid records, each figure in its one home, the metric facts in the record.
  const records = await readRecords(storeDir);
  assert.equal(records.length, 2, log);
  for (const record of records) {
    assert.deepEqual(validateRecord(record), [], `record ${record.id} is schema-valid`);
    assert.equal(record.status, 'ok', `${record.reason ?? ''}\n${log}`);
    assert.deepEqual(record.config.meters, ['wall', 'questions', 'read-keys']);
    assert.deepEqual(Object.keys(record.config.meterMetrics ?? {}), ['questions', 'read-keys']);
    const step = /** @type {import('../../../scripts/types.js').Step} */ (record.steps.find((s) => s.name === 'point-query'));
    assert.deepEqual(step.repeats.map((r) => r.instance), [0, 1], 'two repeats, one on each of two instances');
    for (const rep of step.repeats) {
      const figures = /** @type {any} */ (rep.meters?.questions);
      assert.ok(figures?.perOp.questionsPerOp > 0.5, `questions per op of a point-query repeat: ${JSON.stringify(rep.meters)}`);
      assert.ok(rep.throughput && rep.throughput > 0, 'wall\'s figures stay the repeat\'s own');
      assert.equal(/** @type {any} */ (rep).questions, undefined);
    }
    const slot = step.meters?.['read-keys'];
    assert.equal(slot?.status, 'ok', slot?.reason ?? log);
    assert.deepEqual(slot?.repeats.map((r) => r.instance), [0, 1], 'one counted repeat per round');
    for (const rep of slot?.repeats ?? []) assert.ok(/** @type {any} */ (rep)['read-keys'].readKeysPerOp > 0, JSON.stringify(rep));
  }

  // Compared: verdicts of both meters' metrics, in the direction each meter states.
  const thresholds = resolveThresholds(/** @type {any} */ ({
    ...loaded.thresholds,
    metrics: { ...(loaded.thresholds.metrics ?? {}), questionsPerOp: { warn: 0.05, issue: 0.1 }, readKeysPerOp: { warn: 0.05, issue: 0.1 } },
  }));
  const [b, c] = ['10.11.18', '10.11.19'].map((v) => ({ version: v, records: records.filter((r) => r.release.version === v) }));
  const comparison = compareRuns({ base: b, candidate: c, thresholds, createdAt: new Date().toISOString() });
  const timed = comparison.tests.find((t) => t.metric === 'questionsPerOp');
  const counted = comparison.tests.find((t) => t.metric === 'readKeysPerOp');
  assert.ok(timed && counted, JSON.stringify(comparison.tests.map((t) => t.metric)));
  for (const v of [timed, counted]) {
    assert.equal(v.higherIsBetter, false);
    assert.notEqual(v.verdict, 'failed', v.reason);
    assert.ok(v.base && v.base.median > 0 && v.candidate && v.candidate.median > 0);
  }
  assert.equal(timed.unit, 'questions/op');
  assert.equal(counted.unit, 'reads/op');
  assert.equal(counted.counted, true, 'the counted meter\'s verdict says so');
  assert.equal(timed.counted, undefined);
  assert.equal(isUndecided({ ...counted, verdict: 'inconclusive', mde: 1 }), false, 'more timed instances never decide a counted verdict');
  assert.ok(comparison.tests.some((t) => t.metric === 'throughput'), 'wall is judged beside them');

  // Shown: the site's data holds their verdicts with the figures.
  await writeComparison(storeDir, comparison);
  const out = join(base, 'site');
  await buildSite({ store: storeDir, out, baselines: join(base, 'no-baselines'), configRoot: root });
  const data = await readAll(out);
  for (const v of [timed, counted]) {
    assert.match(data, new RegExp(`"metric":"${v.metric}"`), `${v.metric} is on the site`);
    assert.ok(data.includes(String(v.candidate?.median)), `${v.metric}'s candidate median ${v.candidate?.median} is on the site`);
  }
});

/**
 * Every JSON file the site build wrote, concatenated.
 * @param {string} dir
 * @returns {Promise<string>}
 */
async function readAll(dir) {
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.json'));
  return (await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')))).join('\n');
}
