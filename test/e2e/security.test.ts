// The contract's Security section (docs/contract.md), end to end: where the startup headers go, the withheld-headers note,
// --allowedEndpoints matching, --readOnly, tool annotations, and that no secret ever leaves the process.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { responseOf, structuredNotes } from '../fixtures/client-views.ts';
import { startMcp, texts, type McpSession, type CallToolResult, useSession } from '../fixtures/mcp.ts';

const START_AUTH = 'Bearer st4rtup-T0KEN-1111';
const START_KEY = 'st4rtup-K3Y-2222';
const CALL_TOKEN = 'per-c4ll-T0KEN-3333';
const QUERY_SECRET = 'qu3ry-STR1NG-4444';
const PASSWORD = 'us3r-P4SS-5555';
const SECRETS = [START_AUTH, 'st4rtup-T0KEN-1111', START_KEY, CALL_TOKEN, QUERY_SECRET, PASSWORD];

const STARTUP_HEADERS = JSON.stringify({ Authorization: START_AUTH, 'X-Api-Key': START_KEY });
const BOOKS = '{ books(first: 1) { title } }';
const BOOKS_RESPONSE = { data: { books: [{ title: 'SPQR' }] } };
const MUTATION = 'mutation { addReview(bookId: "b3", rating: 5) { id } }';

// ---------------------------------------------------------------------------------------------------------
// Helpers

async function serveLibrary(): Promise<RunningGraphQLServer> {
  const api = createLibraryApi();
  return serveGraphQL(api.schema, api.rootValue);
}

function originOf(server: RunningGraphQLServer): string {
  return new URL(server.url).origin;
}

function portOf(server: RunningGraphQLServer): string {
  return new URL(server.url).port;
}

