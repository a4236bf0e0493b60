/**
 * The identity of an ad-hoc ref run (`tagbench run --ref`): its candidate's commit on one host
 * class, product and suite. Its records and comparisons are stored apart (store-paths.js
 * REF_TOPS); the site gives each such identity one page, whose address is computed here so that
 * whatever links to it (a check run on the commit, a pull request comment) gets the page the
 * site builds (site/js/pages/ref.js reads the same parameters).
 */

/**
 * @typedef {object} RefRunKey
 * @property {string} hostClass
 * @property {string} product
 * @property {string} suite
 * @property {string} commit the candidate's full commit id
 */

/**
 * The key of the ref run a comparison, a record or a key belongs to.
 * @param {RefRunKey|import('../types.js').Comparison|import('../types.js').RunRecord} x
 * @returns {RefRunKey}
 * @throws {Error} for a comparison or record that is not of a ref run
 */
export function refRunKey(x) {
  if ('release' in x) {
    if (!x.release.ref) throw new Error(`run record ${x.id} is not of a ref run (no release.ref)`);
    return { hostClass: x.host.class, product: x.release.product, suite: x.config.suite, commit: x.release.ref.commit };
  }
  if ('tests' in x) {
    if (!x.ref) throw new Error(`the comparison of ${x.candidate.version} against ${x.base.version} is not of a ref run (no ref)`);
    return { hostClass: x.hostClass, product: x.product, suite: x.suite, commit: x.ref.commit };
  }
  return { hostClass: x.hostClass, product: x.product, suite: x.suite, commit: x.commit };
}

/**
 * The site's page of a ref run, relative to the site root (join it to the site's URL): the
 * same for every run and comparison of that commit on that host class and suite, so a check run
 * can link to it before the comparison exists.
 * @param {RefRunKey|import('../types.js').Comparison|import('../types.js').RunRecord} x
 * @returns {string} e.g. `ref.html?host=local&product=mariadb&suite=smoke&commit=1a2b…`
 * @throws {Error} as refRunKey
 */
export function refRunPagePath(x) {
  const k = refRunKey(x);
  return `ref.html?${new URLSearchParams({ host: k.hostClass, product: k.product, suite: k.suite, commit: k.commit })}`;
}
