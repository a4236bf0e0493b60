/**
 * measureDatabaseFiles: InnoDB on a folder laid out like a datadir (real files, real du) counts the
 * database's folder only; MyRocks sums the SST files the server lists. The real servers' figures
 * are checked by the LinkBench server tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureDatabaseFiles } from '../../scripts/metrics/index.js';

const MiB = 1024 * 1024;

/** A file of `bytes` real (non-sparse) bytes, so du's allocated size is at least that. */
const fill = (/** @type {string} */ file, /** @type {number} */ bytes) => writeFile(file, Buffer.alloc(bytes, 7));

test('measureDatabaseFiles: InnoDB counts the database folder, not the redo log or the system tablespace', async () => {
  const datadir = await mkdtemp(join(tmpdir(), 'tagbench-dbfiles-'));
  try {
    await mkdir(join(datadir, 'linkdb0'));
    await fill(join(datadir, 'linkdb0', 'linktable.ibd'), 3 * MiB);
    await fill(join(datadir, 'linkdb0', 'nodetable.ibd'), 1 * MiB);
    await fill(join(datadir, 'ib_logfile0'), 8 * MiB);
    await fill(join(datadir, 'ibdata1'), 4 * MiB);
    const query = async () => { throw new Error('InnoDB needs no query'); };
    const bytes = await measureDatabaseFiles({ datadir, query, database: 'linkdb0', engine: 'innodb' });
    assert.ok(bytes >= 4 * MiB && bytes < 5 * MiB, `the two .ibd files (4 MiB), not the 12 MiB of shared files: got ${bytes}`);
    await assert.rejects(measureDatabaseFiles({ datadir, query, database: 'missing', engine: 'innodb' }), /du could not measure .*missing/);
    await assert.rejects(measureDatabaseFiles({ datadir, query, database: "x' OR '1", engine: 'innodb' }), /plain identifier/);
  } finally {
    await rm(datadir, { recursive: true, force: true });
  }
});

test('measureDatabaseFiles: MyRocks sums the live SST files the server lists (ROCKSDB_SST_PROPS), not the folder', async () => {
  /** @type {string[]} */
  const asked = [];
  // Two SST files as the server reports them: data + index + filter blocks are their bytes.
  const rows = [
    { SST_NAME: '000012.sst', DATA_BLOCK_SIZE: 2 * MiB, INDEX_BLOCK_SIZE: 4096, FILTER_BLOCK_SIZE: 8192, RAW_KEY_SIZE: 3 * MiB, RAW_VALUE_SIZE: MiB, COMPRESSION_ALGO: 'LZ4' },
    { SST_NAME: '000015.sst', DATA_BLOCK_SIZE: MiB, INDEX_BLOCK_SIZE: 1024, FILTER_BLOCK_SIZE: 0, RAW_KEY_SIZE: MiB, RAW_VALUE_SIZE: MiB, COMPRESSION_ALGO: 'ZSTD' },
  ];
  const query = async (/** @type {string} */ sql) => { asked.push(sql); return rows; };
  const bytes = await measureDatabaseFiles({ datadir: '/nonexistent', query, database: 'linkdb0', engine: 'rocksdb' });
  assert.equal(bytes, 3 * MiB + 4096 + 8192 + 1024);
  assert.deepEqual(asked, ['SELECT * FROM information_schema.ROCKSDB_SST_PROPS']);
  assert.equal(await measureDatabaseFiles({ datadir: '/nonexistent', query: async () => [], database: 'linkdb0', engine: 'rocksdb' }), 0, 'nothing flushed yet: 0 bytes');
  await assert.rejects(measureDatabaseFiles({ datadir: '/nonexistent', query: async () => [{ x: 1 }], database: 'linkdb0', engine: 'rocksdb' }), /not an information_schema\.ROCKSDB_SST_PROPS row/);
});
