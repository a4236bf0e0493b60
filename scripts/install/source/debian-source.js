/**
 * The Debian-source origin of a source build (`--provider source --suite <suite>`): the upstream
 * release tarball as Debian ships it, the `orig` tarball of the Debian source package, instead of
 * a git tag. Debian's source packages are reachable where upstream's git and downloads are not,
 * and their orig tarball is upstream's own release tarball, with upstream's signature beside it.
 *
 * What is trusted, and how:
 * - apt downloads with a private configuration on this machine's own mirror (apt/apt-env.js) and
 *   verifies Release signature (Debian archive keyring) -> Sources hash -> .dsc -> every file;
 * - the orig tarball's sha256 is checked again here against the .dsc, and recorded;
 * - upstream's signature (`<orig>.asc`) is checked with gpgv against the upstream key Debian's
 *   maintainers ship in the package (`debian/upstream/signing-key.asc`, itself covered by the
 *   chain above); when any of these is missing the build goes on and the provenance says why
 *   the signature was not checked. A signature that does not verify stops the build.
 * Only the orig tarball is unpacked: the build is upstream's tree, not Debian's patched one.
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { PACKAGE_ROLES, openAptSourceEnv, packageNameCandidates, releaseOfSuite, sourceAptCommands, upstreamOf } from '../apt/index.js';
import { sha256File } from '../provenance.js';
import { runTool } from '../run-tool.js';
import { runLogged } from './run-logged.js';

/** Suite names as Debian spells them (`bookworm`, `bookworm-security`, `sid`). */
export const SUITE_RE = /^[a-z][a-z0-9]*(-[a-z][a-z0-9-]*)?$/;
/** Where Debian's maintainers keep upstream's release-signing key inside the source package. */
const UPSTREAM_KEY_MEMBER = 'debian/upstream/signing-key.asc';

/**
 * @typedef {object} DebianSourceChoice which Debian source package a build uses
 * @property {string} suite as asked (`bookworm`, `bookworm-security`)
 * @property {string} release its Debian release (`bookworm`): the private source lists cover the
 *   release with its -updates and -security suites
 * @property {string} packageName the binary package name given to apt (the server-core package;
 *   apt builds it from one source package and downloads that)
 * @property {string[]} otherNames other names the server-core package has in some releases
 *   (`mariadb-server-core-10.5` in bullseye), tried when the first has no source
 * @property {string|null} packageVersion exact Debian version, from the product's `deb.<version>`
 *   when it is in this release; null: the highest version of this upstream version apt offers
 */

/** @typedef {import('../types.js').SignatureCheck} SignatureCheck */
/** @typedef {import('../types.js').DebianSourceFacts} DebianSourceFacts */

/**
 * Which source package builds `<product> <version>` from `suite`. Pure.
 * @param {import('../types.js').InstallProductConfig} product
 * @param {string} version upstream version
 * @param {string} suite
 * @returns {DebianSourceChoice}
 * @throws {UserError} a suite that is not a Debian suite name
 */
export function chooseDebianSource(product, version, suite) {
  if (!SUITE_RE.test(suite)) throw new UserError(`--suite '${suite}' is not a Debian suite name (e.g. bookworm, bookworm-security, trixie, sid)`);
  const release = releaseOfSuite(suite);
  const [first, ...otherNames] = packageNameCandidates(PACKAGE_ROLES[product.flavor][0], version);
  const pinned = product.deb?.[version];
  // deb.<version> pins the binary version; a binNMU (+b1) exists only for binaries, not sources.
  const packageVersion = pinned?.packageVersion && releaseOfSuite(pinned.suite) === release ? pinned.packageVersion.replace(/\+b\d+$/, '') : null;
  return { suite, release, packageName: first, otherNames, packageVersion };
}

/**
 * The file names of a .dsc's `Checksums-Sha256` field, with their sha256.
 * @param {string} text the .dsc (signed or not)
 * @returns {{name: string, sha256: string, size: number}[]}
 */
