/** Fetch the site's JSON data files (relative paths, so any sub-path works), cached per page. */

/** @type {Map<string, Promise<any>>} */
const cache = new Map();

/**
 * @param {string} path site-relative path from paths.js
 * @returns {Promise<any>}
 */
export function loadJson(path) {
  let p = cache.get(path);
  if (!p) {
    p = fetch(path).then(async (res) => {
      if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
      return res.json();
    });
    cache.set(path, p);
  }
  return p;
}

/**
 * Like loadJson, but a missing file (404) gives null: for pages asked about a release or test
 * that does not exist, so they can say so.
 * @param {string} path
 * @returns {Promise<any|null>}
 */
export async function loadJsonOrNull(path) {
  const res = await fetch(path);
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.json();
}

/** @returns {URLSearchParams} the page's query parameters */
export function params() {
  return new URLSearchParams(location.search);
}

/**
 * Change one query parameter without reloading (keeps the choice in the URL, so it can be
 * shared and survives the back button).
 * @param {string} key
 * @param {string|null} value null removes it
 */
export function setParam(key, value) {
  const q = params();
  if (value === null) q.delete(key);
  else q.set(key, value);
  const qs = q.toString();
  history.replaceState(null, '', `${location.pathname}${qs ? `?${qs}` : ''}${location.hash}`);
}
