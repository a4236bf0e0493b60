/**
 * `tagbench bisect` on real servers, over four candidates that are copies of one cached release
 * (MariaDB 10.11.18), labelled c1..c4. THE SLOWDOWN IS INJECTED: from c3 on, every server runs
 * in a cgroup CPU quota of 3 % of a CPU (the CPU throttle that calibration uses,
 * scripts/verify/calibrate/server-throttle.js, with a 100 ms period: its default 10 ms period cannot go
 * below a tenth of a CPU), several times less than the server gets unthrottled here, so c3 is
 * the first "bad release" by construction. No real release regressed.
 *
 * This host is a shared 2-core VM, its CPU 1 also running the lead's calibration: server
 * instances of one binary differ by 16-40 % on a quiet day (bench/calibration-local.md) and by
 * up to a factor of 2.5 at a load average of 20 (a first run of this test: 1,935 to 5,292 qps,
 * 9 instances per side gave the interval [0.59, 1.17] for two copies of one binary, and the
 * bisect stopped there, as it should). No interval of a few instances can show "unchanged
 * within 5 %" here, so the test runs with a copy of configs/ whose point group thresholds are
 * warn 30 % / issue 60 %: the verdict rules are the ones that open issues, the sizes fit this
 * host's noise, and the injected slowdown is far larger than them. (A second run, throttled to
 * a tenth of a CPU, found c2 good, then c3 at 0.44 [0.34, 0.71]: a regression, but short of the
 * 60 % issue level, so it stopped at c3 with the suspects c3, c4, bad: again no guess.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bisectReleases } from '../../scripts/verify/bisect.js';
import { watchServer } from '../../scripts/verify/calibrate/server-throttle.js';
import { findCachedInstall } from '../../scripts/install/index.js';
import { readBisectReports, readRecords } from '../../scripts/store/index.js';

const root = new URL('../..', import.meta.url).pathname;
const cacheDir = process.env.TAGBENCH_CACHE ?? join(root, '.tagbench/installs');
/** Server CPUs allowed from c3 on: 3 % of a CPU (the unthrottled server gets several times that here). */
const THROTTLE_CPUS = 0.03;
/** Quota period: 100 ms, so that 3 % is 3 ms of it (a 10 ms period has a 1 ms floor, a tenth of a CPU). */
const PERIOD_US = 100_000;
/** A smaller copy of the smoke suite, written into the test's configs/ (see below). */
const SUITE = 'bisect-tiny';

