/** The site stage: build the static results site from the store, and serve it locally. */
export { buildSite } from './build-site.js';
export { serveSite } from './serve-site.js';
