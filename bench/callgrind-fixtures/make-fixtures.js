#!/usr/bin/env node
/**
 * Makes the callgrind fixtures of test/fixtures/callgrind/ from real runs, the way the
 * `instructions` meter measures: MariaDB 10.11.18 under `valgrind --tool=callgrind` (full
 * collection, default --separate-threads=no), a sysbench table, a warm-up, counters zeroed with
 * `callgrind_control -z`, a fixed number of point selects, `callgrind_control -d`, and the dump
 * copied gzipped. Each server process gives one fixture, so two processes show how close two
 * instances are. Also compiles tiny.c (beside this script) and keeps its callgrind output as
 * plain text: small enough to check self and inclusive costs by hand.
 *
 * Usage: node bench/callgrind-fixtures/make-fixtures.js [--processes 2] [--events 200]
 *          [--warmup 100] [--rows 2000] [--out test/fixtures/callgrind] [--tiny-only]
 * Needs valgrind (callgrind_control), sysbench, gcc and the cached MariaDB 10.11.18 install
 * ($TAGBENCH_CACHE, else .tagbench/installs). About 8 s per server process on 2 CPUs.
 */
import { parseArgs, promisify } from 'node:util';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const execFileP = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
const VERSION = '10.11.18';

/** @param {string} cmd @param {string[]} args */
async function run(cmd, args) {
  const { stdout } = await execFileP(cmd, args, { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

async function valgrindVersion() {
  return (await run('valgrind', ['--version'])).trim().replace(/^valgrind-/, '');
}

/**
 * callgrind_control -d returns once callgrind has taken the request, which can be before the
 * file is complete; the dump ends with its `totals:` line, so wait for that.
 * @param {string} dir
 * @param {number} pid
 * @param {Set<string>} before files that existed before the dump
 * @returns {Promise<string>} path of the new dump
 */
async function waitForDump(dir, pid, before) {
  for (let i = 0; i < 600; i++) {
    const fresh = (await readdir(dir)).filter((n) => n.startsWith(`callgrind.out.${pid}.`) && !before.has(n));
    if (fresh.length === 1) {
      const path = join(dir, fresh[0]);
      const text = await readFile(path, 'utf8');
      if (/\ntotals: \d+\n$/.test(text)) return path;
    }
    if (fresh.length > 1) throw new Error(`more than one new dump in ${dir}: ${fresh.join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no complete callgrind dump of pid ${pid} in ${dir} after 60 s`);
}

/**
 * @param {string} socket
 * @param {number} rows
 * @param {string} command
 * @param {string[]} [extra]
 */
function sysbenchArgs(socket, rows, command, extra = []) {
  return ['oltp_point_select', `--mysql-socket=${socket}`, '--mysql-user=root', '--mysql-db=sbtest',
    '--db-driver=mysql', '--tables=1', `--table-size=${rows}`, '--threads=1', '--db-ps-mode=disable',
    '--rand-type=uniform', ...extra, command];
}

/**
 * One server process: start under callgrind, load, warm up, zero, measure, dump.
 * @param {{install: any, config: any, events: number, warmup: number, rows: number}} o
 * @returns {Promise<{text: string, pid: number, startS: number}>}
 */
async function measureOneProcess(o) {
  const { startServer, findFreePort } = await import('../../scripts/server/index.js');
  const dir = await mkdtemp(join(tmpdir(), 'tb-cgfix-'));
  try {
    const t0 = Date.now();
    const server = await startServer(o.install, {
      workDir: join(dir, 'w'), port: await findFreePort(), engine: 'innodb',
      mycnfTemplate: o.config.mycnf.innodb, mycnfName: 'innodb', mycnfOverrides: { ...(o.config.hosts.local.mycnf ?? {}) },
      serverCpus: null, log: (m) => process.stderr.write(`[server] ${m}\n`),
      wrapper: {
        argv: ['valgrind', '--tool=callgrind', `--callgrind-out-file=${join(dir, 'callgrind.out.%p')}`],
        readyTimeoutS: 600,
        // FIELD-NOTES: valgrind refuses the default 8 TB buffer pool map and has no native AIO.
        mycnf: { innodb_buffer_pool_size_max: '1G', innodb_use_native_aio: 0 },
      },
    });
    const startS = (Date.now() - t0) / 1000;
    try {
      const pid = server.pid;
      await run('sysbench', sysbenchArgs(server.socket, o.rows, 'prepare'));
      const fixed = (/** @type {number} */ n) => [`--events=${n}`, '--time=0', '--rand-seed=7', '--report-interval=0', '--histogram=off'];
      await run('sysbench', sysbenchArgs(server.socket, o.rows, 'run', fixed(o.warmup)));
      await run('callgrind_control', ['-z', String(pid)]);
      await run('sysbench', sysbenchArgs(server.socket, o.rows, 'run', fixed(o.events)));
      const before = new Set(await readdir(dir));
      await run('callgrind_control', ['-d', String(pid)]);
      const path = await waitForDump(dir, pid, before);
      return { text: await readFile(path, 'utf8'), pid, startS };
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * tiny.c under callgrind: with the default options, and with instruction-level positions and
 * jumps (`positions: instr line`, `jump=`/`jcnd=` lines), which must give the same functions.
 * @returns {Promise<{plain: string, instr: string}>} the two callgrind outputs
 */
async function profileTiny() {
  const dir = await mkdtemp(join(tmpdir(), 'tb-cgtiny-'));
  try {
    const exe = join(dir, 'tiny');
    await run('gcc', ['-O1', '-g', '-o', exe, join(HERE, 'tiny.c')]);
    const plain = join(dir, 'callgrind.out.plain');
    const instr = join(dir, 'callgrind.out.instr');
    await run('valgrind', ['--tool=callgrind', `--callgrind-out-file=${plain}`, exe]);
    await run('valgrind', ['--tool=callgrind', '--dump-instr=yes', '--collect-jumps=yes', `--callgrind-out-file=${instr}`, exe]);
    return { plain: await readFile(plain, 'utf8'), instr: await readFile(instr, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      processes: { type: 'string', default: '2' },
      events: { type: 'string', default: '200' },
      warmup: { type: 'string', default: '100' },
      rows: { type: 'string', default: '2000' },
      out: { type: 'string', default: join(ROOT, 'test', 'fixtures', 'callgrind') },
      'tiny-only': { type: 'boolean', default: false },
    },
  });
  const out = resolve(values.out);
  const vg = await valgrindVersion();

  const tiny = await profileTiny();
  for (const [name, text] of [[`callgrind-${vg}-tiny.out`, tiny.plain], [`callgrind-${vg}-tiny-instr-jumps.out`, tiny.instr]]) {
    await writeFile(join(out, name), text);
    process.stderr.write(`wrote ${name}: ${text.length} bytes\n`);
  }
  if (values['tiny-only']) return;

  const { loadConfig } = await import('../../scripts/config/index.js');
  const { installRelease } = await import('../../scripts/install/index.js');
  const { stopAllServers } = await import('../../scripts/server/index.js');
  const config = await loadConfig(ROOT);
  const cacheDir = resolve(process.env.TAGBENCH_CACHE ?? join(ROOT, '.tagbench', 'installs'));
  const install = await installRelease({ product: 'mariadb', version: VERSION, provider: 'deb' },
    { config, cacheDir, log: (/** @type {string} */ m) => process.stderr.write(`[install] ${m}\n`) });
  if (install.status === 'failed') throw new Error(`cannot install mariadb ${VERSION}: ${install.reason}`);
  try {
    for (let p = 1; p <= Number(values.processes); p++) {
      const r = await measureOneProcess({ install, config, events: Number(values.events), warmup: Number(values.warmup), rows: Number(values.rows) });
      const name = `callgrind-${vg}-mariadb-${VERSION}-point-select-${values.events}-p${p}.out.gz`;
      await writeFile(join(out, name), gzipSync(r.text, { level: 9 }));
      const size = (await stat(join(out, name))).size;
      const summary = /^summary: (\d+)$/m.exec(r.text)?.[1];
      process.stderr.write(`wrote ${name}: ${r.text.length} bytes, ${size} gzipped; pid ${r.pid}, started in ${r.startS.toFixed(1)} s; summary ${summary} Ir\n`);
    }
  } finally {
    await stopAllServers();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  });
}
