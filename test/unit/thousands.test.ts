import assert from 'node:assert/strict';
import { test } from 'node:test';
import { thousands } from '../../src/thousands.ts';

test('writes numbers as toLocaleString("en-US") does, for the counts messages give', () => {
  for (const n of [0, 7, 42, 999, 1_000, 12_345, 999_999, 1_000_000, 1_155_402, -4_500, 1_234.5, 2 ** 40]) {
    assert.equal(thousands(n), n.toLocaleString('en-US', { maximumFractionDigits: 20 }), String(n));
  }
});
