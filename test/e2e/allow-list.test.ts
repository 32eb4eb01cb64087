// A path-scoped --allowedEndpoints bounds where credentials go: every redirect hop is
// checked against the list like a direct call, and paths a server may read as other paths (encoded slashes,
// encoded dot segments) are refused before anything is sent. The endpoint on 127.0.0.1 redirects
// /redirect?to=<path> to that path and records which paths received an Authorization header.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLibraryApi } from '../../demo/library-api.ts';
import {
  graphqlHandler,
  respond,
  startFaultServer,
  type FaultServer,
  type Handler,
} from '../fixtures/http-server.ts';
import { startMcp, texts, type CallToolResult, type McpSession } from '../fixtures/mcp.ts';

const TOKEN = 'Bearer sk-allow-list-7Q2r9XbV0kLm';
const QUERY_SECRET = 'q-SECRET-5e1d7a93';
const BOOKS = '{ books(first: 1) { title } }';

/** Redirects to the path in its `to` parameter, as an open redirect on an API's origin does. */
const redirectTo: Handler = ({ req, res }) => {
  const to = new URL(req.url ?? '/', 'http://localhost').searchParams.get('to') ?? '/';
  res.writeHead(307, { location: to, 'content-length': 0 });
  res.end();
};

let home: FaultServer; // the default endpoint's origin
let api: FaultServer; // the origin of the path-scoped entries
let mcp: McpSession;

before(async () => {
  const library = createLibraryApi();
  [home, api] = await Promise.all([startFaultServer(), startFaultServer()]);
  home.route('/graphql', graphqlHandler(library.schema, library.rootValue));
  api.route('/redirect', redirectTo);
  api.route('/api/moved', respond.redirect(308, '/admin'));
  api.route('/api/moved-with-query', respond.redirect(307, `/admin/secret-export?token=${QUERY_SECRET}`));
  api.route('/api/graphql', graphqlHandler(library.schema, library.rootValue));
  // Answers like any endpoint would, so that a followed redirect would show as a success.
  api.route('/admin/secret-export', graphqlHandler(library.schema, library.rootValue));
  api.route('/admin', graphqlHandler(library.schema, library.rootValue));
  mcp = await startMcp([
    `--endpoint=${home.origin}/graphql`,
    `--headers=${JSON.stringify({ Authorization: TOKEN })}`,
    `--allowedEndpoints=${api.origin}/redirect,${api.origin}/api/`,
  ]);
});

after(async () => {
  await mcp?.close();
  await Promise.all([home?.close(), api?.close()]);
});

/** The paths of the endpoint's requests since `from` that carried an Authorization header. */
function pathsWithAuthorization(from = 0): string[] {
  return api.requests.slice(from).flatMap((r) => (r.headers.authorization === undefined ? [] : [r.path]));
}

function assertEndpointNotAllowed(result: CallToolResult, pattern: RegExp): string {
  const text = texts(result)[0] ?? '';
  assert.equal(result.isError, true, text);
  assert.match(text, /^ENDPOINT_NOT_ALLOWED: /);
  assert.match(text, pattern);
  assert.ok(!texts(result).join('\n').includes(TOKEN.slice(7)), 'the token is never shown');
  return text;
}

