/** CLI commands of the install stage: install. */

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [];
