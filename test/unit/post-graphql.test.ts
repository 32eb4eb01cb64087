import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test, type TestContext } from 'node:test';
import { gzipSync } from 'node:zlib';
import { ToolError, type ErrorCode } from '../../src/common/errors.ts';
import { HeaderSet } from '../../src/http/headers.ts';
import { postGraphQL, type GraphQLOperation, type GraphQLRequest } from '../../src/http/post-graphql.ts';

const OPERATION: GraphQLOperation = { query: '{ a }', variables: '{}', kind: 'query' };
/** The POST body of OPERATION. */
const BODY = JSON.stringify({ query: '{ a }', variables: {} });

interface Received {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly rawHeaders: string[];
  readonly body: string;
}

interface TestServer {
  /** `http://127.0.0.1:<port>` + path. */
  url(path?: string): URL;
  /** Every request the server has received, with its body. */
  readonly received: Received[];
}

/** A real HTTP server on 127.0.0.1, port 0, closed (with its connections) when the test ends. */
async function serve(t: TestContext, handler: RequestListener): Promise<TestServer> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      handler(req, res);
    });
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
  return { url: (path = '/graphql') => new URL(`http://127.0.0.1:${port}${path}`), received };
}

/** Answers with this status, content type and body. */
function reply(status: number, contentType: string, body: string): RequestListener {
  return (_req, res) => {
    res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
}

function json(status: number, value: unknown): RequestListener {
  return reply(status, 'application/json', JSON.stringify(value));
}

function request(endpoint: URL, overrides: Partial<GraphQLRequest> = {}): GraphQLRequest {
  return {
    endpoint,
    headers: new HeaderSet(),
    operation: OPERATION,
    timeoutMs: 5_000,
    maxBytes: 1_048_576,
    ...overrides,
  };
}

/** Throws (failing the test) on a header the set refuses. */
function headers(entries: Record<string, string>): HeaderSet {
  return HeaderSet.of(entries);
}

/** The ToolError a request fails with, after checking its code. */
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

/** A port that nothing listens on: a server's, once it is closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Sends the status line, headers and a first chunk, then a byte now and then until the client leaves. */
function trickle(intervalMs: number): RequestListener {
  return (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{"data":{"a":"');
    const timer = setInterval(() => res.write('x'), intervalMs);
    res.on('close', () => clearInterval(timer));
  };
}

describe('postGraphQL classification', () => {
  test('a 200 GraphQL response with data is returned with its status', async (t) => {
    const server = await serve(t, json(200, { data: { a: 1 } }));
    assert.deepEqual(await postGraphQL(request(server.url())), { status: 200, result: { data: { a: 1 } } });
  });

  test('a GraphQL response is returned unchanged, extensions included', async (t) => {
    const body = {
      data: { a: null },
      errors: [{ message: 'partial', path: ['a'] }],
      extensions: { cost: 3 },
    };
    const server = await serve(t, json(200, body));
    assert.deepEqual((await postGraphQL(request(server.url()))).result, body);
  });

  test('a 400 GraphQL response with errors is returned, not an HTTP_ERROR', async (t) => {
    const body = { errors: [{ message: 'Cannot query field "b" on type "Query".' }] };
    const server = await serve(t, reply(400, 'application/graphql-response+json', JSON.stringify(body)));
    assert.deepEqual(await postGraphQL(request(server.url())), { status: 400, result: body });
  });

  test('a 500 GraphQL response with data null and errors is returned', async (t) => {
    const body = { data: null, errors: [{ message: 'boom' }] };
    const server = await serve(t, json(500, body));
    assert.deepEqual(await postGraphQL(request(server.url())), { status: 500, result: body });
  });

  test('a 401 GraphQL response with errors is returned', async (t) => {
    const server = await serve(t, json(401, { errors: [{ message: 'Unauthorized' }] }));
    assert.equal((await postGraphQL(request(server.url()))).status, 401);
  });

  test('{"data":null} alone is a GraphQL response', async (t) => {
    const server = await serve(t, json(200, { data: null }));
    assert.deepEqual((await postGraphQL(request(server.url()))).result, { data: null });
  });

  test('a GraphQL response served as text/plain is still a GraphQL response', async (t) => {
    const server = await serve(t, reply(200, 'text/plain', '{"data":{"a":1}}'));
    assert.deepEqual((await postGraphQL(request(server.url()))).result, { data: { a: 1 } });
  });

  test('a UTF-8 body is decoded', async (t) => {
    const server = await serve(t, json(200, { data: { name: 'Zoë ✓ 漢字' } }));
    assert.deepEqual((await postGraphQL(request(server.url()))).result, { data: { name: 'Zoë ✓ 漢字' } });
  });

  test('a gzip-encoded GraphQL response is decoded', async (t) => {
    const server = await serve(t, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(gzipSync('{"data":{"a":1}}'));
    });
    assert.deepEqual((await postGraphQL(request(server.url()))).result, { data: { a: 1 } });
  });

  test('a 502 HTML page is an HTTP_ERROR giving status, content type and the start of the body', async (t) => {
    const html = `<html><body><h1>502 Bad Gateway</h1>${'<p>filler</p>'.repeat(100)}</body></html>`;
    const server = await serve(t, reply(502, 'text/html; charset=utf-8', html));
    const error = await failure(postGraphQL(request(server.url())), 'HTTP_ERROR');
    assert.match(error.message, /502/);
    assert.match(error.message, /text\/html/);
    assert.match(error.message, /<h1>502 Bad Gateway<\/h1>/);
    assert.ok(error.message.length < html.length, 'the whole body is quoted');
  });

  test('a 404 with JSON that is not a GraphQL response is an HTTP_ERROR', async (t) => {
    const server = await serve(t, json(404, { message: 'Not Found' }));
    const error = await failure(postGraphQL(request(server.url())), 'HTTP_ERROR');
    assert.match(error.message, /404/);
    assert.match(error.message, /application\/json/);
    assert.match(error.message, /Not Found/);
  });

  test('a 500 with an empty body is an HTTP_ERROR saying the body is empty', async (t) => {
    const server = await serve(t, reply(500, 'text/plain', ''));
    const error = await failure(postGraphQL(request(server.url())), 'HTTP_ERROR');
    assert.match(error.message, /500/);
    assert.match(error.message, /empty body/);
  });

  test('a 503 without a content type is an HTTP_ERROR', async (t) => {
    const server = await serve(t, (_req, res) => {
      res.statusCode = 503;
      res.end('try later');
    });
    const error = await failure(postGraphQL(request(server.url())), 'HTTP_ERROR');
    assert.match(error.message, /503/);
    assert.match(error.message, /try later/);
  });

  test('a 400 with {"errors":[]} is an HTTP_ERROR', async (t) => {
    const server = await serve(t, json(400, { errors: [] }));
    await failure(postGraphQL(request(server.url())), 'HTTP_ERROR');
  });

  test('a 200 HTML page is INVALID_RESPONSE giving content type and the start of the body', async (t) => {
    const server = await serve(t, reply(200, 'text/html', '<!doctype html><title>Login</title>'));
    const error = await failure(postGraphQL(request(server.url())), 'INVALID_RESPONSE');
    assert.match(error.message, /text\/html/);
    assert.match(error.message, /<!doctype html><title>Login<\/title>/);
  });

  test('a 200 with invalid JSON is INVALID_RESPONSE', async (t) => {
    const server = await serve(t, reply(200, 'application/json', '{"data": {"a": 1'));
    const error = await failure(postGraphQL(request(server.url())), 'INVALID_RESPONSE');
    assert.match(error.message, /application\/json/);
    assert.match(error.message, /\{\\"data\\": \{\\"a\\": 1/);
  });

  test('a 200 with an empty body is INVALID_RESPONSE', async (t) => {
    const server = await serve(t, reply(200, 'application/json', ''));
    await failure(postGraphQL(request(server.url())), 'INVALID_RESPONSE');
  });

  test('a 204 without a body is INVALID_RESPONSE', async (t) => {
    const server = await serve(t, (_req, res) => {
      res.writeHead(204);
      res.end();
    });
    await failure(postGraphQL(request(server.url())), 'INVALID_RESPONSE');
  });

  test('a 200 with JSON holding neither data nor errors is INVALID_RESPONSE', async (t) => {
    const server = await serve(t, json(200, { result: { a: 1 } }));
    const error = await failure(postGraphQL(request(server.url())), 'INVALID_RESPONSE');
    assert.match(error.message, /result/);
  });

  test('a 200 with {"errors":[]} is INVALID_RESPONSE', async (t) => {
    const server = await serve(t, json(200, { errors: [] }));
    await failure(postGraphQL(request(server.url())), 'INVALID_RESPONSE');
  });

  test('a 200 with errors that are not an array is INVALID_RESPONSE', async (t) => {
    const server = await serve(t, json(200, { errors: 'bad' }));
    await failure(postGraphQL(request(server.url())), 'INVALID_RESPONSE');
  });

  test('a 200 with data that is an array is INVALID_RESPONSE', async (t) => {
    const server = await serve(t, json(200, { data: [1, 2] }));
    await failure(postGraphQL(request(server.url())), 'INVALID_RESPONSE');
  });

  test('a 200 with data that is a string is INVALID_RESPONSE', async (t) => {
    const server = await serve(t, json(200, { data: 'ok' }));
    await failure(postGraphQL(request(server.url())), 'INVALID_RESPONSE');
  });

  test('a 200 with a JSON array is INVALID_RESPONSE', async (t) => {
    const server = await serve(t, json(200, [{ data: { a: 1 } }]));
    await failure(postGraphQL(request(server.url())), 'INVALID_RESPONSE');
  });

  test('a 200 with JSON null is INVALID_RESPONSE', async (t) => {
    const server = await serve(t, reply(200, 'application/json', 'null'));
    await failure(postGraphQL(request(server.url())), 'INVALID_RESPONSE');
  });
});

describe('postGraphQL response size', () => {
  test('a body of exactly the cap is accepted', async (t) => {
    const body = JSON.stringify({ data: { a: 'x'.repeat(1_000) } });
    const server = await serve(t, reply(200, 'application/json', body));
    const response = await postGraphQL(request(server.url(), { maxBytes: Buffer.byteLength(body) }));
    assert.equal(response.status, 200);
  });

  test('a body one byte over the cap is RESPONSE_TOO_LARGE giving the cap', async (t) => {
    const body = JSON.stringify({ data: { a: 'x'.repeat(1_000) } });
    const server = await serve(t, reply(200, 'application/json', body));
    const maxBytes = Buffer.byteLength(body) - 1;
    const error = await failure(postGraphQL(request(server.url(), { maxBytes })), 'RESPONSE_TOO_LARGE');
    assert.ok(error.message.includes(String(maxBytes)), error.message);
  });

  test('the cap counts bytes, not characters', async (t) => {
    const body = JSON.stringify({ data: { a: 'é'.repeat(600) } });
    const server = await serve(t, reply(200, 'application/json', body));
    await failure(postGraphQL(request(server.url(), { maxBytes: body.length + 10 })), 'RESPONSE_TOO_LARGE');
  });

  test('a body over the cap without a content-length is RESPONSE_TOO_LARGE', async (t) => {
    const server = await serve(t, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"data":{"a":"');
      for (let i = 0; i < 20; i++) res.write('x'.repeat(1_000));
      res.end('"}}');
    });
    await failure(postGraphQL(request(server.url(), { maxBytes: 5_000 })), 'RESPONSE_TOO_LARGE');
  });

  test('a gzip body whose content-length is small but whose decoded size is over the cap is RESPONSE_TOO_LARGE', async (t) => {
    const compressed = gzipSync(JSON.stringify({ data: { a: 'x'.repeat(2_000_000) } }));
    const server = await serve(t, (_req, res) => {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
        'Content-Length': compressed.length,
      });
      res.end(compressed);
    });
    assert.ok(compressed.length < 100_000);
    await failure(postGraphQL(request(server.url(), { maxBytes: 100_000 })), 'RESPONSE_TOO_LARGE');
  });

  test('a declared content-length over the cap is RESPONSE_TOO_LARGE before the body arrives', async (t) => {
    const server = await serve(t, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 10_000_000 });
      res.write('{"data":');
      // The rest never comes: only the declared length can end this request before the deadline.
    });
    await failure(
      postGraphQL(request(server.url(), { maxBytes: 1_000, timeoutMs: 3_000 })),
      'RESPONSE_TOO_LARGE',
    );
  });

  test('an endless body is cut off at the cap', async (t) => {
    const server = await serve(t, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"data":{"a":"');
      const chunk = 'x'.repeat(16_384);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    await failure(
      postGraphQL(request(server.url(), { maxBytes: 200_000, timeoutMs: 4_000 })),
      'RESPONSE_TOO_LARGE',
    );
  });

  test('a 500 error page over the cap is RESPONSE_TOO_LARGE', async (t) => {
    const server = await serve(t, reply(500, 'text/html', 'x'.repeat(5_000)));
    await failure(postGraphQL(request(server.url(), { maxBytes: 1_000 })), 'RESPONSE_TOO_LARGE');
  });
});

describe('postGraphQL deadline and cancellation', () => {
  test('a server that never answers is a TIMEOUT giving the deadline', async (t) => {
    const server = await serve(t, () => {});
    const error = await failure(postGraphQL(request(server.url(), { timeoutMs: 200 })), 'TIMEOUT');
    assert.match(error.message, /200 ms/);
  });

  test('a server that sends headers but never ends the body is a TIMEOUT', async (t) => {
    const server = await serve(t, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"data":');
    });
    await failure(postGraphQL(request(server.url(), { timeoutMs: 200 })), 'TIMEOUT');
  });

  test('the deadline covers a body that trickles in byte by byte', async (t) => {
    const server = await serve(t, trickle(20));
    const error = await failure(postGraphQL(request(server.url(), { timeoutMs: 300 })), 'TIMEOUT');
    assert.match(error.message, /300 ms/);
  });

  test('the TIMEOUT message names the endpoint without its query string', async (t) => {
    const server = await serve(t, () => {});
    const endpoint = new URL(`${server.url().href}?token=query-SECRET`);
    const error = await failure(postGraphQL(request(endpoint, { timeoutMs: 100 })), 'TIMEOUT');
    assert.ok(error.message.includes(server.url().href), error.message);
    assert.doesNotMatch(error.message, /SECRET/);
  });

  test('a signal aborted before the call is CANCELLED', async (t) => {
    const server = await serve(t, json(200, { data: { a: 1 } }));
    const controller = new AbortController();
    controller.abort();
    await failure(postGraphQL(request(server.url(), { signal: controller.signal })), 'CANCELLED');
  });

  test('a signal aborted during the call is CANCELLED and closes the HTTP request', async (t) => {
    let closed!: () => void;
    const requestClosed = new Promise<void>((resolve) => (closed = resolve));
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = await serve(t, (_req, res) => {
      res.on('close', closed);
      arrived();
    });
    const controller = new AbortController();
    const call = postGraphQL(request(server.url(), { signal: controller.signal, timeoutMs: 10_000 }));
    await requestArrived;
    controller.abort();
    await failure(call, 'CANCELLED');
    await requestClosed;
  });

  test('a signal aborted while the body streams is CANCELLED', async (t) => {
    const server = await serve(t, trickle(20));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await failure(
      postGraphQL(request(server.url(), { signal: controller.signal, timeoutMs: 10_000 })),
      'CANCELLED',
    );
  });

  test('a signal that is never aborted does not disturb the call', async (t) => {
    const server = await serve(t, json(200, { data: { a: 1 } }));
    const controller = new AbortController();
    const response = await postGraphQL(request(server.url(), { signal: controller.signal }));
    assert.equal(response.status, 200);
  });
});

