// Load and lifetime, the fast version kept in npm test (npm run test:stress runs the long one with the
// same code, test/stress/load.ts): many calls in flight with no failure and no growth in what the server
// holds in memory, descriptors or sockets; cancelled calls leave no upstream connection open; SIGINT, SIGTERM
// and stdin closing end a busy process with exit code 0 without waiting for its calls. The figures that depend
// on the machine (RSS, how long the exit takes) are bench/responsiveness.ts's.
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
/**
 * How much the heap in use after a full collection may grow over the run: 10 KB a call. It grew by 0.1 to 0.5
 * MiB (Node 20 and 24); RSS grew by 20 to 30 MiB, as V8 sized its heap up, more on Node 24.
 */
const HEAP_GROWTH_MIB = 10;
/**
 * The calls in flight wait on an endpoint that never answers, with a --timeout of ten minutes: a process that
 * waited for them would not exit. It exits in 15 to 60 ms here (its own grace ends at 500 ms); this bound is
 * many times that, also on a loaded machine.
 */
const EXIT_MS = 10_000;

describe('load', () => {
  test('1,000 calls at 64 in flight all succeed, without growth in memory, descriptors or sockets', async (t) => {
    const figures = await runLoad({ calls: 1_000, warmUp: 300, concurrency: CONCURRENCY });
    t.diagnostic(JSON.stringify(figures));
    assert.equal(figures.failures, 0, figures.firstFailure);
    assert.ok(
      figures.heapAfterRunMiB - figures.heapAfterWarmUpMiB < HEAP_GROWTH_MIB,
      `the heap in use grew from ${figures.heapAfterWarmUpMiB.toFixed(1)} to ${figures.heapAfterRunMiB.toFixed(1)} MiB`,
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
    test(`${how} ends the process with exit code 0 while 16 calls are in flight, without waiting for them`, async (t) => {
      const figures = await endWhileBusy(how, 16);
      t.diagnostic(JSON.stringify(figures));
      assert.equal(figures.signal, null, `ended by ${figures.signal}, not by exiting`);
      assert.equal(figures.code, 0);
      assert.ok(figures.ms < EXIT_MS, `exited after ${Math.round(figures.ms)} ms`);
      assert.equal(figures.upstreamSocketsOpenAfter, 0, 'upstream connections left open');
    });
  }
});