test('bisect over four candidates on real servers finds c3, the first one the test THROTTLES (cgroup CPU quota from c3 on)', { timeout: 2_400_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tagbench-bisect-'));
  /** @type {Awaited<ReturnType<typeof watchServer>>[]} */
  const watches = [];
  try {
    // configs/ with the point group's thresholds sized to this host's noise (see the module comment)
    const testRoot = join(dir, 'root');
    await cp(join(root, 'configs'), join(testRoot, 'configs'), { recursive: true });
    const thresholdsFile = join(testRoot, 'configs', 'thresholds.yml');
    const original = await readFile(thresholdsFile, 'utf8');
    const widened = original.replace(/^ {2}point: \{ warn: 0\.03, issue: 0\.05/m, '  point: { warn: 0.30, issue: 0.60');
    assert.notEqual(widened, original, 'configs/thresholds.yml still has the point group line this test widens');
    await writeFile(thresholdsFile, widened);
    // The smoke suite at a quarter of its table and shorter steps: the throttled copies load,
    // flush and restart at 3 % of a CPU, where the smoke sizes made this the suite's longest
    // test (9 min 17 s on a quiet host).
    const smoke = await readFile(join(testRoot, 'configs', 'suites', 'smoke.yml'), 'utf8');
    const tiny = smoke.replace(/^name: smoke$/m, `name: ${SUITE}`).replace(/^tableSize: \d+$/m, 'tableSize: 5000')
      .replace(/^readDurationS: \d+$/m, 'readDurationS: 2').replace(/^scanWarmDurationS: \d+$/m, 'scanWarmDurationS: 1').replace(/^restS: \d+$/m, 'restS: 0');
    assert.ok(tiny.includes(`name: ${SUITE}`) && tiny.includes('tableSize: 5000') && tiny.includes('restS: 0'), 'configs/suites/smoke.yml still has the keys this test shrinks');
    await writeFile(join(testRoot, 'configs', 'suites', `${SUITE}.yml`), tiny);

    const cached = await findCachedInstall(cacheDir, 'mariadb', '10.11.18', { provider: 'deb' });
    assert.ok(cached?.prefix, `mariadb 10.11.18 (deb) is in the install cache ${cacheDir}: run \`tagbench install mariadb 10.11.18\` first`);
    const labels = ['c1', 'c2', 'c3', 'c4', 'bad'];
    await mkdir(join(dir, 'installs'), { recursive: true });
    for (const label of labels) {
      await cp(cached.prefix, join(dir, 'installs', label), { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    }
    // The throttle follows each throttled copy's servers (restarts too) by their work folder.
    const throttled = {
      c3: await watchServer({ match: 'mariadb-10.11.18-c3/', quotaCpus: THROTTLE_CPUS, periodUs: PERIOD_US, name: `tagbench-bisect-test-${process.pid}-c3` }),
      c4: await watchServer({ match: 'mariadb-10.11.18-c4/', quotaCpus: THROTTLE_CPUS, periodUs: PERIOD_US, name: `tagbench-bisect-test-${process.pid}-c4` }),
    };
    watches.push(throttled.c3, throttled.c4);
    const store = join(dir, 'store');
    const markdown = join(dir, 'bisect.md');
    let printed = '';
    const progress = /** @type {string[]} */ ([]);
    const code = await bisectReleases({
      root: testRoot, product: 'mariadb', hostClass: 'local', suite: SUITE, only: 'point-query',
      good: '10.11.18', bad: `10.11.18#bad=${join(dir, 'installs', 'bad')}`,
      candidates: ['c1', 'c2', 'c3', 'c4'].map((l) => `10.11.18#${l}=${join(dir, 'installs', l)}`).join(','),
      note: `Injected slowdown, not a release regression: c1..c4 and bad are copies of mariadb 10.11.18; from c3 on each server runs in a cgroup CPU quota of ${THROTTLE_CPUS} CPU (test/verify/bisect-servers.test.js).`,
      adaptiveBudget: 420, store, markdown, workDir: join(dir, 'work'), cacheDir,
      out: (/** @type {string} */ t) => { printed += t; }, write: (/** @type {string} */ t) => { progress.push(t); },
    });
    const [c3Watch, c4Watch] = [await throttled.c3.stop(), await throttled.c4.stop()];
    const log = progress.join('');
    assert.equal(code, 0, `bisect found the first bad release\n${printed}\n${log.slice(-4000)}`);
    const [report] = await readBisectReports(store, { hostClass: 'local', product: 'mariadb', suite: SUITE });
    assert.ok(report, 'the report is stored under bisects/');
    assert.equal(report.outcome.status, 'found');
    assert.equal(report.outcome.firstBad, '10.11.18#c3');
    assert.equal(report.outcome.lastGood, '10.11.18#c2');
    // binary search: the middle (c2, good), then c3 (bad); c1 and c4 are never run
    assert.deepEqual(report.probes.map((p) => [p.candidate, p.call]), [['10.11.18#c2', 'good'], ['10.11.18#c3', 'bad']]);
    const bad = report.probes[1].evidence[0];
    assert.equal(bad.verdict, 'regression');
    assert.equal(bad.level, 'issue');
    assert.ok(/** @type {number} */ (bad.ratio) < 0.4, `throttled c3 runs at ${bad.ratio} of the good release`);
    const good = report.probes[0].evidence[0];
    assert.ok(good.verdict === 'unchanged' || good.verdict === 'improvement', good.reason);
    assert.ok(c3Watch.pids.length > 0, 'the throttle moved c3\'s servers into the cgroup');
    assert.equal(c4Watch.pids.length, 0, 'c4 was never started: the search did not need it');
    // every probe ran the candidate and the good release side by side, and its records are in the store
    const records = await readRecords(store, {});
    const ids = report.probes.flatMap((p) => [...p.runIds.good, ...p.runIds.candidate]);
    assert.ok(ids.every((id) => records.some((r) => r.id === id)), 'every run behind the evidence is stored');
    const c3Records = records.filter((r) => report.probes[1].runIds.candidate.includes(r.id));
    assert.ok(c3Records.every((r) => r.release.provider === 'path' && r.steps.some((s) => s.name === 'point-query')));
    assert.match(report.notes[0], /Injected slowdown/);
    const md = await readFile(markdown, 'utf8');
    assert.equal(md, printed);
    assert.match(md, /\*\*First bad release: mariadb `10\.11\.18#c3`\*\* \(last good: `10\.11\.18#c2`\)/);
    assert.match(md, /> \*\*Note:\*\* Injected slowdown/);
    assert.match(md, /\| 2 \| `10\.11\.18#c3` \| \*\*bad\*\* \| `point-query` throughput \| regression \(issue\) \|/);
  } finally {
    for (const w of watches) await w.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
});
