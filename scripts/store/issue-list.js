/**
 * The issue list: a JSON array of tagbench's regression issues on GitHub
 * (`[{product, line, version, hostClass, suite, number, url, state, title}]`), written by
 * `tagbench issues` and read by `tagbench site --issues FILE`, which links each release to its
 * issue. This module is its only reader and writer.
 */
import { readFile } from 'node:fs/promises';
import { UserError } from '../errors.js';
import { replaceFileAtomic } from './write-file-once.js';

/** @import { IssueRef } from '../types.js' */

const STRING_FIELDS = /** @type {const} */ (['product', 'line', 'version', 'hostClass', 'suite', 'url', 'title']);
const STATES = ['open', 'closed'];

/**
 * What is wrong with one entry of an issue list.
 * @param {any} item
 * @returns {string[]} problems, each naming the field; empty when the entry is usable
 */
export function validateIssueRef(item) {
  const problems = [];
  for (const k of STRING_FIELDS) {
    if (typeof item?.[k] !== 'string') problems.push(`${k} must be a string (found ${JSON.stringify(item?.[k])})`);
  }
  if (!Number.isInteger(item?.number)) problems.push(`number must be an integer (found ${JSON.stringify(item?.number)})`);
  if (!STATES.includes(item?.state)) problems.push(`state must be one of ${STATES.join(', ')} (found ${JSON.stringify(item?.state)})`);
  return problems;
}

/**
 * Check one issue list (already parsed).
 * @param {unknown} doc
 * @param {string} where the file, for messages
 * @returns {IssueRef[]}
 * @throws {UserError} naming the entry and the field that is wrong
 */
function checkIssueList(doc, where) {
  if (!Array.isArray(doc)) throw new UserError(`${where}: expected a JSON array of issues [{product, line, version, hostClass, suite, number, url, state, title}]`);
  return doc.map((item, i) => {
    const problems = validateIssueRef(item);
    if (problems.length > 0) throw new UserError(`${where}: [${i}].${problems[0]}`);
    return /** @type {IssueRef} */ ({ product: item.product, line: item.line, version: item.version, hostClass: item.hostClass, suite: item.suite, number: item.number, url: item.url, state: item.state, title: item.title });
  });
}

/**
 * Read an issue list.
 * @param {string} file
 * @returns {Promise<IssueRef[]>}
 * @throws {UserError} when the file is missing, won't parse, or an entry lacks a field
 */
export async function readIssueList(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UserError(`--issues ${file}: cannot read (${/** @type {Error} */ (err).message}); pass the JSON list \`tagbench issues --out FILE\` writes`, { cause: err });
  }
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file}: not valid JSON (${/** @type {Error} */ (err).message}); write it again with \`tagbench issues --out FILE\``, { cause: err });
  }
  return checkIssueList(doc, file);
}

/**
 * The canonical text of an issue list (what writeIssueList stores).
 * @param {IssueRef[]} list
 * @returns {string}
 */
export function renderIssueList(list) {
  return `${JSON.stringify(checkIssueList(list, 'issue list'), null, 2)}\n`;
}

/**
 * Write (replace) an issue list atomically.
 * @param {string} file
 * @param {IssueRef[]} list
 * @returns {Promise<void>}
 * @throws {UserError} when an entry is malformed
 */
export async function writeIssueList(file, list) {
  await replaceFileAtomic(file, renderIssueList(list));
}
