import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as diagnostics from '../../src/common/diagnostics.ts';
import { startTelemetry, type Telemetry } from '../../src/telemetry/telemetry.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../fixtures/otlp-receiver.ts';

// Remote mode's entry point: an HTTP front, as graphql-mcp's does it (the body read and parsed in front, then
// the SDK's createMcpHandler, whose servers the telemetry wraps as it wraps stdio's: `traceServers`, network
// tcp). The SDK's real client over Streamable HTTP, the real exporter, a receiver.

const HEADER_TRACE = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const HEADER_SPAN = 'bbbbbbbbbbbbbbbb';
const META_TRACE = 'cccccccccccccccccccccccccccccccc';
const META_SPAN = 'dddddddddddddddd';

function factory() {
  const server = new McpServer(
    { name: 'remote-telemetry-test', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool('graphql_query', { description: 'Runs a query.' }, async () => {
    // Something asynchronous inside the operation, as the HTTP request is.
    await diagnostics.graphqlOperation.tracePromise(() => new Promise((resolve) => setImmediate(resolve)), {
      type: 'query',
    });
    return { content: [{ type: 'text', text: '{"data":{}}' }] };
  });
  server.registerTool('timeout', { description: 'Times out.' }, () => ({
    content: [{ type: 'text', text: 'TIMEOUT: no complete response within the 30000 ms deadline' }],
    isError: true,
  }));
  return server;
}

/** The front: the body parsed, the request traced around the SDK's handler, the answer written and recorded. */
async function startFront(telemetry: Telemetry): Promise<{ url: string; server: Server }> {
  const versions = new WeakMap<Request, string>();
  // As graphql-mcp's exchange does: the request's HTTP version in the context of its server's factory.
  const traced = telemetry.traceServers(factory as (context: unknown) => McpServer, 'tcp');
  const handler = createMcpHandler((context) =>
    traced({ ...context, httpVersion: context.requestInfo && versions.get(context.requestInfo) }),
  );
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      const message = text === '' ? undefined : (JSON.parse(text) as unknown);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && name !== 'content-length') headers.set(name, value);
      }
      const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers });
      versions.set(request, req.httpVersion);
      const response = await handler.fetch(request, message === undefined ? {} : { parsedBody: message });
      const body = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, Object.fromEntries(response.headers)).end(body);
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

describe('telemetry in remote mode, through the HTTP front', () => {
  let receiver: OtlpReceiver;
  let telemetry: Telemetry;
  let front: { url: string; server: Server };
  let spans: readonly ReceivedSpan[];
  const saved = { ...process.env };

  before(async () => {
    receiver = await startOtlpReceiver();
    process.env.OTEL_TRACES_EXPORTER = 'otlp';
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `${receiver.endpoint}/v1/traces`;
    process.env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT = `${receiver.endpoint}/v1/metrics`;
    process.env.OTEL_METRIC_EXPORT_INTERVAL = '3600000';
    telemetry = (await startTelemetry(process.env, { version: '1.0.0', log: () => undefined })).telemetry!;
    front = await startFront(telemetry);
    const client = new Client(
      { name: 'remote-telemetry-client', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(front.url), {
      requestInit: { headers: { traceparent: `00-${HEADER_TRACE}-${HEADER_SPAN}-01` } },
    });
    await client.connect(transport);
    await client.callTool({ name: 'graphql_query', arguments: {} });
    await client.callTool({
      name: 'graphql_query',
      arguments: { with: 'meta' },
      _meta: { traceparent: `00-${META_TRACE}-${META_SPAN}-01` },
    });
    await client.callTool({ name: 'timeout', arguments: {} });
    diagnostics.requestRefused.publish('in_flight');
    diagnostics.requestRefused.publish('in_flight');
    diagnostics.requestRefused.publish('body_too_large');
    await client.close();
    await telemetry.flush();
    spans = receiver.spans;
  });

  after(async () => {
    await telemetry.shutdown();
    front.server.closeAllConnections();
    front.server.close();
    await receiver.close();
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  const calls = () => spans.filter((span) => span.name === 'tools/call graphql_query');

  test("a request without _meta context is a child of the HTTP request's traceparent", () => {
    const span = calls().find((call) => call.traceId === HEADER_TRACE);
    assert.equal(span?.parentSpanId, HEADER_SPAN);
    assert.deepEqual(span?.links, []);
  });

  test("a request with _meta context is its child, linked to the HTTP request's context", () => {
    const span = calls().find((call) => call.traceId === META_TRACE);
    assert.equal(span?.parentSpanId, META_SPAN);
    assert.deepEqual(span?.links, [{ traceId: HEADER_TRACE, spanId: HEADER_SPAN }]);
  });

  test('the span says it came over HTTP on TCP, with the protocol version of the request', () => {
    const span = calls()[0];
    assert.deepEqual(
      [
        span?.kind,
        span?.attributes['network.transport'],
        span?.attributes['network.protocol.name'],
        span?.attributes['network.protocol.version'],
        span?.attributes['mcp.protocol.version'],
      ],
      ['SERVER', 'tcp', 'http', '1.1', '2026-07-28'],
    );
  });

  test("what the tool starts is a child of the request's span, through the SDK's handler", () => {
    for (const call of calls()) {
      const operations = spans.filter((span) => span.name === 'query' && span.parentSpanId === call.spanId);
      assert.equal(operations.length, 1);
    }
  });

  test("a tool's error code in a JSON answer sets error.type", () => {
    const span = spans.find((candidate) => candidate.name === 'tools/call timeout');
    assert.equal(span?.attributes['error.type'], 'TIMEOUT');
  });

  test('requests refused by a bound are counted by reason', () => {
    const refused = receiver.metric('graphql_mcp.requests.refused');
    const counts = Object.fromEntries(
      (refused?.points ?? []).map((point) => [point.attributes['graphql_mcp.refusal.reason'], point.value]),
    );
    assert.deepEqual(counts, { in_flight: 2, body_too_large: 1 });
  });
});
