/**
 * Enough of GitHub Actions' expression language to evaluate our workflows' `if:` conditions,
 * `with:` inputs and artifact names in tests: literals, context paths (a.b, a['b']), ! && ||
 * == != < <= > >=, parentheses, and the functions the workflows use (format, fromJSON, toJSON,
 * contains, startsWith, endsWith, always, success, failure, cancelled). Semantics follow
 * GitHub's: && and || return an operand, not a boolean; == compares strings case-insensitively
 * and coerces mixed types to numbers; a missing property is null.
 */

/**
 * @typedef {object} Status the job-status functions' answers where the expression is evaluated
 * @property {boolean} [cancelled] the workflow run was cancelled
 * @property {boolean} [failed] an earlier step (or a needed job) failed
 */

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|'((?:[^']|'')*)'|(&&|\|\||==|!=|<=|>=|[!<>()[\].,])|([A-Za-z_][\w-]*))/y;

/** @param {string} text */
function tokenize(text) {
  /** @type {{type: string, value: string}[]} */
  const tokens = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw new Error(`cannot read expression ${JSON.stringify(text)} at ${at}`);
    if (m[1] !== undefined) tokens.push({ type: 'number', value: m[1] });
    else if (m[2] !== undefined) tokens.push({ type: 'string', value: m[2].replace(/''/g, "'") });
    else if (m[3] !== undefined) tokens.push({ type: 'op', value: m[3] });
    else tokens.push({ type: 'name', value: m[4] });
  }
  return tokens;
}

/** @param {unknown} v */
function truthy(v) {
  return !(v === null || v === undefined || v === false || v === 0 || v === '' || Number.isNaN(v));
}

/** @param {unknown} v */
function toNumber(v) {
  if (v === null || v === undefined || v === false) return 0;
  if (v === true) return 1;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return v.trim() === '' ? 0 : Number(v);
  return NaN;
}

/** @param {unknown} v */
function toText(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * @param {unknown} a
 * @param {unknown} b
 */
function looseEquals(a, b) {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b && typeof a !== 'object') return a === b;
  if (a === null && b === null) return true;
  if (typeof a === 'object' || typeof b === 'object') return a === b;
  return toNumber(a) === toNumber(b);
}

/**
 * @param {string} text an expression without ${{ }}
 * @param {Record<string, any>} context contexts by name (inputs, needs, steps, matrix, vars, github, env)
 * @param {Status} [status]
 * @returns {unknown}
 */
