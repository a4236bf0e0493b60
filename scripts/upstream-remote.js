/**
 * Where an upstream is read from when it is not the product's `gitUrl`: a mirror or a fork named
 * `<product>=<git URL or path>` (`--remote-override`, the repository variable
 * TAGBENCH_WATCH_REMOTE_OVERRIDES). watch lists its tags there and the benchmark workflow's
 * source builds fetch from the same place, so the commit watch saw is the commit that is built.
 */
import { resolve } from 'node:path';
import { UserError } from './errors.js';

/**
 * @param {string[]} items `product=url` entries, each possibly a comma-separated list of them
 *   (the repository variable's form); blank entries are skipped
 * @param {string} option the option's name for errors, e.g. `--remote-override`
 * @returns {Record<string, string>} product -> URL, or an absolute path for a local folder
 * @throws {UserError} an entry without a product or a URL
 */
export function parseRemoteOverrides(items, option = '--remote-override') {
  /** @type {Record<string, string>} */
  const overrides = {};
  for (const item of items.flatMap((i) => i.split(',')).map((i) => i.trim()).filter(Boolean)) {
    const at = item.indexOf('=');
    if (at <= 0 || at === item.length - 1) throw new UserError(`${option} ${JSON.stringify(item)}: expected <product>=<git URL or path>, e.g. mariadb=/srv/mirrors/server.git`);
    const url = item.slice(at + 1);
    // A URL (scheme:// or scp-like user@host:path) stays as given; anything else is a folder.
    overrides[item.slice(0, at)] = /^[a-z+]+:\/\/|^[^/]+@[^:]+:/.test(url) ? url : resolve(url);
  }
  return overrides;
}
