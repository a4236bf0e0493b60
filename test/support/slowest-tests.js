#!/usr/bin/env node
/**
 * Print the slowest test files and tests of a suite run, from the JSON lines that
 * `test/support/timing-reporter.js` wrote (setup/test.sh writes them to
 * .tagbench/test-times.jsonl).
 *
 * Usage: node test/support/slowest-tests.js [FILE] [--top N]   (default .tagbench/test-times.jsonl, 10)
 */
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * @param {string} text the reporter's JSON lines
 * @param {number} top how many of each to keep
 * @returns {{files: {file: string, spanMs: number, tests: number}[], tests: {file: string, name: string, durationMs: number}[]}}
 * @throws {Error} naming the line that is not JSON
 */
export function rankTimes(text, top) {
  /** @type {any[]} */
  const rows = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      rows.push(JSON.parse(line));
    } catch (err) {
      throw new Error(`line ${i + 1} is not JSON (${err instanceof Error ? err.message : err}): ${line.slice(0, 80)}`);
    }
  });
  /** @type {Map<string, number>} */
  const testsPerFile = new Map();
  for (const r of rows) if (r.kind === 'test' && r.nesting === 0) testsPerFile.set(r.file, (testsPerFile.get(r.file) ?? 0) + 1);
  const files = rows.filter((r) => r.kind === 'file').sort((a, b) => b.spanMs - a.spanMs).slice(0, top)
    .map((r) => ({ file: r.file, spanMs: r.spanMs, tests: testsPerFile.get(r.file) ?? 0 }));
  // Top-level tests only: a subtest's time is inside its parent's.
  const tests = rows.filter((r) => r.kind === 'test' && r.nesting === 0 && typeof r.durationMs === 'number')
    .sort((a, b) => b.durationMs - a.durationMs).slice(0, top);
  return { files, tests };
}

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 10;
  if (!(top > 0)) throw new Error('--top takes a positive number');
  const path = args[0] ?? `${ROOT}.tagbench/test-times.jsonl`;
  const text = await readFile(path, 'utf8').catch((err) => {
    console.error(`cannot read ${path} (${err.code ?? err.message}); run the suite first: npm test`);
    process.exit(1);
  });
  const { files, tests } = rankTimes(text, top);
  console.log(`The ${files.length} slowest test files (each file's whole process, module-level setup included):`);
  for (const f of files) console.log(`${seconds(f.spanMs)}  ${relative(ROOT, f.file)} (${f.tests} tests)`);
  console.log(`\nThe ${tests.length} slowest tests:`);
  for (const t of tests) console.log(`${seconds(t.durationMs)}  ${relative(ROOT, t.file)}: ${t.name}`);
}
