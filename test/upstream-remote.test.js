// Mirrors and forks named product=url: the one parser behind watch's and install's
// --remote-override (the repository variable's comma-separated form included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { parseRemoteOverrides } from '../scripts/upstream-remote.js';
import { UserError } from '../scripts/errors.js';

test('URLs stay as given, folders become absolute, comma-separated and repeated entries both count', () => {
  assert.deepEqual(parseRemoteOverrides(['mariadb=https://git.example.invalid/server.git, mysql=git@host.invalid:mysql/server.git', 'percona-server=mirrors/ps.git']), {
    mariadb: 'https://git.example.invalid/server.git',
    mysql: 'git@host.invalid:mysql/server.git',
    'percona-server': resolve('mirrors/ps.git'),
  });
  assert.deepEqual(parseRemoteOverrides(['', ' , ']), {}, 'an empty repository variable names no mirror');
});

test('an entry without a product or a URL is refused, naming the option and the entry', () => {
  for (const bad of ['mariadb', '=x', 'mariadb=']) {
    assert.throws(() => parseRemoteOverrides([bad], '--remote-override'), (e) => e instanceof UserError && e.message.includes(`--remote-override ${JSON.stringify(bad)}`) && /<product>=<git URL or path>/.test(e.message));
  }
});
