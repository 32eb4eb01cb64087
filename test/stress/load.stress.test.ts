// The long load and lifetime runs (npm run test:stress, bounded well under 5 minutes): 10,000
// calls at 64 in flight, 1,000 cancellations, and each way of ending the process under load. The figures
// are printed as test diagnostics. The fuzz suites run after this file with GRAPHQL_MCP_FUZZ_SCALE=5.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertNoDescriptorGrowth, endWhileBusy, runCancellations, runLoad, type Ending } from './load.ts';

const CONCURRENCY = 64;

describe('stress: load', () => {
  test(
    '10,000 calls at 64 in flight all succeed; RSS within 30 MB of after warm-up; no descriptor growth',
    { timeout: 120_000 },
    async (t) => {
      const figures = await runLoad({ calls: 10_000, warmUp: 1_000, concurrency: CONCURRENCY });
      t.diagnostic(
        `${figures.calls} calls in ${figures.seconds.toFixed(1)} s (${Math.round(figures.callsPerSecond)}/s), ${figures.failures} failed; ` +
          `RSS ${figures.rssAfterWarmUpMiB.toFixed(1)} → ${figures.rssAfterRunMiB.toFixed(1)} MiB; ` +
          `fds ${figures.fdsAfterWarmUp} → ${figures.fdsAfterRun} (sockets ${figures.socketsAfterWarmUp} → ${figures.socketsAfterRun}); ` +
          `upstream connections ${figures.upstreamSocketsAfterWarmUp} → ${figures.upstreamSocketsAfterRun}`,
      );
      assert.equal(figures.failures, 0, figures.firstFailure);
      assert.ok(figures.rssAfterRunMiB - figures.rssAfterWarmUpMiB < 30, 'RSS grew by 30 MB or more');
      assertNoDescriptorGrowth(figures, CONCURRENCY);
    },
  );

  test(
    '1,000 calls cancelled in flight leave no upstream connection open',
    { timeout: 120_000 },
    async (t) => {
      const figures = await runCancellations({ count: 1_000, concurrency: CONCURRENCY });
      t.diagnostic(
        `${figures.cancelled} cancelled, ${figures.requestsReceived} requests received upstream, ` +
          `${figures.upstreamSocketsOpenAfter} upstream connections open after (all closed ${Math.round(figures.msUntilAllClosed)} ms after the last cancel)`,
      );
      assert.equal(figures.cancelled, 1_000);
      assert.equal(figures.upstreamSocketsOpenAfter, 0);
      assert.ok(figures.nextCallWorks);
    },
  );
});

describe('stress: lifetime', () => {
  for (const how of ['SIGINT', 'SIGTERM', 'closing stdin'] as Ending[]) {
    test(`${how} ends the process within 1 s with exit code 0 while 64 calls are in flight`, async (t) => {
      const figures = await endWhileBusy(how, CONCURRENCY);
      t.diagnostic(
        `${how}: exit code ${figures.code} after ${Math.round(figures.ms)} ms with ${figures.callsInFlight} calls in flight`,
      );
      assert.equal(figures.signal, null);
      assert.equal(figures.code, 0);
      assert.ok(figures.ms < 1_000, `exited after ${Math.round(figures.ms)} ms`);
      assert.equal(figures.upstreamSocketsOpenAfter, 0);
    });
  }
});
