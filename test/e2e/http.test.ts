// Remote mode, end to end: the built binary with --transport=http on 127.0.0.1, driven by the
// official SDK client over Streamable HTTP and by raw node:http requests, against the demo library API.
// Covers the endpoint and its methods, /health, the bearer token, the listening-interface rule, DNS
// rebinding (Host and Origin), forwarded headers and their isolation between users, the request log,
// graceful shutdown on SIGTERM, the stdio-only rule for HTTP options, and logging/setLevel.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import {
  connectHttp,
  initializeBody,
  MCP_POST_HEADERS,
  rawRequest,
  rpcMessages,
  runUntilExitOrServing,
  spawnHttpMcp,
  startHttpMcp,
  toolCallBody,
  type Exit,
  type HttpMcpClient,
  type HttpMcpProcess,
  type RawResponse,
  type RunResult,
} from '../fixtures/http-mcp.ts';
import { respond, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { texts } from '../fixtures/mcp.ts';
import { responseOf } from '../fixtures/client-views.ts';

const TOKEN = 'mcp-T0KEN-0123456789abcdef';
const BOOKS = '{ books(first: 1) { title } }';
const BOOKS_RESPONSE = { data: { books: [{ title: 'SPQR' }] } };

// ---------------------------------------------------------------------------------------------------------
// Helpers

async function serveLibrary(): Promise<RunningGraphQLServer> {
  const api = createLibraryApi();
  return serveGraphQL(api.schema, api.rootValue);
}

/** A raw POST of an initialize request to `url`, with these extra headers. */
function postInitialize(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(url, {
    method: 'POST',
    headers: { ...MCP_POST_HEADERS, ...headers },
    body: initializeBody(),
  });
}

/** Asserts a successful initialize answer: 200 and a JSON-RPC result naming graphql-mcp. */
function assertInitialized(response: RawResponse): void {
  assert.equal(response.status, 200, response.body);
  const [message] = rpcMessages(response);
  const result = message?.result as { serverInfo?: { name?: string } } | undefined;
  assert.equal(result?.serverInfo?.name, 'graphql-mcp');
}

/** Asserts the contract's startup failure: exit 2, one stderr line, no stack trace, nothing served. */
function assertStartupError(result: RunResult, expected: RegExp): void {
  assert.equal(result.served, false, `it started serving: ${result.stderr}`);
  assert.equal(result.status, 2, result.stderr);
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `more than one line on stderr:\n${result.stderr}`);
  assert.match(lines[0]!, /^graphql-mcp: /);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
  assert.match(lines[0]!, expected);
  assert.equal(result.stdout, '');
}

/** Header values of a request, joined, to search for a secret anywhere in them. */
function allHeaderValues(headers: Record<string, string | string[] | undefined>): string {
  return Object.values(headers)
    .map((value) => (Array.isArray(value) ? value.join('\n') : String(value)))
    .join('\n');
}

/** Resolves 'refused' or 'accepted' for a new TCP connection to 127.0.0.1:port. */
function probeConnection(port: number): Promise<'refused' | 'accepted'> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', () => resolve('refused'));
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------------------

