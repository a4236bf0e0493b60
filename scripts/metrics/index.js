/**
 * The metrics stage: samplers around a benchmark step (vmstat, iostat, mysqld RSS, SHOW GLOBAL
 * STATUS), per-operation efficiency, database size and host facts. Other stages import only
 * this file. Sample shapes: scripts/metrics/types.js.
 */
export { startSampling } from './start-sampling.js';
export { computeEfficiency } from './compute-efficiency.js';
export { computeRocksdbFigures } from './compute-rocksdb-figures.js';
export { parseRocksdbEngineStatus, sumSstProps } from './parse-rocksdb-status.js';
export { measureDbSize, measureDatabaseFiles } from './measure-db-size.js';
export { collectHostFacts } from './collect-host-facts.js';
export { parseVmstat } from './parse-vmstat.js';
export { parseIostat } from './parse-iostat.js';
export { parseCpuinfo } from './parse-cpuinfo.js';
export { getMeter, METERS, DEFAULT_METERS, splitMeters, meterNames, withMeters, recordMeterMetrics } from './meters/registry.js';
export { parsePerfStat } from './parse-perf-stat.js';
