/**
 * The layout stays the one docs/layout.md describes: which stage may import which, that
 * compare/ is pure analysis, and that every stored format is read and written only in store/.
 * Reads the sources as text (imports, including JSDoc type imports, since a type couples two
 * stages as much as a call does); a failure names the file, the import and the rule.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPTS = join(ROOT, 'scripts');

/**
 * What each stage may import besides itself and the foundation (errors.js, types.js and types/,
 * version-order.js, format-number.js, command-spec.js, run-options.js: shared shapes and helpers
 * that import no stage). Lower stages never import higher ones; data flows one way. Keep this
 * table and the one in docs/layout.md the same.
 * @type {Record<string, string[]>}
 */
const ALLOWED = {
  foundation: [],
  config: [],
  store: ['config'],
  compare: [],
  metrics: [],
  server: ['config'],
  workload: ['server', 'metrics'],
  install: ['config', 'store'],
  run: ['install', 'server', 'workload', 'metrics', 'store', 'config'],
  verify: ['run', 'compare', 'store', 'config', 'server', 'install'],
  github: ['compare', 'store', 'config'],
  workflow: ['github', 'compare', 'run', 'store', 'config'],
  watch: ['store', 'config'],
  doctor: ['config', 'install', 'metrics', 'server'],
  'site-build': ['store', 'config', 'compare', 'site'],
  site: [],
  cli: ['*'],
};

/** Files of the foundation: shared shapes and helpers at the bottom of the import graph. */
const FOUNDATION = new Set(['errors.js', 'types.js', 'types/record.js', 'types/comparison.js', 'types/change-points.js', 'version-order.js', 'format-number.js', 'command-spec.js', 'run-options.js', 'seeded-random.js', 'run-id.js', 'with-interrupt.js', 'upstream-auth.js', 'upstream-remote.js']);

/** The one place in compare/ allowed to start a child process: apache-otava. */
const OTAVA_RUNNER = 'scripts/compare/run-change-points.js';

/**
 * @param {string} dir
 * @returns {Promise<string[]>} .js files under dir, relative to the project root
 */
async function listJs(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.js') && !join(e.parentPath, e.name).includes(`${sep}vendor${sep}`))
    .map((e) => relative(ROOT, join(e.parentPath, e.name))).sort();
}

/**
 * The stage a project file belongs to.
 * @param {string} rel path relative to the project root
 * @returns {string|null} null for files outside scripts/ and site/
 */
function stageOf(rel) {
  const parts = rel.split('/');
  if (parts[0] === 'site') return 'site';
  if (parts[0] !== 'scripts') return null;
  if (parts.length === 2) return parts[1] === 'cli.js' || parts[1] === 'command-list.js' ? 'cli' : 'foundation';
  if (parts[1] === 'types') return 'foundation'; // the typedef files scripts/types.js re-exports
  return parts[1];
}

/**
 * Every module a source file imports: static and dynamic imports, re-exports, and JSDoc type
 * imports (`import('…')`, `@import … from '…'`).
 * @param {string} text
 * @returns {string[]} specifiers
 */
function importsOf(text) {
  const out = [];
  for (const re of [
    /^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /@import\s[^'"]*?from\s*['"]([^'"]+)['"]/g,
  ]) {
    for (const m of text.matchAll(re)) out.push(m[1]);
  }
  return out;
}

/** @type {Promise<{rel: string, text: string}[]>} */
const SOURCES = (async () => {
  const files = [...await listJs(SCRIPTS), ...await listJs(join(ROOT, 'site', 'js'))];
  return Promise.all(files.map(async (rel) => ({ rel, text: await readFile(join(ROOT, rel), 'utf8') })));
})();

test('stages import only the stages below them (the table in docs/layout.md)', async () => {
  const problems = [];
  let edges = 0;
  for (const { rel, text } of await SOURCES) {
    const from = /** @type {string} */ (stageOf(rel));
    for (const spec of importsOf(text)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(ROOT, resolve(ROOT, dirname(rel), spec));
      const to = stageOf(target);
      if (to === null) { problems.push(`${rel} imports ${spec}: outside scripts/ and site/`); continue; }
      if (to === from || to === 'foundation') continue;
      edges++;
      const allowed = ALLOWED[from];
      if (!allowed) { problems.push(`${rel}: stage '${from}' is not in the layering table of test/layout.test.js and docs/layout.md; add it`); continue; }
      if (!allowed.includes('*') && !allowed.includes(to)) {
        problems.push(`${rel} imports ${spec}: '${from}' may import only ${[...allowed, 'foundation'].join(', ')}, not '${to}'`);
      }
    }
  }
  assert.ok(edges > 20, `expected the stages to import each other (found ${edges} cross-stage imports): is the import parser broken?`);
  assert.deepEqual([...new Set(problems)], []);
});

