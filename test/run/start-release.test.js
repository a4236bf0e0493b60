// The run's meters: `run --meter`, else the suite's, else the host class's, else the default;
// configured names are checked against the meter registry (the config schemas check only their
// form), and a meter a test plugs in with withMeters is known like the registry's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveMeters } from '../../scripts/run/start-release.js';
import { withMeters } from '../../scripts/metrics/index.js';

/** @param {string[]|undefined} suite @param {string[]|undefined} host */
const plan = (suite, host) => ({ suite: { name: 'smoke', ...(suite ? { meters: suite } : {}) }, host: { name: 'local', ...(host ? { meters: host } : {}) } });
const base = /** @type {any} */ ({});

test('resolveMeters: the option, else the suite\'s, else the host class\'s, else wall', () => {
  assert.deepEqual(resolveMeters({ ...base, meters: ['counters'] }, plan(['instructions'], ['wall'])), ['counters']);
  assert.deepEqual(resolveMeters(base, plan(['instructions'], ['wall', 'counters'])), ['instructions']);
  assert.deepEqual(resolveMeters(base, plan(undefined, ['wall', 'counters'])), ['wall', 'counters']);
  assert.deepEqual(resolveMeters(base, plan(undefined, undefined)), ['wall']);
});

test('resolveMeters: a configured name the registry does not know is refused, naming the file and the known meters', async () => {
  assert.throws(() => resolveMeters(base, plan(['wall', 'sundial'], undefined)), /^UserError: unknown meter in configs\/suites\/smoke\.yml: meters\[1\] = 'sundial'; known: wall, counters, instructions, work$/);
  assert.throws(() => resolveMeters(base, plan(undefined, ['rapl'])), /unknown meter in configs\/hosts\/local\.yml: meters\[0\] = 'rapl'/);
  const rapl = { name: 'rapl', kind: /** @type {const} */ ('timed'), metrics: [], needs: { tools: [], wrappedServer: false }, start: async () => ({ stop: async () => null }) };
  assert.deepEqual(await withMeters({ rapl }, async () => resolveMeters(base, plan(undefined, ['wall', 'rapl']))), ['wall', 'rapl']);
});
