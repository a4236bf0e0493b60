/** CLI commands of the compare stage: compare, confirm, calibrate, baseline promote. */

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [];
