import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ordinal, thousands } from '../../src/common/text.ts';

test('writes numbers as toLocaleString("en-US") does, for the counts messages give', () => {
  for (const n of [0, 7, 42, 999, 1_000, 12_345, 999_999, 1_000_000, 1_155_402, -4_500, 1_234.5, 2 ** 40]) {
    assert.equal(thousands(n), n.toLocaleString('en-US', { maximumFractionDigits: 20 }), String(n));
  }
});

test('writes ordinals as English does, 11th to 13th included', () => {
  const written = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map((n) => ordinal(n));
  assert.deepEqual(written, [
    '1st',
    '2nd',
    '3rd',
    '4th',
    '11th',
    '12th',
    '13th',
    '21st',
    '22nd',
    '23rd',
    '101st',
    '111th',
    '112th',
  ]);
});
