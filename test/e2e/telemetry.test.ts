// Operators see every call: the built server, with the standard OTEL_* variables pointing at an OTLP/HTTP
// receiver in the test, exports its traces and metrics through the real OpenTelemetry exporters. Over stdio and
// remote mode, in both encodings: the spans of a tool call and their parentage, the trace id taken from the
// request's _meta.traceparent (or the HTTP traceparent header), the traceparent the GraphQL API received, the
// metrics, and no configured secret in any exported byte.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { startHttpMcp, type HttpMcpProcess } from '../fixtures/http-mcp.ts';
import { LegacyClient } from '../fixtures/legacy-client.ts';
import { CLI } from '../fixtures/mcp.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../fixtures/otlp-receiver.ts';

const TOKEN = 'Bearer otel-Secret-4d3c2b1a0f9e';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const QUERY = 'query Books($n: Int) { books(first: $n) { title } }';

let api: RunningGraphQLServer;
before(async () => {
  const library = createLibraryApi();
  api = await serveGraphQL(library.schema, library.rootValue);
});
after(() => api?.close());

/** Waits until the receiver holds spans matching `ready`, the exporter having flushed on its own schedule. */
async function spansWhen(receiver: OtlpReceiver, ready: (spans: readonly ReceivedSpan[]) => boolean) {
  for (let waited = 0; waited < 10_000; waited += 100) {
    if (ready(receiver.spans)) return receiver.spans;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(
    `the receiver got ${receiver.spans.length} spans: ${receiver.spans.map((span) => span.name).join(', ')}`,
  );
}

const OTEL = (receiver: OtlpReceiver, protocol: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
  OTEL_BSP_SCHEDULE_DELAY: '100',
  OTEL_METRIC_EXPORT_INTERVAL: '500',
  OTEL_SERVICE_NAME: 'graphql-mcp-test',
});

for (const protocol of ['http/protobuf', 'http/json']) {
  describe(`telemetry over stdio (${protocol})`, () => {
    let receiver: OtlpReceiver;
    let client: Client;
    let title = '';
    before(async () => {
      receiver = await startOtlpReceiver();
      client = new Client({ name: 'otel-test', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, `--endpoint=${api.url}`, `--headers={"Authorization":"${TOKEN}"}`],
          env: { PATH: process.env.PATH ?? '', ...OTEL(receiver, protocol) },
          stderr: 'ignore',
        }),
      );
    });
    after(async () => {
      await client?.close();
      await receiver?.close();
    });

    test("a tool call is a SERVER span in the caller's trace, with the GraphQL operation and its HTTP request under it", async () => {
      const before = api.requests.length;
      const result = await client.callTool({
        name: 'graphql_query',
        arguments: { query: QUERY, variables: { n: 1 } },
        _meta: { traceparent: PARENT },
      });
      assert.notEqual(result.isError, true);
      title = (result.structuredContent as { data: { books: Array<{ title: string }> } }).data.books[0]!
        .title;
      const spans = await spansWhen(receiver, (all) => all.some((span) => span.kind === 'CLIENT'));
      const server = spans.find((span) => span.name === 'tools/call graphql_query')!;
      const operation = spans.find((span) => span.parentSpanId === server.spanId)!;
      const http = spans.find((span) => span.kind === 'CLIENT')!;
      assert.equal(server.kind, 'SERVER');
      assert.equal(server.traceId, TRACE_ID, 'the trace of the _meta.traceparent');
      assert.equal(server.attributes['mcp.method.name'], 'tools/call');
      assert.equal(server.attributes['gen_ai.tool.name'], 'graphql_query');
      assert.equal(operation.attributes['graphql.operation.type'], 'query');
      assert.equal(operation.attributes['graphql.operation.name'], 'Books');
      assert.equal(operation.attributes['graphql_mcp.cost.estimate'], 1, 'books(first: 1): one list item');
      assert.equal(operation.attributes['graphql.document'], undefined, 'the document only when opted in');
      assert.equal(http.parentSpanId, operation.spanId);
      assert.equal(http.attributes['http.request.method'], 'POST');
      assert.equal(http.attributes['http.response.status_code'], 200);
      assert.equal(server.resource['service.name'], 'graphql-mcp-test');
      const received = api.requests.slice(before).at(-1)!;
      assert.match(String(received.headers.traceparent), new RegExp(`^00-${TRACE_ID}-${http.spanId}-01$`));
    });

    test('a failed call carries our error code in error.type', async () => {
      await client.callTool({ name: 'graphql_query', arguments: { query: '{ books(' } });
      const spans = await spansWhen(receiver, (all) =>
        all.some((span) => span.attributes['error.type'] === 'SYNTAX_ERROR'),
      );
      const failed = spans.find((span) => span.attributes['error.type'] === 'SYNTAX_ERROR')!;
      assert.equal(failed.status.code, 'ERROR');
    });

    test('list requests get spans too, and the duration metric counts the operations', async () => {
      await client.listTools();
      await spansWhen(receiver, (all) => all.some((span) => span.name === 'tools/list'));
      for (
        let waited = 0;
        waited < 5_000 && receiver.metric('mcp.server.operation.duration') === undefined;
        waited += 100
      ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const duration = receiver.metric('mcp.server.operation.duration');
      assert.equal(duration?.type, 'histogram');
      assert.ok(duration!.points.some((point) => point.attributes['mcp.method.name'] === 'tools/call'));
    });

    test('MUST NOT export a header value, a variable value or the result data', () => {
      const bytes = Buffer.concat(receiver.exports.map((each) => each.body)).toString('latin1');
      assert.ok(receiver.exports.length > 0);
      assert.ok(title.length > 3, 'a title was read');
      for (const secret of ['otel-Secret-4d3c2b1a0f9e', 'Bearer otel', '"n":1', title]) {
        assert.ok(!bytes.includes(secret), `an export holds ${secret}`);
      }
    });
  });
}

