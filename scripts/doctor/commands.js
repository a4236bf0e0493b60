/**
 * CLI commands of the doctor stage: doctor. It runs the checks of check-tools.js, check-host.js
 * and check-project.js (imported only when it runs, so `--help` stays light) and renders them;
 * with --github, the self-hosted runner safety checks of check-github.js instead.
 */
import { resolve } from 'node:path';
import { EXIT, UserError } from '../errors.js';
import { cacheDirFrom, otavaPythonFrom } from '../run-options.js';

/**
 * @typedef {'ok'|'fail'|'warn'|'info'|'unknown'} CheckStatus ok = fine; fail = missing or wrong
 *   (fatal when the check is required); warn = works but measurements may be noisy or a feature
 *   is off; info = a fact worth printing (e.g. cpufreq not exposed); unknown = cannot tell (the
 *   setting could not be read, e.g. the token may not see it)
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
 * @property {string} [cacheDir] install cache to check (absolute); unset: not checked
 * @property {string} [hostClass] host class whose tuning to check (governor, turbo, SMT, THP, swap,
 *   irqbalance; check-tuning.js); unset: only the general cpu governor line
 * @property {boolean} [strict] the host class's required tuning checks are required
 * @property {string} [sysRoot] where /sys and /proc are read by the tuning checks (default `/`)
 * @property {string} [otavaPython] the python3 compare runs apache-otava with (run-options.js
 *   otavaPythonFrom: $TAGBENCH_PYTHON, setup/compare.sh's virtualenv, else `python3` on PATH)
 */

/**
 * @typedef {object} DoctorReport
 * @property {number} schemaVersion
 * @property {boolean} ok no required check failed
 * @property {CheckResult[]} checks in report order
 * @property {'host'|'github'} [subject] what was checked (default host): sets the summary line
 * @property {{hostClass: string, required: string[]}} [strict] set by --strict: the class and the
 *   tuning checks it requires
 */

/**
 * `tagbench doctor`: check tools, configs, disk, the install cache and the host's noise sources;
 * with --github, what GitHub's API tells about self-hosted runner safety. Print a ✓/✗ line per
 * check (or JSON with --json).
 * @param {{json?: boolean, workDir?: string, configRoot?: string, cacheDir?: string, github?: boolean, repo?: string, strict?: boolean, hostClass?: string, sysRoot?: string, env?: NodeJS.ProcessEnv}} options
 *   from the CLI (env: tests only)
 * @returns {Promise<number>} 0 when every required check passes, 1 otherwise
 * @throws {UserError} --github without a token or a repository; --strict without a host class
 */
