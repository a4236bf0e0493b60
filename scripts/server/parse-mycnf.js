/**
 * Parse my.cnf text into options per group. Hand-written: the format is tiny, and the libraries
 * for INI files disagree with mysqld on bare flags (`skip-log-bin`), `;` comments and repeated
 * keys (`plugin-load-add` may appear twice), all of which matter here.
 */
import { UserError } from '../errors.js';

/** @typedef {import('./types.js').MycnfOption} MycnfOption */

/**
 * @param {string} text my.cnf text
 * @param {string} source what to call the text in messages (e.g. `my.cnf template 'innodb'`)
 * @returns {MycnfOption[]} options in file order
 * @throws {UserError} on an `!include` (nothing outside the file may reach the server), an
 *   option before the first group, or a malformed line; every problem is listed
 */
export function parseMycnf(text, source) {
  /** @type {MycnfOption[]} */
  const options = [];
  /** @type {string[]} */
  const problems = [];
  /** @type {string|null} */
  let group = null;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('!')) {
      problems.push(`line ${lineNo}: '${line}' is not allowed: the server must read nothing but this file (put the options here instead)`);
      continue;
    }
    const header = /^\[\s*([A-Za-z0-9_.-]+)\s*\]\s*(?:#.*)?$/.exec(line);
    if (header) {
      group = header[1].toLowerCase();
      continue;
    }
    if (line.startsWith('[')) {
      problems.push(`line ${lineNo}: malformed group header '${line}' (expected e.g. [mysqld])`);
      continue;
    }
    const m = /^([A-Za-z0-9_-]+)\s*(?:=\s*(.*))?$/.exec(stripComment(line));
    if (!m) {
      problems.push(`line ${lineNo}: cannot read '${line}' (expected name=value or a bare flag such as skip-log-bin)`);
      continue;
    }
    if (group === null) {
      problems.push(`line ${lineNo}: option '${m[1]}' comes before any [group] header (start with [mysqld])`);
      continue;
    }
    options.push({ group, name: m[1], value: m[2] === undefined ? null : unquote(m[2].trim()), line: lineNo });
  }
  if (problems.length > 0) {
    throw new UserError(`${source}: ${problems.length} problem${problems.length > 1 ? 's' : ''}:\n  - ${problems.join('\n  - ')}`);
  }
  return options;
}

/**
 * Option names compare equal whatever mix of `-` and `_` they use, as in mysqld, and without
 * the `loose-` prefix (which only tells the server to ignore an unknown option).
 * @param {string} name
 * @returns {string}
 */
export function normalizeOptionName(name) {
  return name.toLowerCase().replace(/_/g, '-').replace(/^loose-/, '');
}

/**
 * mysqld treats `#` as the start of a comment anywhere outside quotes.
 * @param {string} line
 */
function stripComment(line) {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#') {
      return line.slice(0, i).trimEnd();
    }
  }
  return line;
}

/** @param {string} value */
function unquote(value) {
  const q = value[0];
  if ((q === '"' || q === "'") && value.length >= 2 && value.endsWith(q)) return value.slice(1, -1);
  return value;
}
