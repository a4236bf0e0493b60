/** The doctor stage: checks that this host can run tagbench, and says how to fix what is missing. */
export { runDoctor } from './run-doctor.js';
export { renderDoctor } from './render-doctor.js';
