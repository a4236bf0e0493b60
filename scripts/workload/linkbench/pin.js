/**
 * Which LinkBench runs: the maintained fork at one pinned commit, and how it is built. A module,
 * not a YAML file under configs/: configs are parsed by the config stage only, which the workload
 * stage may not import (docs/layout.md), and the pin is read by the workload stage itself when a
 * LinkBench step first needs the jar. Changing the pin = editing this file (and the offline
 * archive beside the clone for tests).
 */

/**
 * @typedef {object} LinkbenchPin
 * @property {string} gitUrl where a runner clones the fork from
 * @property {string} commit the pinned commit, 40 hex digits
 * @property {string} archiveSha256 sha256 of the offline archive of that commit
 * @property {readonly string[]} mavenArgs arguments of `mvn` in the source tree
 * @property {string} jar the built jar, relative to the source tree
 * @property {readonly SourceEdit[]} sourceEdits our fixes applied to the checked-out tree before
 *   Maven runs, in order; each is recorded in the build's provenance
 */

/**
 * @typedef {object} SourceEdit one exact text replacement in the fork's tree (a fix of ours to a
 *   defect of the pinned commit, kept as small as the fix)
 * @property {string} id short stable name, recorded in the provenance and the cache marker
 * @property {string} file path relative to the source tree
 * @property {string} find text that must occur exactly once in the file (else the build stops:
 *   a new pin must be re-checked against every edit)
 * @property {string} replace what takes its place
 * @property {string} why the defect, in a sentence
 */

/** @type {Readonly<LinkbenchPin>} */
export const LINKBENCH_PIN = Object.freeze({
  // The maintained fork; a runner clones this URL and checks out `commit`.
  gitUrl: 'https://github.com/mdcallag/linkbench.git',
  // The pinned commit, full sha ("Add higher resolution latency reporting", 2021-02-03), read from
  // the offline archive itself: `gzip -dc linkbench-9ef9cc8.tar.gz | git get-tar-commit-id`.
  // A source whose checkout (or archive header) names another commit is refused.
  commit: '9ef9cc8785dbd0921abd0bbfea971680a493a4fe',
  // sha256 of the offline archive of that commit (`git archive --prefix=linkbench-9ef9cc8/`,
  // gzip): ../shared/linkbench/linkbench-9ef9cc8.tar.gz, which tests and offline runs use in
  // place of the git URL (TAGBENCH_LINKBENCH_SOURCE). Any other archive is refused unopened.
  archiveSha256: 'fe24e817619b4254d0866fb90b61bda29acef58699a48cb4f8bd88c7e04b2486',
  // Maven arguments of the build, run in the source tree with the JDK on PATH.
  mavenArgs: Object.freeze(['-q', '-DskipTests', 'package']),
  // The jar the build leaves, relative to the source tree (a fat jar with its dependencies).
  jar: 'target/FacebookLinkBench.jar',
  sourceEdits: Object.freeze([
    Object.freeze({
      id: 'hdr-histogram-synchronized',
      file: 'src/main/java/com/facebook/LinkBench/stats/HdrLatencyHistogram.java',
      find: 'new Histogram(maxHistogramValue, histogramAccuracy)',
      // SynchronizedHistogram (same HdrHistogram jar, a subclass of Histogram) locks each record
      // and each query; one uncontended lock per request is nothing beside a database round trip.
      replace: 'new org.HdrHistogram.SynchronizedHistogram(maxHistogramValue, histogramAccuracy)',
      why: 'every requester thread records into one shared HdrHistogram Histogram per operation, '
        + 'which is not thread-safe: increments are lost, and when the bucket counts lose more than the '
        + 'total the driver dies in getMean (java.util.NoSuchElementException) after the request phase, '
        + 'before its REQUEST PHASE COMPLETED line (seen in CI on MyRocks with 2 requesters)',
    }),
  ]),
});

/** @type {Record<keyof LinkbenchPin, {test: (v: unknown) => boolean, valid: string}>} */
const FIELDS = {
  gitUrl: { test: (v) => typeof v === 'string' && v.length > 0, valid: 'a git URL or path' },
  commit: { test: (v) => typeof v === 'string' && /^[0-9a-f]{40}$/.test(v), valid: 'a full commit sha (40 lower-case hex digits)' },
  archiveSha256: { test: (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v), valid: 'a sha256 (64 lower-case hex digits)' },
  mavenArgs: { test: (v) => Array.isArray(v) && v.length > 0 && v.every((a) => typeof a === 'string'), valid: 'a non-empty list of strings' },
  jar: { test: (v) => typeof v === 'string' && /^[^/].*\.jar$/.test(v) && !v.split('/').includes('..'), valid: 'a relative path to a .jar inside the source tree' },
  sourceEdits: { test: (v) => Array.isArray(v) && v.every(isSourceEdit) && new Set(v.map((e) => e.id)).size === v.length, valid: 'a list of {id, file, find, replace, why} with distinct ids, non-empty strings, relative files' },
};

/** @param {unknown} e */
function isSourceEdit(e) {
  if (typeof e !== 'object' || e === null) return false;
  const edit = /** @type {Record<string, unknown>} */ (e);
  const keys = ['id', 'file', 'find', 'replace', 'why'];
  return Object.keys(edit).every((k) => keys.includes(k)) && keys.every((k) => typeof edit[k] === 'string' && edit[k] !== '')
    && /^[a-z0-9-]+$/.test(/** @type {string} */ (edit.id)) && !/^\//.test(/** @type {string} */ (edit.file))
    && !/** @type {string} */ (edit.file).split('/').includes('..');
}

/**
 * Check a pin (the one above, or a test's own).
 * @param {Record<string, unknown>} pin
 * @returns {LinkbenchPin}
 * @throws {Error} naming the field, its value and what is valid
 */
export function checkPin(pin) {
  const unknown = Object.keys(pin).filter((k) => !(k in FIELDS));
  if (unknown.length > 0) throw new Error(`linkbench pin: unknown key ${unknown.join(', ')}; known: ${Object.keys(FIELDS).join(', ')}`);
  for (const [key, rule] of Object.entries(FIELDS)) {
    if (!rule.test(pin[key])) throw new Error(`linkbench pin (scripts/workload/linkbench/pin.js): ${key} is ${JSON.stringify(pin[key])}; must be ${rule.valid}`);
  }
  return /** @type {LinkbenchPin} */ (/** @type {unknown} */ (pin));
}
