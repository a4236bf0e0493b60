/**
 * A credential for a private upstream (a company's own fork of MariaDB or MySQL): the token in
 * `TAGBENCH_UPSTREAM_TOKEN` reaches git as an HTTP header scoped to the upstream's own host, and
 * only through the environment of the git commands that read the upstream (watch's tag listing,
 * a source build's fetch): never in a URL, an argument, a file or a log, and never sent to
 * another host. The workflows pass the secret to those steps alone.
 */

/** Where the token is read from. */
export const UPSTREAM_TOKEN_VAR = 'TAGBENCH_UPSTREAM_TOKEN';

/**
 * Environment entries that make git send the token to the upstream's host, after any
 * `GIT_CONFIG_*` entries the environment holds already.
 * @param {string} gitUrl the product's gitUrl (or a --remote-override)
 * @param {Record<string, string|undefined>} [env] default: this process's
 * @returns {Record<string, string>} empty without a token, or for a URL that is not https (ssh
 *   uses the runner's keys; a local path needs nothing)
 */
export function upstreamAuthEnv(gitUrl, env = process.env) {
  const token = env[UPSTREAM_TOKEN_VAR];
  if (!token) return {};
  let url;
  try {
    url = new URL(gitUrl);
  } catch {
    return {};
  }
  if (url.protocol !== 'https:' || url.username || url.password) return {};
  const from = Number(env.GIT_CONFIG_COUNT ?? 0) || 0;
  return {
    GIT_CONFIG_COUNT: String(from + 1),
    [`GIT_CONFIG_KEY_${from}`]: `http.${url.origin}/.extraheader`,
    [`GIT_CONFIG_VALUE_${from}`]: `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`,
  };
}
