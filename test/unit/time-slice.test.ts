import assert from 'node:assert/strict';
import { stat } from 'node:fs';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { jsonLengthAtLeast } from '../../src/common/json-length.ts';
import { letInputIn } from '../../src/common/time-slice.ts';

describe('jsonLengthAtLeast', () => {
  test('small variables are not long', () => {
    assert.equal(jsonLengthAtLeast(undefined, 1_000), false);
    assert.equal(
      jsonLengthAtLeast({ id: 'b1', first: 10, tags: ['a', 'b'], on: true, none: null }, 1_000),
      false,
    );
  });

  test('one long string is long', () => {
    assert.equal(jsonLengthAtLeast({ id: 'x'.repeat(10_000_000) }, 1_000_000), true);
  });

  test('many short values add up', () => {
    assert.equal(jsonLengthAtLeast({ ids: Array.from({ length: 600_000 }, () => 0) }, 1_000_000), true);
    assert.equal(
      jsonLengthAtLeast(
        { rows: Array.from({ length: 50_000 }, (_, i) => ({ [`key${i}`]: 'value' })) },
        1_000_000,
      ),
      true,
    );
  });

  test('values nested 100,000 deep are measured without recursion', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(jsonLengthAtLeast(deep, 150_000), true);
    assert.equal(jsonLengthAtLeast(deep, 300_000), false);
  });

  test('an array far longer than the limit is answered from its length', () => {
    const huge = new Array<number>(50_000_000);
    assert.equal(jsonLengthAtLeast(huge, 1_000_000), true);
  });

  test('never says long when the JSON is shorter than the limit', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 2_000 }), (value, limit) => {
        if (jsonLengthAtLeast(value, limit)) assert.ok(JSON.stringify(value).length >= limit);
      }),
      { seed: 20_241_122, numRuns: 2_000 },
    );
  });

  test('says long when the JSON is at least twice the limit and holds no numbers', () => {
    const noNumbers = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value')),
        fc.dictionary(fc.string(), tie('value')),
      ),
    })).value;
    fc.assert(
      fc.property(noNumbers, fc.integer({ min: 1, max: 500 }), (value, limit) => {
        // Escapes and long literals make JSON longer than the count, never shorter: so only a clear margin
        // is asserted.
        if (JSON.stringify(value).length >= 2 * limit + 10)
          assert.equal(jsonLengthAtLeast(value, limit), true);
      }),
      { seed: 20_241_122, numRuns: 2_000 },
    );
  });
});

describe('letInputIn', () => {
  test('an I/O callback that arrived while it waited runs before it resumes', async () => {
    // A setImmediate queued from the middle of a turn runs before the loop polls again; letInputIn must
    // wait past a poll. A timer due at once stands in for arrived input: its callback runs in the loop's
    // next timers phase, which a resume from a single setImmediate would come before.
    const order: string[] = [];
    await new Promise((resolve) => stat('.', resolve)); // go on from an I/O callback, as a tool call does
    setTimeout(() => order.push('timer'), 0);
    const start = performance.now();
    while (performance.now() - start < 5); // the timer is due by now
    await letInputIn();
    order.push('resumed');
    assert.deepEqual(order, ['timer', 'resumed']);
  });
});
