/**
 * A tiny element builder for the pages. Hand-written (a dozen lines) rather than a UI
 * framework: the pages are read-only views of JSON, and every text goes through
 * textContent, so data can never inject markup.
 */

/**
 * An address from data as the site may link it: a path of the site (relative, no scheme) or an
 * https: URL. Anything else is refused: a `javascript:` or `data:` href runs script in the site's
 * origin when clicked, and `http:` is not what any service tagbench links to serves. The address
 * is parsed as the browser will (the URL parser drops tabs and newlines, so `java\tscript:` is
 * `javascript:`), never matched as text.
 * @param {unknown} href
 * @returns {string|null} href itself when safe, else null
 */
export function safeHref(href) {
  if (typeof href !== 'string' || href.trim() === '') return null;
  try {
    // The base only decides relative paths; its scheme is the one allowed.
    return new URL(href, 'https://site.invalid/').protocol === 'https:' ? href : null;
  } catch {
    return null;
  }
}

/**
 * @param {string} tag
 * @param {Record<string, any>|null} [attrs] attributes; `class`, `text`, `on<event>` handled
 *   specially; `href` and `src` only when safeHref allows them
 * @param {...(Node|string|number|null|undefined|false|Array<any>)} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = String(v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    // Every link the pages build passes here: an unsafe one is left without its href (the text stays).
    else if (k === 'href' || k === 'src') { const safe = safeHref(v); if (safe !== null) el.setAttribute(k, safe); }
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {any[]} children nested arrays are flattened; null/false skipped
 */
export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/**
 * A table inside a keyboard-scrollable region, with a caption.
 * @param {string} caption
 * @param {HTMLElement[]} parts thead/tbody elements
 * @param {Record<string, any>} [attrs] attributes of the table
 */
export function scrollTable(caption, parts, attrs = {}) {
  const table = h('table', attrs, h('caption', { text: caption }), parts);
  return h('div', { class: 'table-wrap', role: 'region', 'aria-label': caption, tabindex: '0' }, table);
}

/**
 * Replace an element's content (null/false children skipped, arrays flattened).
 * @param {Element} el
 * @param {...any} children
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
}