export async function doctorCommand(options) {
  const configRoot = options.configRoot ?? resolve(new URL('../..', import.meta.url).pathname);
  const hostClass = options.hostClass ?? (options.env ?? process.env).TAGBENCH_HOST_CLASS;
  if (options.strict && options.github) throw new UserError('--strict checks this host against its host class; --github checks the repository: run them separately');
  if (options.strict && !hostClass) throw new UserError('doctor --strict needs the host class whose tuning to require: --host-class <name> (configs/hosts/<name>.yml), or TAGBENCH_HOST_CLASS');
  const report = options.github
    ? await runGitHubDoctor(options.env ?? process.env, configRoot, options.repo)
    : await runDoctor({
      path: process.env.PATH ?? '',
      configRoot,
      workDir: options.workDir ?? '.tagbench/work',
      nodeVersion: process.versions.node,
      cacheDir: resolve(cacheDirFrom(options.cacheDir)),
      hostClass,
      strict: Boolean(options.strict),
      sysRoot: options.sysRoot === undefined ? undefined : resolve(options.sysRoot),
      otavaPython: otavaPythonFrom(process.env),
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
  const [{ checkTools }, { checkHost }, { checkProject }, { checkCounters, countersCheckResult }] = await Promise.all([
    import('./check-tools.js'), import('./check-host.js'), import('./check-project.js'), import('./check-counters.js'),
  ]);
  const [tools, hostChecks, project, counters] = await Promise.all([checkTools(env), checkHost(), checkProject(env), checkCounters()]);
  // Whether the counters meter can run here: a PMU, perf, and perf_event_paranoid.
  const host = [...hostChecks, countersCheckResult(counters)];
  if (env.hostClass === undefined) {
    const checks = [...tools, ...project, ...host];
    return { schemaVersion: 1, ok: checks.every((c) => !(c.required && c.status === 'fail')), checks };
  }
  const [{ loadConfig }, { checkTuning, tuningPolicy }] = await Promise.all([import('../config/index.js'), import('./check-tuning.js')]);
  const config = await loadConfig(env.configRoot);
  const hostClass = config.hosts[env.hostClass];
  if (!hostClass) {
    throw new UserError(`--host-class '${env.hostClass}' is not a host class; known: ${Object.keys(config.hosts).sort().join(', ')} (configs/hosts/<name>.yml)`);
  }
  const tuning = await checkTuning({ root: env.sysRoot ?? '/', strict: Boolean(env.strict), hostClass });
  // A class that measures with a meter that runs perf (counters) needs the hardware counters.
  const { getMeter, meterNames } = await import('../metrics/index.js');
  if (hostClass.meters?.some((m) => meterNames().includes(m) && getMeter(m).needs.tools.includes('perf'))) {
    const i = host.findIndex((c) => c.id === 'perf-counters');
    host[i] = { ...host[i], required: true };
  }
  // The governor and turbo lines of the tuning checks say what the general cpufreq line says.
  const checks = [...tools, ...project, ...host.filter((c) => c.id !== 'cpufreq'), ...tuning];
  return {
    schemaVersion: 1,
    ok: checks.every((c) => !(c.required && c.status === 'fail')),
    checks,
    ...(env.strict ? { strict: { hostClass: hostClass.name, required: [...tuningPolicy(hostClass).required] } } : {}),
  };
}

/**
 * `tagbench doctor --github`: the checks of check-github.js for one repository.
 * @param {NodeJS.ProcessEnv} env GITHUB_TOKEN, GITHUB_REPOSITORY, GITHUB_API_URL
 * @param {string} configRoot project root whose configs/hosts give the runner labels
 * @param {string} [repoOption] --repo owner/name
 * @returns {Promise<DoctorReport>}
 * @throws {UserError} no token, no repository, or not owner/name
 */
export async function runGitHubDoctor(env, configRoot, repoOption) {
  const token = env.GITHUB_TOKEN;
  const repoName = repoOption ?? env.GITHUB_REPOSITORY;
  if (!token) throw new UserError('doctor --github needs a token in GITHUB_TOKEN (a repository admin\'s, to read the Actions settings and runners; organisation admin for runner groups)');
  if (!repoName) throw new UserError('doctor --github needs the repository: --repo owner/name (or GITHUB_REPOSITORY)');
  const m = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/.exec(repoName);
  if (!m) throw new UserError(`--repo (or GITHUB_REPOSITORY) is '${repoName}' but must be owner/name, e.g. acme/tagbench`);
  const [{ loadConfig }, { checkGitHub }, { Octokit }] = await Promise.all([
    import('../config/index.js'), import('./check-github.js'), import('@octokit/rest'),
  ]);
  const config = await loadConfig(configRoot);
  // A plain client: doctor may not import the github stage (docs/layout.md), and a handful of
  // reads needs neither the retry nor the write-spacing plugins; a rate limit is reported as
  // "cannot tell" by the checks.
  const client = new Octokit({ auth: token, baseUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''), userAgent: 'tagbench doctor' });
  const hostClasses = Object.values(config.hosts).map((h) => ({ name: h.name, labels: h.labels })).sort((a, b) => a.name.localeCompare(b.name));
  const checks = await checkGitHub(client, { owner: m[1], repo: m[2], hostClasses });
  return { schemaVersion: 1, ok: checks.every((c) => !(c.required && c.status === 'fail')), checks, subject: 'github' };
}

const MARK = /** @type {const} */ ({ ok: '✓', fail: '✗', warn: '!', info: '·', unknown: '?' });

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
  const unknown = report.checks.filter((c) => c.status === 'unknown').length;
  const github = report.subject === 'github';
  const summary = failed > 0
    ? `${failed} required check${failed > 1 ? 's' : ''} failed: ${github ? 'pull requests from forks may reach self-hosted runners' : 'tagbench cannot run benchmarks here until fixed'}`
    : github ? 'no setting found that lets pull requests from forks reach self-hosted runners' : 'ready to run benchmarks';
  const counts = [`${optional} optional missing`, `${warns} warning${warns === 1 ? '' : 's'}`, ...(unknown ? [`${unknown} cannot tell`] : [])];
  lines.push('', `${summary} (${counts.join(', ')})`);
  if (report.strict) {
    const blocking = report.checks.filter((c) => c.required && c.status === 'fail').map((c) => c.id);
    const needs = report.strict.required.length ? report.strict.required.join(', ') : 'no tuning';
    lines.push(blocking.length
      ? `doctor --strict: benchmark blocked on host class ${report.strict.hostClass} by ${blocking.join(', ')} (the class requires ${needs})`
      : `doctor --strict: host class ${report.strict.hostClass} requires ${needs}; all required checks pass`);
  }
  return `${lines.join('\n')}\n`;
}

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'doctor',
    summary: 'check that this host can run tagbench (tools, configs, disk, noise sources) and say how to fix what is not',
    help: [
      'Prints one line per check: ✓ ok, ✗ failed (marked "optional" when not needed to benchmark),',
      '! warning (works, but results may be noisy), · fact, ? cannot tell. Exit status 1 when a required check fails.',
      '',
      'With --github: instead of this host, what the GitHub API tells about self-hosted runner safety for',
      '--repo (or $GITHUB_REPOSITORY), read with the token in $GITHUB_TOKEN from $GITHUB_API_URL (default',
      'https://api.github.com): repository visibility, the fork pull request approval settings, the self-hosted',
      'runners of the repository and its organisation, runner groups that allow public repositories, and a',
      'runner for every labelled host class (configs/hosts). Settings the token cannot read are "cannot tell".',
      'Example: GITHUB_TOKEN=$(gh auth token) tagbench doctor --github --repo acme/tagbench',
      '',
      'With --host-class: also the runner tuning of docs/runner-setup.md (governor, turbo, SMT as the class wants it,',
      'transparent huge pages, swap, irqbalance). With --strict (needs --host-class or $TAGBENCH_HOST_CLASS), the',
      'class\'s required ones block: on a class with runner labels (bare metal) governor performance, turbo off',
      'and SMT as the class says (tuning.smt, default off) must be verified, THP, swap and irqbalance are advisory;',
      'on a class without labels (local) all are advisory. The benchmark workflow runs it before benchmarking:',
      '  tagbench doctor --strict --host-class medium-server',
    ].join('\n'),
    options: [
      { flags: '--json', description: 'print the checks as JSON ({schemaVersion, ok, checks[]}) instead of text' },
      { flags: '--work-dir <dir>', description: 'where datadirs will live (free disk is measured there)', default: '.tagbench/work' },
      { flags: '--config-root <dir>', description: 'project root whose configs/ to load (default: this tagbench checkout)' },
      { flags: '--cache-dir <dir>', description: 'install cache whose installs to verify (default $TAGBENCH_CACHE or .tagbench/installs)' },
      { flags: '--github', description: 'check the GitHub repository\'s self-hosted runner safety instead of this host (needs GITHUB_TOKEN)' },
      { flags: '--repo <owner/name>', description: 'repository for --github (default $GITHUB_REPOSITORY)' },
      { flags: '--host-class <name>', description: 'also check the runner tuning this host class expects (default $TAGBENCH_HOST_CLASS)' },
      { flags: '--strict', description: 'exit 1 when a tuning check the host class requires fails or cannot be verified (as before a benchmark)' },
      { flags: '--sys-root <dir>', description: 'read /sys and /proc for the tuning checks under this folder (tests, containers; default /)' },
    ],
    run: doctorCommand,
  },
];