export function parseDscChecksums(text) {
  const field = /^Checksums-Sha256:[^\n]*\n((?:[ \t][^\n]*\n?)*)/m.exec(text);
  if (!field) return [];
  return [...field[1].matchAll(/^[ \t]+([0-9a-f]{64})\s+(\d+)\s+(\S+)\s*$/gm)].map((m) => ({ name: m[3], sha256: m[1], size: Number(m[2]) }));
}

/**
 * The OpenPGP packets of ASCII-armored key blocks, as one binary keyring gpgv reads (what
 * `gpg --dearmor` makes, without gpg or a home folder).
 * @param {string} armored one or more `-----BEGIN PGP PUBLIC KEY BLOCK-----` blocks
 * @returns {Buffer}
 * @throws {UserError} when the text holds no key block
 */
export function dearmorKeys(armored) {
  const blocks = [...armored.matchAll(/-----BEGIN PGP PUBLIC KEY BLOCK-----\r?\n([\s\S]*?)-----END PGP PUBLIC KEY BLOCK-----/g)];
  if (blocks.length === 0) throw new UserError('the upstream signing key file holds no PGP public key block');
  // Armor header lines (`Comment: ...`) and the `=XXXX` CRC line are not part of the packets.
  return Buffer.concat(blocks.map((b) => Buffer.from(b[1].split(/\r?\n/)
    .filter((l) => l.trim() && !l.startsWith('=') && !/^[A-Za-z-]+: /.test(l)).join(''), 'base64')));
}

/**
 * The commands of the Debian-source origin in the order they run, for the dry run and the build.
 * @param {{cacheDir: string, workDir: string, choice: DebianSourceChoice}} where
 * @returns {{downloadDir: string, keyring: string, srcDir: string, packageArg: string, download: string[],
 *   unpack: (origFile: string) => string[], steps: {step: string, argv: string[], when?: string, cwd?: string}[]}}
 *   download and unpack: the argv the build runs; steps: every step as the dry run prints it
 */
export function debianSourceSteps({ cacheDir, workDir, choice }) {
  const downloadDir = join(workDir, 'debian-source');
  const srcDir = join(workDir, 'src');
  const keyring = join(downloadDir, 'upstream-signing-key.gpg');
  const packageArg = `${choice.packageName}=${choice.packageVersion ?? '<the highest Debian version of this upstream version in the release>'}`;
  const apt = sourceAptCommands(cacheDir, choice.release, packageArg);
  const orig = '<orig tarball named in the .dsc>';
  const unpack = (/** @type {string} */ origFile) => ['tar', '-xf', origFile, '-C', srcDir, '--strip-components=1', '--no-same-owner'];
  return {
    downloadDir, keyring, srcDir, packageArg,
    download: apt.download,
    unpack,
    steps: [
      { step: 'fetch', argv: apt.update, when: 'the private source lists are missing or older than a day' },
      { step: 'fetch', argv: apt.download, cwd: downloadDir, when: choice.otherNames.length ? `the release has this source; else ${choice.otherNames.join(', ')}` : undefined },
      // Done in-process (sha256File); printed as the command that computes the same, to compare with the .dsc.
      { step: 'verify', argv: ['sha256sum', orig], cwd: downloadDir },
      { step: 'verify', argv: ['tar', '-xf', '<debian tarball named in the .dsc>', '-C', downloadDir, UPSTREAM_KEY_MEMBER], cwd: downloadDir, when: 'the .dsc lists <orig>.asc; the key is dearmored into the keyring' },
      { step: 'verify', argv: ['gpgv', '--keyring', keyring, `${orig}.asc`, orig], cwd: downloadDir, when: 'the .asc and upstream key exist and gpgv is installed (else recorded as not checked, with why); a bad signature stops the build' },
      { step: 'unpack', argv: unpack(orig), cwd: downloadDir },
    ],
  };
}

