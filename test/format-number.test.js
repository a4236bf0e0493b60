/**
 * Detectable changes as every view prints them: the reports (scripts/format-number.js) and the
 * site (site/js/format.js) say "not detectable at this noise" past 100 %, the same way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDetectable, UNDETECTABLE, formatCount } from '../scripts/format-number.js';
import { fmtDetectable, fmtRatio, ratioClass } from '../site/js/format.js';

test('a detectable change past 100 % is words in the reports and on the site; below it, a percentage; a difference metric keeps its unit', () => {
  const ratio = /** @type {any} */ ({ scale: 'log' });
  assert.equal(formatDetectable(ratio, 391.51), UNDETECTABLE.long);
  assert.equal(formatDetectable(ratio, 1), UNDETECTABLE.long);
  assert.equal(formatDetectable(ratio, 391.51, { short: true }), '> 100 %');
  assert.equal(formatDetectable(ratio, 0.2213), '22.1 %');
  assert.equal(formatDetectable(ratio, null), 'n/a');
  assert.equal(formatDetectable(/** @type {any} */ ({ scale: 'linear', unit: 'KB/op' }), 3.5), '3.50 KB/op');
  // No noise at all (an exact counter): what is true, not "0.0 %", on either scale.
  assert.equal(formatDetectable(ratio, 0), 'exact: any change is seen');
  assert.equal(formatDetectable(ratio, 0, { short: true }), 'exact');
  assert.equal(formatDetectable(/** @type {any} */ ({ scale: 'linear', unit: 'per op' }), 0), 'exact: any change is seen');
  assert.equal(formatDetectable(ratio, 0.0004), '< 0.1 %', 'a small MDE is still a size');
  assert.equal(fmtDetectable(950.69), UNDETECTABLE.long);
  assert.equal(fmtDetectable(0.2213), '22.1 %');
  assert.equal(fmtDetectable(null), '—');
});

test('a ratio is marked on the site by the value it prints: 1.0504 reads 1.05 and is not "above 1.05"; two cells reading 0.95 are marked alike', () => {
  assert.equal(fmtRatio(1.0504), '1.05');
  assert.equal(ratioClass(1.0504), '');
  assert.equal(ratioClass(1.0551), 'hi');
  assert.equal(fmtRatio(0.9496), '0.95');
  assert.equal(ratioClass(0.9496), ratioClass(0.9504));
  assert.equal(ratioClass(0.9449), 'lo');
  // Printed with five decimals (counted instructions), 0.94996 is below 0.95 as shown.
  assert.equal(ratioClass(0.94996, 5), 'lo');
  assert.equal(ratioClass(null), '');
});

test('a measured length reads in seconds, two significant digits below one', async () => {
  const { fmtSeconds } = await import('../site/js/format.js');
  assert.equal(fmtSeconds(3.04), '3 s');
  assert.equal(fmtSeconds(12.34), '12.3 s');
  assert.equal(fmtSeconds(0.0712), '0.071 s');
  assert.equal(fmtSeconds(null), '—');
});

test('an instruction count: formatValue\'s rounding with thousands separators, signed when asked', () => {
  assert.equal(formatCount(62132.4), '62,132');
  assert.equal(formatCount(7210.3, { signed: true }), '+7,210');
  assert.equal(formatCount(-274.7, { signed: true }), '-274.7');
  assert.equal(formatCount(1234567), '1,234,567');
  assert.equal(formatCount(0.5), '0.500');
  assert.equal(formatCount(null), 'n/a');
});
