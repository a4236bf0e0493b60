/**
 * The fields of one callgrind line (https://valgrind.org/docs/manual/cl-format.html), decoded
 * for parse-callgrind.js: a line's key, compressed names (`(12) name`), recursion suffixes,
 * object paths and event counts. Char codes, not regular expressions or splits: a profile of a
 * busy server has millions of lines. Pure.
 */

const SP = 32;
const TAB = 9;

/**
 * End of the key of a `key=value` or `key: value` line: the first character that cannot be part
 * of a key.
 * @param {string} line
 * @returns {number} its index
 */
export function keyEnd(line) {
  let i = 0;
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    const word = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
    if (!word) break;
  }
  return i;
}

/**
 * A name with compression: `(12) name` defines id 12, `(12)` refers to it, a plain name is used
 * as is.
 * @param {Map<string, string>} table
 * @param {string} value
 * @param {number} lineNo
 * @param {string} key
 * @returns {string} the name
 */
export function resolveName(table, value, lineNo, key) {
  if (value.charCodeAt(0) !== 40) return value; // '('
  const close = value.indexOf(')');
  if (close < 0) throw new Error(`line ${lineNo}: '${key}=${clip(value)}': expected '(id)' or '(id) name'`);
  const id = value.slice(1, close);
  if (close + 1 < value.length) {
    const name = value.slice(close + 1).trimStart();
    table.set(id, name);
    return name;
  }
  const name = table.get(id);
  if (name === undefined) throw new Error(`line ${lineNo}: '${key}=(${id})' refers to name id ${id}, which no earlier line defined`);
  return name;
}

/**
 * Strip callgrind's recursion-level suffix (`fact'2` is fact called from within fact).
 * @param {string} name
 * @returns {string}
 */
export function baseName(name) {
  const q = name.lastIndexOf("'");
  if (q <= 0 || q === name.length - 1) return name;
  for (let i = q + 1; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 48 || c > 57) return name;
  }
  return name.slice(0, q);
}

/**
 * The file name of an ELF object's path (`/usr/sbin/mariadbd` → `mariadbd`).
 * @param {string} path
 * @returns {string}
 */
export function objectName(path) {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/**
 * The field at index `field` (0-based, space-separated) of a cost line, as an event count; 0
 * when the line has fewer fields (the format lets trailing zero counts be left out).
 * @param {string} line
 * @param {number} field
 * @param {number} lineNo
 * @returns {number}
 */
export function costAt(line, field, lineNo) {
  let i = 0;
  const n = line.length;
  for (let f = 0; ; f++) {
    while (i < n && (line.charCodeAt(i) === SP || line.charCodeAt(i) === TAB)) i++;
    if (i >= n) return 0;
    const start = i;
    while (i < n && line.charCodeAt(i) !== SP && line.charCodeAt(i) !== TAB) i++;
    if (f === field) {
      let v = 0;
      for (let k = start; k < i; k++) {
        const c = line.charCodeAt(k) - 48;
        if (c < 0 || c > 9) throw new Error(`line ${lineNo}: expected an event count, got '${line.slice(start, i)}' in '${clip(line)}'`);
        v = v * 10 + c;
      }
      return v;
    }
  }
}

/**
 * The count of a `calls=<count> <target position>` line.
 * @param {string} value
 * @param {number} lineNo
 * @param {string} what
 * @returns {number}
 */
export function leadingCount(value, lineNo, what) {
  let v = 0;
  let i = 0;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    v = v * 10 + c;
  }
  if (i === 0 || (i < value.length && value.charCodeAt(i) !== SP)) {
    throw new Error(`line ${lineNo}: '${what}${clip(value)}': expected '${what}<count> <target position>'`);
  }
  return v;
}

/**
 * A line shortened for an error message.
 * @param {string} s
 * @returns {string} at most 80 characters
 */
export function clip(s) {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
