// graphql_introspect end to end: the demo API's schema as SDL, deprecation filtering, endpoints that
// refuse introspection or predate its newer fields, per-call endpoint and headers, transport errors.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  buildSchema,
  graphql,
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { startMcp, texts, type CallToolResult, useSession } from '../fixtures/mcp.ts';

const MAX_INTROSPECTION_BYTES = 64 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------------------
// Helpers

interface TestServer {
  readonly origin: string;
  readonly requests: Array<{ path: string; headers: IncomingHttpHeaders; query: string }>;
  close(): Promise<void>;
}

/** A plain HTTP server on 127.0.0.1 that parses each GraphQL request, then lets `handle` answer. */
async function startHttp(
  handle: (path: string, query: string, res: ServerResponse) => void | Promise<void>,
): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let query = '';
    try {
      query = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query?: unknown }).query);
    } catch {
      // not JSON: an empty query
    }
    requests.push({ path: req.url ?? '', headers: req.headers, query });
    await handle(req.url ?? '', query, res);
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

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

/** Writes 1 MiB chunks of an endless JSON string until the client goes away (or 80 MiB are sent). */
async function sendEndlessBody(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"data":{"__schema":"');
  const chunk = 'x'.repeat(1024 * 1024);
  for (let sent = 0; sent < 80 && !res.destroyed; sent++) {
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  res.end('"}}');
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

function firstText(result: CallToolResult): string {
  return texts(result)[0] ?? '';
}

/** The SDL of a successful call, read back by graphql-js. */
function schemaOf(result: CallToolResult): GraphQLSchema {
  assert.equal(result.isError, undefined, firstText(result));
  return buildSchema(firstText(result));
}

function objectType(schema: GraphQLSchema, name: string): GraphQLObjectType {
  const type = schema.getType(name);
  assert.ok(type instanceof GraphQLObjectType, `${name} is an object type`);
  return type;
}

function enumType(schema: GraphQLSchema, name: string): GraphQLEnumType {
  const type = schema.getType(name);
  assert.ok(type instanceof GraphQLEnumType, `${name} is an enum`);
  return type;
}

// A schema with a deprecated input field, which the demo API lacks.
const INPUT_SDL = /* GraphQL */ `
  input ReviewInput {
    rating: Int
    stars: Int @deprecated(reason: "Use rating.")
  }
  type Query {
    reviews(filter: ReviewInput): [String!]!
  }
`;

// An older server: it rejects the newer introspection fields, as servers before the 2021 spec do.
const NEWER_FIELDS = ['specifiedByURL', 'args(includeDeprecated', 'isRepeatable'];

// ---------------------------------------------------------------------------------------------------------
// Servers shared by the file

let demo: RunningGraphQLServer;
let inputs: RunningGraphQLServer;
let odd: TestServer;
let deadPort: number;

before(async () => {
  const api = createLibraryApi();
  demo = await serveGraphQL(api.schema, api.rootValue);
  inputs = await serveGraphQL(buildSchema(INPUT_SDL), { reviews: () => [] });
  const library = createLibraryApi();
  odd = await startHttp(async (path, query, res) => {
    switch (new URL(path, 'http://localhost').pathname) {
      case '/refuse':
        return send(res, 200, 'application/json', '{"errors":[{"message":"introspection is disabled"}]}');
      case '/refuse400':
        return send(
          res,
          400,
          'application/graphql-response+json',
          '{"errors":[{"message":"introspection is disabled"}]}',
        );
      case '/auth401':
        return send(
          res,
          401,
          'application/json',
          '{"errors":[{"message":"Missing or invalid Authorization header","extensions":{"code":"UNAUTHENTICATED"}}]}',
        );
      case '/old': {
        const newer = NEWER_FIELDS.find((field) => query.includes(field));
        if (newer !== undefined) {
          const message = `Cannot query field "${newer}" on type "__Type".`;
          return send(res, 400, 'application/json', JSON.stringify({ errors: [{ message }] }));
        }
        const result = await graphql({ schema: library.schema, source: query, rootValue: library.rootValue });
        return send(res, 200, 'application/json', JSON.stringify(result));
      }
      case '/slow':
        return;
      case '/html500':
        return send(res, 500, 'text/html', '<html><body>Bad Gateway upstream</body></html>');
      case '/html200':
        return send(res, 200, 'text/html', '<html><body>Welcome to our API</body></html>');
      case '/endless':
        return sendEndlessBody(res);
      default:
        return send(res, 404, 'text/plain', 'no such route');
    }
  });
  deadPort = await closedPort();
});

after(async () => {
  await Promise.all([demo.close(), inputs.close(), odd.close()]);
});

// ---------------------------------------------------------------------------------------------------------

describe('the demo API', () => {
  const session = useSession(() => [`--endpoint=${demo.url}`]);

  test('works when called with no arguments at all', async () => {
    const before = demo.requests.length;
    const result = (await session().client.callTool({ name: 'graphql_introspect' })) as CallToolResult;
    assert.equal(result.isError, undefined, firstText(result));
    assert.match(firstText(result), /^type Query \{/m);
    assert.ok(demo.requests.length > before, 'the default endpoint was introspected');
  });

  test('returns SDL that graphql-js buildSchema accepts', async () => {
    const schema = schemaOf(await session().call('graphql_introspect'));
    for (const name of ['Query', 'Mutation', 'Book', 'Author', 'Review', 'Genre', 'SearchResult']) {
      assert.ok(schema.getType(name), `has ${name}`);
    }
    assert.deepEqual(
      objectType(schema, 'Query')
        .getFields()
        .book?.args.map((arg) => arg.name),
      ['id'],
    );
  });

  test('returns a single text content, the SDL', async () => {
    const result = await session().call('graphql_introspect');
    assert.equal(result.content.length, 1);
    assert.equal(result.content[0]?.type, 'text');
  });

  test('keeps the descriptions of types and fields', async () => {
    const schema = schemaOf(await session().call('graphql_introspect'));
    assert.equal(objectType(schema, 'Book').description, 'A book in the library.');
    assert.equal(objectType(schema, 'Query').getFields().book?.description, 'One book by id.');
  });

  test('leaves out deprecated fields by default', async () => {
    const book = objectType(schemaOf(await session().call('graphql_introspect')), 'Book');
    assert.equal(book.getFields().isbn, undefined);
    assert.ok(book.getFields().isbn13, 'keeps the field that replaces it');
  });

  test('leaves out deprecated arguments by default', async () => {
    const books = objectType(schemaOf(await session().call('graphql_introspect')), 'Query').getFields().books;
    assert.deepEqual(books?.args.map((arg) => arg.name).sort(), ['first', 'genre']);
  });

  test('leaves out deprecated enum values by default', async () => {
    const genre = enumType(schemaOf(await session().call('graphql_introspect')), 'Genre');
    assert.deepEqual(
      genre.getValues().map((value) => value.name),
      ['FICTION', 'SCIENCE', 'HISTORY'],
    );
  });

  test('prints no @deprecated directive by default', async () => {
    assert.doesNotMatch(firstText(await session().call('graphql_introspect')), /@deprecated/);
  });

  test('includeDeprecated false gives the same SDL as the default', async () => {
    const byDefault = await session().call('graphql_introspect', {});
    const explicit = await session().call('graphql_introspect', { includeDeprecated: false });
    assert.equal(firstText(explicit), firstText(byDefault));
  });

  test('includeDeprecated true includes deprecated fields with their reason', async () => {
    const result = await session().call('graphql_introspect', { includeDeprecated: true });
    assert.match(firstText(result), /isbn: String @deprecated\(reason: "Use isbn13\."\)/);
    const isbn = objectType(schemaOf(result), 'Book').getFields().isbn;
    assert.equal(isbn?.deprecationReason, 'Use isbn13.');
  });

  test('includeDeprecated true includes deprecated arguments with their reason', async () => {
    const result = await session().call('graphql_introspect', { includeDeprecated: true });
    const limit = objectType(schemaOf(result), 'Query')
      .getFields()
      .books?.args.find((arg) => arg.name === 'limit');
    assert.equal(limit?.deprecationReason, 'Use first.');
  });

  test('includeDeprecated true includes deprecated enum values with their reason', async () => {
    const result = await session().call('graphql_introspect', { includeDeprecated: true });
    assert.match(firstText(result), /POETRY @deprecated\(reason: "Use FICTION\."\)/);
    assert.equal(enumType(schemaOf(result), 'Genre').getValue('POETRY')?.deprecationReason, 'Use FICTION.');
  });

  test('refuses an includeDeprecated that is not a boolean with INVALID_INPUT', async () => {
    const result = await session().call('graphql_introspect', { includeDeprecated: 'yes' });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /^INVALID_INPUT: includeDeprecated /);
  });

  test('refuses an unknown input with INVALID_INPUT', async () => {
    const result = await session().call('graphql_introspect', { query: '{ __schema { types { name } } }' });
    assert.match(firstText(result), /^INVALID_INPUT: .*query/);
  });

  test('is not limited by --maxResponseBytes', async () => {
    const small = await startMcp([`--endpoint=${demo.url}`, '--maxResponseBytes=1000']);
    try {
      schemaOf(await small.call('graphql_introspect'));
    } finally {
      await small.close();
    }
  });
});

describe('deprecated input fields', () => {
  const session = useSession(() => [`--endpoint=${inputs.url}`]);

  function inputFields(result: CallToolResult) {
    const type = schemaOf(result).getType('ReviewInput');
    assert.ok(type instanceof GraphQLInputObjectType);
    return type.getFields();
  }

  test('are left out by default', async () => {
    const fields = inputFields(await session().call('graphql_introspect'));
    assert.deepEqual(Object.keys(fields), ['rating']);
  });

  test('are included with their reason when includeDeprecated is true', async () => {
    const fields = inputFields(await session().call('graphql_introspect', { includeDeprecated: true }));
    assert.equal(fields.stars?.deprecationReason, 'Use rating.');
  });
});

describe('endpoints that refuse or predate introspection', () => {
  const session = useSession(() => [`--endpoint=${demo.url}`]);

  test('gives INTROSPECTION_FAILED saying introspection is turned off and graphql_query still works', async () => {
    const result = await session().call('graphql_introspect', { endpoint: `${odd.origin}/refuse` });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /^INTROSPECTION_FAILED: .*has introspection turned off \(HTTP 200\)/);
    assert.match(firstText(result), /graphql_query still works/);
  });

  test("keeps the API's own message and names the way to give the schema (--schema=<file>)", async () => {
    const result = await session().call('graphql_introspect', { endpoint: `${odd.origin}/refuse` });
    assert.match(
      firstText(result),
      /turned off \(HTTP 200\): introspection is disabled\. It does not publish/,
    );
    assert.match(firstText(result), /--schema=<file>/);
  });

  test('gives INTROSPECTION_FAILED with the status when the refusal comes with HTTP status 400', async () => {
    const result = await session().call('graphql_introspect', { endpoint: `${odd.origin}/refuse400` });
    assert.match(firstText(result), /^INTROSPECTION_FAILED: .*has introspection turned off \(HTTP 400\)/);
  });

  test('MUST NOT ask an endpoint with introspection turned off again within the interval, nor twice per call', async () => {
    const path = '/refuse400';
    const count = () => odd.requests.filter((request) => request.path === path).length;
    // The tests above may have asked already; a fresh session shares nothing with them.
    const fresh = await startMcp([`--endpoint=${demo.url}`]);
    try {
      const before = count();
      const first = await fresh.call('graphql_introspect', { endpoint: `${odd.origin}${path}` });
      const second = await fresh.call('graphql_introspect', { endpoint: `${odd.origin}${path}` });
      assert.match(firstText(first), /^INTROSPECTION_FAILED: .*turned off/);
      assert.equal(firstText(second), firstText(first));
      assert.equal(count() - before, 1, 'one request for both calls: no fallback query, no second ask');
    } finally {
      await fresh.close();
    }
  });

  test('answers a 401 with one request, naming the status, the code and how to send credentials', async () => {
    const count = () => odd.requests.filter((request) => request.path === '/auth401').length;
    const before = count();
    const result = await session().call('graphql_introspect', { endpoint: `${odd.origin}/auth401` });
    assert.equal(count() - before, 1, 'no fallback query after a refusal of credentials');
    const text = firstText(result);
    assert.match(text, /^INTROSPECTION_FAILED: .*refused introspection \(HTTP 401, UNAUTHENTICATED\)/);
    assert.match(text, /No credentials were sent: configure them .*--headers or GRAPHQL_HEADERS/);
  });

  test('answers a 401 to a call that sent headers by naming them, never their values', async () => {
    const token = 'Bearer not-accepted-token-1234567890';
    const result = await session().call('graphql_introspect', {
      endpoint: `${odd.origin}/auth401`,
      headers: { Authorization: token },
    });
    const text = texts(result).join('\n');
    assert.match(text, /the headers Authorization\b/);
    assert.ok(!text.includes('not-accepted-token'), text);
  });

  test('works with a server that rejects the newer introspection fields, through the fallback query', async () => {
    const before = odd.requests.length;
    const result = await session().call('graphql_introspect', { endpoint: `${odd.origin}/old` });
    const schema = schemaOf(result);
    assert.ok(schema.getType('Book'));
    assert.equal(enumType(schema, 'Genre').getValue('POETRY'), undefined, 'deprecated values still left out');
    const sent = odd.requests.slice(before);
    assert.equal(sent.length, 2, 'the full query, then the fallback');
    assert.ok(
      !NEWER_FIELDS.some((field) => sent[1]!.query.includes(field)),
      'the fallback asks for none of them',
    );
  });

  test('includes deprecated fields from a server that rejects the newer introspection fields', async () => {
    const result = await session().call('graphql_introspect', {
      endpoint: `${odd.origin}/old`,
      includeDeprecated: true,
    });
    assert.equal(objectType(schemaOf(result), 'Book').getFields().isbn?.deprecationReason, 'Use isbn13.');
  });
});

describe('per-call endpoint and headers', () => {
  // The default endpoint is down: anything that works went where the call said.
  const session = useSession(() => [`--endpoint=http://127.0.0.1:${deadPort}/graphql`]);

  test('introspects the endpoint given in the call', async () => {
    const before = demo.requests.length;
    schemaOf(await session().call('graphql_introspect', { endpoint: demo.url }));
    assert.ok(demo.requests.length > before);
  });

  test('sends the headers given in the call', async () => {
    const before = demo.requests.length;
    await session().call('graphql_introspect', {
      endpoint: demo.url,
      headers: { 'X-Schema-Token': 'abc123' },
    });
    const sent = demo.requests.slice(before);
    assert.ok(sent.length > 0);
    for (const request of sent) assert.equal(request.headers['x-schema-token'], 'abc123');
  });

  test('uses the default endpoint when none is given', async () => {
    const result = await session().call('graphql_introspect', {});
    assert.match(firstText(result), new RegExp(`^NETWORK_ERROR: .*127\\.0\\.0\\.1:${deadPort}/graphql`));
  });

  test('refuses an endpoint that is not a URL with INVALID_INPUT', async () => {
    const result = await session().call('graphql_introspect', { endpoint: 'not a url' });
    assert.match(firstText(result), /^INVALID_INPUT: endpoint /);
  });
});

describe('transport errors', () => {
  const session = useSession(() => [`--endpoint=${demo.url}`, '--timeout=300']);

  test('a refused connection gives NETWORK_ERROR with the system code and the endpoint', async () => {
    const endpoint = `http://127.0.0.1:${deadPort}/graphql`;
    const result = await session().call('graphql_introspect', { endpoint });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /^NETWORK_ERROR: .*ECONNREFUSED/);
    assert.ok(firstText(result).includes(endpoint));
  });

  test('a server that does not answer gives TIMEOUT at the startup --timeout', async () => {
    const started = performance.now();
    const result = await session().call('graphql_introspect', { endpoint: `${odd.origin}/slow` });
    const elapsed = performance.now() - started;
    assert.match(firstText(result), /^TIMEOUT: .*\b300 ms/);
    // /slow never answers: only a deadline not enforced reaches 10 s; the call ends a few ms past 300 ms.
    assert.ok(elapsed >= 280 && elapsed < 300 + 10_000, `timed out after ${elapsed} ms`);
  });

  test('an HTML error page gives HTTP_ERROR with the status and the start of the body', async () => {
    const result = await session().call('graphql_introspect', { endpoint: `${odd.origin}/html500` });
    assert.match(firstText(result), /^HTTP_ERROR: .*\b500\b.*text\/html.*Bad Gateway upstream/);
  });

  test('an HTML page with status 200 gives INVALID_RESPONSE with the content type', async () => {
    const result = await session().call('graphql_introspect', { endpoint: `${odd.origin}/html200` });
    assert.match(firstText(result), /^INVALID_RESPONSE: .*text\/html.*Welcome to our API/);
  });

  test('a body over 64 MiB gives RESPONSE_TOO_LARGE', async () => {
    const long = await startMcp([`--endpoint=${odd.origin}/endless`]);
    try {
      const result = await long.call('graphql_introspect');
      assert.equal(result.isError, true);
      assert.match(firstText(result), new RegExp(`^RESPONSE_TOO_LARGE: .*\\b${MAX_INTROSPECTION_BYTES}\\b`));
    } finally {
      await long.close();
    }
  });
});

describe('a schema whose descriptions are dense text (Chinese)', () => {
  // 120 types, each with paragraphs of Chinese: 40,000 characters of its SDL are some 22,000 tokens.
  const DESCRIPTION =
    '北京是中华人民共和国的首都，也是全国的政治、文化和国际交往中心。这座城市有三千多年的历史。'.repeat(8);
  const names = Array.from({ length: 120 }, (_, i) => `Book${i}`);
  const types = names.map(
    (name, i) => `"""${DESCRIPTION}"""\ntype ${name} {\n  "${DESCRIPTION}"\n  title${i}: String\n}`,
  );
  const sdl = `${types.join('\n\n')}\n\ntype Query {\n${names.map((name, i) => `  book${i}: ${name}`).join('\n')}\n}`;
  let chinese: RunningGraphQLServer;
  before(async () => (chinese = await serveGraphQL(buildSchema(sdl), {})));
  after(() => chinese.close());
  const session = useSession(() => [`--endpoint=${chinese.url}`]);
  const NOTE = /answers hold fewer characters than --maxSchemaChars \(40,000\), about half as many tokens/;

  test('keeps the types asked for within about 20,000 tokens, with fewer characters, and says so', async (t) => {
    const result = await session().call('graphql_introspect', { typeNames: names });
    assert.notEqual(result.isError, true, firstText(result));
    const all = texts(result).join('\n');
    const count = encode(all).length;
    t.diagnostic(`${all.length} characters, ${count} tokens (o200k)`);
    assert.ok(count <= 20_000, `${count} tokens`);
    assert.match(all, NOTE);
  });

  test('MUST NOT shorten an answer that is short already (the overview)', async () => {
    const result = await session().call('graphql_introspect');
    assert.doesNotMatch(texts(result).join('\n'), NOTE);
  });
});
