/** CLI commands of the github stage: report. */

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [
  {
    name: 'report',
    summary: 'open or update one GitHub issue per release with confirmed regressions; write the job summary',
    help: [
      'Reads comparisons (tagbench compare / confirm) and the run records they name (provenance).',
      'Only regressions marked confirmed open issues; every verdict goes into the job summary',
      '(appended to $GITHUB_STEP_SUMMARY when set). One issue per (product line, release, host class,',
      'suite), found again through a hidden fingerprint, so rerunning a report never duplicates it.',
      'The token is read from the environment variable named by --token-env (never from argv).',
      'Without a token or repository it is a dry run: issue Markdown goes to --dry-run-dir.',
      'GitHub API root: $GITHUB_API_URL (default https://api.github.com).',
      'Example: tagbench report --store results --product mariadb --version 10.11.19 --host-class local',
    ].join('\n'),
    options: [
      { flags: '--comparison <files...>', description: 'comparison files to report (default: every comparison in --store matching the filters)' },
      { flags: '--store <dir>', description: 'results store: comparisons (when no --comparison) and run records', default: 'results' },
      { flags: '--host-class <name>', description: 'only comparisons of this host class' },
      { flags: '--product <name>', description: 'only comparisons of this product' },
      { flags: '--version <version>', description: 'only comparisons whose candidate is this release' },
      { flags: '--suite <name>', description: 'only comparisons of this suite' },
      { flags: '--repo <owner/name>', description: 'repository for issues (default: $GITHUB_REPOSITORY)' },
      { flags: '--token-env <name>', description: 'environment variable holding the GitHub token', default: 'GITHUB_TOKEN' },
      { flags: '--dry-run', description: 'write issue Markdown to files even when a token is set' },
      { flags: '--dry-run-dir <dir>', description: 'where a dry run writes issue Markdown', default: 'out/issues' },
      { flags: '--site-url <url>', description: 'results site linked from issues (default: $TAGBENCH_SITE_URL)' },
      { flags: '--run-url <url>', description: 'workflow run linked from issues (default: built from $GITHUB_SERVER_URL, $GITHUB_REPOSITORY, $GITHUB_RUN_ID)' },
      { flags: '--label <name>', description: 'label that marks tagbench regression issues (and finds them again)', default: 'tagbench-regression' },
      { flags: '--close-on-recovery', description: 'close an issue when a later release recovers every test it lists (default: comment only)' },
      { flags: '--summary-file <file>', description: 'also write the job-summary Markdown to this file' },
    ],
    load: () => import('./report-command.js'),
  },
];
