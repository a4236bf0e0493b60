/** CLI commands of the watch stage: watch. */

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [];
