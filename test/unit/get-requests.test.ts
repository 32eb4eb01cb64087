// Queries by GET (src/http/post-graphql.ts): learnt from a 405 that allows GET, or always where the API is set
// so; never a mutation; GraphQL over HTTP's form of a GET; and everything a POST keeps (deadline, cancellation,
// size cap, redirects, headers). Real servers on 127.0.0.1 record every request they receive.
import assert from 'node:assert/strict';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test, type TestContext } from 'node:test';
import { ToolError, type ErrorCode } from '../../src/common/errors.ts';
import { HeaderSet } from '../../src/http/headers.ts';
import { MAX_GET_URL } from '../../src/http/request-encoding.ts';
import {
  postGraphQL,
  type ApiProtocol,
  type GraphQLOperation,
  type GraphQLRequest,
} from '../../src/http/post-graphql.ts';
import { startMethodServer, type MethodServerOptions, type TestApi } from '../fixtures/trusted-servers.ts';

const BOOK: GraphQLOperation = {
  query: 'query Book($id: ID!) { book(id: $id) { title } }',
  operationName: 'Book',
  variables: '{"id":"1"}',
  kind: 'query',
};
const ADD: GraphQLOperation = {
  query: 'mutation Add { addBook(title: "Ulysses") { id } }',
  operationName: 'Add',
  kind: 'mutation',
};

function request(endpoint: URL, operation: GraphQLOperation, overrides: Partial<GraphQLRequest> = {}) {
  return postGraphQL({
    endpoint,
    headers: new HeaderSet(),
    operation,
    timeoutMs: 5_000,
    maxBytes: 1_048_576,
    ...overrides,
  });
}

async function api(t: TestContext, options: MethodServerOptions): Promise<TestApi> {
  const server = await startMethodServer(options);
  t.after(() => server.close());
  return server;
}

/** A server of our own for what the method server does not do (hangs, redirects, big bodies). */
async function serve(t: TestContext, handler: RequestListener): Promise<{ url: URL; methods: string[] }> {
  const methods: string[] = [];
  const server = createServer((req, res) => {
    methods.push(`${req.method} ${req.url?.split('?')[0]}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/graphql`), methods };
}

async function failure(promise: Promise<unknown>, code: ErrorCode): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected ${code}, but the request succeeded`);
}

const GET: ApiProtocol = { method: 'get' };
const GET_ONLY: MethodServerOptions = { methods: ['GET'] };

describe('an endpoint that takes queries by GET only', () => {
  test('answers a query with no option: the POST gets 405 allowing GET, and the query is sent again by GET', async (t) => {
    const server = await api(t, GET_ONLY);
    const response = await request(server.url, BOOK);
    assert.deepEqual(response.result, { data: { book: { title: 'Dune' } } });
    assert.deepEqual(server.methods(), ['POST', 'GET']);
  });

  test('is remembered: the next query goes straight to GET', async (t) => {
    const server = await api(t, GET_ONLY);
    await request(server.url, BOOK);
    const again = await request(server.url, { ...BOOK, variables: '{"id":"2"}' });
    assert.deepEqual(again.result, { data: { book: { title: 'Emma' } } });
    assert.deepEqual(server.methods(), ['POST', 'GET', 'GET']);
  });

  test('is remembered by endpoint: another path of the same origin is asked by POST first', async (t) => {
    const server = await api(t, GET_ONLY);
    await request(server.url, BOOK);
    await request(new URL('/other', server.url), BOOK);
    assert.deepEqual(
      server.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`),
      ['POST /graphql', 'GET /graphql', 'POST /other', 'GET /other'],
    );
  });

  test('MUST NOT send a mutation by GET: it gets the 405, whose message says the endpoint takes queries by GET only', async (t) => {
    const server = await api(t, GET_ONLY);
    await request(server.url, BOOK); // learnt: GET-only
    const error = await failure(request(server.url, ADD), 'HTTP_ERROR');
    assert.match(error.message, /405/);
    assert.match(error.message, /it allows GET/);
    assert.match(error.message, /a mutation is never sent by GET/);
    assert.doesNotMatch(error.message, /check the endpoint URL/);
    assert.deepEqual(server.methods(), ['POST', 'GET', 'POST']);
  });

  test('MUST NOT send a mutation by GET even when the API is set to send queries by GET', async (t) => {
    const server = await api(t, {});
    const response = await request(server.url, ADD, { protocol: GET });
    assert.deepEqual(response.result, { data: { addBook: { id: '3' } } });
    assert.deepEqual(server.methods(), ['POST']);
  });

  test('is forgotten when a GET is answered 405: the next query is asked by POST again', async (t) => {
    let takes = 'GET';
    const server = await serve(t, (req, res) => {
      if (req.method !== takes) {
        res.writeHead(405, { Allow: takes });
        res.end();
      } else {
        res.writeHead(200, { 'Content-Type': 'application/graphql-response+json' });
        res.end('{"data":{"ok":true}}');
      }
    });
    await request(server.url, BOOK);
    takes = 'POST';
    await failure(request(server.url, BOOK), 'HTTP_ERROR');
    assert.equal((await request(server.url, BOOK)).status, 200);
    assert.deepEqual(server.methods, ['POST /graphql', 'GET /graphql', 'GET /graphql', 'POST /graphql']);
  });

  test('a query too long for a GET is INVALID_INPUT saying so, and nothing is sent by GET', async (t) => {
    const server = await api(t, GET_ONLY);
    const long = { ...BOOK, variables: JSON.stringify({ id: 'x'.repeat(MAX_GET_URL) }) };
    const error = await failure(request(server.url, long), 'INVALID_INPUT');
    assert.match(error.message, /takes queries by GET only/);
    assert.match(error.message, /8,192/);
    assert.deepEqual(server.methods(), ['POST']);
    // Known to be GET-only now: the next one is refused before anything is sent.
    await failure(request(server.url, long), 'INVALID_INPUT');
    assert.deepEqual(server.methods(), ['POST']);
  });
});

