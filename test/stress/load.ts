// Load and lifetime runs, shared by the fast suite in npm test (test/e2e/load.test.ts) and the long one
// in npm run test:stress (test/stress/load.stress.test.ts): the same measurements, different counts.
import { createLibraryApi } from '../../demo/library-api.ts';
import { graphqlHandler, respond, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { startMcp, type McpSession } from '../fixtures/mcp.ts';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  descriptorsOf,
  eventually,
  heapAfterGcMiB,
  heapProbeEnv,
  memoryOf,
  pool,
  RawMcp,
  sleep,
} from './harness.ts';

/** The upstream GraphQL server: the library API at /graphql, and /never, which never answers. */
export async function startUpstream(): Promise<{ server: FaultServer; endpoint: string; never: string }> {
  const server = await startFaultServer();
  const api = createLibraryApi();
  const endpoint = server.route('/graphql', graphqlHandler(api.schema, api.rootValue));
  const never = server.route('/never', respond.never());
  return { server, endpoint, never };
}

const QUERY = '{ book(id: "b1") { title author { name } } }';
const EXPECTED = JSON.stringify({
  data: { book: { title: 'A Wizard of Earthsea', author: { name: 'Ursula K. Le Guin' } } },
});

export interface LoadFigures {
  calls: number;
  failures: number;
  firstFailure?: string;
  seconds: number;
  callsPerSecond: number;
  rssAfterWarmUpMiB: number;
  rssAfterRunMiB: number;
  /** The V8 heap in use after a full collection (heapAfterGcMiB): what the server holds on to. */
  heapAfterWarmUpMiB: number;
  heapAfterRunMiB: number;
  fdsAfterWarmUp: number;
  fdsAfterRun: number;
  socketsAfterWarmUp: number;
  socketsAfterRun: number;
  upstreamSocketsAfterWarmUp: number;
  upstreamSocketsAfterRun: number;
}

async function hammer(session: McpSession, calls: number, concurrency: number) {
  let failures = 0;
  let firstFailure: string | undefined;
  await pool(
    Array.from({ length: calls }, (_, i) => i),
    concurrency,
    async () => {
      try {
        const result = await session.call('graphql_query', { query: QUERY });
        const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
        if (result.isError === true || text !== EXPECTED) {
          failures++;
          firstFailure ??= text.slice(0, 300);
        }
      } catch (error) {
        failures++;
        firstFailure ??= String(error);
      }
    },
  );
  return { failures, firstFailure };
}

/**
 * `calls` queries with `concurrency` in flight against a local server, after a warm-up of `warmUp` calls
 * with the same concurrency; memory and descriptors measured after each (after a pause for GC to run), and
 * the heap in use after a full collection.
 */
export async function runLoad(options: {
  calls: number;
  warmUp: number;
  concurrency: number;
}): Promise<LoadFigures> {
  const upstream = await startUpstream();
  const heapFile = join(tmpdir(), `graphql-mcp-heap-${process.pid}-${randomUUID()}`);
  const session = await startMcp([`--endpoint=${upstream.endpoint}`], heapProbeEnv(heapFile));
  try {
    const pid = session.pid!;
    await hammer(session, options.warmUp, options.concurrency);
    await sleep(500);
    const warm = { memory: memoryOf(pid), fds: descriptorsOf(pid), upstream: upstream.server.openSockets() };
    const heapAfterWarmUpMiB = await heapAfterGcMiB(pid, heapFile);
    const start = performance.now();
    const { failures, firstFailure } = await hammer(session, options.calls, options.concurrency);
    const seconds = (performance.now() - start) / 1000;
    await sleep(500);
    const after = { memory: memoryOf(pid), fds: descriptorsOf(pid), upstream: upstream.server.openSockets() };
    const heapAfterRunMiB = await heapAfterGcMiB(pid, heapFile);
    return {
      calls: options.calls,
      failures,
      ...(firstFailure === undefined ? {} : { firstFailure }),
      seconds,
      callsPerSecond: options.calls / seconds,
      rssAfterWarmUpMiB: warm.memory.rssMiB,
      rssAfterRunMiB: after.memory.rssMiB,
      heapAfterWarmUpMiB,
      heapAfterRunMiB,
      fdsAfterWarmUp: warm.fds.fds,
      fdsAfterRun: after.fds.fds,
      socketsAfterWarmUp: warm.fds.sockets,
      socketsAfterRun: after.fds.sockets,
      upstreamSocketsAfterWarmUp: warm.upstream,
      upstreamSocketsAfterRun: after.upstream,
    };
  } finally {
    await session.close();
    await upstream.server.close();
    rmSync(heapFile, { force: true });
  }
}

export interface CancelFigures {
  cancelled: number;
  requestsReceived: number;
  upstreamSocketsOpenAfter: number;
  msUntilAllClosed: number;
  nextCallWorks: boolean;
}

