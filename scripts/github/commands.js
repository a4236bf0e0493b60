/** CLI commands of the github stage: report. */

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [];
