// Production GraphQL APIs as they are, through the built server and the real SDK client: an API that runs only
// its trusted documents (GraphQL Yoga's persisted-operations plugin) served from a manifest, an API that takes
// queries only by GET, one without automatic persisted queries, custom scalars typed, and GitHub's own schema
// file. Every server records the requests it receives, which prove what was sent, and how.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { Ajv } from 'ajv';
import { startMethodServer, startYoga, TRUSTED_SDL, type TestApi } from '../fixtures/trusted-servers.ts';
import { GITHUB_SDL_FILE } from '../fixtures/github-schema.ts';
import { CLI, startMcp, texts, type McpSession } from '../fixtures/mcp.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const BOOK = 'query Book($id: ID!) {\n  book(id: $id) { title }\n}';
const ADD = 'mutation AddBook($title: String!) {\n  addBook(title: $title) { id title }\n}';
const ECHO = 'query Echo($data: JSON) {\n  echo(data: $data)\n}';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-production-'));
  writeFileSync(join(dir, 'schema.graphql'), TRUSTED_SDL);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const text = (result: { content: unknown[] }) => texts(result as never).join('\n');

/**
 * Runs the built binary to its end without blocking this process (a test API here must be free to answer, or
 * to record a request, while it runs): its exit code and stderr.
 */
async function runToEnd(args: readonly string[]): Promise<{ status: number; stderr: string }> {
  try {
    const { stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '' },
      timeout: 20_000,
    });
    return { status: 0, stderr };
  } catch (error) {
    const failed = error as { code?: number; stderr?: string };
    return { status: failed.code ?? -1, stderr: failed.stderr ?? '' };
  }
}

