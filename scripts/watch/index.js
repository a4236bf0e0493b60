/** The watch (discover) stage: upstream tags not benchmarked yet, as a workflow matrix. */
export { discoverTags } from './discover-tags.js';
