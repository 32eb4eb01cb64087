import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod/v4';
import * as diagnostics from '../../src/common/diagnostics.ts';
import { HeaderSet } from '../../src/http/headers.ts';
import { postGraphQL } from '../../src/http/post-graphql.ts';
import { startTelemetry, type OtlpProtocol, type Telemetry } from '../../src/telemetry/telemetry.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../fixtures/otlp-receiver.ts';

// The telemetry of a real McpServer of the SDK, served by the SDK's serveStdio through the traced factory, called
// by the SDK's real Client over a pair of streams (stdio's framing, each side's reads in chunks), with its tool
// sending a real HTTP request to a GraphQL API on 127.0.0.1 the way the server's HTTP client does; exported by
// the SDK's real OTLP exporters, in each protocol, to a receiver on 127.0.0.1 that decodes what it gets.

/** Secrets the scenario holds, none of which may appear in any exported byte. */
const SECRETS = {
  header: 'hdr-secret-4f9c2a7e1b',
  variable: 'var-secret-8d3e6f0a2c',
  commandLine: 'argv-secret-5b7d9e1f3a',
  queryValue: 'query-secret-2c4e6a8b0d',
  collector: 'collector-secret-9a1b3c5d7e',
};

const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const traceparent = (trace: string, span: string) => `00-${trace}-${span}-01`;

/** The environment variables each run sets, restored after it. */
const VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_METRIC_EXPORT_INTERVAL',
  'OTEL_TRACES_SAMPLER',
] as const;

