/**
 * `calibrate` and `bisect` refuse an unknown --host-class the way every command does
 * (config/'s findHostClass), before anything starts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibrateHost } from '../../scripts/verify/calibrate/pipeline.js';
import { planBisect } from '../../scripts/verify/bisect-plan.js';
import { loadConfig } from '../../scripts/config/index.js';
import { UserError } from '../../scripts/errors.js';

const root = new URL('../..', import.meta.url).pathname;
const config = await loadConfig(root);
const message = `unknown --host-class 'huge'; known: ${Object.keys(config.hosts).join(', ')} (configs/hosts/<name>.yml)`;

test('calibrate: an unknown --host-class names the configured ones', async () => {
  await assert.rejects(calibrateHost({ root, product: 'mariadb', version: '10.11.18', hostClass: 'huge', store: '/nonexistent' }),
    (err) => err instanceof UserError && err.message === message);
});

test('bisect: an unknown --host-class names the configured ones', async () => {
  await assert.rejects(planBisect({ product: 'mariadb', good: '10.11.18', bad: '10.11.19', hostClass: 'huge', store: '/nonexistent' }, config, () => {}),
    (err) => err instanceof UserError && err.message === message);
});
