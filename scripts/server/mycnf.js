/**
 * my.cnf text: parse it into options per group, and fill a template with a host class's
 * `mycnf` values. Pure: text in, text out.
 *
 * The parser is hand-written: the format is tiny, and the libraries for INI files disagree with
 * mysqld on bare flags (`skip-log-bin`), `;` comments and repeated keys (`plugin-load-add` may
 * appear twice), all of which matter here.
 *
 * Two ways an override reaches a rendered template:
 *  - a placeholder `{{name}}` or `{{name:default}}` in the template takes the host value
 *    (or the default when the host class has none);
 *  - otherwise an option already set in the template with the same name (`-`/`_` alike)
 *    gets the host value.
 * Keys that match neither are returned in `unusedOverrides` and NOT appended: a host class
 * lists values for every engine (rocksdb_block_cache_size is unknown to an InnoDB-only
 * server and would stop it from starting).
 */
import { createHash } from 'node:crypto';
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

/** @typedef {import('./types.js').RenderedMycnf} RenderedMycnf */

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_-]+)\s*(?::([^}]*))?\}\}/g;

/**
 * @param {{name: string, template: string, overrides?: Record<string, string|number>}} input
 *   name: template name for messages and the record; template: its text; overrides: host class `mycnf`
 * @returns {RenderedMycnf} the rendered text, its sha256 and the override keys left unused
 * @throws {UserError} when a placeholder has neither a host value nor a default, an override
 *   value is not a single line, or the rendered text is not a valid option file
 */
export function renderMycnf({ name, template, overrides = {} }) {
  const source = `my.cnf template '${name}'`;
  /** @type {Map<string, string>} */
  const values = new Map();
  /** @type {string[]} */
  const problems = [];
  for (const [key, raw] of Object.entries(overrides)) {
    const value = String(raw);
    if (/[\r\n]/.test(value) || value.trim() === '') {
      problems.push(`host class mycnf.${key} = ${JSON.stringify(value)} must be a non-empty single-line value`);
      continue;
    }
    values.set(normalizeOptionName(key), value.trim());
  }
  /** @type {Set<string>} */
  const used = new Set();
  /** @type {Set<number>} line indexes whose value came from a placeholder */
  const placeholderLines = new Set();
  const lines = template.split('\n').map((line, i) => {
    if (/^\s*[#;]/.test(line)) return line; // placeholders in comments stay as written
    return line.replace(PLACEHOLDER, (whole, key, fallback) => {
      const k = normalizeOptionName(key);
      placeholderLines.add(i);
      if (values.has(k)) {
        used.add(k);
        return /** @type {string} */ (values.get(k));
      }
      if (fallback !== undefined && fallback.trim() !== '') return fallback.trim();
      problems.push(`line ${i + 1}: ${whole} has no value: set mycnf.${key} in the host class (configs/hosts/<class>.yml) or give a default as {{${key}:VALUE}}`);
      return whole;
    });
  });
  if (problems.length > 0) {
    throw new UserError(`${source}: ${problems.length} problem${problems.length > 1 ? 's' : ''}:\n  - ${problems.join('\n  - ')}`);
  }

  // Second pass: host values for options the template sets literally.
  const options = parseMycnf(lines.join('\n'), source);
  for (const opt of options) {
    const k = normalizeOptionName(opt.name);
    const idx = opt.line - 1;
    if (!values.has(k) || placeholderLines.has(idx)) continue;
    const indent = /^\s*/.exec(lines[idx])?.[0] ?? '';
    lines[idx] = `${indent}${opt.name}=${values.get(k)}`;
    used.add(k);
  }

  const text = lines.join('\n');
  parseMycnf(text, source); // the values must not have broken the syntax
  const unusedOverrides = Object.keys(overrides).filter((key) => !used.has(normalizeOptionName(key)));
  return { name, text, sha256: createHash('sha256').update(text).digest('hex'), unusedOverrides };
}

/**
 * Add options a wrapped server cannot start without (ServerWrapper.mycnf) to a rendered
 * template, as a last `[mysqld]` group: later values win in mysqld and in buildServerArgs(), so
 * they override the template and the host class, and the text stored in the run record (and
 * its sha256) is what the server really ran with. Unlike host class values, these are
 * appended even when the template does not mention them: the wrapper needs them set.
 * @param {RenderedMycnf} rendered from renderMycnf()
 * @param {Record<string, string|number>} options option name -> value
 * @param {string} why what needs them, for the comment above the group (e.g. the wrapper's argv)
 * @returns {RenderedMycnf} the same when `options` is empty, else a new text and sha256
 * @throws {UserError} when a name is not an option name or a value is not a non-empty single line
 */
export function appendMycnfOptions(rendered, options, why) {
  const entries = Object.entries(options);
  if (entries.length === 0) return rendered;
  /** @type {string[]} */
  const problems = [];
  for (const [name, raw] of entries) {
    const value = String(raw);
    if (!/^[A-Za-z0-9_-]+$/.test(name)) problems.push(`${JSON.stringify(name)} is not a server option name (letters, digits, - and _)`);
    if (/[\r\n]/.test(value) || value.trim() === '') problems.push(`${name} = ${JSON.stringify(value)} must be a non-empty single-line value`);
  }
  if (problems.length > 0) {
    throw new UserError(`wrapper mycnf values for my.cnf template '${rendered.name}': ${problems.length} problem${problems.length > 1 ? 's' : ''}:\n  - ${problems.join('\n  - ')}`);
  }
  const block = [
    '',
    `# Added by tagbench for the wrapper the server runs under (${why.replace(/[\r\n]+/g, ' ')}):`,
    '# options the wrapped server needs; they come last, so they win.',
    '[mysqld]',
    ...entries.map(([name, value]) => `${name}=${String(value).trim()}`),
    '',
  ];
  const text = `${rendered.text.replace(/\n*$/, '\n')}${block.join('\n')}`;
  parseMycnf(text, `my.cnf template '${rendered.name}' with the wrapper's options`);
  return { ...rendered, text, sha256: createHash('sha256').update(text).digest('hex') };
}
