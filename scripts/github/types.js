/** Shapes private to the github stage (typedefs only). */
export {};

/**
 * What one regression issue is about: one product line, one release, one host class, one suite.
 * @typedef {object} IssueKey
 * @property {string} product
 * @property {string} line product line name (`10.11`)
 * @property {string} version candidate release the regressions were confirmed in
 * @property {string} hostClass
 * @property {string} suite
 * @property {AdHocOverrides} [adHoc] present only for a run with overrides: its issue is not the
 *   release's official one
 */

/**
 * The overrides of an ad-hoc benchmark dispatch ('' / [] = not overridden). A run with none of
 * them is a default run: only default runs touch the official issue of a release.
 * @typedef {object} AdHocOverrides
 * @property {string|null} base base release override
 * @property {string|null} mycnf my.cnf template override
 * @property {string[]} only test subset, sorted
 */

/**
 * Machine-readable part of an issue, kept in a hidden HTML comment of its body so that a later
 * report finds the issue (fingerprint), knows which tests it lists (recovery) and can tell
 * whether anything changed (digest of the numbers).
 * @typedef {object} IssueMarker
 * @property {1} v marker format version
 * @property {string} fingerprint stable id of the IssueKey
 * @property {IssueKey} key
 * @property {string[]} tests regressed test ids (`<test>:<metric>`)
 * @property {string} digest sha256 (hex, 16 chars) over baseline, tests and numbers
 */

/**
 * An issue to create or update, fully rendered.
 * @typedef {object} IssuePlan
 * @property {IssueKey} key
 * @property {IssueMarker} marker
 * @property {string} title
 * @property {string} body Markdown, starting with the hidden marker
 * @property {string[]} labels every label the issue should carry (the index label first)
 * @property {string} updateNote Markdown comment posted when an existing issue changes
 */

/**
 * An issue as the report needs it from GitHub.
 * @typedef {object} ExistingIssue
 * @property {number} number
 * @property {'open'|'closed'} state
 * @property {string} title
 * @property {string} body
 * @property {string} url html_url
 * @property {string|null} author login of whoever opened it
 * @property {string[]} labels label names
 * @property {IssueMarker|null} marker parsed from the body; null when absent, unreadable, or in
 *   an issue not opened by a trusted login
 * @property {boolean} untrustedMarker a marker is there but the author is not trusted: ignored
 */

/**
 * What the report did (or would do) for one issue.
 * @typedef {object} IssueOutcome
 * @property {'created'|'updated'|'unchanged'|'commented'|'recovery-commented'|'recovery-closed'|'recovery-known'|'dry-run'|'failed'|'summary-only'} action
 *   failed: GitHub refused or failed (detail says why; the results are published regardless);
 *   summary-only: an ad-hoc run, reported in the job summary only
 * @property {string} fingerprint
 * @property {string} title
 * @property {number|null} number issue number, null in a dry run
 * @property {string|null} url
 * @property {string} [file] Markdown file written in a dry run
 * @property {string} [detail] one line for the log and the job summary
 */

/**
 * Options of one report.
 * @typedef {object} ReportOptions
 * @property {string|null} repo `owner/name`; null = dry run
 * @property {string|null} token GitHub token; null = dry run
 * @property {string} apiUrl GitHub REST base URL (GITHUB_API_URL)
 * @property {string} dryRunDir where a dry run writes the issue Markdown
 * @property {string|null} siteUrl results site, linked from issues
 * @property {string|null} runUrl workflow run, linked from issues
 * @property {string} label the label that marks (and indexes) tagbench regression issues
 * @property {boolean} closeOnRecovery close an issue when a later release recovers every test it lists
 * @property {(line: string) => void} log progress to stderr
 * @property {import('./types.js').AdHocOverrides|null} [adHoc] the run's overrides; null or
 *   absent for a default run (the only kind that touches a release's official issue)
 * @property {'summary'|'issue'} [adHocIssues] where an ad-hoc run reports: the job summary only
 *   (default) or an issue of its own
 * @property {string[]} [botLogins] logins whose markers are trusted besides the token's own
 *   (default github-actions[bot])
 * @property {{retryAfterBaseMs?: number, recheckDelayMs?: number, throttle?: boolean}} [timing] tests only
 * @property {Map<string, import('../compare/index.js').HostCalibration>} [calibrations] each host
 *   class's calibration (bench/calibration-<host-class>.json), for the "how sure" line of its
 *   issues and job summary; a host class without one says so
 * @property {Map<string, import('../types.js').Calibration[]>} [storedCalibrations] each host
 *   class's stored calibrations (bench/calibrations/<host-class>/), which the "how sure"
 *   sentence of its issues and job summary chooses from
 */

/**
 * A TestVerdict as the compare stage writes it: the shared typedef plus the evidence fields
 * compare adds (all optional here, so hand-made and older comparisons still render).
 * @typedef {import('../types.js').TestVerdict & {
 *   unit?: string,
 *   scale?: 'log'|'linear',
 *   difference?: number|null,
 *   threshold?: {warn: number, issue: number},
 *   level?: 'warn'|'issue'|null,
 *   confirmation?: {verdict: string, level?: string|null, ratio: number|null, ci: [number, number]|null, reason: string, runIds?: {base: string[], candidate: string[]}}
 * }} ReportedVerdict
 */
