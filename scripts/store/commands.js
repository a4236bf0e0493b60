/** CLI commands of the store stage: publish, store migrate. */

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [];