/**
 * `count` calls to an endpoint that never answers, cancelled by the client once their request is in
 * flight (`concurrency` at a time); then counts the upstream connections still open.
 */
export async function runCancellations(options: {
  count: number;
  concurrency: number;
}): Promise<CancelFigures> {
  const upstream = await startUpstream();
  const session = await startMcp([`--endpoint=${upstream.endpoint}`, '--timeout=600000']);
  try {
    let cancelled = 0;
    for (let done = 0; done < options.count;) {
      const size = Math.min(options.concurrency, options.count - done);
      const received = upstream.server.requestsTo('/never').length;
      const controllers = Array.from({ length: size }, () => new AbortController());
      const calls = controllers.map((controller) =>
        session.client
          .callTool(
            { name: 'graphql_query', arguments: { query: '{ ok }', endpoint: upstream.never } },
            {
              signal: controller.signal,
            },
          )
          .then(
            () => false,
            () => true,
          ),
      );
      // Cancel only once every request of the batch is in flight at the upstream server.
      const inFlight = await eventually(
        () => upstream.server.requestsTo('/never').length >= received + size,
        10_000,
      );
      if (!inFlight)
        throw new Error(
          `only ${upstream.server.requestsTo('/never').length - received} of ${size} requests arrived`,
        );
      for (const controller of controllers) controller.abort();
      cancelled += (await Promise.all(calls)).filter(Boolean).length;
      done += size;
    }
    const start = performance.now();
    await eventually(() => upstream.server.openSockets() === 0, 5_000);
    const msUntilAllClosed = performance.now() - start;
    const upstreamSocketsOpenAfter = upstream.server.openSockets();
    const next = await session.call('graphql_query', { query: QUERY });
    return {
      cancelled,
      requestsReceived: upstream.server.requestsTo('/never').length,
      upstreamSocketsOpenAfter,
      msUntilAllClosed,
      nextCallWorks: next.content[0]?.type === 'text' && next.content[0].text === EXPECTED,
    };
  } finally {
    await session.close();
    await upstream.server.close();
  }
}

export type Ending = 'SIGINT' | 'SIGTERM' | 'closing stdin';

export interface ExitFigures {
  how: Ending;
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  callsInFlight: number;
  upstreamSocketsOpenAfter: number;
}

/** Starts the server, puts `inFlight` calls in flight against an endpoint that never answers, then ends it. */
export async function endWhileBusy(how: Ending, inFlight: number): Promise<ExitFigures> {
  const upstream = await startUpstream();
  const session = new RawMcp([`--endpoint=${upstream.endpoint}`, '--timeout=600000']);
  try {
    await session.initialize();
    await session.callTool('graphql_query', { query: QUERY });
    for (let i = 0; i < inFlight; i++) {
      void session
        .callTool('graphql_query', { query: '{ ok }', endpoint: upstream.never }, 600_000)
        .catch(() => undefined);
    }
    await eventually(() => upstream.server.requestsTo('/never').length >= inFlight, 10_000);
    const start = performance.now();
    if (how === 'closing stdin') session.child.stdin.end();
    else session.child.kill(how);
    // A process that has not exited by then never will: it is killed below, and the figures say so.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 20_000)));
    const exit = await Promise.race([session.exit, late]);
    clearTimeout(timer);
    const ms = (exit?.at ?? performance.now()) - start;
    await eventually(() => upstream.server.openSockets() === 0, 10_000);
    return {
      how,
      code: exit?.code ?? null,
      signal: exit?.signal ?? null,
      ms,
      callsInFlight: inFlight,
      upstreamSocketsOpenAfter: upstream.server.openSockets(),
    };
  } finally {
    session.kill();
    await upstream.server.close();
  }
}

/**
 * Descriptors other than sockets do not grow at all (2 of slack for one opened or closed in passing);
 * the pool of upstream sockets stays bounded by the calls in flight, not by the calls made.
 */
export function assertNoDescriptorGrowth(figures: LoadFigures, concurrency: number): void {
  const otherBefore = figures.fdsAfterWarmUp - figures.socketsAfterWarmUp;
  const otherAfter = figures.fdsAfterRun - figures.socketsAfterRun;
  assert.ok(
    otherAfter <= otherBefore + 2,
    `non-socket descriptors grew from ${otherBefore} to ${otherAfter}`,
  );
  assert.ok(
    figures.socketsAfterRun <= Math.max(figures.socketsAfterWarmUp, concurrency) + 4,
    `sockets grew from ${figures.socketsAfterWarmUp} to ${figures.socketsAfterRun}`,
  );
  assert.ok(
    figures.upstreamSocketsAfterRun <= concurrency + 4,
    `${figures.upstreamSocketsAfterRun} upstream sockets`,
  );
}