/**
 * Download the source package, verify the orig tarball, unpack it into `<workDir>/src`.
 * @param {{cacheDir: string, workDir: string, choice: DebianSourceChoice, version: string, logFile: string,
 *   label: string, log: (msg: string) => void, etcApt?: string}} c etcApt: the machine's apt sources
 *   folder (default /etc/apt)
 * @returns {Promise<{srcDir: string, facts: DebianSourceFacts}>}
 * @throws {UserError} no such source version, a download failure, a sha256 mismatch, a bad signature,
 *   a native package (no orig tarball), an orig tarball that is not one source tree
 */
export async function fetchDebianSource(c) {
  const { cacheDir, workDir, version, logFile, label, log } = c;
  const env = await openAptSourceEnv(cacheDir, c.choice.release, log, c.etcApt);
  await env.ensureUpdated();
  const found = await findSourceVersion(env, c.choice, version);
  const choice = { ...c.choice, packageName: found.asked, packageVersion: found.version };
  const plan = debianSourceSteps({ cacheDir, workDir, choice });
  await mkdir(plan.downloadDir, { recursive: true });
  log(`${label}: downloading Debian source package ${found.source} ${found.version} (${found.suite}) with apt`);
  const download = plan.download;
  const res = await runLogged(download[0], download.slice(1), { logFile, cwd: plan.downloadDir, env: { ...process.env, LC_ALL: 'C' }, timeoutMs: 3600_000 });
  if (res.code !== 0) {
    const tail = (await readFile(logFile, 'utf8')).split('\n').slice(-15).join('\n');
    throw new UserError(`${label}: apt-get source ${plan.packageArg} failed (exit ${res.code}${res.timedOut ? ', timed out' : ''}):\n${tail}`);
  }

  const dscName = (await readdir(plan.downloadDir)).find((f) => f.endsWith('.dsc'));
  if (!dscName) throw new UserError(`${label}: apt-get source ${plan.packageArg} downloaded no .dsc into ${plan.downloadDir}`);
  const dscFile = join(plan.downloadDir, dscName);
  const files = parseDscChecksums(await readFile(dscFile, 'utf8'));
  const orig = files.find((f) => /\.orig\.tar\.[a-z0-9]+$/.test(f.name));
  if (!orig) throw new UserError(`${label}: ${dscName} lists no orig tarball (${files.map((f) => f.name).join(', ') || 'no files'}): a native Debian package has no upstream release tarball to build`);
  const origFile = join(plan.downloadDir, orig.name);
  const origSha256 = await sha256File(origFile);
  if (origSha256 !== orig.sha256) throw new UserError(`${label}: ${orig.name} has sha256 ${origSha256}, but ${dscName} says ${orig.sha256}; refusing to build it`);
  log(`${label}: ${orig.name} sha256 ${origSha256} (matches ${dscName})`);

  const signature = await checkUpstreamSignature({ files, origName: orig.name, downloadDir: plan.downloadDir, keyring: plan.keyring, label });
  log(`${label}: upstream signature ${signature.checked ? 'checked' : 'NOT checked'}: ${signature.detail}`);

  await mkdir(plan.srcDir, { recursive: true });
  const unpack = plan.unpack(origFile);
  const un = await runLogged(unpack[0], unpack.slice(1), { logFile, timeoutMs: 1800_000 });
  if (un.code !== 0) throw new UserError(`${label}: unpacking ${orig.name} failed (exit ${un.code}); see the build log`);
  if (!(await readdir(plan.srcDir)).includes('CMakeLists.txt')) {
    throw new UserError(`${label}: ${orig.name} is not one source tree with a top CMakeLists.txt (found: ${(await readdir(plan.srcDir)).slice(0, 8).join(', ')})`);
  }
  return {
    srcDir: plan.srcDir,
    facts: {
      suite: found.suite,
      sourcePackage: found.source,
      packageVersion: found.version,
      dscSha256: await sha256File(dscFile),
      origTarball: orig.name,
      origSha256,
      signature,
    },
  };
}