describe('the MCP endpoint over Streamable HTTP', () => {
  let api: RunningGraphQLServer;
  let server: HttpMcpProcess;
  let session: HttpMcpClient;

  before(async () => {
    api = await serveLibrary();
    server = await startHttpMcp([`--endpoint=${api.url}`]);
    session = await server.connect();
  });
  after(async () => {
    await session?.close();
    await server?.stop();
    await api?.close();
  });

  test('prints the URL of the MCP endpoint on stderr and nothing on stdout', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(server.stdout(), '');
  });

  test('initializes with the SDK client and names the server', () => {
    assert.equal(session.client.getServerVersion()?.name, 'graphql-mcp');
    assert.ok(session.client.getServerCapabilities()?.tools, 'the tools capability is declared');
  });

  test('lists both tools', async () => {
    const { tools } = await session.client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['graphql_introspect', 'graphql_query']);
  });

  test('runs graphql_query against the endpoint', async () => {
    const result = await session.call('graphql_query', { query: BOOKS });
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent, BOOKS_RESPONSE);
    assert.deepEqual(JSON.parse(texts(result)[0]!), BOOKS_RESPONSE);
  });

  test('runs graphql_introspect against the endpoint', async () => {
    const result = await session.call('graphql_introspect', {});
    assert.notEqual(result.isError, true, texts(result).join('\n'));
    assert.match(texts(result)[0]!, /type Book \{/);
  });

  test('keeps no session state: an initialize answer carries a signed Mcp-Session-Id that holds what the client declared', async () => {
    const response = await postInitialize(server.url);
    assertInitialized(response);
    const id = String(response.headers['mcp-session-id']);
    assert.match(id, /^gm1\.[\w-]+\.[\w-]+$/);
    const [, body] = id.split('.');
    assert.deepEqual(Object.keys(JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'))).sort(), [
      'e',
      'n',
    ]);
  });

  test('answers a tool call that arrives without an initialize on its connection (stateless)', async () => {
    const response = await rawRequest(server.url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: toolCallBody('graphql_query', { query: BOOKS }),
    });
    assert.equal(response.status, 200, response.body);
    const [message] = rpcMessages(response);
    assert.deepEqual((message?.result as { structuredContent?: unknown }).structuredContent, BOOKS_RESPONSE);
  });

  test('answers GET /health with 200', async () => {
    const response = await rawRequest(`${server.origin}/health`);
    assert.equal(response.status, 200);
  });

  test('answers GET on /mcp with 405 and Allow: POST (no SSE stream without sessions)', async () => {
    const response = await rawRequest(server.url, { headers: { accept: 'text/event-stream' } });
    assert.equal(response.status, 405);
    assert.match(String(response.headers.allow), /\bPOST\b/);
  });

  test('answers DELETE on /mcp with 405 and Allow: POST (no session to end)', async () => {
    const response = await rawRequest(server.url, { method: 'DELETE' });
    assert.equal(response.status, 405);
    assert.match(String(response.headers.allow), /\bPOST\b/);
  });

  test('answers 404 on any other path', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['POST', '/'],
      ['POST', '/mcp/extra'],
      ['GET', '/graphql'],
      ['GET', '/healthz'],
    ] as const) {
      const response = await rawRequest(server.origin + path, {
        method,
        headers: method === 'POST' ? MCP_POST_HEADERS : {},
        body: method === 'POST' ? initializeBody() : undefined,
      });
      assert.equal(response.status, 404, `${method} ${path}`);
    }
  });

  test('answers a body that is not JSON with 400 and a JSON-RPC parse error', async () => {
    const response = await rawRequest(server.url, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: '{nope',
    });
    assert.equal(response.status, 400);
    assert.equal((rpcMessages(response)[0]?.error as { code?: number }).code, -32700);
  });

  test('declares the logging capability', () => {
    assert.ok(session.client.getServerCapabilities()?.logging, 'capabilities.logging is missing');
  });

  test('answers logging/setLevel with success', async () => {
    await assert.doesNotReject(session.client.setLoggingLevel('debug'));
  });
});

describe('the answer of a call (one JSON body) and a client that goes away', () => {
  let api: FaultServer;
  let server: HttpMcpProcess;
  const LEGACY = { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-06-18' };
  const ERAS = ['2025-era', '2026-07-28'] as const;

  before(async () => {
    api = await startFaultServer();
    api.route('/graphql', respond.json(BOOKS_RESPONSE));
    // Answers only when the test is over: a call to it stays in flight until its client gives up.
    for (const era of ERAS) api.route(`/never-${era}`, () => new Promise<void>(() => undefined));
    server = await startHttpMcp([`--endpoint=${api.origin}/graphql`]);
  });
  after(async () => {
    await server?.stop();
    await api?.close();
  });

  for (const [name, args] of [
    ['an answered call', { query: BOOKS }],
    ['a failed call (whose warning would otherwise need a stream)', { query: '{ books {' }],
  ] as const) {
    test(`answers ${name} of a 2025-era client in one JSON body with its length`, async () => {
      const response = await rawRequest(server.url, {
        method: 'POST',
        headers: LEGACY,
        body: toolCallBody('graphql_query', args),
      });
      assert.equal(response.status, 200, response.body);
      assert.match(String(response.headers['content-type']), /^application\/json/);
      assert.equal(response.headers['content-length'], String(Buffer.byteLength(response.body)));
      assert.equal(response.headers['transfer-encoding'], undefined);
      const message = JSON.parse(response.body) as { id?: unknown; result?: { isError?: boolean } };
      assert.equal(message.id, 1);
      assert.equal(message.result?.isError, name.startsWith('a failed') ? true : undefined);
    });
  }

  const MODERN_META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw-http-test', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  for (const era of ERAS) {
    test(`MUST cancel the request to the endpoint when a ${era} client goes away`, async () => {
      const target = new URL(server.url);
      const socket = connect(Number(target.port), target.hostname);
      await once(socket, 'connect');
      const params = {
        name: 'graphql_query',
        arguments: { query: BOOKS, endpoint: `${api.origin}/never-${era}` },
      };
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: era === '2025-era' ? params : { ...params, _meta: MODERN_META },
      });
      const eraHeaders =
        era === '2025-era'
          ? ''
          : 'MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: graphql_query\r\n';
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\n${eraHeaders}` +
          `Accept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      const upstream = await api.waitForRequest(`/never-${era}`, 5_000);
      assert.equal(upstream.socketOpen(), true);
      socket.destroy();
      // The server's --timeout is 30 s: only the cancellation closes the endpoint's connection this soon.
      await Promise.race([
        upstream.socketClosed,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('the request to the endpoint was not cancelled')), 5_000),
        ),
      ]);
    });
  }
});

