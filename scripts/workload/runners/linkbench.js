/** LinkBench, a sequence benchmark: it lives in scripts/workload/linkbench/ (build, schema, phases, parsers). */
export { linkbench } from '../linkbench/sequence.js';