describe('a GET, as GraphQL over HTTP has it', () => {
  test('carries query, operationName and variables (as JSON) in the query string, after the endpoint’s own', async (t) => {
    const server = await api(t, {});
    const endpoint = new URL(`${server.url.href}?tenant=7`);
    await request(endpoint, BOOK, { protocol: GET });
    const [received] = server.requests;
    const params = new URL(received!.url, server.url).searchParams;
    assert.deepEqual([...params.keys()], ['tenant', 'query', 'operationName', 'variables']);
    assert.equal(params.get('tenant'), '7');
    assert.equal(params.get('query'), BOOK.query);
    assert.equal(params.get('operationName'), 'Book');
    assert.equal(params.get('variables'), '{"id":"1"}');
    assert.equal(received!.body, '');
  });

  test('leaves out variables that are empty and an operation name not given', async (t) => {
    const server = await api(t, {});
    await request(
      server.url,
      { query: '{ books { id } }', variables: '{}', kind: 'query' },
      { protocol: GET },
    );
    const params = new URL(server.requests[0]!.url, server.url).searchParams;
    assert.deepEqual([...params.keys()], ['query']);
  });

  test('asks for application/graphql-response+json and reads it', async (t) => {
    const server = await api(t, {});
    const response = await request(server.url, BOOK, { protocol: GET });
    assert.equal(
      server.requests[0]!.headers.accept,
      'application/graphql-response+json, application/json;q=0.9',
    );
    assert.deepEqual(response.result, { data: { book: { title: 'Dune' } } });
  });

  test('sends the caller’s headers', async (t) => {
    const server = await api(t, {});
    await request(server.url, BOOK, {
      protocol: GET,
      headers: HeaderSet.of({ Authorization: 'Bearer t0ken' }),
    });
    assert.equal(server.requests[0]!.headers.authorization, 'Bearer t0ken');
  });

  test('with the API set to GET, a query goes by GET from the first call', async (t) => {
    const server = await api(t, {});
    await request(server.url, BOOK, { protocol: GET });
    assert.deepEqual(server.methods(), ['GET']);
  });

  test('with the API set to GET, a query whose URL would be too long goes by POST', async (t) => {
    const server = await api(t, {});
    const long = { ...BOOK, variables: JSON.stringify({ id: '1', pad: 'x'.repeat(MAX_GET_URL) }) };
    const response = await request(server.url, long, { protocol: GET });
    assert.equal(response.status, 200);
    assert.deepEqual(server.methods(), ['POST']);
  });

  test('a GET answered 405 allowing POST says the API’s queries should go by POST', async (t) => {
    const server = await api(t, { methods: ['POST'] });
    const error = await failure(request(server.url, BOOK, { protocol: GET }), 'HTTP_ERROR');
    assert.match(error.message, /does not accept GET \(it allows POST\)/);
    assert.match(error.message, /sent by POST/);
  });
});

describe('a 405 to a POST', () => {
  test('with the API set to POST only, a 405 allowing GET is an HTTP_ERROR saying so, and nothing is sent by GET', async (t) => {
    const server = await api(t, GET_ONLY);
    const error = await failure(request(server.url, BOOK, { protocol: { method: 'post' } }), 'HTTP_ERROR');
    assert.match(error.message, /it allows GET/);
    assert.match(error.message, /POST only/);
    assert.deepEqual(server.methods(), ['POST']);
  });

  test('names what the endpoint allows when that is not GET', async (t) => {
    const server = await api(t, { methods: [], allow: 'PUT, DELETE' });
    const error = await failure(request(server.url, BOOK), 'HTTP_ERROR');
    assert.match(error.message, /it allows PUT, DELETE, none of which carries a GraphQL request/);
    assert.deepEqual(server.methods(), ['POST']);
  });

  test('without an Allow header says the endpoint does not say what it allows', async (t) => {
    const server = await api(t, { methods: ['GET'], allow: null });
    const error = await failure(request(server.url, BOOK), 'HTTP_ERROR');
    assert.match(error.message, /does not say which methods it does/);
    assert.deepEqual(server.methods(), ['POST']);
  });

  test('without an Allow header ends with advice that works: --queryMethod=get, with which the query runs', async (t) => {
    const server = await api(t, { methods: ['GET'], allow: null });
    const error = await failure(request(server.url, BOOK), 'HTTP_ERROR');
    assert.match(error.message, /its operator should set --queryMethod=get for this API/);
    const response = await request(server.url, BOOK, { protocol: GET });
    assert.deepEqual(response.result, { data: { book: { title: 'Dune' } } });
    assert.deepEqual(server.methods(), ['POST', 'GET']);
  });

  test('without an Allow header, a mutation is told it cannot run there, not to send it by GET', async (t) => {
    const server = await api(t, { methods: ['GET'], allow: null });
    const error = await failure(request(server.url, ADD), 'HTTP_ERROR');
    assert.match(error.message, /a mutation is sent only by POST .*cannot run it/);
    assert.doesNotMatch(error.message, /--queryMethod/);
  });
});