describe('an API that runs only its trusted documents, served from an Apollo manifest', () => {
  let api: TestApi;
  let session: McpSession;
  before(async () => {
    const manifest = {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [
        { id: sha256(BOOK), name: 'Book', type: 'query', body: BOOK },
        { id: sha256(ADD), name: 'AddBook', type: 'mutation', body: ADD },
      ],
    };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const store = new Map(manifest.operations.map((operation) => [operation.id, operation.body]));
    api = await startYoga([usePersistedOperations({ getPersistedOperation: (id) => store.get(id) ?? null })]);
    session = await startMcp([
      `--endpoint=${api.url.href}`,
      `--schema=${join(dir, 'schema.graphql')}`,
      `--operations=${join(dir, 'manifest.json')}`,
      '--persistedQueries=apollo',
      '--trustedDocumentsOnly',
    ]);
  });
  after(async () => {
    await session?.close();
    await api?.close();
  });

  test("gives each of the manifest's operations a tool with typed inputs", async () => {
    const { tools } = await session.client.listTools();
    const book = tools.find((tool) => tool.name === 'Book');
    assert.deepEqual(book?.inputSchema.properties, { id: { type: 'string' } });
    assert.deepEqual(book?.inputSchema.required, ['id']);
    assert.ok(tools.some((tool) => tool.name === 'AddBook' && tool.annotations?.destructiveHint === true));
  });

  test('sends an operation by its id, without the document, and the API answers it', async () => {
    const before = api.requests.length;
    const result = await session.call('Book', { id: '1' });
    assert.deepEqual(result.structuredContent, { data: { book: { title: 'Dune' } } }, text(result));
    const sent = api.requests.slice(before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.params.query, undefined);
    assert.deepEqual(sent[0]!.params.extensions, {
      persistedQuery: { version: 1, sha256Hash: sha256(BOOK) },
    });
  });

  test("MUST NOT send the model's own document: DOCUMENT_NOT_TRUSTED naming the tools, and nothing reaches the API", async () => {
    const before = api.requests.length;
    const result = await session.call('graphql_query', { query: '{ books { title } }' });
    assert.match(
      text(result),
      /^DOCUMENT_NOT_TRUSTED: .*runs only its trusted documents.*none of them once parsed and printed.*call one of the operation tools that run them instead \(Book, AddBook\)/,
    );
    assert.equal(api.requests.length, before);
  });

  test('runs a document byte-identical to a trusted one by its id, not sent whole', async () => {
    const before = api.requests.length;
    const result = await session.call('graphql_query', { query: BOOK, variables: { id: '2' } });
    assert.deepEqual(result.structuredContent, { data: { book: { title: 'Emma' } } }, text(result));
    const sent = api.requests.slice(before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.params.query, undefined);
    assert.deepEqual(sent[0]!.params.extensions, {
      persistedQuery: { version: 1, sha256Hash: sha256(BOOK) },
    });
  });

  test('runs a trusted document written otherwise (spacing, commas, a comment) by its id too', async () => {
    const before = api.requests.length;
    const query = '# the book\nquery Book( $id : ID! ) { book( id : $id ) { title, } }';
    const result = await session.call('graphql_query', { query, variables: { id: '1' } });
    assert.deepEqual(result.structuredContent, { data: { book: { title: 'Dune' } } }, text(result));
    assert.deepEqual(
      api.requests.slice(before).map((request) => request.params.query),
      [undefined],
    );
  });

  test('refuses a document named as a trusted operation but different, naming the tool that runs it', async () => {
    const before = api.requests.length;
    const result = await session.call('graphql_query', {
      query: 'query Book($id: ID!) { book(id: $id) { id title } }',
      variables: { id: '1' },
    });
    assert.match(
      text(result),
      /^DOCUMENT_NOT_TRUSTED: .*differs from its operation Book .*call the tool Book/,
    );
    assert.equal(api.requests.length, before);
  });

  test('describes graphql_query and graphql_introspect by what this API can do: no schema-first advice', async () => {
    const { tools } = await session.client.listTools();
    const query = tools.find((tool) => tool.name === 'graphql_query')!.description ?? '';
    assert.match(
      query,
      /This API runs only its trusted documents: a document is sent only when it is one of its operation tools' \(then by its id\); call those tools instead\./,
    );
    assert.doesNotMatch(query, /Learn the schema/);
    const introspect = tools.find((tool) => tool.name === 'graphql_introspect')!.description ?? '';
    assert.match(introspect, /to read the types its operation tools take and return/);
  });

  test('graphql_introspect of another endpoint of the API, refused as no trusted document, says the schema comes from --schema', async () => {
    const result = await session.call('graphql_introspect', { endpoint: `${api.url.href}?other` });
    assert.match(
      text(result),
      /^INTROSPECTION_FAILED: .*runs only its trusted documents .*refused the introspection query .*--schema=<file>/,
    );
  });

  test('MUST stop the start without --schema, exit 2 naming it, and send nothing to the API', async () => {
    const before = api.requests.length;
    const { status, stderr } = await runToEnd([
      `--endpoint=${api.url.href}`,
      `--operations=${join(dir, 'manifest.json')}`,
      '--persistedQueries=apollo',
      '--trustedDocumentsOnly',
    ]);
    assert.equal(status, 2, stderr);
    assert.match(stderr, /^graphql-mcp: --trustedDocumentsOnly needs --schema/);
    assert.equal(api.requests.length, before, 'no introspection, nothing at all');
  });
});

