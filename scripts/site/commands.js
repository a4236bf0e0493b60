/** CLI commands of the site stage: site. */

/** @type {import('../command-spec.js').CommandSpec[]} */
export const commands = [];
