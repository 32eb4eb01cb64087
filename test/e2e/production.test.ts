// Production GraphQL APIs as they are, through the built server and the real SDK client: an API that runs only
// its trusted documents (GraphQL Yoga's persisted-operations plugin) served from a manifest, an API that takes
// queries only by GET, and custom scalars typed. Every server records the requests it receives, which prove
// what was sent, and how.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { startMethodServer, startYoga, TRUSTED_SDL, type TestApi } from '../fixtures/trusted-servers.ts';
import { startMcp, texts, type McpSession } from '../fixtures/mcp.ts';

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

  test("MUST NOT send the model's own document: DOCUMENT_NOT_TRUSTED, and nothing reaches the API", async () => {
    const before = api.requests.length;
    const result = await session.call('graphql_query', { query: '{ books { title } }' });
    assert.match(text(result), /^DOCUMENT_NOT_TRUSTED: .*runs only trusted documents.*operation tools/);
    assert.equal(api.requests.length, before);
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
});
