/**
 * Adaptive repeats on real servers: a tiny run of two MariaDB releases, then `extendUndecided`
 * adds rounds of just the undecided tests (fresh server instances, both releases alternating),
 * stores them as records limited to those tests, and says what it resolved and why it stopped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../scripts/config/index.js';
import { runReleases } from '../../scripts/run/index.js';
import { readRecords, validateRecord } from '../../scripts/store/index.js';
import { resolveThresholds } from '../../scripts/compare/index.js';
import { extendUndecided } from '../../scripts/verify/adaptive-repeats.js';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
const loaded = await loadConfig(root);
const config = {
  ...loaded,
  suites: { ...loaded.suites, 'test-tiny': { ...loaded.suites.smoke, name: 'test-tiny', tableSize: 5000, readDurationS: 2, writeDurationS: 2, warmupS: 1, scanWarmDurationS: 1, restS: 0 } },
};

test('undecided tests get more instances until decided, capped, or out of budget; every round is a stored record', { timeout: 900_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-adaptive-'));
  try {
    const storeDir = join(dir, 'results');
    const workDir = join(dir, 'work');
    const releases = [{ product: 'mariadb', version: '10.11.18' }, { product: 'mariadb', version: '10.11.19' }];
    const first = await runReleases(config, { releases, suite: 'test-tiny', hostClass: 'local', only: ['point-query', 'update-nonindex'], repeats: 2, instances: 2, storeDir, workDir, cacheDir, write: () => {} });
    // The issue threshold at 0.1 % leaves every verdict of 2 instances per side undecided on any real
    // host: the loop must run one round to its cap (4 instances per side), never beyond it.
    const thresholds = resolveThresholds({ ...config.thresholds, groups: { point: { warn: 0.0005, issue: 0.001 }, write: { warn: 0.0005, issue: 0.001 } } });
    const lines = /** @type {string[]} */ ([]);
    const out = await extendUndecided(
      { version: '10.11.18', records: [first.records[0]] },
      { version: '10.11.19', records: [first.records[1]] },
      '2026-01-01T00:00:00Z',
      { config, thresholds, product: 'mariadb', suite: 'test-tiny', hostClass: 'local', storeDir, workDir, cacheDir, budgetS: 600, maxInstances: 4, write: (t) => lines.push(t) },
    );
    const a = out.comparison.adaptive;
    assert.ok(a, 'the comparison says what the adaptive rounds did');
    assert.equal(a.rounds, 1, lines.join(''));
    assert.match(a.stopped, /4 instances per side \(the host class's most\)|every verdict decided/);
    assert.ok(a.undecidedBefore >= 1);
    assert.ok(a.resolved >= 0 && a.resolved <= a.undecidedBefore);
    assert.match(lines.join(''), /adaptive round 1: 2 of 2 undecided test\(s\), 2 more instances each/);
    const tp = out.comparison.tests.filter((t) => t.metric === 'throughput');
    for (const t of tp) {
      assert.equal(t.base?.n, 4, `${t.test}: 2 instances of the first run + 2 of the round`);
      assert.equal(a.instancesNeeded[t.test], 4);
    }
    // the round is in the store: one record per release, limited to the undecided tests
    const stored = await readRecords(storeDir, {});
    assert.equal(stored.length, 4);
    const firstIds = first.records.map((r) => r.id);
    const round = stored.filter((r) => !firstIds.includes(r.id));
    assert.equal(round.length, 2);
    for (const r of round) {
      assert.deepEqual(validateRecord(r), []);
      assert.deepEqual(r.config.only?.slice().sort(), tp.map((t) => t.test).sort(), JSON.stringify([r.config.only, tp.map((t) => t.test)]));
    }
    assert.equal(out.base.records.length, 2);
    // A budget too small for one round runs none and says so. It starts again from the first run's
    // 2 instances per side: 2 against 2 can decide nothing (the rank-sum test's smallest p is 1/3,
    // and 2 rounds are below pairedMinRounds), whereas after the round 4 paired rounds may well
    // decide a real difference of a few per cent beyond the 0.1 % threshold, which leaves nothing
    // for the budget to stop.
    const none = await extendUndecided({ version: '10.11.18', records: [first.records[0]] }, { version: '10.11.19', records: [first.records[1]] }, 'x', { config, thresholds, product: 'mariadb', suite: 'test-tiny', hostClass: 'local', storeDir, workDir, cacheDir, budgetS: 5, maxInstances: 8, write: () => {} });
    assert.equal(none.comparison.adaptive?.rounds, 0);
    assert.match(none.comparison.adaptive?.stopped ?? '', /^the next adaptive round \(1 test, [\w.-]+, 2 more instances per release\) takes about \w+; 5s left of the 5s budget \(--adaptive-budget, else the host class's adaptive\.budgetS\): skipped$/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