test('a stage is used through its public surface: index.js (or commands.js for the CLI, types.js for shapes)', async () => {
  const problems = [];
  for (const { rel, text } of await SOURCES) {
    const from = stageOf(rel);
    for (const spec of importsOf(text)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(ROOT, resolve(ROOT, dirname(rel), spec));
      const to = stageOf(target);
      if (to === from || to === 'foundation' || to === null) continue;
      const inStage = target.split('/').slice(2).join('/');
      const ok = inStage === 'index.js' || inStage === 'types.js' || (from === 'cli' && inStage === 'commands.js') || to === 'site';
      if (!ok) problems.push(`${rel} imports ${spec}: use scripts/${to}/index.js (add the export there) instead of a file inside '${to}'`);
    }
  }
  assert.deepEqual([...new Set(problems)], []);
});

test('compare/ is pure analysis: no file system, environment, clock or child process but apache-otava', async () => {
  const problems = [];
  const compare = (await SOURCES).filter((s) => s.rel.startsWith('scripts/compare/'));
  assert.ok(compare.length > 3, 'scripts/compare/ has its analysis modules');
  for (const { rel, text } of compare) {
    for (const spec of importsOf(text)) {
      if (/^node:(fs|fs\/promises|os|net|http|https|dgram|worker_threads|cluster)$/.test(spec)) problems.push(`${rel} imports ${spec}: compare/ touches no file system or network (move the I/O to verify/ or store/)`);
      if (spec === 'node:child_process' && rel !== OTAVA_RUNNER) problems.push(`${rel} imports node:child_process: only ${OTAVA_RUNNER} may spawn (apache-otava)`);
    }
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
    if (/\bprocess\.env\b/.test(code)) problems.push(`${rel} reads process.env: pass the setting in as an argument`);
    if (/\bDate\.now\(\)|new Date\(\s*\)/.test(code)) problems.push(`${rel} reads the clock: pass the time in as an argument`);
    if (/\bprocess\.(stdout|stderr)\b/.test(code)) problems.push(`${rel} writes to the terminal: return text and let the command print it`);
  }
  assert.deepEqual([...new Set(problems)], []);
});

/**
 * Marks of code that reads or writes a stored format itself. Each may appear only in store/
 * (config/ owns configs/, which are YAML too). Directory swaps elsewhere are listed with why.
 */
