/**
 * Choose which library packages a release needs in its prefix, by shared-object name.
 *
 * apt's dependency closure (computed from an empty system) is far larger than what the
 * binaries load: it drags in perl, debconf, galera and friends. Walking DT_NEEDED from the
 * release's own ELF files and taking only the packages that provide those sonames keeps a
 * prefix small and says exactly why each library package is there.
 */

/**
 * @typedef {object} LibPackage a candidate package from apt's closure
 * @property {string} name
 * @property {Record<string, string>} provides soname -> path of the file inside the package root
 */

/**
 * @typedef {object} LibClosure
 * @property {string[]} packages chosen package names, in the order they were needed
 * @property {{soname: string, neededBy: string}[]} unresolved sonames nobody provides
 * @property {string[]} ownUsed sonames the release's own packages provide and its files load
 */

/**
 * Walk DT_NEEDED breadth-first and pick providing packages.
 * @param {object} input
 * @param {Record<string, string[]>} input.rootNeeded file -> sonames, for the release's own ELF files
 * @param {Set<string>} input.ownSonames sonames the release's own packages provide
 * @param {LibPackage[]} input.candidates packages of apt's closure that are not the release itself
 * @param {(soname: string) => boolean} input.hostHas true when the host may provide it (always false for a private glibc)
 * @param {(pkg: string) => Promise<Record<string, string[]>>} input.neededOf file -> sonames of a chosen package's ELF files
 * @param {string[]} [input.always] packages to take whatever the walk finds (the private glibc)
 * @returns {Promise<LibClosure>}
 */
export async function computeLibClosure({ rootNeeded, ownSonames, candidates, hostHas, neededOf, always = [] }) {
  /** @type {Map<string, string>} soname -> package */
  const provider = new Map();
  for (const c of candidates) for (const so of Object.keys(c.provides)) if (!provider.has(so)) provider.set(so, c.name);

  /** @type {string[]} */
  const chosen = [];
  /** @type {{soname: string, neededBy: string}[]} */
  const unresolved = [];
  /** @type {string[]} */
  const ownUsed = [];
  /** @type {[string, string][]} soname, needed by */
  const queue = [];
  const seen = new Set();
  /** @param {Record<string, string[]>} needed */
  const enqueue = (needed) => {
    for (const [file, sonames] of Object.entries(needed)) for (const so of sonames) queue.push([so, file]);
  };
  /** @param {string} name */
  const choose = async (name) => {
    if (chosen.includes(name)) return;
    chosen.push(name);
    enqueue(await neededOf(name));
  };

  for (const name of always) if (candidates.some((c) => c.name === name)) await choose(name);
  enqueue(rootNeeded);
  while (queue.length > 0) {
    const [so, by] = /** @type {[string, string]} */ (queue.shift());
    if (seen.has(so)) continue;
    seen.add(so);
    if (ownSonames.has(so)) { ownUsed.push(so); continue; }
    const pkg = provider.get(so);
    if (pkg && chosen.includes(pkg)) continue;
    if (hostHas(so)) continue;
    if (!pkg) { unresolved.push({ soname: so, neededBy: by }); continue; }
    await choose(pkg);
  }
  return { packages: chosen, unresolved, ownUsed };
}

/**
 * Parse `ldconfig -p`: the sonames the host's dynamic linker can find for this architecture.
 * @param {string} text output of `ldconfig -p`
 * @param {string} [abiTag] ldconfig's tag for the architecture (`x86-64`)
 * @returns {Set<string>}
 */
export function parseLdconfig(text, abiTag = 'x86-64') {
  const out = new Set();
  for (const m of text.matchAll(/^\s+(\S+) \(([^)]*)\) =>/gm)) if (m[2].split(',').includes(abiTag)) out.add(m[1]);
  return out;
}
