/**
 * ELF inspection and patching through patchelf (already a dependency for foreign suites, and
 * better tested on odd binaries than a hand-written ELF parser would be).
 */
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool, runToolChecked } from '../run-tool.js';

/**
 * Is this regular file an ELF object? (Reads the 4-byte magic only.)
 * @param {string} file
 * @returns {Promise<boolean>}
 */
export async function isElf(file) {
  const fh = await open(file, 'r').catch(() => null);
  if (!fh) return false;
  try {
    const buf = Buffer.alloc(4);
    const { bytesRead } = await fh.read(buf, 0, 4, 0);
    return bytesRead === 4 && buf.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  } finally {
    await fh.close();
  }
}

/**
 * Every regular ELF file below `dir` (symlinks are skipped: their targets are listed themselves).
 * @param {string} dir absolute folder; missing folders give an empty list
 * @returns {Promise<string[]>} absolute paths, sorted
 */
export async function listElfFiles(dir) {
  /** @type {string[]} */
  const out = [];
  /** @param {string} d */
  async function walk(d) {
    const entries = await readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile() && (await isElf(p))) out.push(p);
    }
  }
  await walk(dir);
  return out.sort();
}

/**
 * DT_NEEDED entries of an ELF file.
 * @param {string} file
 * @returns {Promise<string[]>} sonames, empty for static or non-dynamic files
 */
export async function readNeeded(file) {
  const res = await runTool('patchelf', ['--print-needed', file]);
  return res.code === 0 ? res.stdout.split('\n').map((s) => s.trim()).filter(Boolean) : [];
}

/**
 * The program interpreter (PT_INTERP) of an executable.
 * @param {string} file
 * @returns {Promise<string|null>} null for shared objects and static files
 */
export async function readInterpreter(file) {
  const res = await runTool('patchelf', ['--print-interpreter', file]);
  return res.code === 0 && res.stdout.trim() ? res.stdout.trim() : null;
}

/**
 * Point an ELF file at a private glibc: interpreter (executables only) and DT_RPATH. RPATH, not
 * RUNPATH (`--force-rpath`), because DT_RPATH of the executable also applies to the
 * dependencies of every library and dlopen()ed plugin, so nothing falls back to the host's libs.
 * @param {string} file
 * @param {{interpreter: string|null, rpath: string[]}} patch absolute paths
 * @returns {Promise<void>}
 * @throws {import('../../errors.js').UserError} when patchelf fails
 */
export async function patchElf(file, patch) {
  const args = [];
  if (patch.interpreter) args.push('--set-interpreter', patch.interpreter);
  args.push('--force-rpath', '--set-rpath', patch.rpath.join(':'), file);
  await runToolChecked('patchelf', args, { what: `patching ${file}` });
}

/**
 * Run fn over items with at most `limit` in flight: the ELF work on a prefix is hundreds of short
 * readelf, patchelf and dpkg-deb processes, and the machine has 2 cores.
 * @template T
 * @param {T[]} items
 * @param {number} limit
 * @param {(item: T) => Promise<void>} fn
 * @returns {Promise<void>}
 */
export async function eachLimited(items, limit, fn) {
  let next = 0;
  const worker = async () => { while (next < items.length) await fn(items[next++]); };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
