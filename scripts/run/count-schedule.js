/**
 * How the counted phase (count-phase.js) spreads its counting servers over a machine, pure: how
 * many run at once (the host class's `counting.parallel`, else what the machine's cores and
 * memory hold), which releases' servers of a round share the machine (a group: all releases of
 * the round when the slots allow, so a neighbour slows or disturbs both alike), which CPU each
 * slot's server and client are pinned to, which tests are counted alone (the host class's
 * `counting.alone`: a test whose counts move when another counting server runs beside it), and
 * which tests one shard of a split counted leg counts (`run --count-shard k/n`).
 */

/** Memory a server under callgrind takes beyond its buffer pool: valgrind's translation cache
 * and call-graph tables, the server's own buffers; RSS of MariaDB 10.11 under callgrind with a
 * 512M pool after the demo's sysbench tests was under 1 GiB, so 1 GiB on top is a safe margin. */
const VALGRIND_EXTRA_BYTES = 1024 ** 3;

/** Share of the machine's memory the counting servers may take (the clients, the page cache). */
const MEMORY_SHARE = 0.8;

/**
 * @typedef {object} CountSlots
 * @property {number} parallel counting servers at once (at least 1)
 * @property {string} why where the number comes from (the host class's key, or cores and memory)
 * @property {(string|null)[]} cpus per slot, the taskset CPU list its server and client are
 *   pinned to; null: not pinned (the host class pins nothing)
 */

/**
 * How many counting servers run at once, and each slot's CPU. `counting.parallel` on the host
 * class wins; else one per core, as many as the memory holds at the buffer pool plus 1 GiB each
 * (80 % of the memory, the rest for the clients): callgrind runs a server's threads one at a time,
 * so one core per server is what it can use. Pinned (the host class pins its server) each slot
 * gets one CPU of its own, counted down from the last one (the first slot on the CPU a 2-core
 * host class pins its server to), the client beside its server there.
 * @param {import('../types.js').HostClass} host
 * @param {{cpus: number, memBytes: number}} machine this machine's CPUs and memory
 * @returns {CountSlots}
 */
export function resolveCountSlots(host, machine) {
  const configured = host.counting?.parallel;
  const perServer = bytesOf(host.mycnf?.innodb_buffer_pool_size) + VALGRIND_EXTRA_BYTES;
  const byMemory = Math.floor((machine.memBytes * MEMORY_SHARE) / perServer);
  const parallel = configured ?? Math.max(1, Math.min(machine.cpus, byMemory));
  const why = configured !== undefined
    ? `counting.parallel = ${configured} (configs/hosts/${host.name}.yml)`
    : `${machine.cpus} CPUs, memory for ${byMemory} (buffer pool + 1 GiB each, 80 % of ${(machine.memBytes / 1024 ** 3).toFixed(1)} GiB)`;
  const pins = Boolean(host.pinning?.serverCpus);
  const cpus = Array.from({ length: parallel }, (_, i) => (pins ? String(Math.max(0, machine.cpus - 1 - (i % machine.cpus))) : null));
  return { parallel, why, cpus };
}

/**
 * The releases' servers of one round in groups that run at once: all of them together when the
 * slots allow (paired: both releases of a comparison beside each other on the same machine),
 * else chunks of `parallel`, in run order.
 * @param {string[]} keys release keys in this round's order
 * @param {number} parallel
 * @returns {string[][]}
 */
export function groupReleases(keys, parallel) {
  const size = Math.max(1, parallel);
  /** @type {string[][]} */
  const groups = [];
  for (let i = 0; i < keys.length; i += size) groups.push(keys.slice(i, i + size));
  return groups;
}

/**
 * @typedef {object} CountLanes how a round's counted units spread when there are more slots than
 *   releases: lanes of servers, one server of each release per lane, each lane counting its own
 *   units at the same time as the others
 * @property {number} lanes lanes at once (1: every unit on the releases' own servers, as before)
 * @property {string[][]} units per lane, its units in suite order (lane 0 on the releases' own
 *   servers, every other lane on copies of their datadirs)
 * @property {string[]} alone the units of `counting.alone`, counted after the lanes one server at a time
 * @property {(string|null)[][]} cpus per lane, per release (run order), the slot's CPU list
 */

