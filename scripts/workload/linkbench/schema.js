/**
 * The LinkBench tables, our own DDL written from the facts of the fork's MySQL store
 * (LinkStoreMysql/LinkStoreSql: columns, types and the statements it runs) and its README:
 * `linktable` keyed (link_type, id1, id2) with the covering secondary index `id1_type` that
 * getLinkList forces, `counttable` keyed (id, link_type), `nodetable` with an auto-increment id.
 * latin1, as the fork uses. The secondary index is created after the load (timed), as the seed
 * author does, so the load measures inserts into the primary keys only.
 *
 * MyRocks: each index in its own column family (index comments), the id1_type family reverse
 * ordered because getLinkList reads it newest-first (ORDER BY time DESC); latin1_bin, the
 * collation MyRocks needs for index-only reads of the varchar column.
 */

/** Database the driver uses: dbprefix `linkdb` + database number 0 (dbcount 1). */
export const LINKBENCH_DATABASE = 'linkdb0';

/** Columns of id1_type, in order: covers getLinkList (id1, link_type, visibility, time range, returns the rest). */
const ID1_TYPE_COLUMNS = '`id1`, `link_type`, `visibility`, `time`, `id2`, `version`, `data`';

/**
 * @typedef {object} SchemaOptions
 * @property {'innodb'|'rocksdb'} engine
 * @property {number} [partitions] linktable (and counttable) split by KEY(id1) into this many
 *   partitions (the seed posts' p1 configurations); 0 or absent = not partitioned
 */

/**
 * @param {SchemaOptions} opts
 * @returns {{engineClause: string, pk: (cf: string) => string, index: (cf: string) => string, partition: (col: string) => string}}
 */
function dialect({ engine, partitions = 0 }) {
  if (engine !== 'innodb' && engine !== 'rocksdb') throw new Error(`linkbench schema: engine '${engine}' is not innodb or rocksdb`);
  if (!Number.isInteger(partitions) || partitions < 0 || partitions > 1024) throw new Error(`linkbench schema: partitions ${partitions} must be a whole number 0..1024`);
  const rocks = engine === 'rocksdb';
  return {
    engineClause: rocks ? 'ENGINE=RocksDB DEFAULT CHARSET=latin1 COLLATE=latin1_bin' : 'ENGINE=InnoDB DEFAULT CHARSET=latin1',
    pk: (cf) => (rocks ? ` COMMENT '${cf}'` : ''),
    index: (cf) => (rocks ? ` COMMENT '${cf}'` : ''),
    partition: (col) => (partitions > 0 ? ` PARTITION BY KEY(\`${col}\`) PARTITIONS ${partitions}` : ''),
  };
}

/**
 * Statements that (re)create the database and its three tables, without the secondary index.
 * @param {SchemaOptions} opts
 * @returns {string[]}
 */
export function createSchemaStatements(opts) {
  const d = dialect(opts);
  return [
    `DROP DATABASE IF EXISTS \`${LINKBENCH_DATABASE}\``,
    `CREATE DATABASE \`${LINKBENCH_DATABASE}\``,
    `CREATE TABLE \`${LINKBENCH_DATABASE}\`.\`linktable\` (
  \`id1\` BIGINT UNSIGNED NOT NULL DEFAULT 0,
  \`id2\` BIGINT UNSIGNED NOT NULL DEFAULT 0,
  \`link_type\` BIGINT UNSIGNED NOT NULL DEFAULT 0,
  \`visibility\` TINYINT NOT NULL DEFAULT 0,
  \`data\` VARCHAR(255) NOT NULL DEFAULT '',
  \`time\` BIGINT UNSIGNED NOT NULL DEFAULT 0,
  \`version\` INT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (\`link_type\`, \`id1\`, \`id2\`)${d.pk('cf_link_pk')}
) ${d.engineClause}${d.partition('id1')}`,
    `CREATE TABLE \`${LINKBENCH_DATABASE}\`.\`counttable\` (
  \`id\` BIGINT UNSIGNED NOT NULL DEFAULT 0,
  \`link_type\` BIGINT UNSIGNED NOT NULL DEFAULT 0,
  \`count\` INT UNSIGNED NOT NULL DEFAULT 0,
  \`time\` BIGINT UNSIGNED NOT NULL DEFAULT 0,
  \`version\` BIGINT UNSIGNED NOT NULL DEFAULT 0,
  PRIMARY KEY (\`id\`, \`link_type\`)${d.pk('cf_count_pk')}
) ${d.engineClause}${d.partition('id')}`,
    `CREATE TABLE \`${LINKBENCH_DATABASE}\`.\`nodetable\` (
  \`id\` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  \`type\` INT UNSIGNED NOT NULL,
  \`version\` BIGINT UNSIGNED NOT NULL,
  \`time\` INT UNSIGNED NOT NULL,
  \`data\` MEDIUMTEXT NOT NULL,
  PRIMARY KEY (\`id\`)${d.pk('cf_node_pk')}
) ${d.engineClause}`,
  ];
}

/**
 * The statement that adds linktable's secondary index after the load.
 * @param {SchemaOptions} opts
 * @returns {string}
 */
export function createIndexStatement(opts) {
  const d = dialect(opts);
  return `ALTER TABLE \`${LINKBENCH_DATABASE}\`.\`linktable\` ADD INDEX \`id1_type\` (${ID1_TYPE_COLUMNS})${d.index('rev:cf_link_id1_type')}`;
}
