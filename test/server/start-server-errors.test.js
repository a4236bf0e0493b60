/**
 * What a user sees when a server cannot be started: each case is a UserError that names the
 * input and the way out, and leaves no server running.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, stopAllServers } from '../../scripts/server/index.js';
import { countRunningServers } from '../../scripts/server/server-registry.js';
import { UserError } from '../../scripts/errors.js';
import { skipReason, getInstall, tempWorkDir, serverOptions, config } from './helpers.js';

const skip = skipReason;
/** @type {(() => Promise<void>)[]} */
const cleanups = [];
after(async () => {
  await stopAllServers();
  for (const c of cleanups) await c();
});

/** @param {string} label */
async function workDir(label) {
  const w = await tempWorkDir(label);
  cleanups.push(w.remove);
  return w.dir;
}

/** @param {string} p */
const exists = (p) => access(p).then(() => true, () => false);

test('a port in use is refused before anything is created, naming the port and its holder', { skip }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const blocker = createServer();
  await new Promise((res) => blocker.listen(23120, '127.0.0.1', () => res(undefined)));
  try {
    const dir = join(await workDir('port'), 'w');
    await assert.rejects(startServer(install, serverOptions(dir, 23120, 'innodb')), (err) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /TCP port 23120 on 127\.0\.0\.1 is already in use/);
      assert.match(err.message, new RegExp(`held by node, pid ${process.pid}`));
      return true;
    });
    assert.equal(await exists(join(dir, 'data')), false, 'no datadir was initialised');
  } finally {
    blocker.close();
  }
});

test('a server that will not start: the error carries the last lines of its error log', { skip }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const template = `${config.mycnf.innodb}\n[mysqld]\ninnodb_no_such_option=1\n`;
  await assert.rejects(startServer(install, serverOptions(await workDir('bad'), 23121, 'innodb', { mycnfTemplate: template })), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /exited during startup \(exit code \d+\)/);
    assert.match(err.message, /unknown variable 'innodb_no_such_option=1'/);
    assert.match(err.message, /\[ERROR\] Aborting/);
    return true;
  });
  assert.equal(countRunningServers(), 0);
});

test('an existing datadir is refused unless reuseDatadir; with it the server restarts on the same data', { skip }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const dir = await workDir('reuse');
  const first = await startServer(install, serverOptions(dir, 23122, 'innodb'));
  await first.query('CREATE TABLE kept (id INT PRIMARY KEY)');
  await first.stop();
  await assert.rejects(startServer(install, serverOptions(dir, 23122, 'innodb')), /already holds a datadir: use a fresh workDir/);
  const again = await startServer(install, serverOptions(dir, 23122, 'innodb', { reuseDatadir: true }));
  const rows = await again.query("SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = 'kept'");
  assert.equal(Number(rows[0].n), 1);
  await again.stop();
});

test('a missing server binary is named', { skip }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const broken = { ...install, bin: { ...install.bin, server: join(install.prefix, 'usr/sbin/no-such-mariadbd') } };
  await assert.rejects(startServer(broken, serverOptions(await workDir('nobin'), 23123, 'innodb')), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /server binary \(bin\.server\): .*no-such-mariadbd is missing or not usable/);
    return true;
  });
});

test('engine rocksdb without the plugin names the plugin dir searched', { skip }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const dir = await workDir('noplugin');
  const emptyPlugins = join(dir, 'plugins');
  await mkdir(emptyPlugins);
  await assert.rejects(startServer({ ...install, pluginDir: emptyPlugins }, serverOptions(join(dir, 'w'), 23124, 'rocksdb')), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, new RegExp(`ha_rocksdb\\.so does not exist \\(searched plugin dir ${emptyPlugins}\\)`));
    assert.match(err.message, /mariadb-plugin-rocksdb/);
    return true;
  });
});

test('bad options are listed together', { skip }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const opts = { ...serverOptions(await workDir('opts'), 80, 'innodb'), engine: /** @type {any} */ ('myisam'), serverCpus: '999' };
  await assert.rejects(startServer(install, opts), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /port 80 must be an integer in 1024-65535/);
    assert.match(err.message, /engine "myisam" must be one of innodb, rocksdb/);
    assert.match(err.message, /serverCpus "999" \(host class pinning\.serverCpus\) names CPU 999/);
    return true;
  });
});

test('a template option tagbench owns is refused with its line', { skip }, async () => {
  const install = await getInstall('mariadb', '10.11.18');
  const dir = await workDir('reserved');
  await writeFile(join(dir, 'note'), '');
  const template = '[mysqld]\ndatadir=/var/lib/mysql\n';
  await assert.rejects(startServer(install, serverOptions(join(dir, 'w'), 23125, 'innodb', { mycnfTemplate: template, mycnfName: 'mine' })),
    /my\.cnf template 'mine': 1 problem:\n {2}- line 2: option 'datadir' is set by tagbench/);
});
