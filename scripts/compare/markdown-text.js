/**
 * Text from data (an object file's or function's name, a test name, a commit subject, a branch
 * name) put into the Markdown of an issue, a check run or a pull-request comment. A pull
 * request's author chooses such names (a plugin file named `lib[pay here](https:evil.example)
 * @octocat.so`), and GitHub renders Markdown links, autolinks and @mentions (which notify the
 * person) wherever the text reaches: so none of it is ever pasted in raw. Pure.
 */

/** U+200B: invisible, and no link, autolink or mention syntax spans it. */
const BREAK = '\u200B';

/**
 * Text from data as Markdown that renders as exactly that text: no link, no mention, no markup.
 * As a code span (the default), with a fence of more backticks than any run inside (CommonMark
 * ends a span only at a run of the same length), padded when the text starts or ends with a
 * backtick; GitHub renders neither links nor mentions inside one. Where a span cannot be used
 * (`span: false`: a heading, a sentence), the punctuation of links, HTML, entities and spans is
 * backslash-escaped, and `@`, `://` and `www.` get an invisible break, because GitHub finds
 * mentions and autolinks in the rendered text, after escapes (and entities: `&#64;`) are undone.
 * @param {string} text any text (newlines become spaces: a span or a table row is one line)
 * @param {{span?: boolean, table?: boolean}} [options] span (default true): a code span;
 *   table: the text is a cell of a GitHub table, where `|` must be escaped even inside a span
 * @returns {string} Markdown
 */
export function renderUntrustedText(text, options = {}) {
  const line = String(text).replace(/[\r\n]+/g, ' ');
  const pipes = (/** @type {string} */ s) => (options.table ? s.replace(/\|/g, '\\|') : s);
  if (options.span === false) {
    // Only what makes a link, an image, HTML, an entity, a span or a table cell: emphasis is
    // harmless, and escaping it would change every plain name that holds an underscore.
    return line.replace(/[\\`[\]<>&|]/g, (c) => `\\${c}`)
      .replace(/@/g, `@${BREAK}`).replace(/:\/\//g, `:${BREAK}//`).replace(/www\./gi, (w) => `${w.slice(0, 3)}${BREAK}.`);
  }
  if (line === '') return '` `';
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // A span that starts or ends with a backtick (or a space) needs one space of padding, which
  // CommonMark strips again when both ends have one.
  const pad = /^[`\s]|[`\s]$/.test(line) ? ' ' : '';
  return `${fence}${pad}${pipes(line)}${pad}${fence}`;
}
