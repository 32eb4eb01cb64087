// Secret hygiene, end to end: distinctive values sit in the startup headers (--headers and GRAPHQL_HEADERS),
// the per-call headers, the forwarded headers of remote mode, and the endpoint URL's user-info and query
// string. Every success and error path of both tools is driven, with endpoints that echo what they received
// (request headers and URL) in HTML error pages, JSON bodies, GraphQL responses (errors[].message,
// errors[].extensions, data values and keys), introspected schemas (type names and descriptions),
// introspection errors, status lines, content types and redirect targets, as sent and transformed (lower-
// and upper-cased, split across lines, cut in half, base64, hex, a Basic credential decoded); then every
// byte of raw stdout (results and log notifications at level debug), every tool result, every HTTP response
// of remote mode and every byte of stderr is scanned. No value may appear, whole or in part (any 8
// characters of one, in any case, across line breaks, or that many characters' worth of its base64 or
// hex), ever.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { serveGraphQL } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import {
  graphqlHandler,
  respond,
  startFaultServer,
  type FaultServer,
  type Handler,
  type RecordedRequest,
} from '../fixtures/http-server.ts';
import {
  MCP_POST_HEADERS,
  rawRequest,
  rpcMessages,
  startHttpMcp,
  type HttpMcpProcess,
} from '../fixtures/http-mcp.ts';
import { runCli, startMcp, texts as textsOf, type McpSession } from '../fixtures/mcp.ts';
import { classify, RawMcp, type ToolResult } from '../stress/harness.ts';

// Each secret has a random-looking core, so that any 8 characters of it are distinctive.
const SECRETS = {
  startupAuth: 'Zq7Xw2Kp9Vt4Lm3N',
  startupKey: 'Hb5Rt8Yc1Wq6Ej0P',
  envAuth: 'Gv3Nc7Ud2Sx9Ka4F',
  callToken: 'Mw8Pz1Ql6Rf3Dt5B',
  callAuth: 'Jy4Ha9Xe2Lc7Vn0S',
  queryString: 'Tc6Bm1Wg8Zr3Fh5K',
  envQueryString: 'Qd2Ls7Vy4Np9Gx1C',
  allowedQueryString: 'Ek5Yt0Rb3Mj8Wu6A',
  callQueryString: 'Fn9Kc4Ap7Us2Ho8D',
  userInfo: 'Ux3Ge6Ck1Tm9Lb4R',
  password: 'Pw7Jd2Ss5Oq8Xf3I',
  forwarded: 'Rk4Vz8Nb2Qy6Tw1J',
} as const;
const VALUES = Object.values(SECRETS);
const PIECE = 8;

/** `text` without line breaks, whitespace and their JSON escapes: a secret split across lines is whole again. */
function unwrapped(text: string): string {
  return text.replace(/=(?:\r?\n|\\r\\n|\\n)/g, '').replace(/\\[nrt]|\s/g, '');
}

