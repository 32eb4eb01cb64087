import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { respond, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { startMcp, texts, type McpSession, type CallToolResult } from '../fixtures/mcp.ts';
import { responseOf } from '../fixtures/client-views.ts';

// graphql_query end to end: the built binary over stdio with the SDK client, against the demo library API
// and a fault-injection server, both on 127.0.0.1.

const VERSION: string = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
).version;
const STARTUP_KEY = 'startup-key-0451';
const BOOK_B1 = '{ book(id: "b1") { title } }';
const B1_RESULT = { data: { book: { title: 'A Wizard of Earthsea' } } };
/**
 * How long past its deadline a call may end: the endpoints below never answer or trickle for far longer, so
 * only a deadline that is not enforced passes this; a call ends a few ms past it (bench/responsiveness.ts),
 * many times less also on a loaded machine.
 */
const LATE_MS = 10_000;
/** How long a test waits for a connection to close: it closes within milliseconds. */
const CLOSE_MS = 10_000;

let library: RunningGraphQLServer;
let other: RunningGraphQLServer;
let fault: FaultServer;
/** Default endpoint: library, a startup header, --timeout=1000. */
let main: McpSession;
/** --maxComplexity=8 --maxResponseBytes=2048. */
let limits: McpSession;
/** --maxComplexity=0. */
let unlimited: McpSession;
/** --allowedEndpoints=<other>. */
let allowed: McpSession;
/** --readOnly. */
let readOnly: McpSession;

before(async () => {
  const serveLibrary = () => {
    const api = createLibraryApi();
    return serveGraphQL(api.schema, api.rootValue);
  };
  [library, other, fault] = await Promise.all([serveLibrary(), serveLibrary(), startFaultServer()]);
  const endpoint = `--endpoint=${library.url}`;
  [main, limits, unlimited, allowed, readOnly] = await Promise.all([
    startMcp([endpoint, `--headers=${JSON.stringify({ 'X-Api-Key': STARTUP_KEY })}`, '--timeout=1000']),
    startMcp([endpoint, '--maxComplexity=8', '--maxResponseBytes=2048']),
    startMcp([endpoint, '--maxComplexity=0']),
    startMcp([endpoint, `--allowedEndpoints=${other.url}`]),
    startMcp([endpoint, '--readOnly']),
  ]);
});

after(async () => {
  const sessions = [main, limits, unlimited, allowed, readOnly];
  await Promise.allSettled(sessions.filter(Boolean).map((session) => session.close()));
  await Promise.allSettled([library, other, fault].filter(Boolean).map((server) => server.close()));
});

// ---------------------------------------------------------------------------------------------------------
// Helpers

function call(session: McpSession, args: Record<string, unknown>): Promise<CallToolResult> {
  return session.call('graphql_query', args);
}

function firstText(result: CallToolResult): string {
  return texts(result)[0] ?? '';
}

/** The result is an error result whose first text starts with `CODE: ` and contains every part given. */
function assertError(result: CallToolResult, code: string, ...parts: Array<string | RegExp>): string {
  const text = firstText(result);
  assert.equal(result.isError, true, `expected an error result, got ${text}`);
  assert.ok(text.startsWith(`${code}: `), `expected ${code}, got ${text}`);
  for (const part of parts) {
    if (typeof part === 'string')
      assert.ok(text.includes(part), `expected ${JSON.stringify(part)} in ${text}`);
    else assert.match(text, part);
  }
  return text;
}