// ---------------------------------------------------------------------------------------------------------

describe('the access token (--httpToken)', () => {
  let api: RunningGraphQLServer;
  let server: HttpMcpProcess;

  before(async () => {
    api = await serveLibrary();
    server = await startHttpMcp([`--endpoint=${api.url}`, `--httpToken=${TOKEN}`]);
  });
  after(async () => {
    await server?.stop();
    await api?.close();
  });

  function assertUnauthorized(response: RawResponse): void {
    assert.equal(response.status, 401, response.body);
    assert.match(String(response.headers['www-authenticate']), /^Bearer\b/);
    assert.ok(!response.body.includes(TOKEN));
  }

  test('MUST answer 401 with WWW-Authenticate when the token is missing', async () => {
    assertUnauthorized(await postInitialize(server.url));
  });

  test('MUST answer 401 with WWW-Authenticate when the token is wrong', async () => {
    assertUnauthorized(
      await postInitialize(server.url, { authorization: 'Bearer not-the-token-at-all-000' }),
    );
  });

  test('MUST refuse a token that differs only in its last character', async () => {
    const last = TOKEN.at(-1)!;
    const nearMiss = TOKEN.slice(0, -1) + (last === 'f' ? 'e' : 'f');
    assertUnauthorized(await postInitialize(server.url, { authorization: `Bearer ${nearMiss}` }));
  });

  test('MUST refuse the token with a character added or removed', async () => {
    assertUnauthorized(await postInitialize(server.url, { authorization: `Bearer ${TOKEN}0` }));
    assertUnauthorized(await postInitialize(server.url, { authorization: `Bearer ${TOKEN.slice(0, -1)}` }));
  });

  test('MUST refuse the token under another scheme or without one', async () => {
    assertUnauthorized(await postInitialize(server.url, { authorization: TOKEN }));
    assertUnauthorized(await postInitialize(server.url, { authorization: `Basic ${TOKEN}` }));
  });

  test('MUST ask for the token on every method of /mcp, not only POST', async () => {
    assertUnauthorized(await rawRequest(server.url, { headers: { accept: 'text/event-stream' } }));
    assertUnauthorized(await rawRequest(server.url, { method: 'DELETE' }));
  });

  test('accepts the right token from a raw request', async () => {
    assertInitialized(await postInitialize(server.url, { authorization: `Bearer ${TOKEN}` }));
  });

  test('serves an SDK client that sends the right token', async () => {
    const session = await connectHttp(server.url, { Authorization: `Bearer ${TOKEN}` });
    try {
      const result = await session.call('graphql_query', { query: BOOKS });
      assert.deepEqual(result.structuredContent, BOOKS_RESPONSE);
    } finally {
      await session.close();
    }
  });

  test('an SDK client without the token cannot connect', async () => {
    await assert.rejects(connectHttp(server.url));
  });

  test('answers GET /health without a token, for load balancers', async () => {
    const response = await rawRequest(`${server.origin}/health`);
    assert.equal(response.status, 200);
  });

  test('MUST refuse at startup a token shorter than 16 characters, without printing it', async () => {
    const short = 'abcdefghijklmno'; // 15
    const result = await runUntilExitOrServing(['--transport=http', '--port=0', `--httpToken=${short}`]);
    assertStartupError(result, /--httpToken.*16/);
    assert.ok(!result.stderr.includes(short));
  });

  test('reads the token from MCP_HTTP_TOKEN', async () => {
    const fromEnv = await startHttpMcp([`--endpoint=${api.url}`], { MCP_HTTP_TOKEN: TOKEN });
    try {
      assertUnauthorized(await postInitialize(fromEnv.url));
      assertInitialized(await postInitialize(fromEnv.url, { authorization: `Bearer ${TOKEN}` }));
    } finally {
      await fromEnv.stop();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('the listening interface (--host)', () => {
  test('MUST NOT start on a non-loopback --host without a token', async () => {
    const result = await runUntilExitOrServing(['--transport=http', '--port=0', '--host=0.0.0.0']);
    assertStartupError(result, /--host.*--httpToken/);
  });

  test('MUST NOT start on the IPv6 wildcard --host without a token', async () => {
    const result = await runUntilExitOrServing(['--transport=http', '--port=0', '--host=::']);
    assertStartupError(result, /--host.*--httpToken/);
  });

  test('MUST NOT start on a non-loopback GRAPHQL_MCP_HOST without a token', async () => {
    const result = await runUntilExitOrServing([], {
      GRAPHQL_MCP_TRANSPORT: 'http',
      GRAPHQL_MCP_PORT: '0',
      GRAPHQL_MCP_HOST: '0.0.0.0',
    });
    assertStartupError(result, /0\.0\.0\.0.*--httpToken/);
  });

  test('starts on a non-loopback --host with --allowUnauthenticated', async () => {
    const result = await runUntilExitOrServing([
      '--transport=http',
      '--port=0',
      '--host=0.0.0.0',
      '--allowUnauthenticated',
    ]);
    assert.equal(result.served, true, result.stderr);
  });

  test('starts on a non-loopback --host with --httpToken', async () => {
    const result = await runUntilExitOrServing([
      '--transport=http',
      '--port=0',
      '--host=0.0.0.0',
      `--httpToken=${TOKEN}`,
    ]);
    assert.equal(result.served, true, result.stderr);
    assert.ok(!result.stderr.includes(TOKEN));
  });

  test('starts on a loopback --host without a token', async () => {
    const result = await runUntilExitOrServing(['--transport=http', '--port=0', '--host=localhost']);
    assert.equal(result.served, true, result.stderr);
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('DNS rebinding protection (Host and Origin against --allowedHosts)', () => {
  let server: HttpMcpProcess;

  before(async () => {
    server = await startHttpMcp();
  });
  after(async () => {
    await server?.stop();
  });

  function assertForbidden(response: RawResponse): void {
    assert.equal(response.status, 403, response.body);
    assert.ok(rpcMessages(response)[0]?.error, 'a JSON-RPC error body');
  }

  test('MUST answer 403 to a Host that is not allowed', async () => {
    assertForbidden(await postInitialize(server.url, { host: `evil.example:${server.port}` }));
  });

  test('MUST answer 403 to a Host that merely starts with an allowed name', async () => {
    assertForbidden(await postInitialize(server.url, { host: `localhost.evil.example:${server.port}` }));
    assertForbidden(await postInitialize(server.url, { host: `127.0.0.1.nip.io:${server.port}` }));
  });

  test('MUST answer 403 to an Origin that is not allowed', async () => {
    assertForbidden(await postInitialize(server.url, { origin: 'http://evil.example' }));
    assertForbidden(await postInitialize(server.url, { origin: `http://evil.example:${server.port}` }));
  });

  test('MUST answer 403 to a Host that holds more than a host name and port', async () => {
    for (const host of [
      'localhost/x',
      `localhost:${server.port}/x`,
      `localhost@evil.example`,
      `evil.example@localhost:${server.port}`,
      `localhost#x`,
      `localhost?x`,
      `localhost:${server.port}:1`,
      'localhost:99999',
      `localhost:`,
      'localhost\\x',
    ]) {
      const response = await postInitialize(server.url, { host });
      assert.equal(response.status, 403, `${host}: ${response.body}`);
    }
  });

  test('MUST answer 403 to an Origin that holds more than a scheme, a host name and a port', async () => {
    for (const origin of [
      `http://localhost:${server.port}/`,
      `http://localhost:${server.port}/x`,
      'http://user@localhost',
      'http://localhost?x',
      'http://localhost#x',
      'localhost',
      `http://localhost:${server.port}, http://evil.example`,
      '',
    ]) {
      assertForbidden(await postInitialize(server.url, { origin }));
    }
  });

  test('MUST answer 403 to an opaque Origin (null)', async () => {
    assertForbidden(await postInitialize(server.url, { origin: 'null' }));
  });

  test('MUST check Host and Origin on every method of /mcp', async () => {
    const host = `evil.example:${server.port}`;
    assertForbidden(await rawRequest(server.url, { headers: { host, accept: 'text/event-stream' } }));
    assertForbidden(await rawRequest(server.url, { method: 'DELETE', headers: { host } }));
  });

  test('accepts the loopback names in Host: localhost, 127.0.0.1 and [::1]', async () => {
    for (const name of ['localhost', '127.0.0.1', '[::1]', 'LOCALHOST']) {
      assertInitialized(await postInitialize(server.url, { host: `${name}:${server.port}` }));
    }
  });

  test('accepts an Origin on an allowed host', async () => {
    assertInitialized(await postInitialize(server.url, { origin: `http://localhost:${server.port}` }));
    assertInitialized(await postInitialize(server.url, { origin: `http://127.0.0.1:${server.port}` }));
  });

  test('--allowedHosts replaces the default names', async () => {
    const custom = await startHttpMcp(['--allowedHosts=mcp.example.com']);
    try {
      assertInitialized(await postInitialize(custom.url, { host: `mcp.example.com:${custom.port}` }));
      assertInitialized(
        await postInitialize(custom.url, {
          host: `mcp.example.com:${custom.port}`,
          origin: 'https://mcp.example.com',
        }),
      );
      assertForbidden(await postInitialize(custom.url));
    } finally {
      await custom.stop();
    }
  });

  test('--allowedHosts=* accepts any Host and Origin', async () => {
    const open = await startHttpMcp(['--allowedHosts=*']);
    try {
      assertInitialized(
        await postInitialize(open.url, { host: `evil.example:${open.port}`, origin: 'http://evil.example' }),
      );
    } finally {
      await open.stop();
    }
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('forwarded headers (--forwardHeaders)', () => {
  const ALICE = 'alice-K3Y-1111';
  const BOB = 'bob-K3Y-2222';
  let api: RunningGraphQLServer; // the default endpoint
  let other: RunningGraphQLServer; // another origin, not trusted
  let listed: RunningGraphQLServer; // another origin, listed in --allowedEndpoints
  let server: HttpMcpProcess; // no --allowedEndpoints: any endpoint, headers only to the default origin
  let listing: HttpMcpProcess; // --allowedEndpoints=<listed>

  before(async () => {
    [api, other, listed] = await Promise.all([serveLibrary(), serveLibrary(), serveLibrary()]);
    const forward = '--forwardHeaders=X-Api-Key,X-GraphQL-Authorization:Authorization';
    [server, listing] = await Promise.all([
      startHttpMcp([`--endpoint=${api.url}`, forward]),
      startHttpMcp([`--endpoint=${api.url}`, forward, `--allowedEndpoints=${listed.url}`]),
    ]);
  });
  after(async () => {
    await Promise.all([server?.stop(), listing?.stop()]);
    await Promise.all([api?.close(), other?.close(), listed?.close()]);
  });

  /** Runs one query through a fresh SDK client sending `headers`; returns the upstream requests it caused. */
  async function queryWith(
    target: HttpMcpProcess,
    upstream: RunningGraphQLServer,
    headers: Record<string, string>,
    args: Record<string, unknown> = {},
  ): Promise<RunningGraphQLServer['requests']> {
    const start = upstream.requests.length;
    const session = await target.connect(headers);
    try {
      const result = await session.call('graphql_query', { query: BOOKS, ...args });
      assert.deepEqual(responseOf(result), BOOKS_RESPONSE, texts(result).join('\n'));
    } finally {
      await session.close();
    }
    const sent = upstream.requests.slice(start);
    assert.equal(sent.length, 1);
    return sent;
  }

  test('forwards an incoming header to the default endpoint under its own name', async () => {
    const [request] = await queryWith(server, api, { 'X-Api-Key': ALICE });
    assert.equal(request!.headers['x-api-key'], ALICE);
  });

  test('forwards an incoming header under its outgoing name, and not under the incoming one', async () => {
    const [request] = await queryWith(server, api, { 'X-GraphQL-Authorization': `Bearer ${ALICE}` });
    assert.equal(request!.headers.authorization, `Bearer ${ALICE}`);
    assert.equal(request!.headers['x-graphql-authorization'], undefined);
  });

  test('forwards no header the request does not carry', async () => {
    const [request] = await queryWith(server, api, {});
    assert.equal(request!.headers['x-api-key'], undefined);
    assert.equal(request!.headers.authorization, undefined);
  });

  test('MUST NOT forward headers to an endpoint on another origin', async () => {
    const [request] = await queryWith(
      server,
      other,
      { 'X-Api-Key': ALICE, 'X-GraphQL-Authorization': `Bearer ${ALICE}` },
      { endpoint: other.url },
    );
    assert.equal(request!.headers['x-api-key'], undefined);
    assert.equal(request!.headers.authorization, undefined);
    assert.ok(!allHeaderValues(request!.headers).includes(ALICE));
  });

  test('forwards headers to an endpoint listed in --allowedEndpoints', async () => {
    const [request] = await queryWith(listing, listed, { 'X-Api-Key': ALICE }, { endpoint: listed.url });
    assert.equal(request!.headers['x-api-key'], ALICE);
  });

  test("MUST keep each client's forwarded credential to its own requests, under concurrency", async () => {
    const callers: Array<{ name: string; headers: Record<string, string>; key: string | undefined }> = [
      { name: 'alice', headers: { 'X-Api-Key': ALICE }, key: ALICE },
      { name: 'bob', headers: { 'X-Api-Key': BOB }, key: BOB },
      { name: 'nobody', headers: {}, key: undefined },
    ];
    const CALLS = 60;
    const sessions = await Promise.all(callers.map((caller) => server.connect(caller.headers)));
    const start = api.requests.length;
    try {
      // Interleaved: alice 0, bob 0, nobody 0, alice 1, … all in flight at once.
      const calls: Array<Promise<void>> = [];
      for (let i = 0; i < CALLS; i++) {
        callers.forEach((caller, c) => {
          // The operation name marks the caller: comments do not reach the endpoint.
          const query = `query caller_${caller.name}_call_${i} ${BOOKS}`;
          calls.push(
            sessions[c]!.call('graphql_query', { query }).then((result) => {
              assert.deepEqual(result.structuredContent, BOOKS_RESPONSE, texts(result).join('\n'));
            }),
          );
        });
      }
      await Promise.all(calls);
    } finally {
      await Promise.all(sessions.map((session) => session.close()));
    }

    const sent = api.requests.slice(start);
    assert.equal(sent.length, CALLS * callers.length);
    const seen = new Map<string, number>();
    for (const request of sent) {
      const query = (JSON.parse(request.body) as { query: string }).query;
      const name = /^query caller_(\w+?)_call_\d+ /.exec(query)?.[1];
      const caller = callers.find((c) => c.name === name);
      assert.ok(caller, `an upstream request without a caller mark: ${query}`);
      assert.equal(request.headers['x-api-key'], caller.key, `${name}'s request carried another key`);
      const values = allHeaderValues(request.headers);
      for (const otherCaller of callers.filter((c) => c !== caller && c.key !== undefined)) {
        assert.ok(!values.includes(otherCaller.key!), `${name}'s request carried ${otherCaller.name}'s key`);
      }
      seen.set(caller.name, (seen.get(caller.name) ?? 0) + 1);
    }
    assert.deepEqual(Object.fromEntries(seen), { alice: CALLS, bob: CALLS, nobody: CALLS });
  });

  describe('with --httpToken', () => {
    let guarded: HttpMcpProcess;
    before(async () => {
      guarded = await startHttpMcp([
        `--endpoint=${api.url}`,
        `--httpToken=${TOKEN}`,
        '--forwardHeaders=X-Api-Key,X-GraphQL-Authorization:Authorization',
      ]);
    });
    after(async () => {
      await guarded?.stop();
    });

    test('MUST NOT forward the MCP token', async () => {
      const [request] = await queryWith(guarded, api, {
        Authorization: `Bearer ${TOKEN}`,
        // A client that copies the MCP token into a forwarded header too.
        'X-GraphQL-Authorization': `Bearer ${TOKEN}`,
        'X-Api-Key': ALICE,
      });
      assert.ok(!allHeaderValues(request!.headers).includes(TOKEN), 'the MCP token reached the endpoint');
      assert.equal(request!.headers['x-api-key'], ALICE);
    });

    test("forwards the user's own credential beside the MCP token", async () => {
      const [request] = await queryWith(guarded, api, {
        Authorization: `Bearer ${TOKEN}`,
        'X-GraphQL-Authorization': `Bearer ${ALICE}`,
      });
      assert.equal(request!.headers.authorization, `Bearer ${ALICE}`);
      assert.ok(!allHeaderValues(request!.headers).includes(TOKEN));
    });
  });

  test('MUST refuse at startup to forward the incoming Authorization while --httpToken is set', async () => {
    for (const forward of ['Authorization', 'authorization', 'X-Api-Key,Authorization:X-Upstream-Auth']) {
      const result = await runUntilExitOrServing([
        '--transport=http',
        '--port=0',
        `--httpToken=${TOKEN}`,
        `--forwardHeaders=${forward}`,
      ]);
      assertStartupError(result, /--forwardHeaders.*Authorization/);
      assert.ok(!result.stderr.includes(TOKEN));
    }
  });

  test('MUST refuse at startup to forward Authorization when the token comes from MCP_HTTP_TOKEN', async () => {
    const result = await runUntilExitOrServing([], {
      GRAPHQL_MCP_TRANSPORT: 'http',
      GRAPHQL_MCP_PORT: '0',
      MCP_HTTP_TOKEN: TOKEN,
      GRAPHQL_MCP_FORWARD_HEADERS: 'Authorization',
    });
    assertStartupError(result, /Authorization/);
    assert.ok(!result.stderr.includes(TOKEN));
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('the request log on stderr', () => {
  const API_KEY = 'l0g-K3Y-7777';
  const WRONG = 'Bearer wr0ng-T0KEN-8888888888';
  const TRACE = 'tr4ce-HEADER-9999';
  const AGENT = 'ag3nt-HEADER-6666';
  const QUERY_SECRET = 'qu3ry-STR1NG-5555';
  const FORGED_HOST = 'f0rged-h0st.example';
  let api: RunningGraphQLServer;
  let server: HttpMcpProcess;
  let lines: Array<Record<string, unknown>>;
  const sent: Array<{ method: string; path: string; status: number }> = [];

  before(async () => {
    api = await serveLibrary();
    server = await startHttpMcp([
      `--endpoint=${api.url}`,
      `--httpToken=${TOKEN}`,
      '--forwardHeaders=X-Api-Key',
    ]);
    const auth = { authorization: `Bearer ${TOKEN}`, 'x-api-key': API_KEY };
    const common = { 'x-trace': TRACE, 'user-agent': AGENT };
    const requests: Array<{ method: string; path: string; headers: Record<string, string>; body?: string }> =
      [
        { method: 'GET', path: '/health', headers: common },
        { method: 'GET', path: `/nowhere?secret=${QUERY_SECRET}`, headers: common },
        { method: 'POST', path: '/mcp', headers: { ...common, ...MCP_POST_HEADERS }, body: initializeBody() },
        {
          method: 'POST',
          path: '/mcp',
          headers: { ...common, ...MCP_POST_HEADERS, authorization: WRONG },
          body: initializeBody(),
        },
        {
          method: 'POST',
          path: '/mcp',
          headers: { ...common, ...MCP_POST_HEADERS, ...auth, host: `${FORGED_HOST}:1` },
          body: initializeBody(),
        },
        { method: 'GET', path: '/mcp', headers: { ...common, ...auth } },
        {
          method: 'POST',
          path: `/mcp?token=${QUERY_SECRET}`,
          headers: { ...common, ...MCP_POST_HEADERS, ...auth },
          body: initializeBody(),
        },
        {
          method: 'POST',
          path: '/mcp',
          headers: { ...common, ...MCP_POST_HEADERS, ...auth },
          body: toolCallBody('graphql_query', { query: BOOKS }),
        },
      ];
    // One after the other, so that the log's order is the requests' order.
    for (const request of requests) {
      const response = await rawRequest(server.origin + request.path, request);
      sent.push({ method: request.method, path: request.path.split('?')[0]!, status: response.status });
    }
    lines = await server.waitForLogLines(requests.length);
  });
  after(async () => {
    await server?.stop();
    await api?.close();
  });

  test('the requests of this check got the statuses they should', () => {
    assert.deepEqual(
      sent.map((request) => request.status),
      [200, 404, 401, 401, 403, 405, 200, 200],
    );
  });

  test('writes one structured JSON line per HTTP request on stderr', () => {
    assert.equal(lines.length, sent.length);
    lines.forEach((line, i) => {
      assert.equal(line.method, sent[i]!.method);
      assert.equal(line.path, sent[i]!.path);
      assert.equal(line.status, sent[i]!.status);
      assert.equal(typeof line.time, 'string');
      assert.equal(typeof line.ms, 'number');
    });
    // Every stderr line is the start-up line or a JSON log line.
    const other = server
      .stderr()
      .trimEnd()
      .split('\n')
      .filter((line) => !line.startsWith('{'));
    assert.equal(other.length, 1, other.join('\n'));
  });

  test('names the JSON-RPC method and the tool of a call in its log line', () => {
    assert.equal(lines[6]!.rpc, 'initialize');
    assert.equal(lines[7]!.rpc, 'tools/call');
    assert.equal(lines[7]!.tool, 'graphql_query');
  });

  test('MUST NOT write any header value, token or query string to stderr', () => {
    const stderr = server.stderr();
    for (const secret of [TOKEN, WRONG, 'wr0ng-T0KEN', API_KEY, TRACE, AGENT, QUERY_SECRET, FORGED_HOST]) {
      assert.ok(!stderr.includes(secret), `stderr holds ${secret}`);
    }
  });

  test('writes nothing on stdout in HTTP mode', () => {
    assert.equal(server.stdout(), '');
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('graceful shutdown on SIGTERM', () => {
  const SLOW_MS = 1_500;
  const TIMEOUT_MS = 10_000;
  let slow: FaultServer;
  let server: HttpMcpProcess;
  let acceptedAfterSigterm: 'refused' | 'accepted';
  let healthDuringShutdown: string;
  let callResult: unknown;
  let callDoneAt = 0;
  let exit: Exit;
  let exitedAt = 0;
  let sigtermAt = 0;

  before(async () => {
    slow = await startFaultServer();
    const endpoint = slow.route('/graphql', respond.delay(SLOW_MS, respond.json({ data: { slow: 'done' } })));
    server = await startHttpMcp([`--endpoint=${endpoint}`, `--timeout=${TIMEOUT_MS}`]);
    void server.exited.then((result) => {
      exit = result;
      exitedAt = performance.now();
    });
    const session = await server.connect();
    let health: Socket | undefined;
    try {
      const call = session.call('graphql_query', { query: '{ slow }' }).then((result) => {
        callDoneAt = performance.now();
        callResult = result.structuredContent;
      });
      await slow.waitForRequest('/graphql');
      // A health check that has begun (headers half sent) before SIGTERM, completed after it.
      health = connect(server.port, '127.0.0.1');
      await once(health, 'connect');
      let healthAnswer = '';
      health.on('data', (chunk: Buffer) => (healthAnswer += chunk.toString('utf8')));
      const healthClosed = once(health, 'close');
      health.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      await sleep(50);

      sigtermAt = performance.now();
      server.signal('SIGTERM');
      // Bounded wait until the listening socket is closed, i.e. the server is shutting down.
      acceptedAfterSigterm = 'accepted';
      for (let i = 0; i < 100 && acceptedAfterSigterm === 'accepted'; i++) {
        acceptedAfterSigterm = await probeConnection(server.port);
        if (acceptedAfterSigterm === 'accepted') await sleep(20);
      }
      health.write('Connection: close\r\n\r\n');
      await healthClosed;
      healthDuringShutdown = healthAnswer;
      await call;
      // Bounded: the hard stop comes at the deadline plus a second; an unref'd timer holds nothing open.
      await Promise.race([
        server.exited,
        new Promise<void>((resolve) => setTimeout(resolve, TIMEOUT_MS + 3_000).unref()),
      ]);
    } finally {
      health?.destroy();
      await session.close().catch(() => undefined);
    }
  });
  after(async () => {
    await server?.stop();
    await slow?.close();
  });

  test('stops accepting connections', () => {
    assert.equal(acceptedAfterSigterm, 'refused');
  });

  test('answers GET /health with 503 while shutting down', () => {
    assert.match(healthDuringShutdown, /^HTTP\/1\.1 503 /);
  });

  test('lets the call in flight finish with its result', () => {
    assert.deepEqual(callResult, { data: { slow: 'done' } });
  });

  test('exits 0 after the call in flight has finished', () => {
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.ok(exitedAt >= callDoneAt, 'exited before the call finished');
  });

  test('exits without waiting for the hard stop (the deadline plus a second) once the call is done', (t) => {
    t.diagnostic(`exited ${Math.round(exitedAt - callDoneAt)} ms after the call in flight finished`);
    assert.ok(
      exitedAt - sigtermAt < TIMEOUT_MS,
      `exited ${Math.round(exitedAt - sigtermAt)} ms after SIGTERM`,
    );
  });
});

// ---------------------------------------------------------------------------------------------------------

describe('options of remote mode', () => {
  test('MUST refuse each HTTP option with --transport=stdio (exit 2, one line)', async () => {
    const options = [
      ['--host=127.0.0.1', /--host/],
      ['--port=3000', /--port/],
      [`--httpToken=${TOKEN}`, /--httpToken/],
      ['--allowUnauthenticated', /--allowUnauthenticated/],
      ['--allowedHosts=localhost', /--allowedHosts/],
      ['--forwardHeaders=X-Api-Key', /--forwardHeaders/],
    ] as const;
    const results = await Promise.all(
      options.map(([option]) => runUntilExitOrServing(['--transport=stdio', option])),
    );
    results.forEach((result, i) => {
      assertStartupError(result, new RegExp(`${options[i]![1].source}.*--transport=http`));
      assert.ok(!result.stderr.includes(TOKEN));
    });
  });

  test('MUST refuse an HTTP option when the transport is the default stdio', async () => {
    const result = await runUntilExitOrServing(['--port=3000']);
    assertStartupError(result, /--port.*--transport=http/);
  });

  test('MUST refuse an unknown --transport', async () => {
    const result = await runUntilExitOrServing(['--transport=sse']);
    assertStartupError(result, /--transport.*stdio or http/);
  });

  test('reads the remote-mode options from their environment variables', async () => {
    const api = await serveLibrary();
    const server = await spawnHttpMcp([`--endpoint=${api.url}`], {
      GRAPHQL_MCP_TRANSPORT: 'http',
      GRAPHQL_MCP_HOST: '127.0.0.1',
      GRAPHQL_MCP_PORT: '0',
      MCP_HTTP_TOKEN: TOKEN,
      GRAPHQL_MCP_ALLOWED_HOSTS: 'localhost',
      GRAPHQL_MCP_FORWARD_HEADERS: 'X-Api-Key',
    });
    try {
      const host = `localhost:${server.port}`;
      const auth = { authorization: `Bearer ${TOKEN}` };
      assert.equal((await postInitialize(server.url, { host })).status, 401);
      assert.equal((await postInitialize(server.url, auth)).status, 403, '127.0.0.1 is not in the list');
      assertInitialized(await postInitialize(server.url, { ...auth, host }));
      const response = await rawRequest(server.url, {
        method: 'POST',
        headers: { ...MCP_POST_HEADERS, ...auth, host, 'x-api-key': 'env-K3Y' },
        body: toolCallBody('graphql_query', { query: BOOKS }),
      });
      assert.equal(response.status, 200, response.body);
      assert.equal(api.requests.at(-1)?.headers['x-api-key'], 'env-K3Y');
    } finally {
      await server.stop();
      await api.close();
    }
  });
});