/** Each secret's pieces as an echo may show them: 8 characters, or their worth in base64 or hex. */
const PIECES: Array<{ secret: string; piece: string; caseless: boolean }> = VALUES.flatMap((secret) => {
  const pieces: Array<{ secret: string; piece: string; caseless: boolean }> = [];
  const add = (form: string, length: number, caseless: boolean) => {
    for (let i = 0; i + length <= form.length; i++)
      pieces.push({ secret, piece: form.slice(i, i + length), caseless });
  };
  add(secret.toLowerCase(), PIECE, true);
  add(Buffer.from(secret).toString('hex'), 2 * PIECE, true);
  for (let skip = 0; skip < 3; skip++) {
    const base64 = Buffer.from(secret.slice(skip)).toString('base64').replace(/=+$/, '').slice(0, -1);
    add(base64, Math.ceil((PIECE * 4) / 3), false);
    add(base64.replace(/\+/g, '-').replace(/\//g, '_'), Math.ceil((PIECE * 4) / 3), false);
  }
  return pieces;
});

/** Every secret piece found in `text` (see PIECES), whatever the case and line breaks. */
function leaks(text: string): string[] {
  const found = new Set<string>();
  const whole = unwrapped(text);
  const lower = whole.toLowerCase();
  for (const { secret, piece, caseless } of PIECES) {
    if ((caseless ? lower : whole).includes(piece)) found.add(`${secret} (as ${piece})`);
  }
  return [...found];
}

function assertClean(text: string, where: string): void {
  const found = leaks(text);
  assert.deepEqual(found, [], `${where} reveals ${found.join(', ')}:\n${text.slice(0, 2_000)}`);
}

const STARTUP_HEADERS = { Authorization: `Bearer ${SECRETS.startupAuth}`, 'X-Api-Key': SECRETS.startupKey };
const CALL_HEADERS = { 'X-Call-Token': SECRETS.callToken, Authorization: `Bearer ${SECRETS.callAuth}` };
const BOOKS = '{ books(first: 1) { title } }';

let fault: FaultServer;
/** Another origin: gets no startup headers, echoes what it gets. */
let other: FaultServer;
/** Startup headers in --headers, a query-string secret in --endpoint. */
let argsSession: RawMcp;
/** Startup headers in GRAPHQL_HEADERS, the endpoint in GRAPHQL_ENDPOINT, an --allowedEndpoints list. */
let envSession: RawMcp;

/** What an echoing endpoint puts in its answers: every header it received, and the URL it was asked for. */
function echoed(request: RecordedRequest): string {
  const headers: string[] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    headers.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
  }
  return `${request.method} ${request.url}\n${headers.join('\n')}`;
}

function authorization(request: RecordedRequest): string {
  return String(request.headers.authorization ?? request.headers['x-call-token'] ?? 'none');
}

/** The credentials of the Authorization header without its scheme, as servers quote them ("invalid token …"). */
function bareToken(request: RecordedRequest): string {
  return authorization(request).split(' ').at(-1)!;
}

/** The credential of a header value: its last word ("Bearer sk-…" → "sk-…"). */
const bare = (value: string) => value.split(' ').at(-1)!;
const middle = (text: string) => Math.ceil(text.length / 2);

/** How an endpoint may transform what it echoes: each value echoed becomes these texts. */
const TRANSFORMS: ReadonlyArray<{ name: string; of: (value: string) => string[] }> = [
  { name: 'as sent', of: (value) => [value] },
  { name: 'lower-cased', of: (value) => [value.toLowerCase()] },
  { name: 'upper-cased', of: (value) => [value.toUpperCase()] },
  {
    name: 'split across lines',
    of: (value) => [
      value.replace(/\S+/g, (word) => `${word.slice(0, middle(word))}\n${word.slice(middle(word))}`),
    ],
  },
  { name: 'wrapped every 6 characters', of: (value) => [value.replace(/(.{6})/g, '$1\r\n  ')] },
  {
    name: 'cut to the first half of its credential',
    of: (value) => [bare(value).slice(0, middle(bare(value)))],
  },
  {
    name: 'cut to the second half of its credential',
    of: (value) => [bare(value).slice(middle(bare(value)))],
  },
  {
    name: 'base64-encoded',
    of: (value) => [Buffer.from(value).toString('base64'), Buffer.from(bare(value)).toString('base64')],
  },
  {
    name: 'URL-safe base64-encoded without padding',
    of: (value) => [
      Buffer.from(value).toString('base64url'),
      Buffer.from(`{"v":"${bare(value)}"}`).toString('base64url'),
    ],
  },
  { name: 'hex-encoded', of: (value) => [Buffer.from(value).toString('hex')] },
  { name: 'upper-case hex-encoded', of: (value) => [Buffer.from(bare(value)).toString('hex').toUpperCase()] },
  {
    name: 'decoded from Basic',
    of: (value) => {
      const basic = /^Basic (\S+)$/i.exec(value);
      return basic === null ? [value] : [Buffer.from(basic[1]!, 'base64').toString('utf8')];
    },
  },
];

/** Where an echoing endpoint puts what it echoes, and what graphql-mcp then answers. */
const PLACES: ReadonlyArray<{
  name: string;
  answer: (echoes: string[]) => { status: number; type: string; body: string };
  expected: string;
}> = [
  {
    name: 'a 401 GraphQL response’s errors[].message',
    answer: (echoes) => ({
      status: 401,
      type: 'application/json',
      body: JSON.stringify({
        errors: echoes.map((echo) => ({ message: `invalid credentials: ${echo}` })),
        data: null,
      }),
    }),
    expected: 'GRAPHQL_ERRORS',
  },
  {
    name: 'a GraphQL response’s errors[].extensions',
    answer: (echoes) => ({
      status: 200,
      type: 'application/graphql-response+json',
      body: JSON.stringify({
        errors: [{ message: 'forbidden', extensions: { code: 'FORBIDDEN', received: { headers: echoes } } }],
      }),
    }),
    expected: 'GRAPHQL_ERRORS',
  },
  {
    name: 'a GraphQL response’s data values',
    answer: (echoes) => ({
      status: 200,
      type: 'application/json',
      body: JSON.stringify({ data: { whoami: { received: echoes, first: echoes[0] } } }),
    }),
    expected: 'RESULT',
  },
  {
    name: 'a GraphQL response’s data keys',
    answer: (echoes) => ({
      status: 200,
      type: 'application/json',
      body: JSON.stringify({ data: Object.fromEntries(echoes.map((echo) => [echo, true])) }),
    }),
    expected: 'RESULT',
  },
  {
    name: 'an HTML 500 page',
    answer: (echoes) => ({
      status: 500,
      type: 'text/html',
      body: `<html><body><h1>Error</h1><pre>${echoes.join('\n')}</pre></body></html>`,
    }),
    expected: 'HTTP_ERROR',
  },
];

/** Echoing handlers, by path: each quotes the request in a way graphql-mcp then quotes in a message. */
function echoRoutes(server: FaultServer, otherOrigin: string): void {
  const html = (body: string) => `<html><body><h1>Error</h1><pre>${body}</pre></body></html>`;
  const routes: Record<string, Handler> = {
    '/graphql': graphqlHandler(createLibraryApi().schema, createLibraryApi().rootValue),
    '/html500': ({ res, request }) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(html(echoed(request)));
    },
    '/html200': ({ res, request }) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(html(echoed(request)));
    },
    '/json500': ({ res, request }) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'rejected', url: request.url, received: request.headers }));
    },
    '/json200': ({ res, request }) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: 'not graphql', url: request.url, received: request.headers }));
    },
    '/bad-json': ({ res, request }) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"data": ${JSON.stringify(echoed(request))}`);
    },
    // GraphQL-looking answers that are not GraphQL responses, so graphql-mcp quotes them.
    '/errors-not-array': ({ res, request }) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: `denied for ${authorization(request)} at ${request.url}` }));
    },
    '/errors-400-not-array': ({ res, request }) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ errors: { message: `denied for ${authorization(request)} at ${request.url}` } }),
      );
    },
    '/data-string': ({ res, request }) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: `hello ${authorization(request)} at ${request.url}` }));
    },
    '/status-text': ({ res, request }) => {
      res.writeHead(503, `Unavailable for ${authorization(request)}`.replace(/[^\t\x20-\x7e]/g, '?'), {
        'content-type': 'text/plain',
      });
      res.end('');
    },
    '/content-type': ({ res, request }) => {
      res.writeHead(502, { 'content-type': `text/plain; token="${authorization(request)}"` });
      res.end('bad gateway');
    },
    '/token-401': ({ res, request }) => {
      res.writeHead(401, { 'content-type': 'text/html' });
      res.end(`<html><body>Invalid token ${bareToken(request)}</body></html>`);
    },
    '/redirect-path': ({ res, request }) => {
      const token = encodeURIComponent(authorization(request));
      res.writeHead(307, { location: `${otherOrigin}/to/${token}?q=${token}` });
      res.end();
    },
    '/redirect-userinfo': ({ res, request }) => {
      const token = encodeURIComponent(authorization(request).replace(/\s/g, ''));
      res.writeHead(302, { location: otherOrigin.replace('http://', `http://user:${token}@`) + '/x' });
      res.end();
    },
    '/redirect-host': ({ res, request }) => {
      res.writeHead(307, { location: `http://${bareToken(request)}.evil.test/graphql` });
      res.end();
    },
    '/redirect-loop': ({ res, request }) => {
      res.writeHead(307, { location: request.url });
      res.end();
    },
    '/never': respond.never(),
    '/reset': async ({ res, request }) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(JSON.stringify(echoed(request)).slice(0, 2_000));
      await new Promise((resolve) => setTimeout(resolve, 20));
      res.socket?.destroy();
    },
    '/too-large': ({ res, request }) => {
      const body = JSON.stringify({ data: { echo: echoed(request), pad: 'p'.repeat(20_000) } });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    },
    '/corrupt-gzip': ({ res, request }) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(echoed(request));
    },
    '/introspection-refused': ({ res, request }) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          errors: [{ message: `introspection disabled for ${authorization(request)} at ${request.url}` }],
        }),
      );
    },
    '/introspection-error-object': ({ res, request }) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ detail: echoed(request) }] }));
    },
    // A schema that builds, whose descriptions quote every credential in each transform and whose types
    // are named after the bare token: graphql_introspect's answer quotes them.
    '/introspection-echo': (exchange) => {
      const { request } = exchange;
      const credentials = Object.entries(request.headers)
        .filter(([name]) => /auth|token|key/i.test(name))
        .map(([, value]) => String(value));
      const echoes = [...credentials, request.url].flatMap((value) =>
        TRANSFORMS.flatMap((transform) => transform.of(value)),
      );
      const named = (name: string) => name.replace(/[^_0-9A-Za-z]/g, '_').replace(/^(?=\d)/, '_');
      const token = new GraphQLObjectType({
        name: named(bareToken(request)),
        description: echoes.join('\n'),
        fields: { [named(bareToken(request).toLowerCase())]: { type: GraphQLString } },
      });
      const query = new GraphQLObjectType({
        name: 'Query',
        description: `Signed in as ${authorization(request)}`,
        fields: { whoami: { type: token, description: echoes.join(' / ') } },
      });
      return graphqlHandler(new GraphQLSchema({ query }))(exchange);
    },
    '/introspection-bad-schema': ({ res, request }) => {
      // A type named after the token: graphql-js names the type it cannot find in its message.
      const name = bareToken(request);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { __schema: { queryType: { name }, types: [], directives: [] } } }));
    },
  };
  for (const [path, handler] of Object.entries(routes)) server.route(path, handler);
  for (const [t, transform] of TRANSFORMS.entries()) {
    for (const [p, place] of PLACES.entries()) {
      server.route(`/echo-${p}-${t}`, ({ res, request }) => {
        // The credentials first: an error page is quoted only up to its first 200 characters.
        const credentials = Object.entries(request.headers)
          .filter(([name]) => /auth|token|key/i.test(name))
          .map(([, value]) => String(value));
        const echoes = [...credentials, request.url].flatMap(transform.of);
        const { status, type, body } = place.answer(echoes);
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      });
    }
  }
  // The body preview of an error message is cut after 200 characters: a secret echoed across the cut
  // must not leave its first part behind. One route per offset, so that every cut point is tried.
  for (let offset = 170; offset <= 200; offset++) {
    server.route(`/cut-${offset}`, ({ res, request }) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(`${'.'.repeat(offset)}${authorization(request)} ${request.url}`);
    });
  }
}