interface EchoServer {
  readonly origin: string;
  readonly requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

const ORDINARY_HEADERS = new Set([
  'host',
  'connection',
  'content-type',
  'content-length',
  'accept',
  'accept-encoding',
  'accept-language',
  'user-agent',
  'sec-fetch-mode',
]);

/**
 * A misbehaving endpoint on 127.0.0.1 that puts what it received in its answers, as debug error pages
 * do: /html500, /html200, /json500 echo the request's headers; /url500 echoes the request URL;
 * /refuse-introspection echoes the Authorization header in a GraphQL error; /slow never answers;
 * /redirect sends the client to another origin.
 */
async function startEchoServer(redirectTo: string): Promise<EchoServer> {
  const requests: EchoServer['requests'] = [];
  const server = createServer(async (req, res) => {
    for await (const _chunk of req); // drain the body
    const path = req.url ?? '';
    requests.push({ path, headers: req.headers });
    const echoed = Object.entries(req.headers)
      .filter(([name]) => !ORDINARY_HEADERS.has(name))
      .map(([name, value]) => `${name}: ${String(value)}`)
      .join('\n');
    const send = (status: number, type: string, body: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...extra });
      res.end(body);
    };
    const html = (text: string) =>
      `<html><body><pre>${text}</pre><h1>Something went wrong</h1></body></html>`;
    const route = new URL(path, 'http://localhost').pathname;
    switch (route) {
      case '/html500':
        return send(500, 'text/html', html(echoed));
      case '/html200':
        return send(200, 'text/html', html(echoed));
      case '/json500':
        return send(500, 'application/json', JSON.stringify({ message: 'rejected', received: req.headers }));
      case '/url500':
        return send(500, 'text/html', html(`POST ${path}`));
      case '/refuse-introspection':
        return send(
          200,
          'application/json',
          JSON.stringify({
            errors: [{ message: `introspection is disabled for ${String(req.headers.authorization)}` }],
          }),
        );
      case '/redirect':
        return send(307, 'text/plain', '', { location: redirectTo });
      case '/slow':
        return;
      default:
        return send(404, 'text/plain', 'no such route');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts one session for a describe block and closes it after. */

/** Calls a tool and returns the result with the requests `server` received during the call. */
async function callCounting(
  server: { requests: ReadonlyArray<{ headers: IncomingHttpHeaders }> },
  session: McpSession,
  tool: string,
  args: Record<string, unknown>,
): Promise<{ result: CallToolResult; received: Array<{ headers: IncomingHttpHeaders }> }> {
  const before = server.requests.length;
  const result = await session.call(tool, args);
  return { result, received: server.requests.slice(before) };
}

function assertNoStartupHeaders(headers: IncomingHttpHeaders | undefined): void {
  assert.ok(headers !== undefined, 'the request arrived');
  assert.equal(headers.authorization, undefined);
  assert.equal(headers['x-api-key'], undefined);
}

function assertNoSecrets(text: string, where: string): void {
  for (const secret of SECRETS)
    assert.ok(!text.includes(secret), `${where} must not contain ${secret}:\n${text}`);
}

function firstText(result: CallToolResult): string {
  return texts(result)[0] ?? '';
}

function listTools(session: McpSession) {
  return session.client.listTools().then(({ tools }) => new Map(tools.map((tool) => [tool.name, tool])));
}

// ---------------------------------------------------------------------------------------------------------
// Servers shared by the file: A is the default endpoint; B, C, D are other origins.

let A: RunningGraphQLServer;
let B: RunningGraphQLServer;
let C: RunningGraphQLServer;
let D: RunningGraphQLServer;
let echo: EchoServer;
let deadPort: number;

before(async () => {
  [A, B, C, D] = await Promise.all([serveLibrary(), serveLibrary(), serveLibrary(), serveLibrary()]);
  echo = await startEchoServer(`${originOf(B)}/graphql?leak=${QUERY_SECRET}`);
  deadPort = await closedPort();
});

after(async () => {
  await Promise.all([A.close(), B.close(), C.close(), D.close(), echo.close()]);
});

// ---------------------------------------------------------------------------------------------------------

describe('where the startup headers go', () => {
  const session = useSession(() => [`--endpoint=${A.url}`, `--headers=${STARTUP_HEADERS}`]);

  test('MUST send the startup headers to the default endpoint', async () => {
    const { received } = await callCounting(A, session(), 'graphql_query', { query: BOOKS });
    assert.equal(received[0]?.headers.authorization, START_AUTH);
    assert.equal(received[0]?.headers['x-api-key'], START_KEY);
  });

  test("MUST send the startup headers to any path on the default endpoint's origin", async () => {
    const { received } = await callCounting(A, session(), 'graphql_query', {
      query: BOOKS,
      endpoint: `${originOf(A)}/other/path`,
    });
    assert.equal(received[0]?.headers.authorization, START_AUTH);
    assert.equal(received[0]?.headers['x-api-key'], START_KEY);
  });

  test('MUST NOT send the startup headers to another origin', async () => {
    const { result, received } = await callCounting(B, session(), 'graphql_query', {
      query: BOOKS,
      endpoint: B.url,
    });
    assert.deepEqual(responseOf(result), BOOKS_RESPONSE);
    assertNoStartupHeaders(received[0]?.headers);
  });

  test('MUST NOT send the startup headers to the same host and port under another host name', async () => {
    const { received } = await callCounting(A, session(), 'graphql_query', {
      query: BOOKS,
      endpoint: `http://localhost:${portOf(A)}/graphql`,
    });
    assertNoStartupHeaders(received[0]?.headers);
  });

  test('MUST NOT send the startup headers to another origin when introspecting', async () => {
    const { result, received } = await callCounting(B, session(), 'graphql_introspect', { endpoint: B.url });
    assert.equal(result.isError, undefined, firstText(result));
    assertNoStartupHeaders(received[0]?.headers);
  });

  test('sends the per-call headers to another origin', async () => {
    const { received } = await callCounting(B, session(), 'graphql_query', {
      query: BOOKS,
      endpoint: B.url,
      headers: { Authorization: 'Bearer for-b' },
    });
    assert.equal(received[0]?.headers.authorization, 'Bearer for-b');
    assert.equal(received[0]?.headers['x-api-key'], undefined);
  });

  test('a per-call header replaces the startup header of the same name, whatever its case', async () => {
    const { received } = await callCounting(A, session(), 'graphql_query', {
      query: BOOKS,
      headers: { authorization: 'Bearer replaced' },
    });
    assert.equal(received[0]?.headers.authorization, 'Bearer replaced');
    assert.equal(received[0]?.headers['x-api-key'], START_KEY);
  });

  test('without --allowedEndpoints any http(s) endpoint may be called', async () => {
    const result = await session().call('graphql_query', { query: BOOKS, endpoint: D.url });
    assert.deepEqual(responseOf(result), BOOKS_RESPONSE);
  });
});

describe('startup headers and --allowedEndpoints', () => {
  const session = useSession(() => [
    `--endpoint=${A.url}`,
    `--headers=${STARTUP_HEADERS}`,
    `--allowedEndpoints=${B.url},${originOf(C)}/graphql/`,
  ]);

  test('MUST send the startup headers to an endpoint listed in --allowedEndpoints', async () => {
    const { result, received } = await callCounting(B, session(), 'graphql_query', {
      query: BOOKS,
      endpoint: B.url,
    });
    assert.equal(texts(result).length, 1, 'no withheld-headers note');
    assert.equal(received[0]?.headers.authorization, START_AUTH);
    assert.equal(received[0]?.headers['x-api-key'], START_KEY);
  });

  test('MUST send the startup headers below an --allowedEndpoints entry ending with "/"', async () => {
    const { received } = await callCounting(C, session(), 'graphql_query', {
      query: BOOKS,
      endpoint: `${originOf(C)}/graphql/v2`,
    });
    assert.equal(received[0]?.headers.authorization, START_AUTH);
  });

  test('MUST send the startup headers to an allowed endpoint when introspecting', async () => {
    const { result, received } = await callCounting(B, session(), 'graphql_introspect', { endpoint: B.url });
    assert.equal(texts(result).length, 1, 'no withheld-headers note');
    assert.equal(received[0]?.headers.authorization, START_AUTH);
  });
});

describe('the withheld-headers note', () => {
  const withTwo = useSession(() => [`--endpoint=${A.url}`, `--headers=${STARTUP_HEADERS}`]);
  const withOne = useSession(() => [`--endpoint=${A.url}`, `--headers={"Authorization":"${START_AUTH}"}`]);
  const withNone = useSession(() => [`--endpoint=${A.url}`]);

  test('is a second text content when startup headers were withheld', async () => {
    const result = await withTwo().call('graphql_query', { query: BOOKS, endpoint: B.url });
    const [, note] = texts(result);
    assert.equal(texts(result).length, 2);
    assert.match(note!, /withheld|not sent/i);
    assertNoSecrets(note!, 'the note');
  });

  test('keeps data and errors as the endpoint sent them, the note in extensions, the first text the same JSON', async () => {
    const result = await withTwo().call('graphql_query', { query: BOOKS, endpoint: B.url });
    assert.equal(result.isError, undefined);
    assert.deepEqual(responseOf(result), BOOKS_RESPONSE);
    assert.deepEqual(structuredNotes(result), [texts(result)[1]]);
    assert.deepEqual(JSON.parse(firstText(result)), result.structuredContent);
  });

  test('keeps the errors as the endpoint sent them, the note in extensions, when it holds only errors', async () => {
    const result = await withTwo().call('graphql_query', { query: '{ nope }', endpoint: B.url });
    assert.equal(result.isError, true);
    assert.equal(texts(result).length, 2);
    const response = responseOf(result) as { data?: unknown; errors: Array<{ message: string }> };
    assert.equal(response.data, undefined);
    assert.match(response.errors[0]!.message, /nope/);
    assert.deepEqual(structuredNotes(result), [texts(result)[1]]);
    assert.deepEqual(JSON.parse(firstText(result)), result.structuredContent);
  });

  test('is added to introspection results too, after the SDL', async () => {
    const result = await withTwo().call('graphql_introspect', { endpoint: B.url });
    assert.equal(texts(result).length, 2);
    assert.match(firstText(result), /^type Query \{/m);
    assert.match(texts(result)[1]!, /withheld|not sent/i);
  });

  test('appears when only some of the withheld startup headers were replaced by per-call headers', async () => {
    const result = await withTwo().call('graphql_query', {
      query: BOOKS,
      endpoint: B.url,
      headers: { Authorization: 'Bearer for-b' },
    });
    assert.equal(texts(result).length, 2);
    assert.match(texts(result)[1]!, /X-Api-Key/);
  });

  test('does not appear when per-call headers replace every startup header, whatever their case', async () => {
    const result = await withTwo().call('graphql_query', {
      query: BOOKS,
      endpoint: B.url,
      headers: { AUTHORIZATION: 'Bearer for-b', 'x-api-key': 'key-for-b' },
    });
    assert.deepEqual(texts(result), [JSON.stringify(BOOKS_RESPONSE)]);
  });

  test('does not appear when a per-call header of the same name replaced the only startup header', async () => {
    const { result, received } = await callCounting(B, withOne(), 'graphql_query', {
      query: BOOKS,
      endpoint: B.url,
      headers: { authorization: 'Bearer for-b' },
    });
    assert.deepEqual(texts(result), [JSON.stringify(BOOKS_RESPONSE)]);
    assert.equal(received[0]?.headers.authorization, 'Bearer for-b');
  });

  test('does not appear when there are no startup headers', async () => {
    const query = await withNone().call('graphql_query', { query: BOOKS, endpoint: B.url });
    const introspect = await withNone().call('graphql_introspect', { endpoint: B.url });
    assert.equal(texts(query).length, 1);
    assert.equal(texts(introspect).length, 1);
  });

  test('does not appear for the default endpoint', async () => {
    const result = await withTwo().call('graphql_query', { query: BOOKS });
    assert.deepEqual(texts(result), [JSON.stringify(BOOKS_RESPONSE)]);
  });
});

describe('--allowedEndpoints matching', () => {
  const session = useSession(() => [
    `--endpoint=${A.url}`,
    `--allowedEndpoints=${B.url}?entry=${QUERY_SECRET}, ${originOf(C)}/graphql/ ,${originOf(D)}`,
  ]);

  async function allowed(server: RunningGraphQLServer | EchoServer, endpoint: string): Promise<boolean> {
    const { result, received } = await callCounting(server, session(), 'graphql_query', {
      query: BOOKS,
      endpoint,
    });
    if (firstText(result).startsWith('ENDPOINT_NOT_ALLOWED:')) {
      assert.equal(received.length, 0, 'a refused endpoint is never called');
      return false;
    }
    assert.equal(received.length, 1, firstText(result));
    return true;
  }

  test("allows the endpoint of an entry, ignoring the entry's query string", async () => {
    assert.equal(await allowed(B, B.url), true);
  });

  test("ignores the endpoint's query string", async () => {
    assert.equal(await allowed(B, `${B.url}?page=2`), true);
  });

  test('MUST refuse a path below an entry that does not end with "/"', async () => {
    assert.equal(await allowed(B, `${B.url}/more`), false);
  });

  test("MUST refuse another path on an entry's origin", async () => {
    assert.equal(await allowed(B, `${originOf(B)}/other`), false);
  });

  test('allows every path below an entry ending with "/"', async () => {
    assert.equal(await allowed(C, `${originOf(C)}/graphql/`), true);
    assert.equal(await allowed(C, `${originOf(C)}/graphql/v2/deep`), true);
  });

  test('MUST refuse the path of an entry ending with "/" without its slash', async () => {
    assert.equal(await allowed(C, `${originOf(C)}/graphql`), false);
  });

  test('MUST refuse a path that merely starts with the characters of an entry ending with "/"', async () => {
    assert.equal(await allowed(C, `${originOf(C)}/graphqlx`), false);
  });

  test('a bare-origin entry allows every path of its origin', async () => {
    assert.equal(await allowed(D, D.url), true);
    assert.equal(await allowed(D, `${originOf(D)}/any/where`), true);
  });

  test("always allows the default endpoint's origin", async () => {
    assert.equal(await allowed(A, A.url), true);
    assert.equal(await allowed(A, `${originOf(A)}/other/path`), true);
  });

  test('MUST refuse the same host name under another port', async () => {
    assert.equal(await allowed(echo, `${echo.origin}/graphql`), false);
  });

  test('MUST refuse an allowed host and port under another scheme', async () => {
    assert.equal(await allowed(B, `https://127.0.0.1:${portOf(B)}/graphql`), false);
  });

  test('ENDPOINT_NOT_ALLOWED lists the allowed endpoints, without query strings', async () => {
    const result = await session().call('graphql_query', {
      query: BOOKS,
      endpoint: `${echo.origin}/graphql`,
    });
    const text = firstText(result);
    assert.equal(result.isError, true);
    assert.match(text, /^ENDPOINT_NOT_ALLOWED: /);
    for (const entry of [originOf(A), B.url, `${originOf(C)}/graphql/`, originOf(D)]) {
      assert.ok(text.includes(entry), `lists ${entry}: ${text}`);
    }
    assert.ok(!text.includes(QUERY_SECRET), text);
  });

  test('MUST refuse an endpoint that is not allowed when introspecting', async () => {
    const before = echo.requests.length;
    const result = await session().call('graphql_introspect', { endpoint: `${echo.origin}/graphql` });
    assert.match(firstText(result), /^ENDPOINT_NOT_ALLOWED: /);
    assert.equal(echo.requests.length, before);
  });
});

describe('per-call endpoints with user-info', () => {
  const session = useSession(() => [`--endpoint=${A.url}`]);

  for (const tool of ['graphql_query', 'graphql_introspect']) {
    test(`MUST refuse an endpoint with user-info with INVALID_INPUT (${tool})`, async () => {
      const { result, received } = await callCounting(B, session(), tool, {
        ...(tool === 'graphql_query' ? { query: BOOKS } : {}),
        endpoint: `http://reader:${PASSWORD}@127.0.0.1:${portOf(B)}/graphql`,
      });
      assert.equal(result.isError, true);
      assert.match(firstText(result), /^INVALID_INPUT: endpoint .*(credentials|user)/);
      assert.equal(received.length, 0);
      assertNoSecrets(texts(result).join('\n'), 'the result');
    });
  }

  test('MUST refuse an endpoint whose scheme is not http(s) with INVALID_INPUT', async () => {
    const result = await session().call('graphql_query', { query: BOOKS, endpoint: 'file:///etc/passwd' });
    assert.match(firstText(result), /^INVALID_INPUT: endpoint .*http/);
  });
});

describe('--readOnly', () => {
  const session = useSession(() => [`--endpoint=${A.url}`, '--readOnly']);

  test("MUST leave allowMutations out of graphql_query's input schema", async () => {
    const tool = (await listTools(session())).get('graphql_query');
    assert.ok(tool !== undefined);
    assert.ok(tool.inputSchema.properties !== undefined && 'query' in tool.inputSchema.properties);
    assert.equal('allowMutations' in tool.inputSchema.properties, false);
  });

  test('annotates graphql_query as read-only and not destructive', async () => {
    const annotations = (await listTools(session())).get('graphql_query')?.annotations;
    assert.equal(annotations?.readOnlyHint, true);
    assert.equal(annotations?.destructiveHint, false);
  });

  test('MUST refuse a mutation even with allowMutations true, and never send it', async () => {
    const { result, received } = await callCounting(A, session(), 'graphql_query', {
      query: MUTATION,
      allowMutations: true,
    });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /^MUTATION_NOT_ALLOWED: .*read-?only/i);
    assert.equal(received.length, 0);
  });

  test('MUST refuse a document holding a mutation even when the operation to run is a query', async () => {
    const { result, received } = await callCounting(A, session(), 'graphql_query', {
      query: `query Read ${BOOKS} mutation Write { addReview(bookId: "b3", rating: 5) { id } }`,
      operationName: 'Read',
      allowMutations: true,
    });
    assert.match(firstText(result), /^MUTATION_NOT_ALLOWED: /);
    assert.equal(received.length, 0);
  });

  test('still runs queries', async () => {
    const result = await session().call('graphql_query', { query: BOOKS });
    assert.deepEqual(result.structuredContent, BOOKS_RESPONSE);
  });
});

describe('without --readOnly', () => {
  const session = useSession(() => [`--endpoint=${A.url}`]);

  test('annotates graphql_query as destructive and open-world', async () => {
    const annotations = (await listTools(session())).get('graphql_query')?.annotations;
    assert.equal(annotations?.destructiveHint, true);
    assert.equal(annotations?.openWorldHint, true);
    assert.notEqual(annotations?.readOnlyHint, true);
  });

  test('annotates graphql_introspect as read-only', async () => {
    const annotations = (await listTools(session())).get('graphql_introspect')?.annotations;
    assert.equal(annotations?.readOnlyHint, true);
    assert.notEqual(annotations?.destructiveHint, true);
  });

  test("advertises allowMutations as a boolean in graphql_query's input schema", async () => {
    const properties = (await listTools(session())).get('graphql_query')?.inputSchema.properties as
      Record<string, { type?: string }> | undefined;
    assert.equal(properties?.allowMutations?.type, 'boolean');
  });

  for (const allowMutations of [undefined, false]) {
    test(`MUST NOT send a mutation when allowMutations is ${String(allowMutations)}`, async () => {
      const { result, received } = await callCounting(A, session(), 'graphql_query', {
        query: MUTATION,
        ...(allowMutations === undefined ? {} : { allowMutations }),
      });
      assert.match(firstText(result), /^MUTATION_NOT_ALLOWED: .*allowMutations/);
      assert.equal(received.length, 0);
    });
  }

  test('sends a mutation when allowMutations is true', async () => {
    const { result, received } = await callCounting(A, session(), 'graphql_query', {
      query: MUTATION,
      allowMutations: true,
    });
    assert.equal(result.isError, undefined, firstText(result));
    assert.equal(received.length, 1);
  });
});

describe('secret hygiene', () => {
  // The default endpoint carries a secret in its query string, as some APIs want their key.
  const session = useSession(() => [
    `--endpoint=${echo.origin}/html500?api_key=${QUERY_SECRET}`,
    `--headers=${STARTUP_HEADERS}`,
  ]);
  const callHeaders = { 'X-Call-Token': CALL_TOKEN };
  const onEcho = (path: string) => `${echo.origin}${path}?api_key=${QUERY_SECRET}`;

  async function assertClean(tool: string, args: Record<string, unknown>, code: string): Promise<void> {
    const result = await session().call(tool, args);
    const all = texts(result).join('\n');
    if (code === 'OK') assert.equal(result.isError, undefined, all);
    else assert.match(firstText(result), new RegExp(`^${code}: `));
    assertNoSecrets(all, 'the result');
    assertNoSecrets(JSON.stringify(result.structuredContent ?? {}), 'structuredContent');
  }

  test('the echo server really receives the secrets', async () => {
    const before = echo.requests.length;
    await session().call('graphql_query', { query: BOOKS, headers: callHeaders });
    const [request] = echo.requests.slice(before);
    assert.equal(request?.headers.authorization, START_AUTH);
    assert.equal(request?.headers['x-call-token'], CALL_TOKEN);
    assert.ok(request?.path.includes(QUERY_SECRET));
  });

  test('MUST NOT reveal header values echoed in an HTML error page (HTTP_ERROR)', async () => {
    await assertClean('graphql_query', { query: BOOKS, headers: callHeaders }, 'HTTP_ERROR');
  });

  test('MUST NOT reveal header values echoed in an HTML page with status 200 (INVALID_RESPONSE)', async () => {
    await assertClean(
      'graphql_query',
      { query: BOOKS, headers: callHeaders, endpoint: onEcho('/html200') },
      'INVALID_RESPONSE',
    );
  });

  test('MUST NOT reveal header values echoed in a JSON error body (HTTP_ERROR)', async () => {
    await assertClean(
      'graphql_query',
      { query: BOOKS, headers: callHeaders, endpoint: onEcho('/json500') },
      'HTTP_ERROR',
    );
  });

  test('MUST NOT reveal header values echoed in an HTML error page when introspecting', async () => {
    await assertClean('graphql_introspect', { headers: callHeaders }, 'HTTP_ERROR');
  });

  test('MUST NOT reveal header values echoed in an introspection error message (INTROSPECTION_FAILED)', async () => {
    await assertClean(
      'graphql_introspect',
      { headers: callHeaders, endpoint: onEcho('/refuse-introspection') },
      'INTROSPECTION_FAILED',
    );
  });

  test("MUST NOT reveal the startup endpoint's query string when an error page echoes the request URL", async () => {
    // The operator's key sits in the default endpoint's URL; the model must not learn it from an error page.
    const echoing = await startMcp([`--endpoint=${echo.origin}/url500?api_key=${QUERY_SECRET}`]);
    try {
      const result = await echoing.call('graphql_query', { query: BOOKS });
      assert.match(firstText(result), /^HTTP_ERROR: /);
      assertNoSecrets(texts(result).join('\n'), 'the result');
    } finally {
      await echoing.close();
    }
  });

  test('MUST NOT reveal secrets when a request times out (TIMEOUT)', async () => {
    await assertClean(
      'graphql_query',
      { query: BOOKS, headers: callHeaders, endpoint: onEcho('/slow'), timeout: 200 },
      'TIMEOUT',
    );
  });

  test('MUST NOT reveal secrets when the connection is refused (NETWORK_ERROR)', async () => {
    await assertClean(
      'graphql_query',
      {
        query: BOOKS,
        headers: callHeaders,
        endpoint: `http://127.0.0.1:${deadPort}/graphql?api_key=${QUERY_SECRET}`,
      },
      'NETWORK_ERROR',
    );
  });

  test('MUST NOT reveal the query string of a redirect to another origin (HTTP_ERROR)', async () => {
    await assertClean(
      'graphql_query',
      { query: BOOKS, headers: callHeaders, endpoint: onEcho('/redirect') },
      'HTTP_ERROR',
    );
  });

  test('MUST NOT reveal secrets in a syntax error (SYNTAX_ERROR)', async () => {
    await assertClean('graphql_query', { query: '{ books {', headers: callHeaders }, 'SYNTAX_ERROR');
  });

  test('MUST NOT reveal the password of an endpoint with user-info (INVALID_INPUT)', async () => {
    await assertClean(
      'graphql_query',
      {
        query: BOOKS,
        endpoint: `http://reader:${PASSWORD}@127.0.0.1:${portOf(A)}/graphql?api_key=${QUERY_SECRET}`,
      },
      'INVALID_INPUT',
    );
  });

  test('MUST NOT reveal a per-call header value holding a line break (INVALID_INPUT)', async () => {
    await assertClean(
      'graphql_query',
      { query: BOOKS, headers: { 'X-Call-Token': `${CALL_TOKEN}\r\nX-Injected: 1` } },
      'INVALID_INPUT',
    );
  });

  test('MUST NOT reveal a per-call header value of the wrong type (INVALID_INPUT)', async () => {
    await assertClean(
      'graphql_query',
      { query: BOOKS, headers: { 'X-Call-Token': { value: CALL_TOKEN } } },
      'INVALID_INPUT',
    );
  });

  test('MUST NOT reveal per-call headers given as a string (INVALID_INPUT)', async () => {
    await assertClean('graphql_introspect', { headers: `X-Call-Token: ${CALL_TOKEN}` }, 'INVALID_INPUT');
  });

  test('MUST NOT reveal secrets in a successful result', async () => {
    await assertClean(
      'graphql_query',
      { query: BOOKS, headers: callHeaders, endpoint: `${A.url}?api_key=${QUERY_SECRET}` },
      'OK',
    );
  });

  test('MUST NOT reveal the query strings of --allowedEndpoints entries (ENDPOINT_NOT_ALLOWED)', async () => {
    const restricted = await startMcp([
      `--endpoint=${A.url}?api_key=${QUERY_SECRET}`,
      `--headers=${STARTUP_HEADERS}`,
      `--allowedEndpoints=${B.url}?key=${QUERY_SECRET}`,
    ]);
    try {
      const result = await restricted.call('graphql_query', {
        query: BOOKS,
        headers: callHeaders,
        endpoint: `${C.url}?api_key=${QUERY_SECRET}`,
      });
      assert.match(firstText(result), /^ENDPOINT_NOT_ALLOWED: /);
      assertNoSecrets(texts(result).join('\n'), 'the result');
      assertNoSecrets(restricted.stderr(), 'stderr');
    } finally {
      await restricted.close();
    }
  });

  test('MUST NOT write any secret to stderr', async () => {
    // Runs last in this block: stderr then holds everything the session logged for the calls above.
    await session().call('graphql_query', { query: BOOKS, headers: callHeaders });
    assertNoSecrets(session().stderr(), 'stderr');
  });
});
