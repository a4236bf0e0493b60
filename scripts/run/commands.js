/** CLI commands of the run stage: run. */

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [];