/**
 * More counting slots than releases (4 CPUs, 2 releases): different units of the same release
 * count at once, each on a server of its own. Why a server each, not several tests on one: the
 * meter counts a server process's work (callgrind's, or its status counters), so two tests on one
 * server would count each other's statements. Why copies: every lane's servers start from the
 * release's datadir as the phase found it (the load, its rows made the same), and each lane
 * runs its units in suite order on both releases alike, so each release's count of a unit has
 * the same history of writes before it as the other release's (fixed seeds), the pairing compare
 * needs. Units are dealt to lanes like shards (every n-th), and a unit of `counting.alone`
 * is counted after the lanes with no neighbour at all.
 * @param {string[]} units counted units in suite order (tests, then sequences)
 * @param {number} releases servers per lane (the releases of the round)
 * @param {CountSlots} slots
 * @param {string[]} alone the host class's `counting.alone`
 * @returns {CountLanes}
 */
export function planLanes(units, releases, slots, alone) {
  const together = units.filter((u) => !alone.includes(u));
  const lanes = Math.max(1, Math.min(Math.floor(slots.parallel / Math.max(1, releases)), together.length));
  if (lanes === 1) return { lanes: 1, units: [units], alone: [], cpus: [slots.cpus.slice(0, releases)] };
  return {
    lanes,
    units: Array.from({ length: lanes }, (_, i) => [...shardUnits(together, { index: i + 1, of: lanes })]),
    alone: units.filter((u) => alone.includes(u)),
    cpus: Array.from({ length: lanes }, (_, lane) => Array.from({ length: releases }, (_, r) => slots.cpus[lane * releases + r] ?? null)),
  };
}

/**
 * Why a test is counted alone (one server counting at a time), or null when it may be counted
 * beside the others of its group.
 * @param {string} test
 * @param {number} groupSize servers of the group
 * @param {string[]} alone the host class's `counting.alone`
 * @param {string} hostName
 * @returns {string|null}
 */
export function aloneReason(test, groupSize, alone, hostName) {
  if (groupSize < 2) return null;
  if (alone.includes(test)) return `counted alone: listed in counting.alone of configs/hosts/${hostName}.yml (its counts beside another counting server differed from its counts alone by more than the meter's A/A noise: bench/count-parallel.md)`;
  return null;
}

/**
 * The names in the host class's `counting.alone` that are no test or sequence of any suite: a
 * typo would otherwise count that test beside the others without a word.
 * @param {import('../types.js').HostClass} host
 * @param {Set<string>} known every step and sequence name of the configured suites
 * @returns {string[]} one message per unknown name, naming the file, the field and the value
 */
export function validateAloneNames(host, known) {
  return (host.counting?.alone ?? []).flatMap((name, i) => (known.has(name) ? [] : [`configs/hosts/${host.name}.yml: counting.alone[${i}] = '${name}' is no test or sequence of any suite in configs/suites (a test's name, e.g. update-nonindex, or a sequence's, e.g. ibench)`]));
}

/**
 * A shard `k/n` of a counted leg, from its text form.
 * @param {string} text `k/n`, 1 <= k <= n
 * @returns {{index: number, of: number}} index 1-based
 * @throws {Error} a malformed shard (the caller names the option)
 */
export function parseShard(text) {
  const m = /^(\d+)\/(\d+)$/.exec(String(text).trim());
  const index = m ? Number(m[1]) : NaN;
  const of = m ? Number(m[2]) : NaN;
  if (!m || of < 1 || index < 1 || index > of) throw new Error(`'${text}' is not a shard: expected k/n with 1 <= k <= n, e.g. 2/3`);
  return { index, of };
}

/**
 * Which counted units (a sysbench test, or a whole sequence) a shard counts: every n-th of them,
 * by their suite order, starting at the k-th, so each shard gets a like mix of reads and writes.
 * Both releases of a unit always go to the same shard: counts compare within one machine only.
 * @param {string[]} units the units' names in suite order
 * @param {{index: number, of: number}|null} shard null: every unit
 * @returns {Set<string>} the units this shard counts
 */
export function shardUnits(units, shard) {
  if (!shard) return new Set(units);
  return new Set(units.filter((_, i) => i % shard.of === shard.index - 1));
}

/**
 * Bytes of a my.cnf size (`512M`, `8G`, a number), 0 when absent or not a size.
 * @param {string|number|undefined} value
 * @returns {number}
 */
function bytesOf(value) {
  const m = /^(\d+(?:\.\d+)?)([KMGT]?)$/i.exec(String(value ?? '').trim());
  if (!m) return 0;
  return Number(m[1]) * 1024 ** ' KMGT'.indexOf((m[2] || ' ').toUpperCase());
}
