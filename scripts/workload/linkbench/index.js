/**
 * LinkBench (the maintained fork at the commit pinned in pin.js):
 * build and cache it, create its schema for InnoDB or MyRocks, run its load and request phases,
 * create the secondary index in between, and parse what it prints. See README.md here.
 * `linkbench` is the benchmark plug-in (sequence.js).
 */
export { linkbench } from './sequence.js';
export { LINKBENCH_PIN, checkPin } from './pin.js';
export { ensureLinkbench, checkBuildTools, fetchSource, DEBIAN_PACKAGES, SOURCE_ENV } from './build.js';
export { createLinkbenchSchema, createLinkbenchIndex, linkbenchDatabaseSize, runLinkbenchPhase, linkbenchCommand } from './phases.js';
export { linkbenchProperties } from './properties.js';
export { createSchemaStatements, createIndexStatement, LINKBENCH_DATABASE } from './schema.js';
export { parseLinkbenchOutput, parseCsvStats, requestIntervals } from './parse.js';
