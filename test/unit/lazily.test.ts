import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lazily } from '../../src/common/lazily.ts';

test('lazily loads on first use only, and once for every later use', async () => {
  let loads = 0;
  const module = lazily(async () => ({ answer: ++loads }));
  assert.equal(loads, 0, 'nothing is loaded before the first use');
  const [first, second] = await Promise.all([module(), module()]);
  assert.equal((await module()).answer, 1);
  assert.equal(first, second);
  assert.equal(loads, 1);
});