/** A GraphQL API on 127.0.0.1 that records the headers of every request and answers one small response. */
async function startApi(): Promise<{ url: URL; received: IncomingHttpHeaders[]; server: Server }> {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"hello":"world"}}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/graphql?key=${SECRETS.queryValue}`), received, server };
}

/** One POST by the server's own HTTP client, which publishes its requests on the diagnostics channels. */
async function post(
  url: URL,
  headers: Record<string, string>,
  query: string,
  variables: string,
): Promise<number> {
  const { status } = await postGraphQL({
    endpoint: url,
    headers: HeaderSet.of(headers),
    operation: { query, variables, kind: 'query' },
    timeoutMs: 5_000,
    maxBytes: 1_000_000,
  });
  return status;
}

/** A deferred promise, for a test to wait on what a handler does. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** A small server: a tool that queries the API, one that fails, one that decides a mutation, one that waits. */
function serverFactory(api: URL, waiting: { started: () => void; aborted: () => void }) {
  return () => {
    const server = new McpServer(
      { name: 'telemetry-test', version: '1.0.0' },
      { capabilities: { tools: {}, resources: {}, prompts: {} } },
    );
    server.registerTool(
      'graphql_query',
      { description: 'Runs a query.', inputSchema: z.object({ query: z.string() }) },
      async ({ query }) => {
        // As the query pipeline does: the operation traced around its requests.
        const variables = JSON.stringify({ token: SECRETS.variable });
        const send = () => post(api, { authorization: `Bearer ${SECRETS.header}` }, query, variables);
        const event = { type: 'query' as const, name: 'Hello', document: query };
        const status = await diagnostics.graphqlOperation.tracePromise(send, event);
        return { content: [{ type: 'text', text: `{"data":{"hello":"world"}} (${status})` }] };
      },
    );
    server.registerTool('complex', { description: 'Refused.' }, () => ({
      content: [
        { type: 'text', text: 'COMPLEXITY_LIMIT: the query selects 120 fields, more than the limit of 100' },
      ],
      isError: true,
    }));
    server.registerTool('mutate', { description: 'Asks.' }, () => {
      diagnostics.mutationDecided.publish('declined');
      diagnostics.resultShortened.publish('mutate');
      return {
        content: [{ type: 'text', text: 'MUTATION_DECLINED: the user declined this mutation' }],
        isError: true,
      };
    });
    server.registerTool('wait', { description: 'Waits until cancelled.' }, async (ctx) => {
      waiting.started();
      await new Promise<void>((resolve) => ctx.mcpReq.signal.addEventListener('abort', () => resolve()));
      waiting.aborted();
      return { content: [{ type: 'text', text: 'cancelled' }] };
    });
    server.registerResource('schema', 'graphql://default/schema', { mimeType: 'text/plain' }, (uri) => ({
      contents: [{ uri: uri.href, text: 'type Query { hello: String }' }],
    }));
    server.registerPrompt('explore_api', { description: 'Explore.' }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'Explore the API.' } }],
    }));
    return server;
  };
}

/** A run of the scenario: telemetry on with `protocol`, a client connected, the API and the collector up. */
interface Run {
  readonly telemetry: Telemetry;
  readonly receiver: OtlpReceiver;
  readonly client: Client;
  readonly api: { url: URL; received: IncomingHttpHeaders[] };
  readonly waiting: { started: Promise<void>; aborted: Promise<void> };
  stop(): Promise<void>;
}

async function startRun(
  protocol: OtlpProtocol,
  options: { documents?: boolean; modern?: boolean; env?: Record<string, string> } = {},
): Promise<Run> {
  const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  const argv = [...process.argv];
  const receiver = await startOtlpReceiver();
  Object.assign(process.env, {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${SECRETS.collector}`,
    OTEL_SERVICE_NAME: 'graphql-mcp-under-test',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
    // Exports only when flushed.
    OTEL_METRIC_EXPORT_INTERVAL: '3600000',
    ...options.env,
  });
  // A user who put the token in the command line (issue 35): the process detector would export it.
  process.argv.push(`--headers={"Authorization":"Bearer ${SECRETS.commandLine}"}`);
  const started = await startTelemetry(process.env, {
    version: '9.8.7',
    documents: options.documents ?? false,
    log: () => undefined,
  });
  const telemetry = started.telemetry!;
  const api = await startApi();
  const handlerStarted = deferred();
  const aborted = deferred();
  const clientToServer = new PassThrough();
  const serverToClient = new PassThrough();
  const session = serveStdio(
    telemetry.traceServers(
      serverFactory(api.url, { started: handlerStarted.resolve, aborted: aborted.resolve }),
      'pipe',
    ),
    { transport: new StdioServerTransport(clientToServer, serverToClient) },
  );
  const client = new Client(
    { name: 'telemetry-test-client', version: '1.0.0' },
    options.modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  // The client's end of the pipe: the same framing, with the streams the other way round.
  await client.connect(new StdioServerTransport(serverToClient, clientToServer));
  return {
    telemetry,
    receiver,
    client,
    api,
    waiting: { started: handlerStarted.promise, aborted: aborted.promise },
    stop: async () => {
      await client.close();
      await session.close();
      await telemetry.shutdown();
      api.server.closeAllConnections();
      api.server.close();
      await receiver.close();
      process.argv.splice(0, process.argv.length, ...argv);
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}

const byName = (spans: readonly ReceivedSpan[], name: string): ReceivedSpan => {
  const found = spans.filter((span) => span.name === name);
  assert.equal(found.length, 1, `one span named ${name}, among ${spans.map((span) => span.name).join(', ')}`);
  return found[0]!;
};

const childrenOf = (spans: readonly ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] =>
  spans.filter((span) => span.parentSpanId === parent.spanId && span.traceId === parent.traceId);

for (const protocol of ['http/protobuf', 'http/json'] as const) {
  describe(`telemetry over stdio, exported as ${protocol}`, () => {
    let run: Run;
    let spans: readonly ReceivedSpan[];
    before(async () => {
      run = await startRun(protocol);
      const { client } = run;
      await client.callTool({
        name: 'graphql_query',
        arguments: { query: '{ hello }' },
        _meta: { traceparent: traceparent(CLIENT_TRACE, CLIENT_SPAN), tracestate: 'rojo=00f067aa0ba902b7' },
      });
      await client.callTool({ name: 'complex', arguments: {} });
      await client.callTool({ name: 'mutate', arguments: {} });
      await client.readResource({ uri: 'graphql://default/schema' });
      await client.getPrompt({ name: 'explore_api' });
      await client.getPrompt({ name: 'no_such_prompt' }).catch(() => undefined);
      await client.listTools();
      await run.telemetry.flush();
      spans = run.receiver.spans;
    });
    after(() => run.stop());

    test('a tool call is a SERVER span named after its tool, with the conventions attributes', () => {
      const span = byName(spans, 'tools/call graphql_query');
      assert.equal(span.kind, 'SERVER');
      assert.deepEqual(
        {
          method: span.attributes['mcp.method.name'],
          tool: span.attributes['gen_ai.tool.name'],
          operation: span.attributes['gen_ai.operation.name'],
          transport: span.attributes['network.transport'],
          version: span.attributes['mcp.protocol.version'],
          id: typeof span.attributes['jsonrpc.request.id'],
          error: span.attributes['error.type'],
        },
        {
          method: 'tools/call',
          tool: 'graphql_query',
          operation: 'execute_tool',
          transport: 'pipe',
          version: '2025-11-25',
          id: 'string',
          error: undefined,
        },
      );
    });

    test("the tool call's trace and parent are those of the client's _meta.traceparent", () => {
      const span = byName(spans, 'tools/call graphql_query');
      assert.equal(span.traceId, CLIENT_TRACE);
      assert.equal(span.parentSpanId, CLIENT_SPAN);
    });

    test('a request without trace context starts a trace of its own', () => {
      const span = byName(spans, 'tools/call complex');
      assert.equal(span.parentSpanId, undefined);
      assert.notEqual(span.traceId, CLIENT_TRACE);
    });

    test("the GraphQL operation is a child of the tool call's span, named by its type", () => {
      const server = byName(spans, 'tools/call graphql_query');
      const [operation, ...others] = childrenOf(spans, server);
      assert.equal(others.length, 0);
      assert.deepEqual(
        [operation?.name, operation?.kind, operation?.attributes['graphql.operation.type']],
        ['query', 'INTERNAL', 'query'],
      );
      assert.equal(operation?.attributes['graphql.operation.name'], 'Hello');
    });

    test('the GraphQL document is not recorded unless the operator opts in', () => {
      const operation = byName(spans, 'query');
      assert.equal('graphql.document' in operation.attributes, false);
    });

    test('the HTTP request is a CLIENT span under the operation, its URL without query values', () => {
      const operation = byName(spans, 'query');
      const [http, ...others] = childrenOf(spans, operation);
      assert.equal(others.length, 0);
      assert.equal(http?.name, 'POST');
      assert.equal(http?.kind, 'CLIENT');
      assert.deepEqual(http?.attributes, {
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'server.port': Number(run.api.url.port),
        'url.full': `http://127.0.0.1:${run.api.url.port}/graphql?key=REDACTED`,
        'http.response.status_code': 200,
      });
    });

    test("the GraphQL request carries the traceparent of its HTTP span, and MUST NOT carry the client's tracestate", () => {
      const http = byName(spans, 'POST');
      const [headers] = run.api.received;
      assert.equal(headers?.traceparent, traceparent(CLIENT_TRACE, http.spanId));
      assert.equal(headers?.tracestate, undefined);
    });

    test("a tool's error result sets error.type to its code, and the span's status to ERROR", () => {
      const span = byName(spans, 'tools/call complex');
      assert.equal(span.attributes['error.type'], 'COMPLEXITY_LIMIT');
      assert.equal(span.status.code, 'ERROR');
    });

    test('a JSON-RPC error sets error.type and rpc.response.status_code to its code', () => {
      const span = byName(spans, 'prompts/get no_such_prompt');
      assert.equal(span.attributes['error.type'], '-32602');
      assert.equal(span.attributes['rpc.response.status_code'], '-32602');
      assert.equal(span.status.code, 'ERROR');
    });

    test('the decision on a mutation is an event of the tool call with its outcome', () => {
      const span = byName(spans, 'tools/call mutate');
      assert.deepEqual(span.events, [
        { name: 'graphql_mcp.mutation.decision', attributes: { 'graphql_mcp.mutation.outcome': 'declined' } },
      ]);
    });

    test('a resource read is a span named resources/read, its URI an attribute', () => {
      const span = byName(spans, 'resources/read');
      assert.equal(span.attributes['mcp.resource.uri'], 'graphql://default/schema');
    });

    test('a prompt is a span named after it, and list requests and the handshake get spans too', () => {
      assert.equal(byName(spans, 'prompts/get explore_api').attributes['gen_ai.prompt.name'], 'explore_api');
      assert.equal(byName(spans, 'tools/list').kind, 'SERVER');
      assert.equal(byName(spans, 'initialize').attributes['mcp.protocol.version'], '2025-11-25');
    });

    test('the resource names the service, its version and OTEL_RESOURCE_ATTRIBUTES', () => {
      const { resource } = byName(spans, 'initialize');
      assert.equal(resource['service.name'], 'graphql-mcp-under-test');
      assert.equal(resource['service.version'], '9.8.7');
      assert.equal(resource['deployment.environment.name'], 'test');
      assert.equal(
        Object.keys(resource).some(
          (key) => key.startsWith('process.command') || key === 'process.executable.path',
        ),
        false,
      );
    });

    test('mcp.server.operation.duration is a histogram in seconds by method, tool and error', () => {
      const metric = run.receiver.metric('mcp.server.operation.duration');
      assert.equal(metric?.type, 'histogram');
      assert.equal(metric?.unit, 's');
      const complex = metric?.points.find((point) => point.attributes['gen_ai.tool.name'] === 'complex');
      assert.deepEqual(complex?.attributes, {
        'mcp.method.name': 'tools/call',
        'network.transport': 'pipe',
        'mcp.protocol.version': '2025-11-25',
        'gen_ai.tool.name': 'complex',
        'gen_ai.operation.name': 'execute_tool',
        'error.type': 'COMPLEXITY_LIMIT',
      });
      assert.equal(complex?.count, 1);
      assert.deepEqual(
        complex?.explicitBounds,
        [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
      );
    });

    test('results shortened and mutation decisions are counted, and no metric the conventions do not ask for is kept', () => {
      // The GraphQL operation's duration is its span's: no histogram of our own repeats it.
      assert.equal(run.receiver.metric('graphql_mcp.graphql.operation.duration'), undefined);
      const shortened = run.receiver.metric('graphql_mcp.results.shortened');
      assert.deepEqual(
        shortened?.points.map((point) => [point.attributes, point.value]),
        [[{ 'gen_ai.tool.name': 'mutate' }, 1]],
      );
      const decisions = run.receiver.metric('graphql_mcp.mutation.decisions');
      assert.deepEqual(
        decisions?.points.map((point) => [point.attributes, point.value]),
        [[{ 'graphql_mcp.mutation.outcome': 'declined' }, 1]],
      );
    });

    test('the collector gets the OTEL_EXPORTER_OTLP_HEADERS it asks for', () => {
      assert.ok(run.receiver.exports.length > 0);
      for (const received of run.receiver.exports) {
        assert.equal(received.headers.authorization, `Bearer ${SECRETS.collector}`);
      }
    });

    test('MUST NOT export a header value, a variable value, a query value, a command-line token or the collector credential', () => {
      const exported = Buffer.concat(run.receiver.exports.map((received) => received.body));
      assert.ok(exported.includes('tools/call graphql_query'), 'the exported bytes are searchable');
      for (const [what, secret] of Object.entries(SECRETS)) {
        assert.equal(exported.includes(secret), false, `the ${what} secret was exported`);
      }
    });
  });
}

describe('telemetry of calls sent together', () => {
  let run: Run;
  before(async () => {
    run = await startRun('http/protobuf');
  });
  after(() => run.stop());

  test("calls sent at once each parent their own GraphQL operation (AsyncLocalStorage carries each request's span)", async () => {
    const traces = [
      '11111111111111111111111111111111',
      '22222222222222222222222222222222',
      '33333333333333333333333333333333',
    ];
    await Promise.all(
      traces.map((trace) =>
        run.client.callTool({
          name: 'graphql_query',
          arguments: { query: '{ hello }' },
          _meta: { traceparent: traceparent(trace, CLIENT_SPAN) },
        }),
      ),
    );
    await run.telemetry.flush();
    const { spans } = run.receiver;
    for (const trace of traces) {
      const server = spans.find((span) => span.traceId === trace && span.kind === 'SERVER');
      assert.ok(server, `the SERVER span of trace ${trace}`);
      const operations = spans.filter((span) => span.name === 'query' && span.parentSpanId === server.spanId);
      assert.equal(operations.length, 1, `one operation under the call of trace ${trace}`);
      assert.equal(operations[0]!.traceId, trace);
    }
  });

  test('a call the client cancels ends its span with error.type cancelled', async () => {
    run.receiver.clear();
    const controller = new AbortController();
    const call = run.client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
    await run.waiting.started;
    controller.abort();
    await call.catch(() => undefined);
    await run.waiting.aborted;
    await run.telemetry.flush();
    const span = byName(run.receiver.spans, 'tools/call wait');
    assert.equal(span.attributes['error.type'], 'cancelled');
  });
});

describe('telemetry with the operator opt-ins and a 2026-07-28 client', () => {
  let run: Run;
  before(async () => {
    run = await startRun('http/json', { documents: true, modern: true });
    await run.client.callTool({ name: 'graphql_query', arguments: { query: 'query Hello { hello }' } });
    await run.telemetry.flush();
  });
  after(() => run.stop());

  test('graphql.document is recorded when the operator opts in', () => {
    const operation = byName(run.receiver.spans, 'query');
    assert.equal(operation.attributes['graphql.document'], 'query Hello { hello }');
  });

  test("a 2026-07-28 request's protocol version comes from its _meta claim", () => {
    const span = byName(run.receiver.spans, 'tools/call graphql_query');
    assert.equal(span.attributes['mcp.protocol.version'], '2026-07-28');
  });
});

describe("telemetry with the SDK's sampler variables", () => {
  let run: Run;
  before(async () => {
    run = await startRun('http/protobuf', { env: { OTEL_TRACES_SAMPLER: 'always_off' } });
    await run.client.callTool({ name: 'graphql_query', arguments: { query: '{ hello }' } });
    await run.telemetry.flush();
  });
  after(() => run.stop());

  test('OTEL_TRACES_SAMPLER=always_off exports no span, and the metrics still', () => {
    assert.deepEqual(run.receiver.spans, []);
    assert.ok(run.receiver.metric('mcp.server.operation.duration'));
  });

  test('an unsampled call still carries its trace context to the API, marked unsampled', () => {
    assert.match(String(run.api.received[0]?.traceparent), /^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
  });
});

describe('telemetry shutdown', () => {
  test('shutdown returns by its deadline when the collector never answers, and unsubscribes', async () => {
    // A collector that accepts connections and never answers.
    const silent = createServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const saved = { ...process.env };
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    // The exporter's own deadline, after ours: the test's process then need not wait for its default 10 s.
    process.env.OTEL_EXPORTER_OTLP_TIMEOUT = '1000';
    try {
      const { telemetry } = await startTelemetry(process.env, { version: '1', log: () => undefined });
      diagnostics.resultShortened.publish('graphql_query');
      assert.equal(diagnostics.httpRequest.hasSubscribers, true);
      const started = performance.now();
      await telemetry!.shutdown(300);
      assert.ok(performance.now() - started < 2_000, 'shutdown waited for the silent collector');
      assert.equal(diagnostics.httpRequest.hasSubscribers, false, 'a stopped telemetry listens no more');
      assert.equal(diagnostics.resultShortened.hasSubscribers, false);
    } finally {
      delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
      delete process.env.OTEL_EXPORTER_OTLP_TIMEOUT;
      Object.assign(process.env, saved);
      silent.closeAllConnections();
      silent.close();
    }
  });
});