describe('an API that takes queries only by GET', () => {
  let api: TestApi;
  let session: McpSession;
  before(async () => {
    api = await startMethodServer({ methods: ['GET'] });
    session = await startMcp([`--endpoint=${api.url.href}`, '--mutations=allow']);
  });
  after(async () => {
    await session?.close();
    await api?.close();
  });

  test('answers queries with no option: the 405 is learnt, and the next query goes by GET straight away', async () => {
    const first = await session.call('graphql_query', { query: '{ books { title } }' });
    assert.deepEqual(first.structuredContent, { data: { books: [{ title: 'Dune' }, { title: 'Emma' }] } });
    assert.deepEqual(api.methods(), ['POST', 'GET']);
    await session.call('graphql_query', { query: '{ book(id: "2") { title } }' });
    assert.deepEqual(api.methods(), ['POST', 'GET', 'GET']);
  });

  test('without an Allow header, the 405 advises --queryMethod=get, with which the query runs', async () => {
    const bare = await startMethodServer({ methods: ['GET'], allow: null });
    const sessions: McpSession[] = [];
    try {
      sessions.push(await startMcp([`--endpoint=${bare.url.href}`]));
      const refused = await sessions[0]!.call('graphql_query', { query: '{ books { title } }' });
      assert.match(
        text(refused),
        /^HTTP_ERROR: HTTP 405 .*no Allow header.*set --queryMethod=get for this API/,
      );
      sessions.push(await startMcp([`--endpoint=${bare.url.href}`, '--queryMethod=get']));
      const answered = await sessions[1]!.call('graphql_query', { query: '{ books { title } }' });
      assert.deepEqual(answered.structuredContent, {
        data: { books: [{ title: 'Dune' }, { title: 'Emma' }] },
      });
      assert.deepEqual(bare.methods(), ['POST', 'GET']);
    } finally {
      await Promise.all(sessions.map((session) => session.close()));
      await bare.close();
    }
  });

  test('MUST NOT send a mutation by GET: the 405 says why, and no GET carries it', async () => {
    const before = api.requests.length;
    const result = await session.call('graphql_query', {
      query: 'mutation { addBook(title: "X") { id } }',
      allowMutations: true,
    });
    assert.match(text(result), /^HTTP_ERROR: HTTP 405 .*a mutation is never sent by GET/);
    assert.deepEqual(api.methods().slice(before), ['POST'], 'the one request is the refused POST');
  });
});

describe('custom scalars', () => {
  let api: TestApi;
  let session: McpSession;
  before(async () => {
    api = await startMethodServer();
    writeFileSync(join(dir, 'echo.graphql'), `${ECHO}\n`);
    session = await startMcp([
      `--endpoint=${api.url.href}`,
      `--schema=${join(dir, 'schema.graphql')}`,
      `--operations=${join(dir, 'echo.graphql')}`,
    ]);
  });
  after(async () => {
    await session?.close();
    await api?.close();
  });

  test('a JSON input is published as typed branches, and an object sent reaches the API as an object', async () => {
    const { tools } = await session.client.listTools();
    const data = (
      tools.find((tool) => tool.name === 'Echo')!.inputSchema.properties as Record<string, unknown>
    ).data as { anyOf: Array<{ type: string }> };
    assert.ok(
      data.anyOf.some((branch) => branch.type === 'object'),
      JSON.stringify(data),
    );
    assert.ok(
      data.anyOf.every((branch) => typeof branch.type === 'string'),
      'no untyped branch',
    );
    const result = await session.call('Echo', { data: { a: 1, b: [true] } });
    assert.deepEqual(result.structuredContent, { data: { echo: 'object:{"a":1,"b":[true]}' } }, text(result));
    assert.deepEqual(api.requests.at(-1)!.params.variables, { data: { a: 1, b: [true] } });
  });

  test('an array of mixed JSON values passes a JSON Schema validator of the published schema, and reaches the API as that array', async () => {
    const { tools } = await session.client.listTools();
    const { $schema: _dialect, ...inputSchema } = tools.find((tool) => tool.name === 'Echo')!.inputSchema;
    // What a strict client does before it calls: the arguments against the tool's input schema.
    const validate = new Ajv({ strict: true }).compile(inputSchema);
    const data = [1, 'x', true];
    assert.ok(validate({ data }), JSON.stringify(validate.errors));
    assert.ok(validate({ data: [[null, { a: 1 }], [['deep']]] }), JSON.stringify(validate.errors));
    assert.ok(!validate({ data: [[[['too deep']]]] }), 'four levels of arrays are more than the schema says');
    const result = await session.call('Echo', { data });
    assert.deepEqual(result.structuredContent, { data: { echo: 'array:[1,"x",true]' } }, text(result));
    assert.deepEqual(api.requests.at(-1)!.params.variables, { data });
  });
});