const STORE_ONLY = [
  { what: 'a stored format\'s JSON Schema', re: /schemas\/(run-record|comparison|change-points|baseline|index|bisect-report|calibration-report)\.schema\.json/ },
  { what: 'the results store\'s layout (runs/, verdicts/, changepoints/, bisects/, index.json)', re: /['"`](runs|verdicts|changepoints|bisects)['"`/]|['"`]index\.json['"`]/ },
  { what: 'YAML parsing (baselines are store/\'s, configs are config/\'s)', re: /from\s+['"]yaml['"]/, alsoIn: ['scripts/config/'] },
  { what: 'a write-to-temp-and-rename (use replaceFileAtomic from store/)', re: /\brename\(/, alsoIn: [
    // Directory swaps, not file writes: a finished install prefix or site folder replaces the old one whole.
    'scripts/install/install-cache.js', 'scripts/install/source/cmake-build.js', 'scripts/install/tarball/unpack-tarball.js',
    'scripts/site-build/build-site.js',
    // The datadir snapshot moved into place for a release's last round (a directory, not a file write).
    'scripts/server/datadir-snapshot.js'] },
];

test('every stored format has one owner: nothing outside store/ parses, lays out or writes them', async () => {
  const problems = [];
  for (const { rel, text } of await SOURCES) {
    if (rel.startsWith('scripts/store/') || rel.startsWith('site/')) continue;
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
    for (const rule of STORE_ONLY) {
      if ((rule.alsoIn ?? []).some((p) => rel.startsWith(p))) continue;
      const m = code.match(rule.re);
      if (m) problems.push(`${rel}: ${rule.what} ('${m[0]}') belongs in scripts/store/; call its exports instead`);
    }
  }
  assert.deepEqual([...new Set(problems)], []);
});

test('the layering table matches the stage folders that exist', async () => {
  const dirs = (await readdir(SCRIPTS, { withFileTypes: true })).filter((e) => e.isDirectory() && e.name !== 'types').map((e) => e.name).sort();
  const known = Object.keys(ALLOWED).filter((k) => !['foundation', 'site', 'cli'].includes(k)).sort();
  assert.deepEqual(dirs, known, 'a stage folder was added or removed: update ALLOWED here and the table in docs/layout.md');
  const foundation = (await readdir(SCRIPTS, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith('.js') && !['cli.js', 'command-list.js'].includes(e.name)).map((e) => e.name).sort();
  foundation.push(...(await readdir(join(SCRIPTS, 'types'))).filter((n) => n.endsWith('.js')).map((n) => `types/${n}`));
  foundation.sort();
  assert.deepEqual(foundation, [...FOUNDATION].sort(), 'a top-level module was added or removed under scripts/: it is either foundation (imports no stage) or belongs in a stage');
});

test('foundation modules import no stage', async () => {
  const problems = [];
  for (const { rel, text } of await SOURCES) {
    if (stageOf(rel) !== 'foundation') continue;
    for (const spec of importsOf(text)) {
      if (!spec.startsWith('.')) continue;
      const to = stageOf(relative(ROOT, resolve(ROOT, dirname(rel), spec)));
      if (to !== 'foundation') problems.push(`${rel} imports ${spec}: the foundation sits below every stage`);
    }
  }
  assert.deepEqual([...new Set(problems)], []);
});

/**
 * The runtime import graph of scripts/: file -> files it imports (static imports, re-exports
 * and dynamic imports; JSDoc type imports are left out, they load nothing).
 * @param {{rel: string, text: string}[]} sources
 * @returns {Map<string, string[]>}
 */
function runtimeGraph(sources) {
  /** @type {Map<string, string[]>} */
  const graph = new Map();
  for (const { rel, text } of sources) {
    if (!rel.startsWith('scripts/')) continue;
    // Comments hold JSDoc `import('…')` types and prose: not imports that run.
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
    const targets = importsOf(code).filter((s) => s.startsWith('.')).map((s) => relative(ROOT, resolve(ROOT, dirname(rel), s)));
    graph.set(rel, [...new Set(targets)]);
  }
  return graph;
}

/**
 * Import circles of a graph, as the files around each (first file repeated last): a depth-first
 * walk, which reports at least one circle whenever there is any (not every circle).
 * @param {Map<string, string[]>} graph
 * @returns {string[][]}
 */
function importCircles(graph) {
  /** @type {string[][]} */
  const circles = [];
  const seen = new Set();
  /** @type {Map<string, number>} */
  const onPath = new Map();
  /** @type {string[]} */
  const path = [];
  /** @param {string} file */
  const visit = (file) => {
    onPath.set(file, path.length);
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const at = onPath.get(next);
      if (at !== undefined) circles.push([...path.slice(at), next]);
      else if (!seen.has(next)) visit(next);
    }
    path.pop();
    onPath.delete(file);
    seen.add(file);
  };
  for (const file of [...graph.keys()].sort()) if (!seen.has(file)) visit(file);
  return circles;
}

test('no import circle anywhere in scripts/ (a circle means two modules are one, or one reaches into the other\'s user)', async () => {
  // The check finds a circle where there is one.
  const made = new Map([['scripts/a.js', ['scripts/b.js']], ['scripts/b.js', ['scripts/c.js']], ['scripts/c.js', ['scripts/a.js']]]);
  assert.deepEqual(importCircles(made), [['scripts/a.js', 'scripts/b.js', 'scripts/c.js', 'scripts/a.js']]);
  const graph = runtimeGraph(await SOURCES);
  assert.ok([...graph.values()].flat().length > 200, 'expected the scripts to import each other: is the import parser broken?');
  assert.deepEqual(importCircles(graph).map((c) => c.join(' -> ')), []);
});

/**
 * Imports of a benchmark plug-in's own files (scripts/workload/<plug-in>/...) from outside the
 * workload stage: the other stages reach plug-ins only through scripts/workload/index.js
 * (getBenchmark), so a new plug-in never touches them.
 * @param {{rel: string, text: string}[]} sources
 * @param {string[]} plugins plug-in folder names
 * @returns {string[]}
 */
function pluginImportsFromOutside(sources, plugins) {
  const problems = [];
  for (const { rel, text } of sources) {
    if (rel.startsWith('scripts/workload/') || !rel.startsWith('scripts/')) continue;
    for (const spec of importsOf(text)) {
      if (!spec.startsWith('.')) continue;
      const target = relative(ROOT, resolve(ROOT, dirname(rel), spec));
      const parts = target.split('/');
      if (parts[0] !== 'scripts' || parts[1] !== 'workload') continue;
      if (parts.length > 3 && plugins.includes(parts[2])) problems.push(`${rel} imports ${spec}: a benchmark plug-in's file; use scripts/workload/index.js (getBenchmark)`);
      else if (parts.length === 3 && parts[2] !== 'index.js' && parts[2] !== 'types.js') problems.push(`${rel} imports ${spec}: use scripts/workload/index.js`);
    }
  }
  return problems;
}

test('no stage outside workload imports a benchmark plug-in by file: only scripts/workload/index.js', async () => {
  const { BENCHMARKS } = await import('../scripts/workload/index.js');
  const plugins = Object.keys(BENCHMARKS);
  assert.ok(plugins.includes('sysbench') && plugins.length >= 6, `the registry lists the plug-ins (${plugins.join(', ')})`);
  for (const name of plugins) {
    const entries = await readdir(join(SCRIPTS, 'workload', name)).catch(() => /** @type {string[]} */ ([]));
    assert.ok(entries.includes('index.js'), `scripts/workload/${name}/index.js is the plug-in ${name} (one folder per plug-in)`);
  }
  // The check finds such an import where there is one.
  const made = [{ rel: 'scripts/run/x.js', text: "import { sysbench } from '../workload/sysbench/index.js';\nimport { planSuite } from '../workload/suite.js';\n" }];
  assert.equal(pluginImportsFromOutside(made, plugins).length, 2);
  assert.deepEqual(pluginImportsFromOutside(await SOURCES, plugins), []);
});
