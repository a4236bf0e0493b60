/**
 * Just enough of the DOM for the site's element builder (site/js/dom.js) to run under node:test:
 * elements with attributes, text, dataset, listeners and children, text nodes. It keeps the DOM's
 * rules that the pages rely on: attribute values are strings, `append` takes nodes or strings
 * (strings become text nodes), textContent replaces the children. A stand-in for the browser
 * test (site-browser.test.js), which checks the pages in Chromium.
 */
class FakeNode {}

class FakeText extends FakeNode {
  /** @param {string} text */
  constructor(text) { super(); this.textContent = String(text); }
}

class FakeElement extends FakeNode {
  /** @param {string} tag */
  constructor(tag) {
    super();
    this.tagName = tag.toUpperCase();
    /** @type {Map<string, string>} */
    this.attributes = new Map();
    /** @type {FakeNode[]} */
    this.childNodes = [];
    /** @type {Record<string, string>} */
    this.dataset = {};
    /** @type {Record<string, Function[]>} */
    this.listeners = {};
  }

  /** @param {string} name @param {unknown} value */
  setAttribute(name, value) { this.attributes.set(name, String(value)); }

  /** @param {string} name @returns {string|null} */
  getAttribute(name) { return this.attributes.get(name) ?? null; }

  /** @param {string} name @param {Function} fn */
  addEventListener(name, fn) { (this.listeners[name] ??= []).push(fn); }

  /** @param {...(FakeNode|string)} nodes */
  append(...nodes) { for (const n of nodes) this.childNodes.push(n instanceof FakeNode ? n : new FakeText(String(n))); }

  /** @param {...(FakeNode|string)} nodes */
  replaceChildren(...nodes) { this.childNodes = []; this.append(...nodes); }

  get textContent() { return this.childNodes.map((n) => /** @type {any} */ (n).textContent).join(''); }

  set textContent(text) { this.childNodes = [new FakeText(String(text))]; }

  /**
   * Every descendant element with this tag name, in document order.
   * @param {string} tag
   * @returns {FakeElement[]}
   */
  findAll(tag) {
    /** @type {FakeElement[]} */
    const out = [];
    for (const n of this.childNodes) {
      if (!(n instanceof FakeElement)) continue;
      if (n.tagName === tag.toUpperCase()) out.push(n);
      out.push(...n.findAll(tag));
    }
    return out;
  }
}

/** Install the stand-in as the globals dom.js uses (document, Node). */
export function installFakeDom() {
  Object.assign(globalThis, {
    Node: FakeNode,
    document: { createElement: (/** @type {string} */ tag) => new FakeElement(tag), createTextNode: (/** @type {string} */ t) => new FakeText(t) },
  });
}

export { FakeElement };