describe('postGraphQL network errors', () => {
  test('a refused connection is a NETWORK_ERROR giving ECONNREFUSED and the endpoint', async () => {
    const endpoint = new URL(`http://127.0.0.1:${await closedPort()}/graphql`);
    const error = await failure(postGraphQL(request(endpoint)), 'NETWORK_ERROR');
    assert.match(error.message, /ECONNREFUSED/);
    assert.ok(error.message.includes(endpoint.href), error.message);
  });

  test('the NETWORK_ERROR message names the endpoint without its query string', async () => {
    const endpoint = new URL(`http://127.0.0.1:${await closedPort()}/graphql?key=query-SECRET`);
    const error = await failure(postGraphQL(request(endpoint)), 'NETWORK_ERROR');
    assert.doesNotMatch(error.message, /SECRET/);
  });

  test('a connection closed without a response is a NETWORK_ERROR', async (t) => {
    const server = await serve(t, (req) => req.socket.destroy());
    await failure(postGraphQL(request(server.url())), 'NETWORK_ERROR');
  });
});

describe('postGraphQL redirects', () => {
  test('a same-origin 307 redirect is followed with the same POST body', async (t) => {
    const server = await serve(t, (req, res) => {
      if (req.url === '/old') {
        res.writeHead(307, { Location: '/graphql' });
        res.end();
      } else json(200, { data: { moved: true } })(req, res);
    });
    const response = await postGraphQL(request(server.url('/old')));
    assert.deepEqual(response.result, { data: { moved: true } });
    assert.deepEqual(
      server.received.map((r) => [r.method, r.url, r.body]),
      [
        ['POST', '/old', BODY],
        ['POST', '/graphql', BODY],
      ],
    );
  });

  test('a same-origin 308 redirect with an absolute Location is followed', async (t) => {
    let target = '';
    const server = await serve(t, (req, res) => {
      if (req.url === '/old') {
        res.writeHead(308, { Location: target });
        res.end();
      } else json(200, { data: { a: 1 } })(req, res);
    });
    target = server.url('/new').href;
    assert.equal((await postGraphQL(request(server.url('/old')))).status, 200);
    assert.equal(server.received[1]?.url, '/new');
  });

  test("the caller's headers are sent again after a same-origin redirect", async (t) => {
    const server = await serve(t, (req, res) => {
      if (req.url === '/old') {
        res.writeHead(307, { Location: '/graphql' });
        res.end();
      } else json(200, { data: {} })(req, res);
    });
    await postGraphQL(request(server.url('/old'), { headers: headers({ Authorization: 'Bearer t0ken' }) }));
    assert.equal(server.received[1]?.headers.authorization, 'Bearer t0ken');
  });

  test('a chain of 5 same-origin redirects is followed', async (t) => {
    const server = await serve(t, (req, res) => {
      const hop = Number(req.url?.slice('/hop'.length));
      if (hop < 5) {
        res.writeHead(307, { Location: `/hop${hop + 1}` });
        res.end();
      } else json(200, { data: { hops: hop } })(req, res);
    });
    const response = await postGraphQL(request(server.url('/hop0')));
    assert.deepEqual(response.result, { data: { hops: 5 } });
  });

  test('a 6th redirect is an HTTP_ERROR', async (t) => {
    const server = await serve(t, (req, res) => {
      const hop = Number(req.url?.slice('/hop'.length));
      res.writeHead(307, { Location: `/hop${hop + 1}` });
      res.end();
    });
    const error = await failure(postGraphQL(request(server.url('/hop0'))), 'HTTP_ERROR');
    assert.match(error.message, /redirects/);
    assert.ok(server.received.length <= 6, `${server.received.length} requests`);
  });

  test('a redirect loop is an HTTP_ERROR, not a hang', async (t) => {
    const server = await serve(t, (_req, res) => {
      res.writeHead(302, { Location: '/graphql' });
      res.end();
    });
    await failure(postGraphQL(request(server.url())), 'HTTP_ERROR');
  });

  test('MUST NOT follow a redirect to another origin', async (t) => {
    const other = await serve(t, json(200, { data: { stolen: true } }));
    const server = await serve(t, (_req, res) => {
      res.writeHead(307, { Location: other.url('/collect').href });
      res.end();
    });
    const error = await failure(
      postGraphQL(request(server.url(), { headers: headers({ Authorization: 'Bearer t0ken' }) })),
      'HTTP_ERROR',
    );
    assert.match(error.message, /307/);
    assert.ok(error.message.includes(other.url('/collect').href), error.message);
    assert.equal(other.received.length, 0);
  });

  test('MUST NOT follow a redirect to the same host on another scheme', async (t) => {
    const server = await serve(t, (req, res) => {
      res.writeHead(301, { Location: `https://127.0.0.1:${req.socket.localPort}/graphql` });
      res.end();
    });
    await failure(postGraphQL(request(server.url())), 'HTTP_ERROR');
    assert.equal(server.received.length, 1);
  });

  test('a redirect to an invalid URL is an HTTP_ERROR', async (t) => {
    const server = await serve(t, (_req, res) => {
      res.writeHead(307, { Location: 'http://[not-an-ip/graphql' });
      res.end();
    });
    await failure(postGraphQL(request(server.url())), 'HTTP_ERROR');
  });

  test('a 3xx without a Location is not a redirect', async (t) => {
    const server = await serve(t, json(300, { data: { choices: 2 } }));
    const response = await postGraphQL(request(server.url()));
    assert.equal(response.status, 300);
    assert.equal(server.received.length, 1);
  });
});