describe('a GET keeps what a POST does', () => {
  test('the deadline: a GET that is never answered is a TIMEOUT', async (t) => {
    const server = await serve(t, () => {});
    const error = await failure(request(server.url, BOOK, { protocol: GET, timeoutMs: 200 }), 'TIMEOUT');
    assert.match(error.message, /200 ms/);
  });

  test('the deadline covers the POST and the GET after it together', async (t) => {
    // Each answer comes within the deadline, the two together after it: only one deadline for both ends the
    // call (a machine's load can only make the answers later).
    const server = await serve(t, (req, res) => {
      const [delay, status, body] =
        req.method === 'POST' ? [1_000, 405, ''] : [1_500, 200, '{"data":{"book":{"title":"Ulysses"}}}'];
      setTimeout(() => {
        res.writeHead(status, { Allow: 'GET', 'Content-Type': 'application/json' });
        res.end(body);
      }, delay);
    });
    await failure(request(server.url, BOOK, { timeoutMs: 2_000 }), 'TIMEOUT');
    assert.deepEqual(server.methods, ['POST /graphql', 'GET /graphql']);
  });

  test('cancellation: a signal aborted during a GET is CANCELLED', async (t) => {
    const server = await serve(t, () => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await failure(
      request(server.url, BOOK, { protocol: GET, signal: controller.signal, timeoutMs: 10_000 }),
      'CANCELLED',
    );
  });

  test('the size cap: a GET answered with a body over it is RESPONSE_TOO_LARGE', async (t) => {
    const server = await serve(t, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ data: { a: 'x'.repeat(5_000) } }));
    });
    await failure(request(server.url, BOOK, { protocol: GET, maxBytes: 1_000 }), 'RESPONSE_TOO_LARGE');
  });

  test('redirects: a same-origin one is followed by GET, where the caller’s checkHop allows it', async (t) => {
    const server = await serve(t, (req, res) => {
      if (req.url?.startsWith('/old')) {
        res.writeHead(307, { Location: `/graphql?${req.url.split('?')[1]}` });
        res.end();
      } else {
        res.writeHead(200, { 'Content-Type': 'application/graphql-response+json' });
        res.end('{"data":{"moved":true}}');
      }
    });
    const hops: string[] = [];
    const response = await request(new URL('/old', server.url), BOOK, {
      protocol: GET,
      checkHop: (target) => void hops.push(target.pathname),
    });
    assert.deepEqual(response.result, { data: { moved: true } });
    assert.deepEqual(server.methods, ['GET /old', 'GET /graphql']);
    assert.deepEqual(hops, ['/graphql']);
  });

  test('MUST NOT follow a GET’s redirect to another origin', async (t) => {
    const other = await serve(t, (_req, res) => res.end('{"data":{}}'));
    const server = await serve(t, (_req, res) => {
      res.writeHead(302, { Location: other.url.href });
      res.end();
    });
    const error = await failure(request(server.url, BOOK, { protocol: GET }), 'HTTP_ERROR');
    assert.match(error.message, /another origin/);
    assert.deepEqual(other.methods, []);
  });

  test('no secret in a message: the endpoint’s query string and the GET’s parameters are not quoted', async (t) => {
    const server = await serve(t, () => {});
    const endpoint = new URL(`${server.url.href}?key=query-SECRET`);
    const secret = { ...BOOK, variables: '{"id":"variable-SECRET"}' };
    const error = await failure(request(endpoint, secret, { protocol: GET, timeoutMs: 100 }), 'TIMEOUT');
    assert.doesNotMatch(error.message, /SECRET/);
  });

  test('classification: a GET answered with an HTML page is an HTTP_ERROR giving its start', async (t) => {
    const server = await serve(t, (_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      res.end('<h1>Bad Gateway</h1>');
    });
    const error = await failure(request(server.url, BOOK, { protocol: GET }), 'HTTP_ERROR');
    assert.match(error.message, /<h1>Bad Gateway<\/h1>/);
  });
});