describe('telemetry in remote mode', () => {
  let receiver: OtlpReceiver;
  let remote: HttpMcpProcess;
  before(async () => {
    receiver = await startOtlpReceiver();
    remote = await startHttpMcp([`--endpoint=${api.url}`], OTEL(receiver, 'http/protobuf'));
  });
  after(async () => {
    await remote?.stop();
    await receiver?.close();
  });

  test("a request's SERVER span continues the trace of its HTTP traceparent header, and the API's request joins it", async () => {
    const client = await remote.connect({ traceparent: PARENT });
    try {
      const before = api.requests.length;
      await client.call('graphql_query', { query: QUERY, variables: { n: 1 } });
      const spans = await spansWhen(receiver, (all) => all.some((span) => span.kind === 'CLIENT'));
      const server = spans.find((span) => span.name === 'tools/call graphql_query')!;
      assert.equal(server.traceId, TRACE_ID);
      assert.equal(server.attributes['network.transport'], 'tcp');
      const received = api.requests.slice(before).at(-1)!;
      assert.match(String(received.headers.traceparent), new RegExp(`^00-${TRACE_ID}-`));
    } finally {
      await client.close();
    }
  });
});

describe('telemetry holds no secret and forwards nothing of the client but the trace', () => {
  const PATH_SECRET = 'pathSecret7Qk2Vz9Wm4';
  let receiver: OtlpReceiver;
  let client: Client;
  let dir: string;
  before(async () => {
    receiver = await startOtlpReceiver();
    dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-otel-'));
    const config = join(dir, 'apis.json');
    writeFileSync(
      config,
      JSON.stringify({ apis: { library: { endpoint: `${api.url}/\${env:PATH_SECRET}` } } }),
    );
    client = new Client({ name: 'otel-secret-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, `--config=${config}`],
        env: { PATH: process.env.PATH ?? '', PATH_SECRET, ...OTEL(receiver, 'http/protobuf') },
        stderr: 'ignore',
      }),
    );
  });
  after(async () => {
    await client?.close();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('MUST NOT export a part of the endpoint that ${env:…} filled in: url.full holds [redacted] instead', async () => {
    const before = api.requests.length;
    const result = await client.callTool({ name: 'graphql_query', arguments: { query: QUERY } });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.equal(api.requests.at(-1)?.path, `/graphql/${PATH_SECRET}`, 'the API got the real path');
    assert.ok(api.requests.length > before);
    const spans = await spansWhen(receiver, (all) => all.some((span) => span.kind === 'CLIENT'));
    const http = spans.find((span) => span.kind === 'CLIENT')!;
    assert.match(String(http.attributes['url.full']), /\/graphql\/\[redacted\]$/);
    await client.callTool({ name: 'graphql_introspect', arguments: {} });
    await spansWhen(receiver, (all) =>
      all.some((span) => span.attributes['graphql.operation.name'] === 'IntrospectionQuery'),
    );
    const bytes = Buffer.concat(receiver.exports.map((each) => each.body)).toString('latin1');
    assert.ok(!bytes.includes(PATH_SECRET), 'an export holds the path secret');
    assert.ok(!bytes.includes(PATH_SECRET.slice(0, 10)), 'an export holds a part of the path secret');
  });

  test("MUST NOT forward the client's tracestate to the API: the traceparent alone joins the trace", async () => {
    const result = await client.callTool({
      name: 'graphql_query',
      arguments: { query: QUERY },
      _meta: { traceparent: PARENT, tracestate: 'vendor=client-secret-state' },
    });
    assert.notEqual(result.isError, true);
    const received = api.requests.at(-1)!;
    assert.match(String(received.headers.traceparent), new RegExp(`^00-${TRACE_ID}-`));
    assert.equal(received.headers.tracestate, undefined);
  });
});

describe('telemetry in remote mode records what 2025 clients that can be asked see', () => {
  let receiver: OtlpReceiver;
  let remote: HttpMcpProcess;
  before(async () => {
    receiver = await startOtlpReceiver();
    remote = await startHttpMcp([`--endpoint=${api.url}`], OTEL(receiver, 'http/protobuf'));
  });
  after(async () => {
    await remote?.stop();
    await receiver?.close();
  });

  test('a failed call answered on the SSE stream of a client that declared elicitation is a failure, with its session id', async () => {
    const client = await LegacyClient.connect(remote.url);
    const call = client.call('graphql_query', { query: '{ books(' });
    const response = await call.response;
    assert.match(JSON.stringify(response), /SYNTAX_ERROR/);
    const spans = await spansWhen(receiver, (all) =>
      all.some((span) => span.name === 'tools/call graphql_query'),
    );
    const server = spans.find((span) => span.name === 'tools/call graphql_query')!;
    assert.equal(server.attributes['error.type'], 'SYNTAX_ERROR');
    assert.equal(server.status.code, 'ERROR');
    assert.equal(server.attributes['mcp.session.id'], client.sessionId);
    for (let waited = 0; waited < 5_000; waited += 100) {
      const points = receiver.metric('mcp.server.operation.duration')?.points ?? [];
      if (points.some((point) => point.attributes['error.type'] === 'SYNTAX_ERROR')) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.fail('the duration metric did not count the call as failed');
  });
});
