/**
 * The counted phase's scheduler (count-schedule.js, pure): how many counting servers run at once
 * and on which CPU, which releases' servers of a round share the machine, which tests are counted
 * alone, and which tests a shard of a split counted leg counts. The phase on real servers, two
 * counting at once: test/run/count-parallel.test.js.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCountSlots, groupReleases, aloneReason, parseShard, shardUnits, validateAloneNames, planLanes } from '../../scripts/run/count-schedule.js';
import { loadConfig } from '../../scripts/config/index.js';

const config = await loadConfig(new URL('../..', import.meta.url).pathname);
const GIB = 1024 ** 3;

test('slots: the host class\'s counting.parallel wins; else one per CPU, as many as the memory holds', () => {
  const local = config.hosts.local; // a 512M buffer pool, pinned to CPU 1
  assert.deepEqual(resolveCountSlots({ ...local, counting: { parallel: 3 } }, { cpus: 2, memBytes: 8 * GIB }).parallel, 3);
  assert.match(resolveCountSlots({ ...local, counting: { parallel: 3 } }, { cpus: 2, memBytes: 8 * GIB }).why, /counting\.parallel = 3 \(configs\/hosts\/local\.yml\)/);
  // 2 CPUs, 8 GiB: cores decide (memory holds 4 of 1.5 GiB within 80 %).
  assert.equal(resolveCountSlots(local, { cpus: 2, memBytes: 8 * GIB }).parallel, 2);
  // 16 CPUs, 4 GiB: memory decides, floor(3.2 / 1.5) = 2.
  const byMemory = resolveCountSlots(local, { cpus: 16, memBytes: 4 * GIB });
  assert.equal(byMemory.parallel, 2);
  assert.match(byMemory.why, /16 CPUs, memory for 2 \(buffer pool \+ 1 GiB each, 80 % of 4\.0 GiB\)/);
  // Never fewer than one, even where one does not fit.
  assert.equal(resolveCountSlots(config.hosts['large-server'], { cpus: 48, memBytes: 64 * GIB }).parallel, 1);
  // large-server's 96G pool: 128 GiB hold one (96 + 1 GiB each, 102.4 GiB usable).
  assert.equal(resolveCountSlots(config.hosts['large-server'], { cpus: 48, memBytes: 128 * GIB }).parallel, 1);
  assert.equal(resolveCountSlots(config.hosts['large-server'], { cpus: 48, memBytes: 256 * GIB }).parallel, 2);
});

test('slot CPUs: pinned host classes give each slot a CPU of its own from the last one down; unpinned ones none', () => {
  assert.deepEqual(resolveCountSlots(config.hosts.local, { cpus: 2, memBytes: 8 * GIB }).cpus, ['1', '0'], 'the first slot on the CPU local pins its server to');
  assert.deepEqual(resolveCountSlots({ ...config.hosts.local, counting: { parallel: 3 } }, { cpus: 4, memBytes: 8 * GIB }).cpus, ['3', '2', '1']);
  // More slots than CPUs (a configured number): they share, round the CPUs again.
  assert.deepEqual(resolveCountSlots({ ...config.hosts.local, counting: { parallel: 3 } }, { cpus: 2, memBytes: 8 * GIB }).cpus, ['1', '0', '1']);
  assert.deepEqual(resolveCountSlots(config.hosts['small-server'], { cpus: 8, memBytes: 64 * GIB }).cpus, [null, null], 'small-server pins nothing (its 24G pool fits twice in 80 % of 64 GiB)');
});

test('pairing: a round\'s releases run together when the slots allow, else in chunks in run order', () => {
  assert.deepEqual(groupReleases(['a', 'b'], 2), [['a', 'b']]);
  assert.deepEqual(groupReleases(['b', 'a'], 8), [['b', 'a']], 'more slots than releases: one group, in the round\'s order');
  assert.deepEqual(groupReleases(['a', 'b'], 1), [['a'], ['b']], 'one slot: one server at a time, as before');
  assert.deepEqual(groupReleases(['a', 'b', 'c'], 2), [['a', 'b'], ['c']]);
});

test('counted alone: only tests of counting.alone, only where servers share the machine, with the reason', () => {
  assert.equal(aloneReason('point-query', 2, ['update-index'], 'local'), null);
  assert.match(/** @type {string} */ (aloneReason('update-index', 2, ['update-index'], 'local')), /^counted alone: listed in counting\.alone of configs\/hosts\/local\.yml .*bench\/count-parallel\.md/);
  assert.equal(aloneReason('update-index', 1, ['update-index'], 'local'), null, 'a group of one is alone anyway: nothing to say');
});

