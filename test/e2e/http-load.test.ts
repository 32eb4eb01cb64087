// Remote mode under load, and scaled out: 2,000 tool calls from 50 concurrent HTTP clients
// against one process, and two replicas behind a small round-robin proxy serving one client whose
// consecutive requests land on alternate replicas. Stateless serving is what makes the second work.
import assert from 'node:assert/strict';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { connectHttp, startHttpMcp, type HttpMcpProcess } from '../fixtures/http-mcp.ts';
import { texts } from '../fixtures/mcp.ts';

const BOOKS = '{ books(first: 1) { title } }';
const BOOKS_RESPONSE = { data: { books: [{ title: 'SPQR' }] } };

async function serveLibrary(): Promise<RunningGraphQLServer> {
  const api = createLibraryApi();
  return serveGraphQL(api.schema, api.rootValue);
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

// ---------------------------------------------------------------------------------------------------------

describe('one process under load', () => {
  const CLIENTS = 50;
  const CALLS_PER_CLIENT = 40; // 2,000 in all
  let api: RunningGraphQLServer;
  let server: HttpMcpProcess;

  before(async () => {
    api = await serveLibrary();
    server = await startHttpMcp([`--endpoint=${api.url}`]);
  });
  after(async () => {
    await server?.stop();
    await api?.close();
  });

  test('serves 2,000 tool calls from 50 concurrent HTTP clients without a failure', async (t) => {
    const started = performance.now();
    // Each client its own SDK Client and transport, as 50 users' assistants would be.
    const sessions = await Promise.all(Array.from({ length: CLIENTS }, () => connectHttp(server.url)));
    const connected = performance.now();
    const upstreamBefore = api.requests.length;
    const latencies: number[] = [];
    const failures: string[] = [];
    try {
      await Promise.all(
        sessions.map(async (session, c) => {
          for (let i = 0; i < CALLS_PER_CLIENT; i++) {
            const callStarted = performance.now();
            try {
              const result = await session.call('graphql_query', {
                query: `# client ${c} call ${i}\n${BOOKS}`,
              });
              if (
                result.isError ||
                JSON.stringify(result.structuredContent) !== JSON.stringify(BOOKS_RESPONSE)
              ) {
                failures.push(`client ${c} call ${i}: ${texts(result).join(' ')}`);
              }
            } catch (error) {
              failures.push(`client ${c} call ${i}: ${String(error)}`);
            }
            latencies.push(performance.now() - callStarted);
          }
        }),
      );
    } finally {
      await Promise.all(sessions.map((session) => session.close()));
    }
    const finished = performance.now();

    latencies.sort((a, b) => a - b);
    const calls = CLIENTS * CALLS_PER_CLIENT;
    const seconds = (finished - connected) / 1000;
    t.diagnostic(
      `${calls} calls from ${CLIENTS} clients: connect ${Math.round(connected - started)} ms, ` +
        `calls ${seconds.toFixed(1)} s (${Math.round(calls / seconds)}/s), ` +
        `latency p50 ${Math.round(percentile(latencies, 50))} ms, p95 ${Math.round(percentile(latencies, 95))} ms, ` +
        `max ${Math.round(latencies.at(-1) ?? 0)} ms`,
    );
    assert.deepEqual(failures.slice(0, 5), [], `${failures.length} failures`);
    assert.equal(latencies.length, calls);
    assert.equal(api.requests.length - upstreamBefore, calls, 'one GraphQL request per call');
  });
});

// ---------------------------------------------------------------------------------------------------------

interface RoundRobinProxy {
  readonly url: string;
  /** Requests sent to each target, by index. */
  readonly served: number[];
  close(): Promise<void>;
}

/** A minimal load balancer on 127.0.0.1: each request goes to the next target in turn, streamed both ways. */
async function startRoundRobinProxy(targets: readonly string[]): Promise<RoundRobinProxy> {
  const agent = new Agent({ keepAlive: true });
  const served = targets.map(() => 0);
  let next = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const index = next++ % targets.length;
    served[index]!++;
    const target = new URL(targets[index]!);
    const upstream = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('two replicas behind a round-robin proxy', () => {
  const CALLS = 20;
  let api: RunningGraphQLServer;
  let replicas: HttpMcpProcess[];
  let proxy: RoundRobinProxy;

  before(async () => {
    api = await serveLibrary();
    replicas = await Promise.all([0, 1].map(() => startHttpMcp([`--endpoint=${api.url}`])));
    proxy = await startRoundRobinProxy(replicas.map((replica) => replica.origin));
  });
  after(async () => {
    await proxy?.close();
    await Promise.all((replicas ?? []).map((replica) => replica.stop()));
    await api?.close();
  });

  test("serve one client's alternating calls without error, both replicas taking part", async (t) => {
    const session = await connectHttp(proxy.url);
    try {
      // The tool list was asked of one replica, the calls alternate: no replica needs the other's state.
      const { tools } = await session.client.listTools();
      assert.equal(tools.length, 2);
      for (let i = 0; i < CALLS; i++) {
        const result = await session.call('graphql_query', { query: BOOKS });
        assert.deepEqual(result.structuredContent, BOOKS_RESPONSE, `call ${i}: ${texts(result).join(' ')}`);
      }
      const introspection = await session.call('graphql_introspect', {});
      assert.match(texts(introspection)[0]!, /type Book \{/);
    } finally {
      await session.close();
    }

    // Each replica logged its share of the tool calls: the proxy really alternated between them.
    // A line is written when its response closes: wait (bounded) for the last ones.
    const countToolCalls = () =>
      replicas.map((replica) => replica.requestLog().filter((line) => line.rpc === 'tools/call').length);
    let toolCalls = countToolCalls();
    for (let i = 0; i < 100 && toolCalls.reduce((a, b) => a + b, 0) < CALLS + 1; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      toolCalls = countToolCalls();
    }
    t.diagnostic(
      `proxy requests per replica: ${proxy.served.join(', ')}; tool calls: ${toolCalls.join(', ')}`,
    );
    assert.ok(
      proxy.served.every((count) => count > 0),
      `a replica got no request: ${proxy.served.join(', ')}`,
    );
    assert.ok(
      toolCalls.every((count) => count >= CALLS / 2 - 1),
      `tool calls per replica: ${toolCalls.join(', ')}`,
    );
    assert.equal(
      toolCalls.reduce((a, b) => a + b, 0),
      CALLS + 1,
    );
  });
});
