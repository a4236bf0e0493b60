/**
 * The run stage: benchmark releases with a suite on a host class, one run record per release.
 * `confirm` and `calibrate` (scripts/verify/) reuse runReleases with `only` and their own repeats.
 */
export { runReleases } from './run-releases.js';
export { runSuite } from './run-suite.js';
export { parseReleaseList, lineOf, resolveRepeats } from './resolve-run.js';
/** A full git commit id, as `--releases product@version:source@<commit>` takes it. */
export { COMMIT_RE } from '../install/index.js';
/** A git ref of a ref run (`run --ref`), checked before anything runs; a repository without credentials. */
export { parseGitRef, redactRepository } from '../install/index.js';
export { estimateRun, estimateTestsRun, overBudget, checkBudget, renderEstimate } from './estimate.js';
export { estimateLeg, legTimeoutsMinutes } from './estimate-leg.js';
/** The meters, for the stages above run that ask a meter's facts (verify's calibration picks its strategy by kind). */
export { METERS, getMeter, meterNames, DEFAULT_METERS } from '../metrics/index.js';
