import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildProgram } from '../scripts/cli.js';
import { commandSpecs } from '../scripts/command-list.js';
import { baselinesOption, botLoginOption, githubRepoOption, identityFilterOptions, issueLabelOption, storeOption, tokenEnvOption } from '../scripts/command-spec.js';

test('shared options: one definition each, the command\'s own words where it gives them', () => {
  assert.deepEqual(storeOption(), { flags: '--store <dir>', description: 'results store directory', default: 'results' });
  assert.equal(storeOption('results store directory to publish').default, 'results');
  assert.deepEqual(identityFilterOptions('run').map((o) => o.description), ['only runs of this host class', 'only runs of this product', 'only runs of this release', 'only runs of this suite']);
  assert.equal(identityFilterOptions('comparison', 'only comparisons whose candidate is this release')[2].description, 'only comparisons whose candidate is this release');
  assert.equal(githubRepoOption('repository for issues').description, 'repository for issues (default: $GITHUB_REPOSITORY)');
  assert.equal(baselinesOption().default, 'baselines');
  assert.equal(tokenEnvOption().default, 'GITHUB_TOKEN');
  assert.equal(issueLabelOption().default, 'tagbench-regression');
  assert.equal(botLoginOption('whose markers are trusted', '; a GitHub App: <app-slug>[bot]').description,
    'comma-separated logins whose markers are trusted (default: $TAGBENCH_BOT_LOGINS, else github-actions[bot]; a GitHub App: <app-slug>[bot])');
});

test('every command that talks to GitHub names its token\'s variable with --token-env, GITHUB_TOKEN by default', () => {
  const program = buildProgram(commandSpecs);
  for (const name of ['report', 'issues', 'triage', 'post-verdict', 'open-pr']) {
    const cmd = program.commands.find((c) => c.name() === name);
    assert.ok(cmd, name);
    const option = cmd.options.find((o) => o.long === '--token-env');
    assert.equal(option?.defaultValue, 'GITHUB_TOKEN', name);
  }
});