describe('postGraphQL request', () => {
  test('the request is a POST of the body to the endpoint, query string included', async (t) => {
    const server = await serve(t, json(200, { data: {} }));
    await postGraphQL(request(server.url('/graphql?tenant=7')));
    assert.equal(server.received.length, 1);
    assert.equal(server.received[0]?.method, 'POST');
    assert.equal(server.received[0]?.url, '/graphql?tenant=7');
    assert.equal(server.received[0]?.body, BODY);
  });

  test('the default headers are Content-Type, Accept and User-Agent', async (t) => {
    const server = await serve(t, json(200, { data: {} }));
    await postGraphQL(request(server.url()));
    const sent = server.received[0]!.headers;
    assert.equal(sent['content-type'], 'application/json');
    assert.equal(sent.accept, 'application/graphql-response+json, application/json;q=0.9');
    assert.match(sent['user-agent'] ?? '', /^graphql-mcp\/\S+$/);
  });

  test("the caller's headers are sent", async (t) => {
    const server = await serve(t, json(200, { data: {} }));
    await postGraphQL(
      request(server.url(), { headers: headers({ Authorization: 'Bearer t0ken', 'X-Tenant': '7' }) }),
    );
    const sent = server.received[0]!.headers;
    assert.equal(sent.authorization, 'Bearer t0ken');
    assert.equal(sent['x-tenant'], '7');
    assert.equal(sent['content-type'], 'application/json');
  });

  test("the caller's headers replace the defaults by case-insensitive name", async (t) => {
    const server = await serve(t, json(200, { data: {} }));
    await postGraphQL(
      request(server.url(), {
        headers: headers({
          'content-type': 'application/graphql+json',
          ACCEPT: 'application/json',
          'User-agent': 'custom/1.0',
        }),
      }),
    );
    const { headers: sent, rawHeaders } = server.received[0]!;
    assert.equal(sent['content-type'], 'application/graphql+json');
    assert.equal(sent.accept, 'application/json');
    assert.equal(sent['user-agent'], 'custom/1.0');
    const names = rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    for (const name of ['content-type', 'accept', 'user-agent']) {
      assert.equal(names.filter((n) => n === name).length, 1, `${name} is sent once`);
    }
  });
});
