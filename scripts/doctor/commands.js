/**
 * CLI commands of the doctor stage: doctor. It runs the checks of check-tools.js, check-host.js
 * and check-project.js (imported only when it runs, so `--help` stays light) and renders them.
 */
import { resolve } from 'node:path';
import { EXIT } from '../errors.js';

/**
 * @typedef {'ok'|'fail'|'warn'|'info'} CheckStatus ok = fine; fail = missing or wrong (fatal
 *   when the check is required); warn = works but measurements may be noisy or a feature is
 *   off; info = a fact worth printing (e.g. cpufreq not exposed)
 */

/**
 * @typedef {object} CheckResult one line of doctor's report
 * @property {string} id stable identifier (`sysbench`, `disk-free`, ...), for --json readers
 * @property {string} title short name printed in the first column
 * @property {boolean} required a failed required check makes doctor exit 1
 * @property {CheckStatus} status
 * @property {string} detail what was found (version, path, numbers)
 * @property {string|null} fix what to do about it, null when nothing needs doing
 */

/**
 * @typedef {object} DoctorEnv what the checks look at; tests vary it
 * @property {string} path PATH to search tools in
 * @property {string} configRoot project root holding configs/
 * @property {string} workDir where datadirs go (free disk is measured there)
 * @property {string} nodeVersion version of the Node.js running tagbench (`20.11.1`)
 */

/**
 * @typedef {object} DoctorReport
 * @property {number} schemaVersion
 * @property {boolean} ok no required check failed
 * @property {CheckResult[]} checks in report order
 */

/**
 * `tagbench doctor`: check tools, configs, disk and the host's noise sources; print a ✓/✗ line
 * per check (or JSON with --json).
 * @param {{json?: boolean, workDir?: string, configRoot?: string}} options from the CLI
 * @returns {Promise<number>} 0 when every required check passes, 1 otherwise
 */
export async function doctorCommand(options) {
  const report = await runDoctor({
    path: process.env.PATH ?? '',
    configRoot: options.configRoot ?? resolve(new URL('../..', import.meta.url).pathname),
    workDir: options.workDir ?? '.tagbench/work',
    nodeVersion: process.versions.node,
  });
  process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : renderDoctor(report));
  return report.ok ? EXIT.ok : EXIT.userError;
}

/**
 * Run every doctor check and collect the report.
 * @param {DoctorEnv} env PATH, config root, work dir and Node version to check
 * @returns {Promise<DoctorReport>} ok = no required check failed
 * @throws never for a failed check (that is a result); only on a bug
 */
export async function runDoctor(env) {
  const [{ checkTools }, { checkHost }, { checkProject }] = await Promise.all([
    import('./check-tools.js'), import('./check-host.js'), import('./check-project.js'),
  ]);
  const [tools, host, project] = await Promise.all([checkTools(env), checkHost(), checkProject(env)]);
  const checks = [...tools, ...project, ...host];
  return { schemaVersion: 1, ok: checks.every((c) => !(c.required && c.status === 'fail')), checks };
}

const MARK = /** @type {const} */ ({ ok: '✓', fail: '✗', warn: '!', info: '·' });

/**
 * Doctor's report as text (pure): one ✓/✗ line per check, the fix indented under it.
 * @param {DoctorReport} report
 * @returns {string} lines ending in a newline; the last line sums up and says the exit status
 */
export function renderDoctor(report) {
  const width = Math.max(...report.checks.map((c) => c.title.length));
  const lines = report.checks.map((c) => {
    const tag = c.status === 'fail' && !c.required ? ' (optional)' : '';
    const head = `${MARK[c.status]} ${c.title.padEnd(width)}  ${c.detail}${tag}`;
    return c.fix ? `${head}\n  ${' '.repeat(width)}  fix: ${c.fix}` : head;
  });
  const failed = report.checks.filter((c) => c.required && c.status === 'fail').length;
  const optional = report.checks.filter((c) => !c.required && c.status === 'fail').length;
  const warns = report.checks.filter((c) => c.status === 'warn').length;
  const summary = failed > 0
    ? `${failed} required check${failed > 1 ? 's' : ''} failed: tagbench cannot run benchmarks here until fixed`
    : 'ready to run benchmarks';
  lines.push('', `${summary} (${optional} optional missing, ${warns} warning${warns === 1 ? '' : 's'})`);
  return `${lines.join('\n')}\n`;
}

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'doctor',
    summary: 'check that this host can run tagbench (tools, configs, disk, noise sources) and say how to fix what is not',
    help: [
      'Prints one line per check: ✓ ok, ✗ failed (marked "optional" when not needed to benchmark),',
      '! warning (works, but results may be noisy), · fact. Exit status 1 when a required check fails.',
    ].join('\n'),
    options: [
      { flags: '--json', description: 'print the checks as JSON ({schemaVersion, ok, checks[]}) instead of text' },
      { flags: '--work-dir <dir>', description: 'where datadirs will live (free disk is measured there)', default: '.tagbench/work' },
      { flags: '--config-root <dir>', description: 'project root whose configs/ to load (default: this tagbench checkout)' },
    ],
    run: doctorCommand,
  },
];
