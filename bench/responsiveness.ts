// The figures the tests no longer assert, because a shared machine makes them vary: each test holds a bound many
// times wider (or measures CPU time), and the tight figure is printed here. How long the built server's event loop
// is held by each huge input of test/fixtures/huge-inputs.ts (test/e2e/hostile-input.test.ts), and how long a
// ping and GET /health wait while it shortens a hostile 1 MiB answer (test/e2e/shaping-responsive.test.ts); how
// far past its deadline a call ends (test/e2e/faults.test.ts, query.test.ts, startup.test.ts); how long a busy
// process takes to exit (test/e2e/load.test.ts, stdout.test.ts); and what 1,000 calls leave in memory, as RSS and
// as heap after a full collection (test/e2e/load.test.ts). Run: npm run bench:responsiveness [-- --runs 5]
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createLibraryApi } from '../demo/library-api.ts';
import { rawRequest, startHttpMcp } from '../test/fixtures/http-mcp.ts';
import { hostileResponse } from '../test/fixtures/hostile-responses.ts';
import { graphqlHandler, respond, startFaultServer, type FaultServer } from '../test/fixtures/http-server.ts';
import { hugeInputs } from '../test/fixtures/huge-inputs.ts';
import { startMcp } from '../test/fixtures/mcp.ts';
import { Heartbeat, mainThreadCpuMs, RawMcp } from '../test/stress/harness.ts';
import { endWhileBusy, runLoad, type Ending } from '../test/stress/load.ts';
import { median, ms } from './stats.ts';

/** Median and worst of some samples, in ms. */
const spread = (samples: readonly number[]) =>
  `${ms(median(samples))} median, ${ms(Math.max(...samples))} worst`;

/** How long the event loop stays held by each huge input: the heartbeat's longest busy ping (main-thread CPU). */
async function hugeInputFigures(fault: FaultServer, endpoint: string, runs: number): Promise<void> {
  console.log(
    `Huge inputs (test/e2e/hostile-input.test.ts): the longest the event loop was held (a 10 ms ping heartbeat, each ping counted as the server's main-thread CPU time meanwhile) and the time to answer, ${runs} runs:`,
  );
  const session = new RawMcp([
    `--endpoint=${endpoint}`,
    `--allowedEndpoints=${fault.origin}/`,
    '--timeout=2000',
    '--maxComplexity=50',
  ]);
  await session.initialize();
  const heartbeat = new Heartbeat(session, 10);
  try {
    for (const input of hugeInputs(() => fault.origin)) {
      const busy: number[] = [];
      const answered: number[] = [];
      for (let run = 0; run < runs; run++) {
        await heartbeat.settle();
        heartbeat.window();
        const args = input.args();
        const started = performance.now();
        heartbeat.pause(); // as the test does: the pipe's transfer of the 10 MB is not the server's doing
        const { written, answer } = session.callToolRaw(input.tool ?? 'graphql_query', args, 60_000);
        await written.finally(() => heartbeat.resume());
        await answer;
        answered.push(performance.now() - started);
        await heartbeat.settle();
        busy.push(heartbeat.window().maxBusyMs);
      }
      console.log(`  ${input.name}: held ${spread(busy)}; answered in ${ms(median(answered))}`);
    }
  } finally {
    await heartbeat.stop();
    session.kill();
  }
}

/** The hostile answer: 1 MiB of lists nested 990 deep, hundreds of siblings at each level. */
const hostileBody = JSON.stringify(
  hostileResponse('nested lists', 1_040_000, { depth: 990, nestedFirst: true }),
);
let nested = 0;

/**
 * Probes the server (process `pid`) again and again while it shortens the hostile answer (a route of its own
 * for each call): the slowest probe's
 * round trip, and the slowest counted as the server's main-thread CPU time meanwhile (what the test bounds).
 */
async function probeWhileShaping(
  fault: FaultServer,
  pid: number,
  call: (endpoint: string) => Promise<unknown>,
  probe: () => Promise<unknown>,
): Promise<{ wall: number; cpu: number }> {
  const path = `/nested-${++nested}`;
  const endpoint = fault.route(path, respond.text(200, 'application/json', hostileBody));
  const requested = fault.waitForRequest(path, 10_000);
  let settled = false;
  const pending = call(endpoint).finally(() => (settled = true));
  await requested;
  let wall = 0;
  let cpu = 0;
  do {
    const cpuBefore = mainThreadCpuMs(pid);
    const started = performance.now();
    await probe();
    const roundTrip = performance.now() - started;
    wall = Math.max(wall, roundTrip);
    cpu = Math.max(cpu, Math.min(roundTrip, mainThreadCpuMs(pid) - cpuBefore));
    await sleep(5);
  } while (!settled);
  await pending;
  return { wall, cpu };
}