/** The session still answers a plain query against its default endpoint. */
async function assertStillWorks(session: McpSession): Promise<void> {
  const result = await call(session, { query: BOOK_B1 });
  assert.deepEqual(result.structuredContent, B1_RESULT, firstText(result));
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

let routes = 0;
/** A fresh path on the fault server for one test. */
function path(name: string): string {
  return `/${++routes}-${name}`;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A query of `n` aliased title fields under one book: n + 1 fields. */
function aliasedTitles(n: number): string {
  const fields = Array.from({ length: n }, (_, i) => `t${i}: title`).join(' ');
  return `{ book(id: "b1") { ${fields} } }`;
}

// ---------------------------------------------------------------------------------------------------------

describe('graphql_query inputs', () => {
  test('runs the query against the startup endpoint and returns its data', async () => {
    const result = await call(main, { query: BOOK_B1 });
    assert.notEqual(result.isError, true);
    assert.deepEqual(result.structuredContent, B1_RESULT);
  });

  test('passes variables given as an object', async () => {
    const query = 'query Book($id: ID!) { book(id: $id) { title } }';
    const result = await call(main, { query, variables: { id: 'b3' } });
    assert.deepEqual(result.structuredContent, { data: { book: { title: 'Cosmos' } } });
    assert.deepEqual(JSON.parse(library.requests.at(-1)!.body).variables, { id: 'b3' });
  });

  test('passes variables given as a string holding a JSON object', async () => {
    const query = 'query Book($id: ID!) { book(id: $id) { title } }';
    const result = await call(main, { query, variables: '{"id": "b4"}' });
    assert.deepEqual(result.structuredContent, { data: { book: { title: 'SPQR' } } });
    assert.deepEqual(JSON.parse(library.requests.at(-1)!.body).variables, { id: 'b4' });
  });

  test('answers INVALID_INPUT naming variables when the variables string is not JSON', async () => {
    const sent = library.requests.length;
    const result = await call(main, { query: BOOK_B1, variables: '{id: b4' });
    assertError(result, 'INVALID_INPUT', 'variables');
    assert.equal(library.requests.length, sent);
  });

  test('answers INVALID_INPUT naming variables when the variables string holds an array', async () => {
    const result = await call(main, { query: BOOK_B1, variables: '[1, 2]' });
    assertError(result, 'INVALID_INPUT', 'variables');
  });

  test('runs the operation named by operationName when the document holds several', async () => {
    const query = 'query First { book(id: "b1") { title } } query Second { book(id: "b2") { title } }';
    const result = await call(main, { query, operationName: 'Second' });
    assert.deepEqual(responseOf(result), { data: { book: { title: 'The Left Hand of Darkness' } } });
    assert.equal(JSON.parse(library.requests.at(-1)!.body).operationName, 'Second');
  });

  test('sends the request to the endpoint given in the call instead of the startup one', async () => {
    const [toLibrary, toOther] = [library.requests.length, other.requests.length];
    const result = await call(main, { query: BOOK_B1, endpoint: other.url });
    assert.deepEqual(responseOf(result), B1_RESULT);
    assert.equal(other.requests.length, toOther + 1);
    assert.equal(library.requests.length, toLibrary);
  });

  test('sends the startup headers to the startup endpoint', async () => {
    await call(main, { query: BOOK_B1 });
    assert.equal(library.requests.at(-1)!.headers['x-api-key'], STARTUP_KEY);
  });

  test('sends the headers given in the call', async () => {
    await call(main, { query: BOOK_B1, headers: { 'X-Trace-Id': 'trace-42', 'X-Count': 7 } });
    const { headers } = library.requests.at(-1)!;
    assert.equal(headers['x-trace-id'], 'trace-42');
    assert.equal(headers['x-count'], '7');
    assert.equal(headers['x-api-key'], STARTUP_KEY);
  });

  test('a call header replaces the startup header of the same name, whatever its case', async () => {
    await call(main, { query: BOOK_B1, headers: { 'x-API-key': 'call-key-9876' } });
    // Were both sent, Node would join them as "startup-key-0451, call-key-9876".
    assert.equal(library.requests.at(-1)!.headers['x-api-key'], 'call-key-9876');
  });

  test('a call timeout shorter than --timeout ends the request at the call deadline', async () => {
    const url = fault.route(path('never'), respond.never());
    // The default --timeout (30 s): the call deadline ends the request long before it could.
    const { value: result, ms } = await timed(() =>
      call(unlimited, { query: BOOK_B1, endpoint: url, timeout: 200 }),
    );
    assertError(result, 'TIMEOUT', '200 ms');
    assert.ok(ms >= 195 && ms < 200 + LATE_MS, `took ${Math.round(ms)} ms for a 200 ms call deadline`);
  });

  test('a call timeout longer than --timeout lets a slow endpoint answer', async () => {
    const url = fault.route(path('slow'), respond.delay(1_300, respond.json({ data: { slow: true } })));
    const result = await call(main, { query: '{ slow }', endpoint: url, timeout: 5_000 });
    assert.deepEqual(responseOf(result), { data: { slow: true } });
  });

  test('runs a mutation when allowMutations is true', async () => {
    const query = 'mutation { addReview(bookId: "b2", rating: 4, text: "Good.") { rating book { title } } }';
    const result = await call(main, { query, allowMutations: true });
    assert.deepEqual(responseOf(result), {
      data: { addReview: { rating: 4, book: { title: 'The Left Hand of Darkness' } } },
    });
    assert.match(library.requests.at(-1)!.body, /addReview/);
  });
});

describe('graphql_query step 1: INVALID_INPUT', () => {
  const cases: Array<{ name: string; args: Record<string, unknown>; says: Array<string | RegExp> }> = [
    { name: 'query is missing', args: {}, says: ['query'] },
    { name: 'query is not a string', args: { query: 42 }, says: ['query'] },
    { name: 'query is empty', args: { query: '  \n ' }, says: ['query', 'empty'] },
    { name: 'an input is unknown', args: { query: BOOK_B1, varibles: {} }, says: ['"varibles"'] },
    { name: 'variables is a number', args: { query: BOOK_B1, variables: 5 }, says: ['variables'] },
    { name: 'variables is an array', args: { query: BOOK_B1, variables: [1] }, says: ['variables'] },
    {
      name: 'operationName is not a string',
      args: { query: BOOK_B1, operationName: 7 },
      says: ['operationName'],
    },
    { name: 'endpoint is not a URL', args: { query: BOOK_B1, endpoint: 'graphql' }, says: ['endpoint'] },
    {
      name: 'endpoint is not http(s)',
      args: { query: BOOK_B1, endpoint: 'ftp://127.0.0.1/graphql' },
      says: ['endpoint', 'ftp'],
    },
    { name: 'headers is a string', args: { query: BOOK_B1, headers: 'X-A: 1' }, says: ['headers'] },
    {
      name: 'a header value is an object',
      args: { query: BOOK_B1, headers: { 'X-A': { b: 1 } } },
      says: ['headers', 'X-A'],
    },
    {
      name: 'a header value holds a line break',
      args: { query: BOOK_B1, headers: { 'X-Evil': 'a\r\nX-Injected: 1' } },
      says: ['headers', 'X-Evil'],
    },
    { name: 'timeout is not a number', args: { query: BOOK_B1, timeout: 'fast' }, says: ['timeout'] },
    { name: 'timeout is 0', args: { query: BOOK_B1, timeout: 0 }, says: ['timeout'] },
    { name: 'timeout is not whole', args: { query: BOOK_B1, timeout: 1.5 }, says: ['timeout'] },
    { name: 'timeout is over 600000', args: { query: BOOK_B1, timeout: 600_001 }, says: ['timeout'] },
    {
      name: 'allowMutations is not a boolean',
      args: { query: BOOK_B1, allowMutations: 'yes' },
      says: ['allowMutations'],
    },
  ];
  for (const { name, args, says } of cases) {
    test(`answers INVALID_INPUT naming the input when ${name}`, async () => {
      const sent = library.requests.length;
      assertError(await call(main, args), 'INVALID_INPUT', ...says);
      assert.equal(library.requests.length, sent, 'nothing may be sent');
    });
  }

  test('an endpoint with user-info is refused without quoting the credentials', async () => {
    const port = new URL(library.url).port;
    const result = await call(main, {
      query: BOOK_B1,
      endpoint: `http://alice:s3cr3t-pw@127.0.0.1:${port}/graphql`,
    });
    const text = assertError(result, 'INVALID_INPUT', 'endpoint');
    assert.ok(!text.includes('s3cr3t-pw') && !text.includes('alice'), text);
  });
});

describe('graphql_query step 2: ENDPOINT_NOT_ALLOWED', () => {
  test('MUST NOT call an endpoint outside --allowedEndpoints and the default origin', async () => {
    const url = fault.route(path('disallowed'), respond.echo());
    const result = await call(allowed, { query: BOOK_B1, endpoint: url });
    assertError(result, 'ENDPOINT_NOT_ALLOWED', new URL(library.url).origin, other.url);
    assert.equal(fault.requestsTo(new URL(url).pathname).length, 0);
  });

  test('calls an endpoint listed in --allowedEndpoints', async () => {
    const result = await call(allowed, { query: BOOK_B1, endpoint: other.url });
    assert.deepEqual(result.structuredContent, B1_RESULT);
  });

  test('an invalid input is reported before a not-allowed endpoint', async () => {
    const url = fault.route(path('disallowed'), respond.echo());
    const result = await call(allowed, { query: BOOK_B1, endpoint: url, timeout: 'soon' });
    assertError(result, 'INVALID_INPUT', 'timeout');
  });

  test('a not-allowed endpoint is reported before a syntax error', async () => {
    const url = fault.route(path('disallowed'), respond.echo());
    const result = await call(allowed, { query: '{ book(', endpoint: url });
    assertError(result, 'ENDPOINT_NOT_ALLOWED');
  });
});

describe('graphql_query step 3: SYNTAX_ERROR and INVALID_DOCUMENT', () => {
  test('answers SYNTAX_ERROR with the parser message, line and column', async () => {
    const sent = library.requests.length;
    const result = await call(main, { query: 'query {\n  book(id: "b1") {\n    title: \n  }\n}' });
    assertError(result, 'SYNTAX_ERROR', 'Expected Name', /line 4\b/, /column 3\b/);
    assert.equal(library.requests.length, sent);
  });

  test('answers SYNTAX_ERROR for a document over the token limit', async () => {
    const query = `{ ${'f '.repeat(200_000)}}`;
    assertError(await call(main, { query }), 'SYNTAX_ERROR', /token/i);
    await assertStillWorks(main);
  });

  test('answers SYNTAX_ERROR for selections nested 100,000 deep, and keeps serving', async () => {
    const query = '{ a '.repeat(100_000) + '}'.repeat(100_000);
    assertError(await call(main, { query }), 'SYNTAX_ERROR');
    await assertStillWorks(main);
  });

  test('answers SYNTAX_ERROR for 100,000 opening braces, and keeps serving', async () => {
    assertError(await call(main, { query: '{'.repeat(100_000) }), 'SYNTAX_ERROR');
    await assertStillWorks(main);
  });

  test('answers with an error code for a document nested as deep as the token limit allows', async () => {
    const query = '{ a '.repeat(7_000) + '}'.repeat(7_000);
    const result = await call(main, { query });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /^(SYNTAX_ERROR|COMPLEXITY_LIMIT): /);
    await assertStillWorks(main);
  });

  test('answers INVALID_DOCUMENT naming the fragment when the operation spreads an undefined one', async () => {
    const result = await call(main, { query: '{ book(id: "b1") { ...Missing } }' });
    assertError(result, 'INVALID_DOCUMENT', 'Missing');
  });

  test('answers INVALID_DOCUMENT for an undefined spread inside an inline fragment', async () => {
    const result = await call(main, {
      query: '{ search(term: "a") { ... on Book { author { ...Gone } } } }',
    });
    assertError(result, 'INVALID_DOCUMENT', 'Gone');
  });

  test('answers INVALID_DOCUMENT for an undefined spread in a fragment the operation does not use', async () => {
    const query = `${BOOK_B1} fragment Unused on Book { ...Nowhere }`;
    assertError(await call(main, { query }), 'INVALID_DOCUMENT', 'Nowhere');
  });

  test('answers INVALID_DOCUMENT for an undefined spread in an operation that is not run', async () => {
    const query = 'query Run { book(id: "b1") { title } } query Other { book(id: "b2") { ...Nope } }';
    assertError(await call(main, { query, operationName: 'Run' }), 'INVALID_DOCUMENT', 'Nope');
  });

  test('answers INVALID_DOCUMENT naming the fragments of a cycle', async () => {
    const query = `{ book(id: "b1") { ...A } }
      fragment A on Book { title ...B }
      fragment B on Book { year ...A }`;
    assertError(await call(main, { query }), 'INVALID_DOCUMENT', /cycle/i, 'A', 'B');
  });

  test('answers INVALID_DOCUMENT for a fragment cycle among unused fragments', async () => {
    const query = `${BOOK_B1} fragment C on Book { ...D } fragment D on Book { ...E } fragment E on Book { ...C }`;
    assertError(await call(main, { query }), 'INVALID_DOCUMENT', /cycle/i);
  });

  test('an undefined fragment is reported before a missing operationName', async () => {
    const query = 'query A { book(id: "b1") { ...X } } query B { authors { name } }';
    assertError(await call(main, { query }), 'INVALID_DOCUMENT', 'X');
  });
});

describe('graphql_query steps 4 and 5: OPERATION_NOT_FOUND and SUBSCRIPTION_NOT_SUPPORTED', () => {
  const twoOperations = 'query Books { books { title } } query Authors { authors { name } }';

  test('answers OPERATION_NOT_FOUND listing the operations when several are given without operationName', async () => {
    assertError(await call(main, { query: twoOperations }), 'OPERATION_NOT_FOUND', 'Books', 'Authors');
  });

  test('answers OPERATION_NOT_FOUND listing the operations when operationName names none of them', async () => {
    const result = await call(main, { query: twoOperations, operationName: 'Reviews' });
    assertError(result, 'OPERATION_NOT_FOUND', 'Reviews', 'Books', 'Authors');
  });

  test('answers OPERATION_NOT_FOUND when operationName is given for a single anonymous operation', async () => {
    assertError(await call(main, { query: BOOK_B1, operationName: 'Book' }), 'OPERATION_NOT_FOUND', 'Book');
  });

  test('answers OPERATION_NOT_FOUND for a document of fragments only', async () => {
    assertError(await call(main, { query: 'fragment F on Book { title }' }), 'OPERATION_NOT_FOUND');
  });

  test('MUST NOT send a subscription', async () => {
    const sent = library.requests.length;
    const result = await call(main, { query: 'subscription { reviewAdded { id } }' });
    assertError(result, 'SUBSCRIPTION_NOT_SUPPORTED');
    assert.equal(library.requests.length, sent);
  });

  test('answers SUBSCRIPTION_NOT_SUPPORTED for a subscription picked by operationName', async () => {
    const query = 'query Q { authors { name } } subscription S { reviewAdded { id } }';
    assertError(await call(main, { query, operationName: 'S' }), 'SUBSCRIPTION_NOT_SUPPORTED');
  });
});

describe('graphql_query step 6: MUTATION_NOT_ALLOWED', () => {
  const mutation = 'mutation { addReview(bookId: "b1", rating: 1) { id } }';

  test('MUST NOT send a mutation when allowMutations is not given', async () => {
    const sent = library.requests.length;
    assertError(await call(main, { query: mutation }), 'MUTATION_NOT_ALLOWED', 'allowMutations');
    assert.equal(library.requests.length, sent);
  });

  test('MUST NOT send a mutation when allowMutations is false', async () => {
    const sent = library.requests.length;
    assertError(await call(main, { query: mutation, allowMutations: false }), 'MUTATION_NOT_ALLOWED');
    assert.equal(library.requests.length, sent);
  });

  test('MUST NOT send a document holding a mutation even when operationName picks its query', async () => {
    const sent = library.requests.length;
    const query = `query Read { authors { name } } mutation Write { addReview(bookId: "b1", rating: 1) { id } }`;
    const result = await call(main, { query, operationName: 'Read' });
    assertError(result, 'MUTATION_NOT_ALLOWED');
    assert.equal(library.requests.length, sent);
  });

  test('MUST NOT send a mutation on a --readOnly server, even with allowMutations true', async () => {
    const sent = library.requests.length;
    const result = await call(readOnly, { query: mutation, allowMutations: true });
    assertError(result, 'MUTATION_NOT_ALLOWED', /read-?only/i);
    assert.equal(library.requests.length, sent);
  });

  test('a syntax error in a mutation document is reported as SYNTAX_ERROR', async () => {
    const result = await call(main, { query: 'mutation { addReview(bookId: "b1", rating: 1) { id }' });
    assertError(result, 'SYNTAX_ERROR');
  });

  test('a missing operationName is reported before a mutation is refused', async () => {
    const query =
      'query Read { authors { name } } mutation Write { addReview(bookId: "b1", rating: 1) { id } }';
    assertError(await call(main, { query }), 'OPERATION_NOT_FOUND', 'Read', 'Write');
  });

  test('a refused mutation is reported before its complexity', async () => {
    const query = `mutation { ${Array.from({ length: 20 }, (_, i) => `r${i}: addReview(bookId: "b1", rating: 1) { id }`).join(' ')} }`;
    assertError(await call(limits, { query }), 'MUTATION_NOT_ALLOWED');
  });
});

describe('graphql_query step 7: COMPLEXITY_LIMIT (--maxComplexity=8)', () => {
  test('refuses a query of 9 fields, giving the count and the limit', async () => {
    const sent = library.requests.length;
    const query = '{ book(id: "b1") { title year isbn13 genre author { name } } authors { id } }';
    assertError(await call(limits, { query }), 'COMPLEXITY_LIMIT', /\b9\b/, /\b8\b/);
    assert.equal(library.requests.length, sent);
  });

  test('runs a query of exactly 8 fields', async () => {
    const query = '{ book(id: "b1") { title year isbn13 author { name } } authors { id } }';
    const result = await call(limits, { query });
    assert.notEqual(result.isError, true, firstText(result));
    assert.equal((result.structuredContent?.data as { authors: unknown[] }).authors.length, 3);
  });

  test('counts a fragment spread three times three times', async () => {
    const query = `{ a: book(id: "b1") { ...T } b: book(id: "b2") { ...T } c: book(id: "b3") { ...T } }
      fragment T on Book { title year }`;
    assertError(await call(limits, { query }), 'COMPLEXITY_LIMIT', /\b9\b/, /\b8\b/);
  });

  test('runs a fragment spread twice when its expansion fits the limit', async () => {
    const query = `{ a: book(id: "b1") { ...T } b: book(id: "b2") { ...T } } fragment T on Book { title year }`;
    const result = await call(limits, { query });
    assert.notEqual(result.isError, true, firstText(result));
  });

  test('counts the fields of inline fragments', async () => {
    const query = `{ search(term: "o") { ... on Book { title year genre isbn13 } ... on Author { name born id books { id } } } }`;
    assertError(await call(limits, { query }), 'COMPLEXITY_LIMIT', /\b9\b/);
  });

  test('counts aliases of the same field separately', async () => {
    assertError(await call(limits, { query: aliasedTitles(8) }), 'COMPLEXITY_LIMIT', /\b9\b/, /\b8\b/);
  });

  test('__typename costs nothing', async () => {
    const query = `{ __typename book(id: "b1") { __typename title year isbn13 genre author { __typename name born } } }`;
    const result = await call(limits, { query });
    assert.notEqual(result.isError, true, firstText(result));
    assert.equal((result.structuredContent?.data as { __typename: string }).__typename, 'Query');
  });

  test('unused operations and fragments cost nothing', async () => {
    const url = fault.route(path('unused'), respond.echo());
    const query = `query Small { book(id: "b1") { title } }
      query Big { ${aliasedTitles(50).slice(1, -1)} }
      fragment Heavy on Book { ${Array.from({ length: 50 }, (_, i) => `h${i}: title`).join(' ')} }`;
    const result = await call(limits, { query, operationName: 'Small', endpoint: url });
    assert.notEqual(result.isError, true, firstText(result));
    assert.ok((result.structuredContent?.data as { echo?: unknown }).echo, 'the query was sent');
  });

  test('answers quickly with "at least" for nested fragments that expand exponentially', async () => {
    const fragments = ['fragment F0 on Book { title year }'];
    for (let i = 1; i <= 60; i++) fragments.push(`fragment F${i} on Book { ...F${i - 1} ...F${i - 1} }`);
    const query = `{ book(id: "b1") { ...F60 } } ${fragments.join(' ')}`;
    const { value: result, ms } = await timed(() => call(limits, { query }));
    assertError(result, 'COMPLEXITY_LIMIT', /at least \d+/, /\b8\b/);
    assert.ok(ms < 2_000, `took ${Math.round(ms)} ms`);
  });

  test('--maxComplexity=0 turns the check off', async () => {
    const result = await call(unlimited, { query: aliasedTitles(300) });
    assert.notEqual(result.isError, true, firstText(result));
    const book = (result.structuredContent?.data as { book: Record<string, string> }).book;
    assert.equal(Object.keys(book).length, 300);
  });
});

describe('graphql_query result shape', () => {
  test('the tools/list entry declares an outputSchema for a GraphQL response', async () => {
    const { tools } = await main.client.listTools();
    const tool = tools.find((t) => t.name === 'graphql_query');
    assert.ok(tool?.outputSchema, 'graphql_query has no outputSchema');
    assert.equal(tool.outputSchema.type, 'object');
    for (const key of ['data', 'errors', 'extensions'])
      assert.ok((tool.outputSchema.properties as Record<string, unknown> | undefined)?.[key], key);
  });

  test('structuredContent is the response unchanged and the first text is the same object as compact JSON', async () => {
    const body = {
      data: { book: { title: 'X', tags: ['a', 'b'], meta: { score: 1.5, ok: true, none: null } } },
      errors: [
        { message: 'reviews unavailable', path: ['book', 'reviews'], extensions: { code: 'PARTIAL' } },
      ],
      extensions: { cost: { requested: 3, throttle: { remaining: 997 } }, traceId: 'abc' },
    };
    const url = fault.route(path('full'), respond.json(body));
    const result = await call(main, { query: '{ book { title } }', endpoint: url });
    assert.deepEqual(responseOf(result), body);
    assert.equal(firstText(result), JSON.stringify(result.structuredContent));
  });

  test('partial data with errors is a result, not an error', async () => {
    const body = { data: { book: null }, errors: [{ message: 'not found', path: ['book'] }] };
    const url = fault.route(path('partial'), respond.json(body));
    const result = await call(main, { query: '{ book { title } }', endpoint: url });
    assert.notEqual(result.isError, true);
    assert.deepEqual(responseOf(result), body);
  });

  test('errors with data null is an error result that keeps the response', async () => {
    const body = { data: null, errors: [{ message: 'Not authorised', extensions: { code: 'FORBIDDEN' } }] };
    const url = fault.route(path('null-data'), respond.json(body));
    const result = await call(main, { query: '{ book { title } }', endpoint: url });
    assert.equal(result.isError, true);
    assert.deepEqual(responseOf(result), body);
    assert.equal(firstText(result), JSON.stringify(result.structuredContent));
  });

  test('errors without data is an error result that keeps the response', async () => {
    const body = { errors: [{ message: 'Rate limited' }] };
    const url = fault.route(path('no-data'), respond.json(body));
    const result = await call(main, { query: '{ book { title } }', endpoint: url });
    assert.equal(result.isError, true);
    assert.deepEqual(responseOf(result), body);
  });

  test('data with an empty errors array is not an error', async () => {
    const body = { data: { ok: true }, errors: [] };
    const url = fault.route(path('empty-errors'), respond.json(body));
    const result = await call(main, { query: '{ ok }', endpoint: url });
    assert.notEqual(result.isError, true);
    assert.deepEqual(responseOf(result), body);
  });

  test('a response with data and "errors": null is returned unchanged', async () => {
    // Servers that serialise every member (Jackson, System.Text.Json) send null for what they lack.
    const body = { data: { ok: true }, errors: null };
    const url = fault.route(path('errors-null'), respond.json(body));
    const result = await call(main, { query: '{ ok }', endpoint: url });
    assert.notEqual(result.isError, true, firstText(result));
    assert.deepEqual(responseOf(result), body);
    assert.equal(firstText(result), JSON.stringify(result.structuredContent));
  });

  test('a response with data and "extensions": null is returned unchanged', async () => {
    const body = { data: { ok: true }, extensions: null };
    const url = fault.route(path('extensions-null'), respond.json(body));
    const result = await call(unlimited, { query: '{ ok }', endpoint: url });
    assert.notEqual(result.isError, true, firstText(result));
    assert.deepEqual(result.structuredContent, body);
    assert.equal(firstText(result), JSON.stringify(body));
  });

  test('a response with "extensions": null carries the notes in an extensions object of its own', async () => {
    const body = { data: { ok: true }, extensions: null };
    const url = fault.route(path('extensions-null-noted'), respond.json(body));
    const result = await call(main, { query: '{ ok }', endpoint: url });
    assert.deepEqual(responseOf(result), { data: { ok: true } });
    assert.match(JSON.stringify(result.structuredContent?.extensions), /were not sent/);
  });

  test('an HTTP 400 whose body is a GraphQL response is that response, not HTTP_ERROR', async () => {
    const result = await call(main, { query: '{ nope }' });
    assert.equal(result.isError, true);
    const errors = result.structuredContent?.errors as Array<{ message: string }>;
    assert.match(errors[0]!.message, /Cannot query field "nope"/);
    assert.doesNotMatch(firstText(result), /^HTTP_ERROR/);
  });

  test('an HTTP 500 whose body is a GraphQL response is that response, not HTTP_ERROR', async () => {
    const body = { errors: [{ message: 'Internal server error' }] };
    const url = fault.route(
      path('500'),
      respond.text(500, 'application/graphql-response+json', JSON.stringify(body)),
    );
    const result = await call(main, { query: '{ ok }', endpoint: url });
    assert.equal(result.isError, true);
    assert.deepEqual(responseOf(result), body);
    assert.equal(firstText(result), JSON.stringify(result.structuredContent));
  });

  test("the request is a POST of {query, variables, operationName} as JSON with the contract's headers", async () => {
    const query = 'query Pick($id: ID!) { book(id: $id) { title } } query Other { authors { name } }';
    await call(main, { query, variables: { id: 'b2' }, operationName: 'Pick' });
    const request = library.requests.at(-1)!;
    assert.equal(request.method, 'POST');
    assert.deepEqual(JSON.parse(request.body), { query, variables: { id: 'b2' }, operationName: 'Pick' });
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers.accept, 'application/graphql-response+json, application/json;q=0.9');
    assert.equal(request.headers['user-agent'], `graphql-mcp/${VERSION}`);
  });
});