test('shards: k/n parsed strictly; every unit in exactly one shard, both releases together, a mix of the suite\'s order', () => {
  assert.deepEqual(parseShard('2/3'), { index: 2, of: 3 });
  for (const bad of ['0/3', '4/3', '1/0', '1', 'a/b', '1/2/3', '-1/2']) assert.throws(() => parseShard(bad), new RegExp(`'${bad.replace(/[/]/g, '\\/')}' is not a shard: expected k/n`));
  const units = ['point-query', 'read-only.range10', 'update-index', 'insert', 'scan', 'ibench', 'linkbench'];
  assert.deepEqual([...shardUnits(units, null)], units);
  const shards = [1, 2, 3].map((index) => [...shardUnits(units, { index, of: 3 })]);
  assert.deepEqual(shards, [['point-query', 'insert', 'linkbench'], ['read-only.range10', 'scan'], ['update-index', 'ibench']]);
  assert.deepEqual(shards.flat().sort(), [...units].sort(), 'every unit once');
  assert.deepEqual([...shardUnits(['a'], { index: 2, of: 2 })], [], 'a shard may get nothing');
});

test('counting.alone: a name that is no test or sequence of any suite is an error naming file, field and value', () => {
  const known = new Set(['update-nonindex', 'range-covered-si', 'ibench']);
  assert.deepEqual(validateAloneNames(config.hosts.local, known), [], 'the shipped local.yml names real tests');
  assert.deepEqual(validateAloneNames({ ...config.hosts.local, counting: { alone: ['ibench', 'update-nonidex'] } }, known), [
    "configs/hosts/local.yml: counting.alone[1] = 'update-nonidex' is no test or sequence of any suite in configs/suites (a test's name, e.g. update-nonindex, or a sequence's, e.g. ibench)",
  ]);
});

test('more slots than releases: lanes of a server per release, the units dealt to them, each slot its own CPU; counting.alone after the lanes', () => {
  const host = /** @type {any} */ ({ name: 'four', pinning: { serverCpus: '1', clientCpus: '1' }, mycnf: {}, counting: { parallel: 4 } });
  const slots = resolveCountSlots(host, { cpus: 4, memBytes: 64 * 1024 ** 3 });
  const units = ['point-query', 'read-only.range100', 'update-nonindex', 'insert', 'ibench'];
  const lanes = planLanes(units, 2, slots, []);
  assert.equal(lanes.lanes, 2);
  // Every other unit, in suite order: each lane a like mix of reads and writes.
  assert.deepEqual(lanes.units, [['point-query', 'update-nonindex', 'ibench'], ['read-only.range100', 'insert']]);
  // Lane 1: the releases' servers on CPUs 3 and 2 (the pair's slots), lane 2 on 1 and 0.
  assert.deepEqual(lanes.cpus, [['3', '2'], ['1', '0']]);
  assert.deepEqual(lanes.alone, []);
  // A unit of counting.alone leaves the lanes: counted after them, one server at a time.
  const withAlone = planLanes(units, 2, slots, ['insert']);
  assert.deepEqual(withAlone.units, [['point-query', 'update-nonindex'], ['read-only.range100', 'ibench']]);
  assert.deepEqual(withAlone.alone, ['insert']);
  // No more lanes than units; slots for a pair only: one lane, everything as before.
  assert.equal(planLanes(['point-query'], 2, slots, []).lanes, 1);
  const pair = planLanes(units, 2, resolveCountSlots({ ...host, counting: { parallel: 3 } }, { cpus: 4, memBytes: 64 * 1024 ** 3 }), ['insert']);
  assert.deepEqual(pair, { lanes: 1, units: [units], alone: [], cpus: [['3', '2']] });
  // Three releases on 8 slots: two lanes of three (two slots idle).
  assert.equal(planLanes(units, 3, resolveCountSlots({ ...host, counting: { parallel: 8 } }, { cpus: 8, memBytes: 64 * 1024 ** 3 }), []).lanes, 2);
});
