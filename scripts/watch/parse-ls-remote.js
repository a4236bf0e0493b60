/**
 * Parse `git ls-remote --tags` output into tags with the commit each points at.
 */

/**
 * @param {string} text lines `<sha>\trefs/tags/<name>` and, for annotated tags,
 *   `<sha>\trefs/tags/<name>^{}` with the commit the tag object points at
 * @returns {import('./types.js').RemoteTag[]} sorted by name
 */
export function parseLsRemote(text) {
  /** @type {Map<string, {direct: string, peeled?: string}>} */
  const tags = new Map();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{40,64})\trefs\/tags\/(.+?)(\^\{\})?$/.exec(line.trim());
    if (!m) continue;
    const entry = tags.get(m[2]) ?? { direct: m[1] };
    // The peeled line names the commit; the plain line of an annotated tag names the tag object.
    if (m[3]) entry.peeled = m[1];
    else entry.direct = m[1];
    tags.set(m[2], entry);
  }
  return [...tags]
    .map(([name, e]) => ({ name, commit: e.peeled ?? e.direct }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