describe('graphql_query transport failures', () => {
  test('answers TIMEOUT at the --timeout deadline when the endpoint never answers, and closes the request', async () => {
    const route = path('never');
    const url = fault.route(route, respond.never());
    const { value: result, ms } = await timed(() => call(main, { query: '{ ok }', endpoint: url }));
    assertError(result, 'TIMEOUT', '1000 ms');
    assert.ok(ms >= 995 && ms < 1_000 + LATE_MS, `took ${Math.round(ms)} ms for a 1000 ms deadline`);
    const request = await fault.waitForRequest(route);
    await within(request.socketClosed, CLOSE_MS, 'the timed-out request closing its connection');
    await assertStillWorks(main);
  });

  test('answers TIMEOUT at the deadline when the body trickles in past it', async () => {
    // 50 s of trickle: bytes keep coming, so only a total deadline ends it before then.
    const url = fault.route(path('trickle'), respond.trickle({ chunk: ' ', intervalMs: 50, count: 1_000 }));
    const { value: result, ms } = await timed(() =>
      call(main, { query: '{ ok }', endpoint: url, timeout: 500 }),
    );
    assertError(result, 'TIMEOUT', '500 ms');
    assert.ok(ms >= 495 && ms < 500 + LATE_MS, `took ${Math.round(ms)} ms for a 500 ms deadline`);
    await assertStillWorks(main);
  });

  test('answers NETWORK_ERROR with ECONNREFUSED and the endpoint when nothing listens', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}/graphql`;
    assertError(await call(main, { query: '{ ok }', endpoint }), 'NETWORK_ERROR', 'ECONNREFUSED', endpoint);
    await assertStillWorks(main);
  });

  test('answers NETWORK_ERROR with the DNS code when the host does not exist', async () => {
    const endpoint = 'http://graphql-mcp-test.invalid/graphql';
    const result = await call(main, { query: '{ ok }', endpoint });
    assertError(result, 'NETWORK_ERROR', /ENOTFOUND|EAI_AGAIN|EAI_NONAME/, endpoint);
    await assertStillWorks(main);
  });

  test('answers NETWORK_ERROR when the connection is reset mid-body', async () => {
    const url = fault.route(path('reset'), respond.resetMidBody('{"data": {"book": {"title": "Cos'));
    assertError(await call(main, { query: '{ ok }', endpoint: url }), 'NETWORK_ERROR', url);
    await assertStillWorks(main);
  });

  test('answers HTTP_ERROR with the status, content type and start of the body for a 502 HTML page', async () => {
    const html =
      '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';
    const url = fault.route(path('502'), respond.text(502, 'text/html; charset=utf-8', html));
    const result = await call(main, { query: '{ ok }', endpoint: url });
    assertError(
      result,
      'HTTP_ERROR',
      '502',
      'text/html',
      '<!DOCTYPE html><html><head><title>502 Bad Gateway',
    );
    await assertStillWorks(main);
  });

  test('answers HTTP_ERROR for a 401 whose JSON body is not a GraphQL response', async () => {
    const url = fault.route(path('401'), respond.json({ message: 'Bad credentials' }, 401));
    const result = await call(main, { query: '{ ok }', endpoint: url });
    assertError(result, 'HTTP_ERROR', '401', 'application/json', 'Bad credentials');
    await assertStillWorks(main);
  });

  test('answers INVALID_RESPONSE for a 200 HTML page', async () => {
    const url = fault.route(
      path('html'),
      respond.text(200, 'text/html', '<html><body>Welcome to nginx!</body></html>'),
    );
    const result = await call(main, { query: '{ ok }', endpoint: url });
    assertError(result, 'INVALID_RESPONSE', 'text/html', '<html><body>Welcome to nginx!');
    await assertStillWorks(main);
  });

  test('answers INVALID_RESPONSE for a 200 body that is not valid JSON', async () => {
    const url = fault.route(path('bad-json'), respond.text(200, 'application/json', '{"data": {"book": '));
    const result = await call(main, { query: '{ ok }', endpoint: url });
    assertError(result, 'INVALID_RESPONSE', 'application/json', '{\\"data\\": {\\"book\\":');
    await assertStillWorks(main);
  });

  test('answers INVALID_RESPONSE for 200 JSON that holds neither data nor errors', async () => {
    const url = fault.route(path('no-graphql'), respond.json({ result: { ok: true } }));
    const result = await call(main, { query: '{ ok }', endpoint: url });
    assertError(result, 'INVALID_RESPONSE', 'application/json', 'result');
    await assertStillWorks(main);
  });

  test('answers INVALID_RESPONSE for 200 JSON whose only member is an empty errors array', async () => {
    const url = fault.route(path('empty'), respond.json({ errors: [] }));
    assertError(await call(main, { query: '{ ok }', endpoint: url }), 'INVALID_RESPONSE');
    await assertStillWorks(main);
  });

  test('decodes a gzip-encoded body', async () => {
    const body = { data: { encoding: 'gzip', padding: 'x'.repeat(500) } };
    const url = fault.route(path('gzip'), respond.gzip(JSON.stringify(body)));
    assert.deepEqual(responseOf(await call(main, { query: '{ encoding }', endpoint: url })), body);
  });

  test('decodes a br-encoded body', async () => {
    const body = { data: { encoding: 'br', padding: 'y'.repeat(500) } };
    const url = fault.route(path('br'), respond.brotli(JSON.stringify(body)));
    assert.deepEqual(responseOf(await call(main, { query: '{ encoding }', endpoint: url })), body);
  });

  test('answers INVALID_RESPONSE for a 200 body that claims gzip but does not decode', async () => {
    const url = fault.route(path('corrupt'), respond.corrupt('gzip'));
    assertError(await call(main, { query: '{ ok }', endpoint: url }), 'INVALID_RESPONSE');
    await assertStillWorks(main);
  });

  for (const status of [302, 307, 308]) {
    test(`follows a same-origin ${status} redirect by POSTing the same body again`, async () => {
      const target = path('moved-here');
      fault.route(target, respond.echo());
      const url = fault.route(path('moved'), respond.redirect(status, target));
      const query = 'query Moved { moved }';
      const result = await call(main, { query, endpoint: url, variables: { a: 1 }, operationName: 'Moved' });
      const echoed = (result.structuredContent?.data as { echo: { path: string; body: string } }).echo;
      assert.equal(echoed.path, target);
      assert.deepEqual(JSON.parse(echoed.body), { query, variables: { a: 1 }, operationName: 'Moved' });
      assert.equal(fault.requestsTo(target)[0]!.method, 'POST');
    });
  }

  test('MUST NOT follow a redirect to another origin: HTTP_ERROR naming the Location', async () => {
    const sent = other.requests.length;
    const url = fault.route(path('away'), respond.redirect(307, `${other.url}?sig=abc`));
    const result = await call(main, { query: BOOK_B1, endpoint: url });
    assertError(result, 'HTTP_ERROR', '307', other.url);
    assert.equal(other.requests.length, sent, 'the other origin must receive nothing');
    await assertStillWorks(main);
  });

  test('stops following a redirect loop with HTTP_ERROR', async () => {
    const route = path('loop');
    const url = fault.route(route, respond.redirect(307, route));
    assertError(await call(main, { query: '{ ok }', endpoint: url }), 'HTTP_ERROR', /redirect/);
    assert.ok(fault.requestsTo(route).length <= 10);
    await assertStillWorks(main);
  });
});

describe('graphql_query response size (--maxResponseBytes=2048)', () => {
  test('answers RESPONSE_TOO_LARGE with the limit for a body streamed past the cap', async () => {
    const url = fault.route(
      path('big'),
      respond.stream({ prefix: '{"data": {"s": "', chunk: 'z'.repeat(1024), total: 64 * 1024 }),
    );
    const result = await call(limits, { query: '{ s }', endpoint: url });
    assertError(result, 'RESPONSE_TOO_LARGE', '2048');
    await assertStillWorks(limits);
  });

  test('cuts off an endless body and closes its connection', async () => {
    const route = path('endless');
    const url = fault.route(
      route,
      respond.stream({ prefix: '{"data": {"s": "', chunk: 'z'.repeat(16 * 1024), total: Infinity }),
    );
    const { value: result, ms } = await timed(() => call(limits, { query: '{ s }', endpoint: url }));
    assertError(result, 'RESPONSE_TOO_LARGE', '2048');
    assert.ok(ms < 5_000, `took ${Math.round(ms)} ms`);
    const request = await fault.waitForRequest(route);
    await within(request.socketClosed, CLOSE_MS, 'the cut-off response closing its connection');
    assert.ok(fault.bytesSent(route) < 64 * 1024 * 1024, `${fault.bytesSent(route)} bytes were sent`);
    await assertStillWorks(limits);
  });

  test('accepts a streamed body of exactly --maxResponseBytes and refuses one byte more', async () => {
    const body = (size: number) => {
      const frame = '{"data":{"s":""}}';
      return `{"data":{"s":"${'k'.repeat(size - frame.length)}"}}`;
    };
    const fits = fault.route(path('fits'), respond.chunked(body(2048)));
    const over = fault.route(path('over'), respond.chunked(body(2049)));
    const result = await call(limits, { query: '{ s }', endpoint: fits });
    assert.equal((result.structuredContent?.data as { s: string }).s.length, 2048 - 17, firstText(result));
    assertError(await call(limits, { query: '{ s }', endpoint: over }), 'RESPONSE_TOO_LARGE', '2048');
  });

  test('answers RESPONSE_TOO_LARGE for a body whose Content-Length is over the cap', async () => {
    const url = fault.route(path('declared'), respond.json({ data: { s: 'q'.repeat(10_000) } }));
    assertError(await call(limits, { query: '{ s }', endpoint: url }), 'RESPONSE_TOO_LARGE', '2048');
  });

  test('counts decoded bytes: a small gzip body that inflates past the cap is RESPONSE_TOO_LARGE', async () => {
    const url = fault.route(
      path('bomb'),
      respond.gzip(JSON.stringify({ data: { s: ' '.repeat(1_000_000) } })),
    );
    assertError(await call(limits, { query: '{ s }', endpoint: url }), 'RESPONSE_TOO_LARGE', '2048');
    await assertStillWorks(limits);
  });
});

describe('graphql_query cancellation', () => {
  /**
   * Starts a call to `route` (served by `handler`) with a deadline of 30 s, waits until `ready` says it got far
   * enough, cancels it, and checks that its connection to the endpoint closed long before the deadline could
   * have closed it (within milliseconds; CLOSE_MS at most); returns the request.
   */
  async function cancelWhen(route: string, handler: Parameters<typeof fault.route>[1], ready: () => boolean) {
    const url = fault.route(route, handler);
    const controller = new AbortController();
    const pending = main.client.callTool(
      { name: 'graphql_query', arguments: { query: '{ ok }', endpoint: url, timeout: 30_000 } },
      { signal: controller.signal },
    );
    const request = await fault.waitForRequest(route);
    assert.equal(request.socketOpen(), true);
    await within(
      (async () => {
        while (!ready()) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      CLOSE_MS,
      'the request getting far enough to cancel',
    );
    controller.abort();
    await assert.rejects(pending);
    await within(request.socketClosed, CLOSE_MS, 'the cancelled request closing its connection');
    await assertStillWorks(main);
  }

  test('a call the client cancels aborts its HTTP request at once', async () => {
    await cancelWhen(path('cancel'), respond.never(), () => true);
  });

  test('a call the client cancels while its response body streams closes the connection at once', async () => {
    const route = path('cancel-body');
    // Once some of the body has come, the request is past its headers, reading the body.
    await cancelWhen(
      route,
      respond.trickle({ chunk: ' ', intervalMs: 50, count: 1_000 }),
      () => fault.bytesSent(route) >= 3,
    );
    assert.ok(
      fault.bytesSent(route) < 40,
      `${fault.bytesSent(route)} bytes trickled: the cancel did not stop it`,
    );
  });
});

describe('graphql_query concurrency', () => {
  test('a call waiting on a slow endpoint does not hold up another call', async () => {
    // The slow endpoint answers only once the other call is done: were calls run one at a time, neither would.
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const route = path('held');
    const url = fault.route(route, async (exchange) => {
      await released;
      await respond.json({ data: { ok: true } })(exchange);
    });
    let slowDone = false;
    const slow = call(main, { query: '{ ok }', endpoint: url, timeout: 30_000 }).finally(
      () => (slowDone = true),
    );
    await fault.waitForRequest(route);
    await assertStillWorks(main);
    assert.equal(slowDone, false, 'the slow call ended first');
    release();
    assert.deepEqual(responseOf(await slow), { data: { ok: true } });
  });
});

describe('graphql_query endpoint privacy', () => {
  test('a TIMEOUT message names the endpoint without its query string', async () => {
    const url = fault.route(path('never'), respond.never());
    const result = await call(main, {
      query: '{ ok }',
      endpoint: `${url}?api_key=qs-secret-1`,
      timeout: 200,
    });
    const text = assertError(result, 'TIMEOUT', url);
    assert.ok(!text.includes('qs-secret-1') && !text.includes('?'), text);
  });

  test('a NETWORK_ERROR message names the endpoint without its query string', async () => {
    const endpoint = `http://127.0.0.1:${await closedPort()}/graphql`;
    const result = await call(main, { query: '{ ok }', endpoint: `${endpoint}?token=qs-secret-2` });
    const text = assertError(result, 'NETWORK_ERROR', endpoint);
    assert.ok(!texts(result).join('\n').includes('qs-secret-2'), text);
  });

  test('a cross-origin redirect message names the Location without its user-info or query string', async () => {
    const location = other.url.replace('http://', 'http://bob:pw-secret-6@');
    const url = fault.route(path('away'), respond.redirect(302, `${location}?sig=qs-secret-3`));
    const result = await call(main, { query: '{ ok }', endpoint: `${url}?t=qs-secret-4` });
    assertError(result, 'HTTP_ERROR', other.url);
    const all = texts(result).join('\n');
    for (const secret of ['qs-secret-3', 'qs-secret-4', 'pw-secret-6', 'bob:']) {
      assert.ok(!all.includes(secret), all);
    }
  });

  test('an ENDPOINT_NOT_ALLOWED message names the endpoint without its query string', async () => {
    const url = fault.route(path('disallowed'), respond.echo());
    const result = await call(allowed, { query: '{ ok }', endpoint: `${url}?key=qs-secret-5` });
    const text = assertError(result, 'ENDPOINT_NOT_ALLOWED', url);
    assert.ok(!text.includes('qs-secret-5'), text);
  });
});
