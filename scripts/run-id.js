/**
 * The form of a run record's id, in one place: `<stamp>-<host>-<release>-<suite>-<tag>`, where
 * <release> is `<product>-<version>[-<label>]` made file-name safe, <stamp> the run's start
 * (UTC, 20261122T200823Z) and <tag> 6 random hex digits; every record of one `tagbench run`
 * shares stamp and tag. Written by run/ (formatRecordId); read by verify/ (labelled columns),
 * compare/ (instances paired by round) and the benches that take a calibration apart. A
 * foundation module because all of them need it and none may import another's stage.
 */

/**
 * @param {{stamp: string, host: string, product: string, version: string, label?: string, suite: string, tag: string}} p
 * @returns {string}
 */
export function formatRecordId(p) {
  const release = `${p.product}-${p.version}${p.label ? `-${p.label}` : ''}`.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${p.stamp}-${p.host}-${release}-${p.suite}-${p.tag}`;
}

/**
 * The run label in a record's id, null when it has none or its id is not in that form (ids
 * written by other tools, fixtures).
 * @param {import('./types.js').RunRecord} r
 * @returns {string|null}
 */
export function runIdLabel(r) {
  const release = `-${`${r.release.product}-${r.release.version}`.replace(/[^A-Za-z0-9._-]/g, '_')}-`;
  const at = r.id.indexOf(release);
  if (at < 0) return null;
  const rest = r.id.slice(at + release.length);
  if (rest.startsWith(`${r.config.suite}-`)) return null;
  const end = rest.indexOf(`-${r.config.suite}-`);
  return end > 0 ? rest.slice(0, end) : null;
}

/**
 * The run label of a host class's reference release when the leg also measures another build of
 * its version (our source build of the line's base): `tagbench run --releases P@V#reference:deb`.
 */
export const REFERENCE_LABEL = 'reference';

/**
 * What every record of one `tagbench run` shares in its id: the run's time stamp (first part)
 * and its random tag (last part), `<stamp>-<host>-<release>-<suite>-<tag>` as
 * scripts/run/run-releases.js writes ids. Records with the same key ran side by side, round by
 * round (compare pairs their instances by it). Null when the id is not in that form.
 * @param {{id: string}} r
 * @returns {string|null}
 */
export function runGroupKey(r) {
  const parts = r.id.split('-');
  const stamp = parts[0];
  const tag = parts.at(-1) ?? '';
  return parts.length >= 5 && /^\d{8}T\d{6}Z$/.test(stamp) && /^[0-9a-f]{6}$/.test(tag) ? `${stamp}-${tag}` : null;
}
