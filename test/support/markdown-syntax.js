/**
 * What of a Markdown text GitHub would turn into a link or a mention: the tests' stand-in for
 * GitHub's renderer (none is installed here), following CommonMark's rules for what it checks.
 * Code spans are taken out first (a backtick run opens one, the next run of the same length
 * closes it; an unmatched run is literal), then backslash escapes (an escaped `]` or `<` starts no
 * syntax); what is left is the text GitHub parses for inline links (`](`), autolinks (`<x:`,
 * `://`, `www.`), HTML (`<a`) and mentions (`@name`, found in the rendered text, so an entity
 * such as `&#64;` counts as an `@` too).
 */

/**
 * @param {string} md Markdown
 * @returns {string} md without its code spans and escaped characters
 */
export function outsideCodeSpans(md) {
  let out = '';
  let i = 0;
  while (i < md.length) {
    if (md[i] === '\\' && i + 1 < md.length && /[!-/:-@[-`{-~]/.test(md[i + 1])) { i += 2; continue; }
    if (md[i] !== '`') { out += md[i++]; continue; }
    const run = /^`+/.exec(md.slice(i))?.[0] ?? '`';
    let j = i + run.length;
    let close = -1;
    while (j < md.length) {
      const next = md.indexOf('`', j);
      if (next < 0) break;
      const other = /^`+/.exec(md.slice(next))?.[0] ?? '';
      if (other.length === run.length) { close = next; break; }
      j = next + other.length;
    }
    if (close < 0) { out += run; i += run.length; continue; }
    out += ' ';
    i = close + run.length;
  }
  return out;
}

/**
 * @param {string} md Markdown
 * @returns {string[]} every piece of link or mention syntax GitHub would render (empty = none)
 */
export function linksAndMentions(md) {
  const text = outsideCodeSpans(md).replace(/&#0*64;|&commat;|&#x0*40;/gi, '@');
  const found = [];
  for (const re of [/\]\(/g, /\]\[/g, /<[a-z][a-z0-9+.-]*:/gi, /<a\b/gi, /https?:\/\//gi, /www\.[a-z0-9]/gi, /(?<![\w`])@[A-Za-z0-9][A-Za-z0-9-]*/g]) {
    for (const m of text.matchAll(re)) found.push(m[0]);
  }
  return found;
}