/**
 * The source package version to download: the pinned one, else the highest of this upstream version.
 * @param {import('../apt/index.js').AptSourceEnv} env
 * @param {DebianSourceChoice} choice
 * @param {string} version
 * @returns {Promise<{asked: string, source: string, version: string, suite: string}>} asked: the name given to apt
 * @throws {UserError} naming what the release offers instead
 */
async function findSourceVersion(env, choice, version) {
  /** @type {string[]} */
  const seen = [];
  for (const name of [choice.packageName, ...choice.otherNames]) {
    const rows = await env.sourceVersions([name]);
    seen.push(...rows.map((r) => `${r.name} ${r.version} (${r.suite})`));
    const matching = rows.filter((r) => (choice.packageVersion ? r.version === choice.packageVersion : upstreamOf(r.version) === version));
    // madison lists the release's suites in the order of the private sources list: the asked suite first when it has it.
    const pick = matching.find((r) => r.suite === choice.suite) ?? matching[0];
    if (pick) return { asked: name, source: pick.name, version: pick.version, suite: pick.suite };
  }
  const want = choice.packageVersion ? `version ${choice.packageVersion}` : `a version of upstream ${version}`;
  throw new UserError(`Debian ${choice.release} has no source package of ${[choice.packageName, ...choice.otherNames].join(' / ')} with ${want}; `
    + `it has: ${[...new Set(seen)].join(', ') || 'none'}. Pick another --suite (or fix deb.${version}.packageVersion)`);
}

/**
 * Check `<orig>.asc` with the upstream key the Debian package ships; say why not when it cannot.
 * @param {{files: {name: string}[], origName: string, downloadDir: string, keyring: string, label: string}} c
 * @returns {Promise<SignatureCheck>}
 * @throws {UserError} when gpgv says the signature is bad
 */
async function checkUpstreamSignature({ files, origName, downloadDir, keyring, label }) {
  if (!files.some((f) => f.name === `${origName}.asc`)) return { checked: false, detail: `the source package has no ${origName}.asc (upstream signature) beside the orig tarball` };
  const debianTar = files.find((f) => /\.debian\.tar\.[a-z0-9]+$/.test(f.name));
  if (!debianTar) return { checked: false, detail: 'the source package has no debian tarball, so no upstream signing key' };
  const keyDir = join(downloadDir, 'upstream-key');
  await mkdir(keyDir, { recursive: true });
  const un = await runTool('tar', ['-xf', join(downloadDir, debianTar.name), '-C', keyDir, UPSTREAM_KEY_MEMBER], { timeoutMs: 300_000 });
  if (un.code !== 0) return { checked: false, detail: `${debianTar.name} has no ${UPSTREAM_KEY_MEMBER}, so there is no upstream key to check ${origName}.asc with` };
  await writeFile(keyring, dearmorKeys(await readFile(join(keyDir, UPSTREAM_KEY_MEMBER), 'utf8')));
  await rm(keyDir, { recursive: true, force: true });
  const gpgv = await runTool('gpgv', ['--keyring', keyring, join(downloadDir, `${origName}.asc`), join(downloadDir, origName)], { timeoutMs: 300_000, env: { ...process.env, LC_ALL: 'C' } })
    .catch((err) => (err instanceof UserError ? null : Promise.reject(err)));
  if (gpgv === null) return { checked: false, detail: 'gpgv is not installed (package gpgv), so the upstream signature was not checked' };
  const said = gpgv.stderr.split('\n').map((l) => l.replace(/^gpgv:\s*/, '').trim()).filter((l) => /Good signature|using \w+ key/.test(l));
  if (gpgv.code !== 0) {
    throw new UserError(`${label}: upstream signature ${origName}.asc does NOT verify with ${UPSTREAM_KEY_MEMBER} of the Debian package (gpgv exit ${gpgv.code}): ${gpgv.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
  return { checked: true, detail: `gpgv with ${UPSTREAM_KEY_MEMBER}: ${said.join('; ')}` };
}
