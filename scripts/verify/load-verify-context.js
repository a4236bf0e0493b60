/**
 * What every verify command starts from: the project's configuration, loaded and checked once,
 * the thresholds its verdicts are judged by, and where its report goes. The thresholds are
 * resolved here and nowhere else in verify/, so compare, confirm, calibrate and bisect judge a
 * run by the same rules (configs/thresholds.yml with compare/'s defaults filled in).
 */
import { resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import { resolveThresholds } from '../compare/index.js';

/** This checkout: the project root when a command is not given one (tests give theirs). */
const PROJECT_ROOT = resolve(new URL('../..', import.meta.url).pathname);

/**
 * @typedef {object} VerifyContext
 * @property {string} root project root holding configs/
 * @property {Readonly<import('../types.js').Config>} config loaded and validated
 * @property {import('../compare/index.js').CompareThresholds} thresholds resolved from
 *   config.thresholds, defaults filled in
 * @property {(text: string) => void} out stdout writer
 * @property {boolean} color ANSI colours in terminal output
 */

/**
 * Load the configuration and the thresholds a verify command judges by.
 * @param {{root?: string, out?: (text: string) => void, color?: boolean}} options the command's:
 *   root (default: this checkout), out (default: process.stdout), color (default: stdout is a
 *   terminal and NO_COLOR is unset)
 * @returns {Promise<VerifyContext>}
 * @throws {import('../errors.js').UserError} an invalid configuration, or thresholds whose issue
 *   level is below their warn level
 */
export async function loadVerifyContext(options) {
  const root = options.root ?? PROJECT_ROOT;
  const config = await loadConfig(root);
  return {
    root,
    config,
    thresholds: resolveThresholds(config.thresholds),
    out: options.out ?? ((text) => process.stdout.write(text)),
    color: options.color ?? (process.stdout.isTTY === true && !process.env.NO_COLOR),
  };
}