async function shapingFigures(fault: FaultServer, runs: number): Promise<void> {
  console.log(
    `While shortening 1 MiB of lists nested 990 deep (test/e2e/shaping-responsive.test.ts), the slowest probe, ${runs} runs:`,
  );
  const ok = fault.route('/ok', respond.json({ data: { ok: true } }));
  const args = [`--endpoint=${ok}`, '--maxResultChars=40000'];
  const stdio = await startMcp(args);
  const remote = await startHttpMcp(args);
  const client = await remote.connect();
  try {
    await stdio.call('graphql_query', { query: '{ ok }' });
    await client.call('graphql_query', { query: '{ ok }' });
    const pings = { wall: [] as number[], cpu: [] as number[] };
    const health = { wall: [] as number[], cpu: [] as number[] };
    for (let run = 0; run < runs; run++) {
      const ping = await probeWhileShaping(
        fault,
        stdio.pid!,
        (endpoint) => stdio.call('graphql_query', { query: '{ x }', endpoint }),
        () => stdio.client.ping(),
      );
      const get = await probeWhileShaping(
        fault,
        remote.pid,
        (endpoint) => client.call('graphql_query', { query: '{ x }', endpoint }),
        () => rawRequest(`${remote.origin}/health`),
      );
      for (const [into, from] of [
        [pings, ping],
        [health, get],
      ] as const) {
        into.wall.push(from.wall);
        into.cpu.push(from.cpu);
      }
    }
    console.log(`  a ping (stdio): ${spread(pings.wall)}; as main-thread CPU ${spread(pings.cpu)}`);
    console.log(
      `  GET /health (remote mode): ${spread(health.wall)}; as main-thread CPU ${spread(health.cpu)}`,
    );
  } finally {
    await client.close();
    await stdio.close();
    await remote.stop();
  }
}

/** How long past its deadline a call ends, for an endpoint that never answers and one whose body trickles. */
async function deadlineFigures(fault: FaultServer, endpoint: string, runs: number): Promise<void> {
  console.log(
    `TIMEOUT: how long past its deadline a call ends (test/e2e/faults.test.ts, query.test.ts), measured by the client, ${runs} calls each:`,
  );
  const never = fault.route('/never', respond.never());
  const trickle = fault.route('/trickle', respond.trickle({ chunk: ' ', intervalMs: 100, count: 1_000 }));
  const session = await startMcp([`--endpoint=${endpoint}`]);
  try {
    for (const deadline of [300, 2_000]) {
      for (const [what, url] of [
        ['an endpoint that never answers', never],
        ['a body trickling past it', trickle],
      ] as const) {
        const late: number[] = [];
        for (let run = 0; run < runs; run++) {
          const started = performance.now();
          const result = await session.call('graphql_query', {
            query: '{ ok }',
            endpoint: url,
            timeout: deadline,
          });
          const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
          if (!text.startsWith('TIMEOUT: ')) throw new Error(`expected TIMEOUT, got ${text.slice(0, 200)}`);
          late.push(performance.now() - started - deadline);
        }
        const worst = Math.max(...late);
        console.log(
          `  ${deadline} ms, ${what}: ${spread(late)} past the deadline (${((worst / deadline) * 100).toFixed(1)} % at worst)`,
        );
      }
    }
  } finally {
    await session.close();
  }
}

async function exitFigures(runs: number): Promise<void> {
  console.log(`Ending a process with 16 calls in flight (test/e2e/load.test.ts): exit after, ${runs} runs:`);
  for (const how of ['SIGTERM', 'SIGINT', 'closing stdin'] as Ending[]) {
    const exits: number[] = [];
    for (let run = 0; run < runs; run++) {
      const figures = await endWhileBusy(how, 16);
      if (figures.code !== 0) throw new Error(`${how}: exit code ${figures.code}, signal ${figures.signal}`);
      exits.push(figures.ms);
    }
    console.log(`  ${how}: ${spread(exits)}`);
  }
}

async function memoryFigures(): Promise<void> {
  const figures = await runLoad({ calls: 1_000, warmUp: 300, concurrency: 64 });
  const grew = (from: number, to: number) => `${from.toFixed(1)} → ${to.toFixed(1)} MiB`;
  console.log(
    `Memory over 1,000 calls at 64 in flight, after 300 (test/e2e/load.test.ts): RSS ${grew(figures.rssAfterWarmUpMiB, figures.rssAfterRunMiB)}, heap in use after a full collection ${grew(figures.heapAfterWarmUpMiB, figures.heapAfterRunMiB)}`,
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const runs = Number(values.runs);
  const fault = await startFaultServer();
  try {
    const library = createLibraryApi();
    const endpoint = fault.route('/graphql', graphqlHandler(library.schema, library.rootValue));
    console.log(`Node ${process.version}\n`);
    await hugeInputFigures(fault, endpoint, runs);
    await shapingFigures(fault, runs);
    await deadlineFigures(fault, endpoint, runs);
    await exitFigures(runs);
    await memoryFigures();
  } finally {
    await fault.close();
  }
}

await main();
