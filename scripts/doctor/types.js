/**
 * Shapes of `tagbench doctor` (typedefs only).
 */

export {};

/**
 * @typedef {'ok'|'fail'|'warn'|'info'} CheckStatus ok = fine; fail = missing or wrong (fatal
 *   when the check is required); warn = works but measurements may be noisy or a feature is
 *   off; info = a fact worth printing (e.g. cpufreq not exposed)
 */

/**
 * @typedef {object} CheckResult one line of doctor's report
 * @property {string} id stable identifier (`sysbench`, `disk-free`, ...), for --json readers
 * @property {string} title short name printed in the first column
 * @property {boolean} required a failed required check makes doctor exit 1
 * @property {CheckStatus} status
 * @property {string} detail what was found (version, path, numbers)
 * @property {string|null} fix what to do about it, null when nothing needs doing
 */

/**
 * @typedef {object} DoctorEnv what the checks look at; tests vary it
 * @property {string} path PATH to search tools in
 * @property {string} configRoot project root holding configs/
 * @property {string} workDir where datadirs go (free disk is measured there)
 * @property {string} nodeVersion version of the Node.js running tagbench (`20.11.1`)
 */

/**
 * @typedef {object} DoctorReport
 * @property {number} schemaVersion
 * @property {boolean} ok no required check failed
 * @property {CheckResult[]} checks in report order
 */
