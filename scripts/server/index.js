/**
 * The server stage: one private mysqld / mariadbd per call, with its own datadir, socket,
 * port and tmpdir, and nothing read from /etc/mysql. Other stages import only this file.
 */
export { startServer } from './start-server.js';
export { renderMycnf } from './mycnf.js';
export { stopAllServers } from './server-registry.js';
export { findFreePort } from './ports.js';
export { releaseClients } from './build-server-args.js';
export { snapshotDatadir, restoreDatadir } from './datadir-snapshot.js';
