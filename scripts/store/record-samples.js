/**
 * The per-second samples of a run record, stored beside it in a compressed, column-wise file
 * (`<run-id>.samples.json.gz`) so that the record itself holds summaries only. The samples are
 * the bulk of a record (34 tests x 3 repeats x 30-900 s at about 170 bytes a sample in the
 * record's JSON); column-wise and gzipped they take a few bytes a sample, and the readers that
 * need no samples (the index, watch) never open the file.
 *
 * On disk a record with a `samples` field has no `intervals` in its repeats; the store's readers
 * put them back (joinSamples) so every other stage sees the same record as before. A record
 * without `samples` (written before this file existed) keeps its intervals inline.
 */
import { gzipSync, gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { UserError } from '../errors.js';

/** Format name inside a samples file; a reader refuses any other. */
export const SAMPLES_FORMAT = 'tagbench-samples-1';

/** @typedef {import('../types.js').RecordSamples} RecordSamples */

/**
 * One repeat's samples: column-wise when every sample has the same fields (the normal case),
 * else the samples as they are (rows), so a record always reads back exactly as written.
 * @typedef {{index: number, columns: Record<string, unknown[]>} | {index: number, rows: import('../types.js').Interval[]}} RepeatSamples
 */

/**
 * @typedef {object} SamplesFile contents of `<run-id>.samples.json.gz` (gzipped JSON)
 * @property {typeof SAMPLES_FORMAT} format
 * @property {string} runId
 * @property {{name: string, repeats: RepeatSamples[]}[]} steps the record's steps in its order
 */

/**
 * Name of a record's samples file.
 * @param {string} runId
 * @returns {string}
 */
export function samplesFileName(runId) {
  return `${runId}.samples.json.gz`;
}

/**
 * Split a record into the record to store (intervals taken out, `samples` saying where they went)
 * and the gzipped samples file. A record without any sample is stored as it is (no file).
 * @param {import('../types.js').RunRecord} record validated, intervals inline
 * @returns {{record: import('../types.js').RunRecord, samples: Buffer|null}}
 */
export function splitSamples(record) {
  let count = 0;
  for (const step of record.steps) for (const rep of step.repeats) count += rep.intervals?.length ?? 0;
  const { samples: _old, ...rest } = record;
  if (count === 0) return { record: rest, samples: null };
  /** @type {SamplesFile} */
  const file = {
    format: SAMPLES_FORMAT,
    runId: record.id,
    steps: record.steps.map((step) => ({ name: step.name, repeats: step.repeats.map((rep) => toColumns(rep.index, rep.intervals ?? [])) })),
  };
  // Level 9: written once and read many times; the gzip header carries no time, so the same
  // samples always give the same bytes.
  const bytes = gzipSync(Buffer.from(JSON.stringify(file)), { level: 9 });
  return {
    record: {
      ...rest,
      steps: record.steps.map((step) => ({ ...step, repeats: step.repeats.map(({ intervals: _i, ...rep }) => /** @type {any} */ (rep)) })),
      samples: { file: samplesFileName(record.id), intervals: count, sha256: sha256(bytes) },
    },
    samples: bytes,
  };
}

/**
 * Put a record's samples back into its repeats.
 * @param {any} stored the parsed record file (with `samples`, repeats without intervals)
 * @param {Buffer|null} bytes the samples file's bytes; null when it is missing
 * @param {string} where the record's path, named in errors
 * @returns {any} the record with every repeat's intervals (and `samples` kept)
 * @throws {UserError} when the file is missing, is not the one the record names (digest), does
 *   not parse, or does not match the record's steps and repeats
 */
export function joinSamples(stored, bytes, where) {
  const want = stored.samples;
  const file = `${where.replace(/[^/]*$/, '')}${want.file}`;
  if (bytes === null) {
    throw new UserError(`${where}: its per-second samples file ${file} is missing; copy it with the record (every store copy and the results branch hold both)`);
  }
  if (sha256(bytes) !== want.sha256) {
    throw new UserError(`${file}: not the samples file ${where} names (sha256 ${sha256(bytes).slice(0, 12)}… instead of ${String(want.sha256).slice(0, 12)}…); the store never rewrites files, so restore both from the results branch`);
  }
  /** @type {SamplesFile} */
  let data;
  try {
    data = JSON.parse(gunzipSync(bytes).toString('utf8'));
  } catch (err) {
    throw new UserError(`${file}: not a gzipped JSON samples file (${/** @type {Error} */ (err).message})`);
  }
  if (data?.format !== SAMPLES_FORMAT || data.runId !== stored.id || !Array.isArray(data.steps) || data.steps.length !== stored.steps.length) {
    throw new UserError(`${file}: does not hold the samples of run ${stored.id} in format ${SAMPLES_FORMAT} with ${stored.steps.length} steps`);
  }
  let count = 0;
  const steps = stored.steps.map((/** @type {any} */ step, /** @type {number} */ i) => {
    const own = data.steps[i];
    if (own?.name !== step.name || own.repeats?.length !== step.repeats.length) {
      throw new UserError(`${file}: step ${i + 1} is ${JSON.stringify(own?.name)} with ${own?.repeats?.length} repeats; the record has ${JSON.stringify(step.name)} with ${step.repeats.length}`);
    }
    return {
      ...step,
      repeats: step.repeats.map((/** @type {any} */ rep, /** @type {number} */ j) => {
        const intervals = fromColumns(own.repeats[j], `${file}: step ${step.name} repeat ${j + 1}`);
        count += intervals.length;
        return { ...rep, intervals };
      }),
    };
  });
  if (count !== want.intervals) throw new UserError(`${file}: holds ${count} samples; ${where} says ${want.intervals}`);
  return { ...stored, steps };
}

/**
 * The same samples files? Byte-equal, or equal once read (another zlib may compress the same
 * samples to other bytes).
 * @param {Buffer} a
 * @param {Buffer} b
 * @returns {boolean}
 */
export function sameSamples(a, b) {
  if (a.equals(b)) return true;
  try {
    return isDeepStrictEqual(JSON.parse(gunzipSync(a).toString('utf8')), JSON.parse(gunzipSync(b).toString('utf8')));
  } catch {
    return false;
  }
}

/**
 * @param {number} index
 * @param {import('../types.js').Interval[]} intervals
 * @returns {RepeatSamples}
 */
function toColumns(index, intervals) {
  const keys = intervals.length > 0 ? Object.keys(intervals[0]) : [];
  const uniform = intervals.every((iv) => {
    const own = Object.keys(iv);
    return own.length === keys.length && own.every((k, i) => k === keys[i]);
  });
  if (!uniform) return { index, rows: intervals };
  return { index, columns: Object.fromEntries(keys.map((k) => [k, intervals.map((iv) => /** @type {any} */ (iv)[k])])) };
}

/**
 * @param {RepeatSamples} rep
 * @param {string} where
 * @returns {import('../types.js').Interval[]}
 */
function fromColumns(rep, where) {
  if (rep && 'rows' in rep && Array.isArray(rep.rows)) return rep.rows;
  const columns = rep && 'columns' in rep ? rep.columns : null;
  if (!columns || typeof columns !== 'object') throw new UserError(`${where}: neither columns nor rows`);
  const keys = Object.keys(columns);
  const length = keys.length === 0 ? 0 : columns[keys[0]].length;
  if (keys.some((k) => !Array.isArray(columns[k]) || columns[k].length !== length)) throw new UserError(`${where}: columns of different lengths`);
  return Array.from({ length }, (_, i) => /** @type {import('../types.js').Interval} */ (Object.fromEntries(keys.map((k) => [k, columns[k][i]]))));
}

/** @param {Buffer} bytes */
function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}
