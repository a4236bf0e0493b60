// Choosing library packages by soname (pure logic; packages described as data).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLibClosure } from '../../scripts/install/apt/lib-closure.js';

/** Dependencies between a few real trixie packages, reduced to what the walk needs.
 * @type {import("../../scripts/install/apt/lib-closure.js").LibPackage[]} */
const candidates = [
  { name: 'libc6', provides: { 'libc.so.6': 'usr/lib/x86_64-linux-gnu/libc.so.6', 'ld-linux-x86-64.so.2': 'usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2' } },
  { name: 'libssl3t64', provides: { 'libssl.so.3': 'usr/lib/x86_64-linux-gnu/libssl.so.3', 'libcrypto.so.3': 'usr/lib/x86_64-linux-gnu/libcrypto.so.3' } },
  { name: 'zlib1g', provides: { 'libz.so.1': 'usr/lib/x86_64-linux-gnu/libz.so.1' } },
  { name: 'perl-base', provides: {} },
];
/** @type {Record<string, Record<string, string[]>>} */
const neededByPackage = {
  libc6: { 'usr/lib/x86_64-linux-gnu/libc.so.6': ['ld-linux-x86-64.so.2'] },
  libssl3t64: { 'usr/lib/x86_64-linux-gnu/libssl.so.3': ['libcrypto.so.3', 'libc.so.6'], 'usr/lib/x86_64-linux-gnu/libcrypto.so.3': ['libz.so.1', 'libc.so.6'] },
  zlib1g: { 'usr/lib/x86_64-linux-gnu/libz.so.1': ['libc.so.6'] },
};
const rootNeeded = {
  'usr/sbin/mariadbd': ['libssl.so.3', 'libmariadb.so.3', 'libc.so.6'],
  'usr/lib/mysql/plugin/ha_connect.so': ['libodbc.so.2'],
};

test('private glibc: everything the release loads comes from the suite, transitively', async () => {
  /** @type {string[]} */
  const asked = [];
  const res = await computeLibClosure({
    rootNeeded, ownSonames: new Set(['libmariadb.so.3']), candidates, hostHas: () => false, always: ['libc6'],
    neededOf: async (name) => { asked.push(name); return neededByPackage[name] ?? {}; },
  });
  assert.deepEqual(res.packages.sort(), ['libc6', 'libssl3t64', 'zlib1g']);
  assert.deepEqual(asked.sort(), ['libc6', 'libssl3t64', 'zlib1g'], 'each chosen package is inspected once');
  assert.deepEqual(res.unresolved, [{ soname: 'libodbc.so.2', neededBy: 'usr/lib/mysql/plugin/ha_connect.so' }]);
  assert.deepEqual(res.ownUsed, ['libmariadb.so.3']);
  assert.ok(!res.packages.includes('perl-base'), 'apt\'s closure is not taken whole');
});

test('host glibc: only what the host lacks', async () => {
  const host = new Set(['libc.so.6', 'libz.so.1', 'ld-linux-x86-64.so.2']);
  const res = await computeLibClosure({
    rootNeeded, ownSonames: new Set(), candidates, hostHas: (so) => host.has(so),
    neededOf: async (name) => neededByPackage[name] ?? {},
  });
  assert.deepEqual(res.packages, ['libssl3t64']);
  assert.deepEqual(res.unresolved.map((u) => u.soname).sort(), ['libmariadb.so.3', 'libodbc.so.2']);
});
