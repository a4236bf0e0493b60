/** CLI commands of the doctor stage: doctor. */

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [];
