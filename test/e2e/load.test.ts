// Load and lifetime, the fast version kept in npm test (npm run test:stress runs the long one with the
// same code, test/stress/load.ts): many calls in flight with no failure and no growth in memory,
// descriptors or sockets; cancelled calls leave no upstream connection open; SIGINT, SIGTERM and stdin
// closing end a busy process within a second with exit code 0.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  assertNoDescriptorGrowth,
  endWhileBusy,
  runCancellations,
  runLoad,
  type Ending,
} from '../stress/load.ts';

const CONCURRENCY = 64;

describe('load', () => {
  test('1,000 calls at 64 in flight all succeed, without growth in memory, descriptors or sockets', async (t) => {
    const figures = await runLoad({ calls: 1_000, warmUp: 300, concurrency: CONCURRENCY });
    t.diagnostic(JSON.stringify(figures));
    assert.equal(figures.failures, 0, figures.firstFailure);
    // The bound for the long run; a tenth of the calls must stay well within it.
    assert.ok(
      figures.rssAfterRunMiB - figures.rssAfterWarmUpMiB < 30,
      `RSS grew from ${figures.rssAfterWarmUpMiB.toFixed(1)} to ${figures.rssAfterRunMiB.toFixed(1)} MiB`,
    );
    assertNoDescriptorGrowth(figures, CONCURRENCY);
  });

  test('100 calls cancelled in flight leave no upstream connection open, and the next call works', async (t) => {
    const figures = await runCancellations({ count: 100, concurrency: CONCURRENCY });
    t.diagnostic(JSON.stringify(figures));
    assert.equal(figures.cancelled, 100);
    assert.equal(figures.requestsReceived, 100);
    assert.equal(figures.upstreamSocketsOpenAfter, 0);
    assert.ok(figures.nextCallWorks);
  });
});

describe('lifetime', () => {
  for (const how of ['SIGINT', 'SIGTERM', 'closing stdin'] as Ending[]) {
    test(`${how} ends the process within 1 s with exit code 0 while 16 calls are in flight`, async (t) => {
      const figures = await endWhileBusy(how, 16);
      t.diagnostic(JSON.stringify(figures));
      assert.equal(figures.signal, null, `ended by ${figures.signal}, not by exiting`);
      assert.equal(figures.code, 0);
      // The bound; the process's own fallback exit comes at 500 ms, so 1 s leaves room for a busy machine.
      assert.ok(figures.ms < 1_000, `exited after ${Math.round(figures.ms)} ms`);
      assert.equal(figures.upstreamSocketsOpenAfter, 0, 'upstream connections left open');
    });
  }
});