describe('redirects under a path-scoped --allowedEndpoints', () => {
  test('a direct call to an unlisted path of a listed origin is refused', async () => {
    const before = api.requests.length;
    const result = await mcp.call('graphql_query', {
      query: BOOKS,
      endpoint: `${api.origin}/admin/secret-export`,
    });
    assertEndpointNotAllowed(result, /is not an allowed endpoint/);
    assert.equal(api.requests.length, before, 'the endpoint saw no request');
  });

  test('MUST NOT deliver Authorization to an unlisted path through a redirect from a listed one (graphql_query)', async () => {
    const before = api.requests.length;
    const result = await mcp.call('graphql_query', {
      query: BOOKS,
      endpoint: `${api.origin}/redirect?to=/admin/secret-export`,
    });
    // The target is a value of the call's query string: named in full all the same, as a path is no secret.
    const text = assertEndpointNotAllowed(
      result,
      /HTTP 307 from http:\/\/127\.0\.0\.1:\d+\/redirect redirects to http:\/\/127\.0\.0\.1:\d+\/admin\/secret-export, which is not an allowed endpoint/,
    );
    assert.match(text, /not followed/);
    assert.deepEqual(
      api.requests.slice(before).map((r) => r.path),
      ['/redirect'],
      'nothing is sent to the redirect target',
    );
    assert.deepEqual(pathsWithAuthorization(before), ['/redirect']);
  });

  test('MUST NOT deliver Authorization to an unlisted path through a redirect from a listed one (graphql_introspect)', async () => {
    const before = api.requests.length;
    const result = await mcp.call('graphql_introspect', {
      endpoint: `${api.origin}/redirect?to=/admin/secret-export`,
    });
    assertEndpointNotAllowed(
      result,
      /HTTP 307 from http:\/\/127\.0\.0\.1:\d+\/redirect redirects to http:\/\/127\.0\.0\.1:\d+\/admin\/secret-export, which is not/,
    );
    assert.deepEqual(
      api.requests.slice(before).map((r) => r.path),
      ['/redirect'],
    );
  });

  test("a refused redirect to a full URL given in the call's query string names both URLs in full", async () => {
    const result = await mcp.call('graphql_query', {
      query: BOOKS,
      endpoint: `${api.origin}/redirect?to=${encodeURIComponent(`${api.origin}/admin/secret-export`)}`,
    });
    const text = assertEndpointNotAllowed(result, /^ENDPOINT_NOT_ALLOWED: HTTP 307 from /);
    assert.ok(
      text.startsWith(
        `ENDPOINT_NOT_ALLOWED: HTTP 307 from ${api.origin}/redirect redirects to ${api.origin}/admin/secret-export, which is not an allowed endpoint`,
      ),
      text,
    );
  });

  test('a refused redirect is reported with its status, where it came from and where it went', async () => {
    const before = api.requests.length;
    const result = await mcp.call('graphql_query', { query: BOOKS, endpoint: `${api.origin}/api/moved` });
    assertEndpointNotAllowed(
      result,
      /^ENDPOINT_NOT_ALLOWED: HTTP 308 from http:\/\/127\.0\.0\.1:\d+\/api\/moved redirects to http:\/\/127\.0\.0\.1:\d+\/admin, which is not an allowed endpoint; allowed: .*\/api\/; not followed$/,
    );
    assert.deepEqual(pathsWithAuthorization(before), ['/api/moved']);
  });

  test('MUST NOT follow a redirect to an encoded-slash path that looks as if it were below a listed prefix', async () => {
    const before = api.requests.length;
    const result = await mcp.call('graphql_query', {
      query: BOOKS,
      endpoint: `${api.origin}/redirect?to=${encodeURIComponent('/api/..%2f..%2fadmin')}`,
    });
    assertEndpointNotAllowed(result, /encoded slash/);
    assert.deepEqual(
      api.requests.slice(before).map((r) => r.path),
      ['/redirect'],
    );
  });

  test("a refused redirect's message leaves out the query strings of both URLs", async () => {
    const result = await mcp.call('graphql_query', {
      query: BOOKS,
      endpoint: `${api.origin}/api/moved-with-query?tenant=7`,
    });
    const text = assertEndpointNotAllowed(
      result,
      /\/api\/moved-with-query redirects to \S+\/admin\/secret-export,/,
    );
    assert.ok(!text.includes(QUERY_SECRET), text);
    assert.ok(!text.includes('?'), text);
  });

  test('a redirect within a listed prefix is followed, with the startup Authorization', async () => {
    const before = api.requests.length;
    const result = await mcp.call('graphql_query', {
      query: BOOKS,
      endpoint: `${api.origin}/redirect?to=/api/graphql`,
    });
    assert.equal(result.isError, undefined, texts(result)[0]);
    assert.deepEqual(result.structuredContent, { data: { books: [{ title: 'SPQR' }] } });
    assert.deepEqual(pathsWithAuthorization(before), ['/redirect', '/api/graphql']);
    assert.equal(api.requestsTo('/api/graphql').at(-1)?.headers.authorization, TOKEN);
  });

  test('graphql_introspect follows a redirect within a listed prefix', async () => {
    const result = await mcp.call('graphql_introspect', {
      endpoint: `${api.origin}/redirect?to=/api/graphql`,
    });
    assert.equal(result.isError, undefined, texts(result)[0]);
    assert.match(texts(result)[0] ?? '', /Book/);
  });
});

describe('encoded slashes and dot segments under --allowedEndpoints', () => {
  const forms = [
    '/api/..%2f..%2fadmin',
    '/api/..%2F..%2Fadmin/secret-export',
    '/api/%2e%2e/%2e%2e/admin',
    '/api/%2e%2e%2f%2e%2e%2fadmin',
    '/api/.%2e/admin',
    '/api/%2E%2E%2Fadmin',
    '/api/..%5cadmin',
    '/api/..%5C..%5Cadmin',
    '/api/%252e%252e%252fadmin',
    '/api/..;/admin',
  ];
  for (const path of forms) {
    test(`MUST NOT send a request to ${path}, and the endpoint's log stays empty`, async () => {
      const before = api.requests.length;
      const result = await mcp.call('graphql_query', { query: BOOKS, endpoint: api.origin + path });
      assertEndpointNotAllowed(result, /is not an allowed endpoint/);
      assert.deepEqual(api.requests.slice(before), [], 'the endpoint saw no request');
    });
  }

  test('graphql_introspect MUST NOT send a request to /api/..%2f..%2fadmin', async () => {
    const before = api.requests.length;
    const result = await mcp.call('graphql_introspect', { endpoint: `${api.origin}/api/..%2f..%2fadmin` });
    assertEndpointNotAllowed(result, /encoded slash/);
    assert.deepEqual(api.requests.slice(before), []);
  });
});
