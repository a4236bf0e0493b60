/**
 * The engineer's answer to a regression issue, given as a label or as a command comment:
 * confirmed bug, expected change (the release becomes the baseline), or noise (a false alarm,
 * counted per metric so the thresholds can be recalibrated). Pure: labels and comments in,
 * answer out.
 */

/** @typedef {'confirmed-bug'|'expected-change'|'noise'} TriageAnswer */

/**
 * @typedef {object} TriageAnswerSpec
 * @property {TriageAnswer} answer
 * @property {string} label the label that gives this answer
 * @property {string} meaning one line for the issue body
 */

/** @type {readonly TriageAnswerSpec[]} */
export const TRIAGE_ANSWERS = Object.freeze([
  { answer: 'confirmed-bug', label: 'tagbench:confirmed-bug', meaning: 'a real regression: keep the issue open until it is fixed' },
  { answer: 'expected-change', label: 'tagbench:expected-change', meaning: 'an intended change: tagbench opens the promotion of this release to the baseline' },
  { answer: 'noise', label: 'tagbench:noise', meaning: 'no real change: counted as a false alarm of the regressed metrics' },
]);

/**
 * Who may answer by comment. Labels need triage access on GitHub already; a comment anyone can
 * write, so a command counts only from people GitHub associates with the repository.
 */
export const TRUSTED_ASSOCIATIONS = Object.freeze(['OWNER', 'MEMBER', 'COLLABORATOR']);

const COMMAND_RE = /^\/tagbench\s+(confirmed-bug|expected-change|noise)\s*$/m;

/**
 * @returns {string} the "how to answer" section (Markdown)
 */
export function renderTriageHelp() {
  return [
    '### Triage',
    '',
    'Answer with one label, or a comment holding only the command (owners, members and collaborators):',
    '',
    '| answer | label | command | what happens |',
    '|---|---|---|---|',
    ...TRIAGE_ANSWERS.map((a) => `| ${a.answer} | \`${a.label}\` | \`/tagbench ${a.answer}\` | ${a.meaning} |`),
  ].join('\n');
}

/**
 * @typedef {object} TriageComment
 * @property {string} body
 * @property {string} login author
 * @property {string} authorAssociation GitHub's author_association
 * @property {string} createdAt ISO 8601
 */

/**
 * @typedef {object} TriageDecision
 * @property {TriageAnswer|null} answer null when unanswered or contradictory
 * @property {'label'|'comment'|null} source
 * @property {string|null} by login of the commenter (comments only)
 * @property {string|null} problem why no answer was taken although some was given
 */

/**
 * The answer an issue carries. Labels are the current state (a person can remove one),
 * so an answer label wins over commands; two answer labels are a contradiction and count as
 * neither. Without a label, the newest command of a trusted commenter counts.
 * @param {string[]} labels the label names
 * @param {TriageComment[]} comments
 * @returns {TriageDecision}
 */
export function readTriageAnswer(labels, comments) {
  const byLabel = TRIAGE_ANSWERS.filter((a) => labels.some((l) => l.toLowerCase() === a.label));
  if (byLabel.length > 1) {
    return { answer: null, source: null, by: null, problem: `contradictory labels ${byLabel.map((a) => a.label).join(', ')}: keep one` };
  }
  if (byLabel.length === 1) return { answer: byLabel[0].answer, source: 'label', by: null, problem: null };
  const commands = comments
    .map((c) => ({ c, m: COMMAND_RE.exec(c.body ?? '') }))
    .filter((x) => x.m !== null)
    .sort((a, b) => a.c.createdAt.localeCompare(b.c.createdAt));
  const trusted = commands.filter((x) => TRUSTED_ASSOCIATIONS.includes(x.c.authorAssociation));
  const last = trusted.at(-1);
  if (last) return { answer: /** @type {TriageAnswer} */ (last.m?.[1]), source: 'comment', by: last.c.login, problem: null };
  if (commands.length > 0) return { answer: null, source: null, by: null, problem: `command(s) only from ${[...new Set(commands.map((x) => x.c.login))].join(', ')}, who are not owners, members or collaborators` };
  return { answer: null, source: null, by: null, problem: null };
}
