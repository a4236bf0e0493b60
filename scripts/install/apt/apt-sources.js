/**
 * Read the machine's own apt sources and write a private sources list for another Debian suite.
 * The mirror is always the one this machine is configured with: the project never names a
 * mirror host itself (CI machines, laptops and runners each use their own).
 */

/**
 * @typedef {object} AptSourceEntry
 * @property {string[]} types `deb`, `deb-src`
 * @property {string[]} uris
 * @property {string[]} suites
 * @property {string[]} components
 * @property {string|null} signedBy keyring path, when the entry names one
 */

/**
 * @typedef {object} DebianMirrors
 * @property {string} archive URI of the main archive (the one serving `<suite>` and `<suite>-updates`)
 * @property {string|null} security URI of the security archive (`<suite>-security`), null when the machine has none
 * @property {string} keyring keyring that verifies every suite (bookworm's archive keyring covers bullseye..sid)
 */

/** Debian's archive keyring; bookworm's copy also holds the keys of bullseye, trixie and sid. */
export const DEFAULT_KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg';

/**
 * Parse a deb822 `.sources` file.
 * @param {string} text file content
 * @returns {AptSourceEntry[]} enabled entries only
 */
export function parseDeb822Sources(text) {
  /** @type {AptSourceEntry[]} */
  const entries = [];
  for (const stanza of text.split(/\n\s*\n/)) {
    /** @type {Record<string, string>} */
    const fields = {};
    let last = '';
    for (const line of stanza.split('\n')) {
      if (line.startsWith('#') || line.trim() === '') continue;
      if (/^\s/.test(line) && last) { fields[last] += ` ${line.trim()}`; continue; }
      const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
      if (!m) continue;
      last = m[1].toLowerCase();
      fields[last] = m[2].trim();
    }
    if (!fields.uris || !fields.suites) continue;
    if ((fields.enabled ?? 'yes').toLowerCase() === 'no') continue;
    const words = (/** @type {string|undefined} */ s) => (s ?? '').split(/\s+/).filter(Boolean);
    entries.push({
      types: words(fields.types || 'deb'),
      uris: words(fields.uris),
      suites: words(fields.suites),
      components: words(fields.components),
      signedBy: fields['signed-by'] && fields['signed-by'].startsWith('/') ? fields['signed-by'] : null,
    });
  }
  return entries;
}

/**
 * Parse a one-line-style `sources.list`.
 * @param {string} text file content
 * @returns {AptSourceEntry[]}
 */
export function parseOneLineSources(text) {
  /** @type {AptSourceEntry[]} */
  const entries = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^(deb|deb-src)\s+(?:\[([^\]]*)\]\s+)?(\S+)\s+(\S+)\s*(.*)$/.exec(line);
    if (!m) continue;
    const signed = /signed-by=(\S+)/.exec(m[2] ?? '');
    entries.push({ types: [m[1]], uris: [m[3]], suites: [m[4]], components: m[5].split(/\s+/).filter(Boolean), signedBy: signed ? signed[1] : null });
  }
  return entries;
}

/**
 * Pick the Debian archive and security mirrors among the machine's sources. Third-party
 * repositories are ignored by requiring a `main` component and a Debian-looking suite.
 * @param {AptSourceEntry[]} entries
 * @returns {DebianMirrors|null} null when no Debian archive is configured
 */
export function pickDebianMirrors(entries) {
  const debian = entries.filter((e) => e.types.includes('deb') && e.components.includes('main'));
  const isSecurity = (/** @type {string} */ s) => /-security$|\/updates$/.test(s);
  const archiveEntry = debian.find((e) => e.suites.some((s) => !isSecurity(s) && /^[a-z]+(-updates|-backports)?$/.test(s)));
  if (!archiveEntry) return null;
  const securityEntry = debian.find((e) => e.suites.some(isSecurity));
  return {
    archive: archiveEntry.uris[0],
    security: securityEntry ? securityEntry.uris[0] : null,
    keyring: archiveEntry.signedBy ?? DEFAULT_KEYRING,
  };
}

/**
 * The private sources list for one Debian release: its main suite, plus `-updates` and
 * `-security` for stable releases (sid and experimental have neither).
 * @param {string} release base suite name (`bullseye`, `trixie`, `sid`)
 * @param {DebianMirrors} mirrors
 * @returns {string} one-line-style sources.list text
 */
export function renderSourcesList(release, mirrors) {
  const opts = `[signed-by=${mirrors.keyring}]`;
  const lines = [`deb ${opts} ${mirrors.archive} ${release} main`];
  if (!['sid', 'unstable', 'experimental'].includes(release)) {
    lines.push(`deb ${opts} ${mirrors.archive} ${release}-updates main`);
    if (mirrors.security) lines.push(`deb ${opts} ${mirrors.security} ${release}-security main`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The private source-package list for one Debian release: the same suites and mirrors as
 * {@link renderSourcesList}, as `deb-src` lines. It is kept apart from the binary lists so that
 * a binary install never downloads the larger Sources indexes.
 * @param {string} release base suite name (`bookworm`, `sid`)
 * @param {DebianMirrors} mirrors
 * @returns {string} one-line-style sources.list text
 */
export function renderSourcePackagesList(release, mirrors) {
  return renderSourcesList(release, mirrors).replace(/^deb /gm, 'deb-src ');
}

/**
 * The Debian release a suite belongs to: `bookworm-security` -> `bookworm`.
 * @param {string} suite
 * @returns {string}
 */
export function releaseOfSuite(suite) {
  return suite.replace(/-(security|updates|proposed-updates|backports)$/, '');
}
