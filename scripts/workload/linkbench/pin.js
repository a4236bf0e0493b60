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
});

/** @type {Record<keyof LinkbenchPin, {test: (v: unknown) => boolean, valid: string}>} */
const FIELDS = {
  gitUrl: { test: (v) => typeof v === 'string' && v.length > 0, valid: 'a git URL or path' },
  commit: { test: (v) => typeof v === 'string' && /^[0-9a-f]{40}$/.test(v), valid: 'a full commit sha (40 lower-case hex digits)' },
  archiveSha256: { test: (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v), valid: 'a sha256 (64 lower-case hex digits)' },
  mavenArgs: { test: (v) => Array.isArray(v) && v.length > 0 && v.every((a) => typeof a === 'string'), valid: 'a non-empty list of strings' },
  jar: { test: (v) => typeof v === 'string' && /^[^/].*\.jar$/.test(v) && !v.split('/').includes('..'), valid: 'a relative path to a .jar inside the source tree' },
};

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