before(async () => {
  [fault, other] = await Promise.all([startFaultServer(), startFaultServer()]);
  echoRoutes(fault, other.origin);
  echoRoutes(other, fault.origin);
  argsSession = new RawMcp([
    `--endpoint=${fault.origin}/graphql?api_key=${SECRETS.queryString}`,
    `--headers=${JSON.stringify(STARTUP_HEADERS)}`,
    '--timeout=1000',
    '--maxComplexity=5',
    '--maxResponseBytes=4096',
  ]);
  envSession = new RawMcp(['--timeout=1000', '--maxComplexity=5', '--maxResponseBytes=4096'], {
    GRAPHQL_ENDPOINT: `${fault.origin}/graphql?token=${SECRETS.envQueryString}`,
    GRAPHQL_HEADERS: JSON.stringify({ Authorization: `Bearer ${SECRETS.envAuth}` }),
    GRAPHQL_ALLOWED_ENDPOINTS: `${other.origin}/graphql?key=${SECRETS.allowedQueryString}`,
  });
  await Promise.all([argsSession.initialize(), envSession.initialize()]);
  // Every log notification is sent, so that raw stdout holds them all to be scanned.
  await Promise.all(
    [argsSession, envSession].map((session) => session.request('logging/setLevel', { level: 'debug' })),
  );
});

after(async () => {
  argsSession?.kill();
  envSession?.kill();
  await Promise.allSettled([fault, other].filter(Boolean).map((server) => server.close()));
});

// ---------------------------------------------------------------------------------------------------------