describe('an API without automatic persisted queries, told --persistedQueries=apollo', () => {
  let api: TestApi;
  let session: McpSession;
  before(async () => {
    // It reads no extensions: the hash alone is a request without a query, its 400 "Must provide query string."
    api = await startMethodServer();
    writeFileSync(join(dir, 'book-manifest.json'), JSON.stringify({ [sha256(BOOK)]: BOOK }));
    session = await startMcp([
      `--endpoint=${api.url.href}`,
      `--schema=${join(dir, 'schema.graphql')}`,
      `--operations=${join(dir, 'book-manifest.json')}`,
      '--persistedQueries=apollo',
    ]);
  });
  after(async () => {
    await session?.close();
    await api?.close();
  });

  test('answers with the document sent whole after the refused hash, ending with advice to set --persistedQueries=off', async () => {
    const result = await session.call('Book', { id: '1' });
    assert.deepEqual(
      (result.structuredContent as { data: unknown }).data,
      { book: { title: 'Dune' } },
      text(result),
    );
    assert.deepEqual(
      api.requests.map((request) => typeof request.params.query),
      ['undefined', 'string'],
    );
    assert.match(texts(result).at(-1)!, /its operator should set --persistedQueries=off for this API/);
  });
});

describe("GitHub's own schema.graphql (@octokit/graphql-schema) given to --schema", () => {
  let session: McpSession;
  before(async () => {
    // Nothing is sent to the endpoint: the schema comes from the file.
    session = await startMcp(['--endpoint=http://127.0.0.1:9/graphql', `--schema=${GITHUB_SDL_FILE}`]);
  });
  after(async () => {
    await session?.close();
  });

  test('starts, warning on stderr of the field it defines twice and which definition is used', () => {
    assert.match(
      session.stderr(),
      /graphql-mcp: --schema .*schema\.graphql: 2 definitions repeat a name defined earlier in the file and are left out \(the first definition of each name is the one used\): EnterpriseOwnerInfo\.repositoryDeployKeySetting/,
    );
  });

  test('answers graphql_introspect for Repository', async () => {
    const result = await session.call('graphql_introspect', { typeNames: ['Repository'] });
    assert.equal(result.isError, undefined, text(result));
    assert.match(text(result), /^type Repository implements .*\{$/m);
    assert.match(text(result), /^ {2}nameWithOwner: String!$/m);
  });
});

describe('a hostile --scalars schema', () => {
  const levels = 5_000;
  const deep = '{"type":"array","items":'.repeat(levels) + '{"type":"string"}' + '}'.repeat(levels);

  test('nested 5,000 deep in a config file: exit 2 naming the file and the key, not a stack overflow', async () => {
    const file = join(dir, 'deep-scalars.json');
    writeFileSync(
      file,
      `{"apis": {"shop": {"endpoint": "http://127.0.0.1:9/graphql", "scalars": {"Deep": ${deep}}}}}`,
    );
    const { status, stderr } = await runToEnd([`--config=${file}`]);
    assert.equal(status, 2, stderr);
    assert.match(
      stderr,
      /^graphql-mcp: .*deep-scalars\.json:1: apis\.shop\.scalars\.Deep nests more than 64 levels/,
    );
  });

  test('nested 5,000 deep or huge as --scalars: exit 2 naming the option and the scalar', async () => {
    const nested = await runToEnd([`--scalars={"Deep": ${deep}}`]);
    assert.equal(nested.status, 2, nested.stderr);
    assert.match(nested.stderr, /^graphql-mcp: --scalars: Deep: its schema nests more than 32 levels/);
    const values = JSON.stringify(Array.from({ length: 10_000 }, (_, i) => `v${i}`));
    const huge = await runToEnd([`--scalars={"Huge": {"type": "string", "enum": ${values}}}`]);
    assert.equal(huge.status, 2, huge.stderr);
    assert.match(huge.stderr, /^graphql-mcp: --scalars: Huge: its schema is longer than 16,384 characters/);
  });
});