export function evaluate(text, context, status = {}) {
  const tokens = tokenize(text);
  let i = 0;
  const peek = () => tokens[i];
  /** @param {string} value */
  const accept = (value) => (tokens[i]?.type === 'op' && tokens[i].value === value ? (i++, true) : false);
  /** @param {string} value */
  const expect = (value) => {
    if (!accept(value)) throw new Error(`expected ${value} in ${JSON.stringify(text)}`);
  };
  /** @type {() => unknown} */
  const orExpr = () => {
    let left = andExpr();
    while (accept('||')) {
      const right = andExpr();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  /** @type {() => unknown} */
  const andExpr = () => {
    let left = compare();
    while (accept('&&')) {
      const right = compare();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  /** @type {() => unknown} */
  const compare = () => {
    let left = unary();
    for (;;) {
      const op = peek();
      if (op?.type !== 'op' || !['==', '!=', '<', '<=', '>', '>='].includes(op.value)) return left;
      i++;
      const right = unary();
      if (op.value === '==') left = looseEquals(left, right);
      else if (op.value === '!=') left = !looseEquals(left, right);
      else {
        const [a, b] = typeof left === 'string' && typeof right === 'string' ? [left, right] : [toNumber(left), toNumber(right)];
        left = op.value === '<' ? a < b : op.value === '<=' ? a <= b : op.value === '>' ? a > b : a >= b;
      }
    }
  };
  /** @type {() => unknown} */
  const unary = () => (accept('!') ? !truthy(unary()) : postfix());
  /** @type {() => unknown} */
  const postfix = () => {
    /** @type {any} */
    let value = primary();
    for (;;) {
      if (accept('.')) {
        const name = tokens[i++];
        value = value == null ? null : value[name.value] ?? null;
      } else if (accept('[')) {
        const key = orExpr();
        expect(']');
        value = value == null ? null : value[toText(key)] ?? null;
      } else {
        return value;
      }
    }
  };
  /** @type {() => unknown} */
  const primary = () => {
    const t = tokens[i++];
    if (!t) throw new Error(`unexpected end of ${JSON.stringify(text)}`);
    if (t.type === 'number') return Number(t.value);
    if (t.type === 'string') return t.value;
    if (t.type === 'op' && t.value === '(') {
      const v = orExpr();
      expect(')');
      return v;
    }
    if (t.type !== 'name') throw new Error(`unexpected ${t.value} in ${JSON.stringify(text)}`);
    if (t.value === 'true') return true;
    if (t.value === 'false') return false;
    if (t.value === 'null') return null;
    if (accept('(')) {
      /** @type {unknown[]} */
      const args = [];
      if (!accept(')')) {
        do args.push(orExpr()); while (accept(','));
        expect(')');
      }
      return call(t.value, args);
    }
    return context[t.value] ?? null;
  };
  /**
   * @param {string} name
   * @param {unknown[]} args
   */
  const call = (name, args) => {
    switch (name) {
      case 'format': return toText(args[0]).replace(/\{(\d+)\}/g, (_, n) => toText(args[Number(n) + 1]));
      case 'fromJSON': return JSON.parse(toText(args[0]));
      case 'toJSON': return JSON.stringify(args[0]);
      case 'contains': return Array.isArray(args[0]) ? args[0].some((v) => looseEquals(v, args[1])) : toText(args[0]).toLowerCase().includes(toText(args[1]).toLowerCase());
      case 'startsWith': return toText(args[0]).toLowerCase().startsWith(toText(args[1]).toLowerCase());
      case 'endsWith': return toText(args[0]).toLowerCase().endsWith(toText(args[1]).toLowerCase());
      case 'always': return true;
      case 'cancelled': return Boolean(status.cancelled);
      case 'failure': return Boolean(status.failed);
      case 'success': return !status.failed && !status.cancelled;
      default: throw new Error(`function ${name}() is not supported by this evaluator`);
    }
  };
  const result = orExpr();
  if (i !== tokens.length) throw new Error(`unexpected ${tokens[i].value} in ${JSON.stringify(text)}`);
  return result;
}

/**
 * A workflow value: a string with ${{ }} parts becomes text; a whole-expression value keeps its
 * type (as GitHub does for `with:` inputs and `if:`). Non-strings are returned as they are.
 * @param {unknown} value
 * @param {Record<string, any>} context
 * @param {Status} [status]
 * @returns {unknown}
 */
export function interpolate(value, context, status) {
  if (typeof value !== 'string') return value;
  // One expression alone keeps its type; `${{ a }}/${{ b }}` is text (the inner part holds no `}}`).
  const whole = value.match(/^\s*\$\{\{((?:(?!\}\})[\s\S])*)\}\}\s*$/);
  if (whole) return evaluate(whole[1], context, status);
  return value.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expr) => toText(evaluate(expr, context, status)));
}

/**
 * An `if:` condition as GitHub runs it: a bare expression (no ${{ }}) is one too, and a
 * condition without a status function gets an implicit success() && in front.
 * @param {unknown} condition
 * @param {Record<string, any>} context
 * @param {Status} [status]
 * @returns {boolean}
 */
export function evaluateCondition(condition, context, status = {}) {
  if (condition === undefined || condition === null || condition === '') return !status.failed && !status.cancelled;
  let text = String(condition).trim();
  const whole = text.match(/^\$\{\{([\s\S]*)\}\}$/);
  if (whole) text = whole[1];
  const usesStatus = /\b(always|cancelled|failure|success)\s*\(/.test(text);
  const value = truthy(evaluate(text, context, status));
  return usesStatus ? value : value && !status.failed && !status.cancelled;
}

export { truthy };