/** Calls a tool, checks the code (or success), and scans everything in the answer. */
async function drive(
  session: RawMcp,
  tool: string,
  args: Record<string, unknown>,
  expected: string,
): Promise<ToolResult> {
  const message = await session.callTool(tool, args, 30_000);
  const outcome = classify(message);
  const raw = JSON.stringify(message);
  if (expected === 'RESULT') {
    assert.ok(outcome.kind === 'success', `expected a result, got ${raw.slice(0, 500)}`);
  } else if (expected === 'GRAPHQL_ERRORS') {
    assert.ok(
      outcome.kind === 'graphql-errors',
      `expected a GraphQL error response, got ${raw.slice(0, 500)}`,
    );
  } else {
    assert.ok(
      outcome.kind === 'error' && outcome.code === expected,
      `expected ${expected}, got ${raw.slice(0, 500)}`,
    );
  }
  const result = message.result as ToolResult;
  for (const [i, item] of (result.content ?? []).entries()) assertClean(item.text ?? '', `content ${i}`);
  assertClean(raw, 'the JSON-RPC answer');
  return result;
}

const texts = (result: ToolResult) => (result.content ?? []).map((item) => item.text ?? '');
const withCall = (extra: Record<string, unknown> = {}) => ({ query: BOOKS, headers: CALL_HEADERS, ...extra });
const at = (path: string, server = () => fault) => `${server().origin}${path}?sig=${SECRETS.callQueryString}`;

interface Case {
  readonly name: string;
  readonly args: () => Record<string, unknown>;
  readonly expected: string;
}

/**
 * The code a case gets from the session started from the environment, whose --allowedEndpoints admits
 * only the default endpoint's origin and one endpoint of the other server: elsewhere it refuses the call.
 */
function expectedWithAllowList(args: Record<string, unknown>, expected: string): string {
  if (expected === 'INVALID_INPUT' || typeof args.endpoint !== 'string') return expected;
  const url = new URL(args.endpoint);
  const allowed = url.origin === fault.origin || (url.origin === other.origin && url.pathname === '/graphql');
  return allowed ? expected : 'ENDPOINT_NOT_ALLOWED';
}

const QUERY_CASES: Case[] = [
  { name: 'a successful query', args: () => withCall(), expected: 'RESULT' },
  {
    name: 'a successful query on another origin (headers withheld)',
    args: () => withCall({ endpoint: at('/graphql', () => other) }),
    expected: 'RESULT',
  },
  {
    name: 'a query that is not a string',
    args: () => ({ query: 5, headers: CALL_HEADERS }),
    expected: 'INVALID_INPUT',
  },
  { name: 'an unknown input', args: () => withCall({ token: SECRETS.callToken }), expected: 'INVALID_INPUT' },
  {
    name: 'headers given as a string',
    args: () => ({ query: BOOKS, headers: `Authorization: Bearer ${SECRETS.callAuth}` }),
    expected: 'INVALID_INPUT',
  },
  {
    name: 'a header value with a line break',
    args: () => ({ query: BOOKS, headers: { 'X-Call-Token': `${SECRETS.callToken}\r\nX-Injected: 1` } }),
    expected: 'INVALID_INPUT',
  },
  {
    name: 'a header value above Latin-1',
    args: () => ({ query: BOOKS, headers: { 'X-Call-Token': `${SECRETS.callToken}✓` } }),
    expected: 'INVALID_INPUT',
  },
  {
    name: 'a header value of the wrong type',
    args: () => ({ query: BOOKS, headers: { 'X-Call-Token': { v: SECRETS.callToken } } }),
    expected: 'INVALID_INPUT',
  },
  {
    name: 'an endpoint with user-info',
    args: () =>
      withCall({
        endpoint: `http://${SECRETS.userInfo}:${SECRETS.password}@127.0.0.1:${fault.port}/graphql?k=${SECRETS.callQueryString}`,
      }),
    expected: 'INVALID_INPUT',
  },
  {
    name: 'an endpoint with user-info that is not a valid URL',
    args: () => withCall({ endpoint: `http://${SECRETS.userInfo}:${SECRETS.password}@[bad/graphql` }),
    expected: 'INVALID_INPUT',
  },
  {
    name: 'an endpoint with a bad scheme and a query string',
    args: () => withCall({ endpoint: `ftp://127.0.0.1/graphql?k=${SECRETS.callQueryString}` }),
    expected: 'INVALID_INPUT',
  },
  {
    name: 'an unparsable endpoint with a query string',
    args: () => withCall({ endpoint: `::not a url?k=${SECRETS.callQueryString}` }),
    expected: 'INVALID_INPUT',
  },
  {
    name: 'variables given as a bad JSON string',
    args: () => withCall({ variables: `{"token": "${SECRETS.callToken}"` }),
    expected: 'INVALID_INPUT',
  },
  { name: 'a syntax error', args: () => withCall({ query: '{ books(' }), expected: 'SYNTAX_ERROR' },
  {
    name: 'an undefined fragment',
    args: () => withCall({ query: '{ ...Missing }' }),
    expected: 'INVALID_DOCUMENT',
  },
  {
    name: 'an unknown operationName',
    args: () => withCall({ operationName: 'Nope' }),
    expected: 'OPERATION_NOT_FOUND',
  },
  {
    name: 'a subscription',
    args: () => withCall({ query: 'subscription { reviewAdded { id } }' }),
    expected: 'SUBSCRIPTION_NOT_SUPPORTED',
  },
  {
    name: 'a mutation',
    args: () => withCall({ query: 'mutation { addReview(bookId: "b1", rating: 5) { id } }' }),
    expected: 'MUTATION_NOT_ALLOWED',
  },
  {
    name: 'a query over the complexity limit',
    args: () => withCall({ query: '{ books { title year isbn13 genre author { name born } } }' }),
    expected: 'COMPLEXITY_LIMIT',
  },
  { name: 'a timeout', args: () => withCall({ endpoint: at('/never'), timeout: 200 }), expected: 'TIMEOUT' },
  {
    name: 'a refused connection',
    args: () => withCall({ endpoint: `http://127.0.0.1:9/graphql?k=${SECRETS.callQueryString}` }),
    expected: 'NETWORK_ERROR',
  },
  {
    name: 'a DNS failure',
    args: () =>
      withCall({ endpoint: `http://graphql-mcp-secrets.invalid/graphql?k=${SECRETS.callQueryString}` }),
    expected: 'NETWORK_ERROR',
  },
  {
    name: 'a reset mid-body that had echoed the request',
    args: () => withCall({ endpoint: at('/reset') }),
    expected: 'NETWORK_ERROR',
  },
  {
    name: 'an HTML 500 page echoing the request',
    args: () => withCall({ endpoint: at('/html500') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'a JSON 500 body echoing the request',
    args: () => withCall({ endpoint: at('/json500') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'a 400 whose errors member echoes the token but is not a list',
    args: () => withCall({ endpoint: at('/errors-400-not-array') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'a status line echoing the token',
    args: () => withCall({ endpoint: at('/status-text') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'a 401 page quoting the token without its scheme',
    args: () => withCall({ endpoint: at('/token-401') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'a content type echoing the token',
    args: () => withCall({ endpoint: at('/content-type') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'a redirect to another origin whose path holds the percent-encoded Authorization value',
    args: () => withCall({ endpoint: at('/redirect-path') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'a redirect to another origin whose user-info echoes the token',
    args: () => withCall({ endpoint: at('/redirect-userinfo') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'a redirect to another origin whose host name is the token (lower-cased by URL parsing)',
    args: () => withCall({ endpoint: at('/redirect-host') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'a redirect loop that keeps the query string',
    args: () => withCall({ endpoint: at('/redirect-loop') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'an HTML 200 page echoing the request',
    args: () => withCall({ endpoint: at('/html200') }),
    expected: 'INVALID_RESPONSE',
  },
  {
    name: 'a 200 JSON body that is not GraphQL, echoing the request',
    args: () => withCall({ endpoint: at('/json200') }),
    expected: 'INVALID_RESPONSE',
  },
  {
    name: 'a 200 body that is not valid JSON, echoing the request',
    args: () => withCall({ endpoint: at('/bad-json') }),
    expected: 'INVALID_RESPONSE',
  },
  {
    name: 'a GraphQL error message in an errors member that is not a list',
    args: () => withCall({ endpoint: at('/errors-not-array') }),
    expected: 'INVALID_RESPONSE',
  },
  {
    name: 'a data member that is a string echoing the token',
    args: () => withCall({ endpoint: at('/data-string') }),
    expected: 'INVALID_RESPONSE',
  },
  {
    name: 'a body that claims gzip, echoing the request',
    args: () => withCall({ endpoint: at('/corrupt-gzip') }),
    expected: 'INVALID_RESPONSE',
  },
  {
    name: 'a response over --maxResponseBytes that echoes the request',
    args: () => withCall({ endpoint: at('/too-large') }),
    expected: 'RESPONSE_TOO_LARGE',
  },
];

/** Call headers for the echo cases: a token, and a Basic credential whose password holds a secret. */
const ECHO_CALL_HEADERS = {
  'X-Call-Token': SECRETS.callToken,
  'Proxy-Authorization': `Basic ${Buffer.from(`alice:sk-${SECRETS.callAuth}`).toString('base64')}`,
};

/** Endpoints on the trusted origin that echo every header and the URL, in each place and each transform. */
const ECHO_CASES: Case[] = PLACES.flatMap((place, p) =>
  TRANSFORMS.map((transform, t) => ({
    name: `${place.name} echoing the request ${transform.name}`,
    args: () => ({ query: BOOKS, headers: ECHO_CALL_HEADERS, endpoint: at(`/echo-${p}-${t}`) }),
    expected: place.expected,
  })),
);

const INTROSPECT_CASES: Case[] = [
  { name: 'a successful introspection', args: () => ({ headers: CALL_HEADERS }), expected: 'RESULT' },
  {
    name: 'a successful introspection of another origin (headers withheld)',
    args: () => ({ headers: CALL_HEADERS, endpoint: at('/graphql', () => other) }),
    expected: 'RESULT',
  },
  {
    name: 'an unknown input',
    args: () => ({ headers: CALL_HEADERS, token: SECRETS.callToken }),
    expected: 'INVALID_INPUT',
  },
  {
    name: 'a header value with a line break',
    args: () => ({ headers: { Authorization: `Bearer ${SECRETS.callAuth}\n` } }),
    expected: 'INVALID_INPUT',
  },
  {
    name: 'an endpoint with user-info',
    args: () => ({
      endpoint: `http://${SECRETS.userInfo}:${SECRETS.password}@127.0.0.1:${fault.port}/graphql`,
    }),
    expected: 'INVALID_INPUT',
  },
  { name: 'a timeout', args: () => ({ headers: CALL_HEADERS, endpoint: at('/never') }), expected: 'TIMEOUT' },
  {
    name: 'a refused connection',
    args: () => ({
      headers: CALL_HEADERS,
      endpoint: `http://127.0.0.1:9/graphql?k=${SECRETS.callQueryString}`,
    }),
    expected: 'NETWORK_ERROR',
  },
  {
    name: 'a reset mid-body that had echoed the request',
    args: () => ({ headers: CALL_HEADERS, endpoint: at('/reset') }),
    expected: 'NETWORK_ERROR',
  },
  {
    name: 'an HTML 500 page echoing the request',
    args: () => ({ headers: CALL_HEADERS, endpoint: at('/html500') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'a JSON 500 body echoing the request',
    args: () => ({ headers: CALL_HEADERS, endpoint: at('/json500') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'a redirect to another origin whose path holds the percent-encoded Authorization value',
    args: () => ({ headers: CALL_HEADERS, endpoint: at('/redirect-path') }),
    expected: 'HTTP_ERROR',
  },
  {
    name: 'an HTML 200 page echoing the request',
    args: () => ({ headers: CALL_HEADERS, endpoint: at('/html200') }),
    expected: 'INVALID_RESPONSE',
  },
  {
    name: 'a schema echoing the request in its descriptions, transformed, and naming types after the token',
    args: () => ({ headers: ECHO_CALL_HEADERS, endpoint: at('/introspection-echo') }),
    expected: 'RESULT',
  },
  {
    name: 'a schema that cannot be built, naming a type after the token',
    args: () => ({ headers: CALL_HEADERS, endpoint: at('/introspection-bad-schema') }),
    expected: 'INVALID_RESPONSE',
  },
  {
    name: 'a GraphQL error message echoing the token and the URL',
    args: () => ({ headers: CALL_HEADERS, endpoint: at('/introspection-refused') }),
    expected: 'INTROSPECTION_FAILED',
  },
  {
    name: 'a GraphQL error without a message, echoing the request',
    args: () => ({ headers: CALL_HEADERS, endpoint: at('/introspection-error-object') }),
    expected: 'INTROSPECTION_FAILED',
  },
];

describe('the echoing endpoints really receive the secrets (else this file proves nothing)', () => {
  test('the startup endpoint receives the --headers values, its query string and the call headers', async () => {
    await drive(argsSession, 'graphql_query', withCall(), 'RESULT');
    const request = fault.requestsTo('/graphql').at(-1)!;
    assert.equal(request.headers['x-api-key'], SECRETS.startupKey);
    assert.equal(request.headers['x-call-token'], SECRETS.callToken);
    assert.ok(request.url.includes(SECRETS.queryString));
  });

  test('the startup endpoint receives the GRAPHQL_HEADERS value and the GRAPHQL_ENDPOINT query string', async () => {
    await drive(envSession, 'graphql_query', { query: BOOKS }, 'RESULT');
    const request = fault.requestsTo('/graphql').at(-1)!;
    assert.equal(request.headers.authorization, `Bearer ${SECRETS.envAuth}`);
    assert.ok(request.url.includes(SECRETS.envQueryString));
  });
});

for (const [label, session] of [
  ['--headers', () => argsSession],
  ['GRAPHQL_HEADERS', () => envSession],
] as const) {
  const codeFor = (args: Record<string, unknown>, expected: string) =>
    label === '--headers' ? expected : expectedWithAllowList(args, expected);

  describe(`graphql_query, startup headers from ${label}`, () => {
    for (const { name, args, expected } of QUERY_CASES) {
      test(`MUST NOT reveal any secret on ${name}`, async () => {
        const given = args();
        await drive(session(), 'graphql_query', given, codeFor(given, expected));
      });
    }
  });

  describe(`graphql_query against endpoints that echo the request, startup headers from ${label}`, () => {
    for (const { name, args, expected } of ECHO_CASES) {
      test(`MUST NOT reveal any secret in ${name}`, async () => {
        const result = await drive(session(), 'graphql_query', args(), expected);
        if (expected !== 'HTTP_ERROR') {
          assert.match(texts(result).at(-1)!, /^Note: \d+ values? in this response matched credentials/);
        }
      });
    }
  });

  describe(`graphql_introspect, startup headers from ${label}`, () => {
    for (const { name, args, expected } of INTROSPECT_CASES) {
      test(`MUST NOT reveal any secret on ${name}`, async () => {
        const given = args();
        await drive(session(), 'graphql_introspect', given, codeFor(given, expected));
      });
    }

    test('a schema that echoes credentials is answered with them hidden, and says so', async () => {
      const given = { headers: ECHO_CALL_HEADERS, endpoint: at('/introspection-echo'), typeNames: ['Query'] };
      const result = await drive(session(), 'graphql_introspect', given, 'RESULT');
      assert.match(texts(result)[0]!, /type Query \{/);
      assert.match(texts(result)[0]!, /\[redacted\]/);
      assert.match(texts(result).at(-1)!, /^Note: \d+ values? in this schema matched credentials/);
    });
  });
}

describe('errors that quote an endpoint’s answer', () => {
  test('MUST NOT reveal the startup endpoint’s query string or headers echoed by its own error page', async () => {
    const echoing = new RawMcp([
      `--endpoint=${fault.origin}/html500?api_key=${SECRETS.queryString}`,
      `--headers=${JSON.stringify(STARTUP_HEADERS)}`,
    ]);
    try {
      await echoing.initialize();
      await drive(echoing, 'graphql_query', { query: BOOKS }, 'HTTP_ERROR');
      assertClean(echoing.stdout().toString('utf8'), 'raw stdout');
      assertClean(echoing.stderr().toString('utf8'), 'stderr');
    } finally {
      await echoing.close();
    }
  });

  test('MUST NOT leave part of a secret behind where an error page is cut off at any point', async () => {
    for (let offset = 170; offset <= 200; offset++) {
      await drive(argsSession, 'graphql_query', withCall({ endpoint: at(`/cut-${offset}`) }), 'HTTP_ERROR');
    }
  });

  test('MUST NOT reveal the default endpoint’s query string when introspection errors echo the URL', async () => {
    const echoing = new RawMcp([
      `--endpoint=${fault.origin}/introspection-refused?api_key=${SECRETS.queryString}`,
    ]);
    try {
      await echoing.initialize();
      await drive(echoing, 'graphql_introspect', {}, 'INTROSPECTION_FAILED');
    } finally {
      await echoing.close();
    }
  });

  test('MUST NOT reveal the default endpoint’s query string when an introspection error page echoes the URL', async () => {
    const echoing = new RawMcp([`--endpoint=${fault.origin}/html500?api_key=${SECRETS.queryString}`]);
    try {
      await echoing.initialize();
      await drive(echoing, 'graphql_introspect', {}, 'HTTP_ERROR');
    } finally {
      await echoing.close();
    }
  });

  test('MUST NOT reveal the query strings of --allowedEndpoints entries (ENDPOINT_NOT_ALLOWED)', async () => {
    await drive(
      envSession,
      'graphql_query',
      withCall({ endpoint: at('/graphql').replace(fault.origin, 'http://127.0.0.2:9') }),
      'ENDPOINT_NOT_ALLOWED',
    );
    await drive(
      envSession,
      'graphql_introspect',
      { endpoint: `http://127.0.0.2:9/graphql?k=${SECRETS.callQueryString}` },
      'ENDPOINT_NOT_ALLOWED',
    );
  });

  test('MUST NOT reveal secrets of a call the client cancels', async () => {
    const from = argsSession.stdout().length;
    const { id, written, answer } = argsSession.callToolRaw(
      'graphql_query',
      JSON.stringify(withCall({ endpoint: at('/never'), timeout: 5_000 })),
      10_000,
    );
    // A cancelled call is never answered: its pending answer fails when the session ends, unobserved.
    answer.catch(() => undefined);
    await written;
    await fault.waitForRequest('/never');
    argsSession.notify('notifications/cancelled', { requestId: id, reason: 'the test cancels it' });
    await argsSession.request('ping');
    assertClean(argsSession.stdout().subarray(from).toString('utf8'), 'raw stdout');
  });
});

describe('remote mode, with a forwarded credential', () => {
  let remote: HttpMcpProcess;
  before(async () => {
    remote = await startHttpMcp([
      `--endpoint=${fault.origin}/graphql?api_key=${SECRETS.queryString}`,
      `--headers=${JSON.stringify(STARTUP_HEADERS)}`,
      '--forwardHeaders=X-User-Token:X-Forwarded-Token',
      '--timeout=1000',
    ]);
  });
  after(async () => {
    await remote?.stop();
  });

  /** One raw tools/call, asking for every log notification; the whole HTTP response is scanned. */
  async function driveRemote(
    args: Record<string, unknown>,
    expected: string,
    tool = 'graphql_query',
  ): Promise<void> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: tool,
        arguments: args,
        _meta: { 'io.modelcontextprotocol/logLevel': 'debug' },
      },
    });
    const response = await rawRequest(remote.url, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'X-User-Token': `Bearer ${SECRETS.forwarded}` },
      body,
    });
    assert.equal(response.status, 200, response.body);
    const [message] = rpcMessages(response);
    const outcome = classify(message as never);
    const kind = outcome.kind === 'error' ? outcome.code : outcome.kind;
    const wanted =
      expected === 'RESULT' ? 'success' : expected === 'GRAPHQL_ERRORS' ? 'graphql-errors' : expected;
    assert.equal(kind, wanted, response.body.slice(0, 500));
    assertClean(JSON.stringify(response.headers), 'the HTTP response headers');
    assertClean(response.body, 'the HTTP response');
  }

  test('the endpoint receives the forwarded credential (else these cases prove nothing)', async () => {
    await driveRemote({ query: BOOKS }, 'RESULT');
    assert.equal(
      fault.requestsTo('/graphql').at(-1)!.headers['x-forwarded-token'],
      `Bearer ${SECRETS.forwarded}`,
    );
  });

  for (const { name, args, expected } of ECHO_CASES) {
    test(`MUST NOT reveal any secret in ${name}`, async () => {
      await driveRemote(args(), expected);
    });
  }

  test('MUST NOT reveal any secret in a schema that echoes the request', async () => {
    const args = { headers: ECHO_CALL_HEADERS, endpoint: at('/introspection-echo') };
    await driveRemote(args, 'RESULT', 'graphql_introspect');
  });

  test('MUST NOT reveal a token that names the host of a redirect', async () => {
    await driveRemote(withCall({ endpoint: at('/redirect-host') }), 'HTTP_ERROR');
  });

  test('MUST NOT write any secret to stderr, and its log lines quote no GraphQL response', async () => {
    await remote.stop();
    const stderr = remote.stderr();
    assertClean(stderr, 'stderr');
    const outcomes = stderr
      .split('\n')
      .filter((line) => line.startsWith('{') && line.includes('"message"'))
      .map((line) => String((JSON.parse(line) as { message?: unknown }).message));
    assert.ok(outcomes.length >= ECHO_CASES.length, stderr.slice(0, 2_000));
    assert.ok(outcomes.some((line) => /^graphql_query: GraphQL errors, no data \(\d+ ms\)$/.test(line)));
  });
});

describe('log lines', () => {
  test('MUST NOT quote a GraphQL response in a log notification or on stderr', async () => {
    const from = argsSession.stdoutMessages().length;
    const echo = at(`/echo-0-0`);
    await drive(
      argsSession,
      'graphql_query',
      { query: BOOKS, headers: ECHO_CALL_HEADERS, endpoint: echo },
      'GRAPHQL_ERRORS',
    );
    const logged = argsSession
      .stdoutMessages()
      .slice(from)
      .filter((message) => message.method === 'notifications/message')
      .map((message) => (message.params as { data?: unknown }).data);
    assert.equal(logged.length, 1, JSON.stringify(logged));
    assert.match(String(logged[0]), /^graphql_query: GraphQL errors, no data \(\d+ ms\)$/);
  });

  test('MUST NOT reveal a secret in the log notification of an error that quotes an endpoint', async () => {
    const from = argsSession.stdoutMessages().length;
    await drive(argsSession, 'graphql_query', withCall({ endpoint: at('/echo-4-1') }), 'HTTP_ERROR');
    const logged = argsSession
      .stdoutMessages()
      .slice(from)
      .filter((message) => message.method === 'notifications/message')
      .map((message) => String((message.params as { data?: unknown }).data));
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /^graphql_query: HTTP_ERROR: HTTP 500 .*\[redacted\]/);
    assertClean(logged[0]!, 'the log notification');
  });
});

describe('start-up errors', () => {
  const cases: Array<{ name: string; args: string[]; env?: Record<string, string> }> = [
    {
      name: '--headers that is not valid JSON',
      args: [`--headers={"Authorization": "Bearer ${SECRETS.startupAuth}"`],
    },
    {
      name: '--headers with a value that is a list',
      args: [`--headers={"Authorization": ["${SECRETS.startupAuth}"]}`],
    },
    {
      name: '--headers with a line break in a value',
      args: [`--headers={"Authorization": "Bearer ${SECRETS.startupAuth}\\r\\nX: 1"}`],
    },
    {
      name: '--headers with a value above Latin-1',
      args: [`--headers={"X-Api-Key": "${SECRETS.startupKey}✓"}`],
    },
    { name: '--headers that is a JSON string', args: [`--headers="${SECRETS.startupAuth}"`] },
    {
      name: 'GRAPHQL_HEADERS that is not valid JSON',
      args: [],
      env: { GRAPHQL_HEADERS: `{"Authorization": "Bearer ${SECRETS.envAuth}` },
    },
    {
      name: '--endpoint with user-info',
      args: [`--endpoint=http://${SECRETS.userInfo}:${SECRETS.password}@127.0.0.1/graphql`],
    },
    {
      name: 'GRAPHQL_ENDPOINT with user-info',
      args: [],
      env: { GRAPHQL_ENDPOINT: `http://${SECRETS.userInfo}:${SECRETS.password}@127.0.0.1/graphql` },
    },
    {
      name: '--endpoint with a bad scheme and a query string',
      args: [`--endpoint=ftp://127.0.0.1/graphql?k=${SECRETS.queryString}`],
    },
    {
      name: 'an unparsable --endpoint with a query string',
      args: [`--endpoint=::bad?k=${SECRETS.queryString}`],
    },
    {
      name: 'an unparsable --endpoint with user-info',
      args: [`--endpoint=http://${SECRETS.userInfo}:${SECRETS.password}@[bad`],
    },
    {
      name: '--allowedEndpoints with user-info',
      args: [`--allowedEndpoints=http://${SECRETS.userInfo}:${SECRETS.password}@127.0.0.1/`],
    },
    {
      name: 'a bad --timeout beside good headers',
      args: [`--headers=${JSON.stringify(STARTUP_HEADERS)}`, '--timeout=soon'],
    },
  ];
  for (const { name, args, env } of cases) {
    test(`MUST NOT reveal any secret when start-up stops on ${name}`, () => {
      const run = runCli(args, env);
      assert.equal(run.status, 2, run.stderr);
      assertClean(run.stderr, 'stderr');
      assertClean(run.stdout, 'stdout');
    });
  }
});

describe('every byte', () => {
  test('MUST NOT write any secret to raw stdout or stderr, and stdout holds only JSON-RPC', async () => {
    for (const session of [argsSession, envSession]) {
      await session.request('ping');
      assert.deepEqual(session.strayLines, []);
      session.stdoutMessages();
      assertClean(session.stdout().toString('utf8'), 'raw stdout');
      assertClean(session.stderr().toString('utf8'), 'stderr');
      const exit = await session.close();
      assert.equal(exit.code, 0);
      assertClean(session.stderr().toString('utf8'), 'stderr after exit');
    }
  });
});

describe("a secret in an endpoint's path, from the environment (${env:…} in a config file)", () => {
  const KEY = 'hk-9d8c7b6a5f4e3d2c1b0a';
  let api: Awaited<ReturnType<typeof serveGraphQL>>;
  let dir: string;
  let session: McpSession;
  before(async () => {
    const library = createLibraryApi();
    api = await serveGraphQL(library.schema, library.rootValue);
    dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-path-secret-'));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ apis: { hooks: { endpoint: `${api.url}/\${env:PATHKEY}` } } }));
    session = await startMcp([`--config=${config}`], { PATHKEY: KEY });
  });
  after(async () => {
    await session?.close();
    await api?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test('goes to the endpoint, and MUST NOT appear in the tool list, the resource list, answers or stderr', async () => {
    const tools = JSON.stringify(await session.client.listTools());
    const resources = JSON.stringify([
      await session.client.listResources(),
      await session.client.listResourceTemplates(),
      await session.client.listPrompts(),
    ]);
    const answer = await session.call('graphql_query', { query: '{ books(first: 1) { title } }' });
    assert.notEqual(answer.isError, true, textsOf(answer).join('\n'));
    assert.ok(
      api.requests.some((request) => request.path === `/graphql/${KEY}`),
      'the request went there',
    );
    const refused = await session.call('graphql_query', { query: '{ nope }' });
    const introspected = await session.call('graphql_introspect', { typeNames: ['Nope'] });
    for (const [what, text] of Object.entries({
      tools,
      resources,
      refused: textsOf(refused).join('\n'),
      introspected: textsOf(introspected).join('\n'),
      stderr: session.stderr(),
    })) {
      assert.ok(!text.includes(KEY), `${what} holds the path's secret: ${text.slice(0, 300)}`);
    }
    assert.match(tools, /\/graphql\/\[redacted\]/);
  });
});
