// Sending a manifest's operations by id (src/http/post-graphql.ts, src/http/persisted.ts), against GraphQL
// Yoga's persisted-operations plugin (trusted documents only) and its automatic-persisted-queries plugin: the
// operations are loaded from real manifest files as the tools are (src/operations/load.ts), then sent as the
// query tool sends them; each server records every request it receives.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test, type TestContext } from 'node:test';
import { useAPQ } from '@graphql-yoga/plugin-apq';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { ToolError } from '../../src/common/errors.ts';
import { HeaderSet } from '../../src/http/headers.ts';
import { postGraphQL, type ApiProtocol, type GraphQLResponse } from '../../src/http/post-graphql.ts';
import { loadOperations, type OperationTool } from '../../src/operations/load.ts';
import {
  startMethodServer,
  startYoga,
  trustedSchema,
  type MethodServerOptions,
  type TestApi,
} from '../fixtures/trusted-servers.ts';

const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-persisted-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Written as a client's build writes them: several lines, a comment; not as graphql-js prints them.
const BOOK_BODY = 'query Book($id: ID!) {\n  # the title is all we show\n  book(id: $id) { title }\n}';
const ADD_BODY = 'mutation AddBook($title: String!) {\n  addBook(title: $title) { id title }\n}';

let files = 0;
/** The tools of a flat manifest (id → document) written to a file, by name. */
function toolsOf(manifest: Record<string, string>): Map<string, OperationTool> {
  const file = join(dir, `manifest-${++files}.json`);
  writeFileSync(file, JSON.stringify(manifest, null, 2));
  const set = loadOperations([file], {
    schema: trustedSchema(),
    maxComplexity: 100,
    readOnly: false,
    endpointName: 'the test API',
  });
  return new Map(set.tools.map((tool) => [tool.name, tool]));
}

const MANIFEST = { [sha256(BOOK_BODY)]: BOOK_BODY, [sha256(ADD_BODY)]: ADD_BODY };
const tools = toolsOf(MANIFEST);
const book = tools.get('Book')!;
const addBook = tools.get('AddBook')!;

/** Sends a tool's operation as the query tool does: its checked document, its variables, its trusted document. */
function send(
  api: TestApi,
  tool: OperationTool,
  variables: Record<string, unknown>,
  protocol?: ApiProtocol,
): Promise<GraphQLResponse> {
  return postGraphQL({
    endpoint: api.url,
    headers: new HeaderSet(),
    operation: {
      query: tool.document.text,
      operationName: tool.name,
      variables: JSON.stringify(variables),
      kind: tool.kind,
      persisted: tool.persisted,
    },
    protocol,
    timeoutMs: 5_000,
    maxBytes: 1_048_576,
  });
}

/** Sends a document the model wrote, which has no id. */
function sendWhole(api: TestApi, query: string, protocol?: ApiProtocol): Promise<GraphQLResponse> {
  return postGraphQL({
    endpoint: api.url,
    headers: new HeaderSet(),
    operation: { query, kind: 'query' },
    protocol,
    timeoutMs: 5_000,
    maxBytes: 1_048_576,
  });
}

/** Yoga running only the documents of MANIFEST, reading their ids from `member` (or Apollo's extension). */
async function trustedYoga(t: TestContext, member?: 'documentId' | 'doc_id'): Promise<TestApi> {
  const store = new Map(Object.entries(MANIFEST));
  const plugin = usePersistedOperations({
    getPersistedOperation: (id) => store.get(id) ?? null,
    ...(member === undefined
      ? {}
      : {
          extractPersistedOperationId: (params, request) => {
            const given = (params as unknown as Record<string, unknown>)[member];
            if (typeof given === 'string') return given;
            // Yoga reads only the four standard parameters of a GET.
            return new URL(request.url).searchParams.get(member);
          },
        }),
  });
  const api = await startYoga([plugin], member === undefined ? [] : [member]);
  t.after(() => api.close());
  return api;
}

async function apqYoga(t: TestContext): Promise<TestApi> {
  const api = await startYoga([useAPQ()]);
  t.after(() => api.close());
  return api;
}

async function methodServer(t: TestContext, options: MethodServerOptions = {}): Promise<TestApi> {
  const api = await startMethodServer(options);
  t.after(() => api.close());
  return api;
}

describe('sending by id to an API of trusted documents only (Yoga, persisted operations)', () => {
  test('a manifest’s operation is sent by documentId alone, and runs', async (t) => {
    const api = await trustedYoga(t, 'documentId');
    const response = await send(api, book, { id: '2' }, { persisted: 'documentId', trustedOnly: true });
    assert.deepEqual(response.result, { data: { book: { title: 'Emma' } } });
    assert.equal(response.advice, undefined);
    assert.deepEqual(api.requests[0]!.params, {
      documentId: sha256(BOOK_BODY),
      variables: { id: '2' },
      operationName: 'Book',
    });
  });

  test('by doc_id, Relay’s member', async (t) => {
    const api = await trustedYoga(t, 'doc_id');
    const response = await send(api, book, { id: '1' }, { persisted: 'doc_id' });
    assert.deepEqual(response.result, { data: { book: { title: 'Dune' } } });
    assert.equal(api.requests[0]!.params.doc_id, sha256(BOOK_BODY));
    assert.equal(api.requests[0]!.params.query, undefined);
  });

  test('by Apollo’s extensions.persistedQuery, where the plugin looks by default', async (t) => {
    const api = await trustedYoga(t);
    const response = await send(api, book, { id: '1' }, { persisted: 'apollo' });
    assert.deepEqual(response.result, { data: { book: { title: 'Dune' } } });
    assert.deepEqual(api.requests[0]!.params.extensions, {
      persistedQuery: { version: 1, sha256Hash: sha256(BOOK_BODY) },
    });
    assert.equal(api.requests[0]!.params.query, undefined);
    assert.equal(api.requests.length, 1);
  });

  test('by documentId in a GET’s query string, where the API takes queries by GET', async (t) => {
    const api = await trustedYoga(t, 'documentId');
    const response = await send(api, book, { id: '1' }, { persisted: 'documentId', method: 'get' });
    assert.deepEqual(response.result, { data: { book: { title: 'Dune' } } });
    assert.deepEqual(api.methods(), ['GET']);
    assert.equal(api.requests[0]!.params.documentId, sha256(BOOK_BODY));
  });

  test('a manifest’s mutation is sent by id by POST, also where queries go by GET', async (t) => {
    const api = await trustedYoga(t, 'documentId');
    const response = await send(
      api,
      addBook,
      { title: 'Ulysses' },
      { persisted: 'documentId', method: 'get' },
    );
    assert.deepEqual(response.result, { data: { addBook: { id: '3', title: 'Ulysses' } } });
    assert.deepEqual(api.methods(), ['POST']);
  });

  test('a document sent whole gets the API’s refusal, with advice saying it runs only trusted documents', async (t) => {
    const api = await trustedYoga(t, 'documentId');
    const response = await sendWhole(api, '{ books { id } }');
    assert.equal((response.result.errors as Array<{ message: string }>)[0]!.message, 'PersistedQueryOnly');
    assert.match(response.advice ?? '', /runs only trusted documents/);
    assert.match(response.advice ?? '', /operation tools/);
  });

  test('MUST NOT send a document without an id to an API said to run only trusted documents', async (t) => {
    const api = await trustedYoga(t, 'documentId');
    await assert.rejects(
      sendWhole(api, '{ books { id } }', { persisted: 'documentId', trustedOnly: true }),
      (error) => {
        assert.ok(error instanceof ToolError);
        assert.equal(error.code, 'DOCUMENT_NOT_TRUSTED');
        assert.match(error.message, /runs only trusted documents/);
        assert.match(error.message, /not sent/);
        return true;
      },
    );
    assert.equal(api.requests.length, 0);
  });

  test('an id the API does not have gets advice that its trusted documents and the manifest differ', async (t) => {
    const api = await trustedYoga(t, 'documentId');
    const other = 'query Book($id: ID!) { book(id: $id) { id title } }';
    const unknown = toolsOf({ [sha256(other)]: other }).get('Book')!;
    const response = await send(api, unknown, { id: '1' }, { persisted: 'documentId' });
    assert.equal(
      (response.result.errors as Array<{ message: string }>)[0]!.message,
      'PersistedQueryNotFound',
    );
    assert.match(response.advice ?? '', /does not know this operation's id/);
  });

  test('an id sent where the API does not look for one gets advice to set how it takes ids', async (t) => {
    const api = await trustedYoga(t, 'documentId');
    const response = await send(api, book, { id: '1' }, { persisted: 'apollo' });
    assert.match(response.advice ?? '', /takes ids in another form/);
    assert.equal(api.requests.length, 1);
  });

  test('by default a manifest’s operation is sent whole: the document as checked, no id', async (t) => {
    const api = await methodServer(t);
    const response = await send(api, book, { id: '1' });
    assert.deepEqual(response.result, { data: { book: { title: 'Dune' } } });
    assert.deepEqual(api.requests[0]!.params, {
      query: book.document.text,
      variables: { id: '1' },
      operationName: 'Book',
    });
  });
});

describe('Apollo’s automatic persisted queries (Yoga, APQ)', () => {
  test('the first call sends the hash alone; on PersistedQueryNotFound, the document with the hash', async (t) => {
    const api = await apqYoga(t);
    const response = await send(api, book, { id: '1' }, { persisted: 'apollo' });
    assert.deepEqual(response.result, { data: { book: { title: 'Dune' } } });
    assert.equal(response.advice, undefined);
    assert.equal(api.requests.length, 2);
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(BOOK_BODY) } };
    assert.deepEqual(api.requests[0]!.params, { variables: { id: '1' }, operationName: 'Book', extensions });
    assert.deepEqual(api.requests[1]!.params, {
      query: BOOK_BODY,
      variables: { id: '1' },
      operationName: 'Book',
      extensions,
    });
  });

  test('the registration carries the manifest’s text exactly as written, the text its hash is of', async (t) => {
    const api = await apqYoga(t);
    await send(api, book, { id: '1' }, { persisted: 'apollo' });
    assert.notEqual(book.document.text, BOOK_BODY);
    assert.equal(api.requests[1]!.params.query, BOOK_BODY);
  });

  test('the next call sends the hash alone: one request', async (t) => {
    const api = await apqYoga(t);
    await send(api, book, { id: '1' }, { persisted: 'apollo' });
    const again = await send(api, book, { id: '2' }, { persisted: 'apollo' });
    assert.deepEqual(again.result, { data: { book: { title: 'Emma' } } });
    assert.equal(api.requests.length, 3);
    assert.equal(api.requests[2]!.params.query, undefined);
  });

  test('by GET: the hash in the extensions parameter, then the registration, then the hash alone', async (t) => {
    const api = await apqYoga(t);
    await send(api, book, { id: '1' }, { persisted: 'apollo', method: 'get' });
    await send(api, book, { id: '1' }, { persisted: 'apollo', method: 'get' });
    assert.deepEqual(api.methods(), ['GET', 'GET', 'GET']);
    assert.deepEqual(
      api.requests.map((request) => request.params.query),
      [undefined, BOOK_BODY, undefined],
    );
  });

  test('an id that is not the document’s SHA-256 is not offered for registration', async (t) => {
    const api = await apqYoga(t);
    const custom = toolsOf({ 'book-by-id': BOOK_BODY }).get('Book')!;
    const response = await send(api, custom, { id: '1' }, { persisted: 'apollo' });
    assert.equal(api.requests.length, 1);
    assert.equal(response.status, 404);
    assert.match(response.advice ?? '', /does not know this operation's hash/);
  });

  test('an API without persisted queries gets the document whole after its PersistedQueryNotSupported', async (t) => {
    const api = await methodServer(t, {
      intercept: (params) =>
        params.query === undefined
          ? {
              status: 200,
              body: {
                errors: [
                  {
                    message: 'PersistedQueryNotSupported',
                    extensions: { code: 'PERSISTED_QUERY_NOT_SUPPORTED' },
                  },
                ],
              },
            }
          : undefined,
    });
    const response = await send(api, book, { id: '1' }, { persisted: 'apollo' });
    assert.deepEqual(response.result, { data: { book: { title: 'Dune' } } });
    assert.equal(api.requests.length, 2);
    assert.deepEqual(api.requests[1]!.params, {
      query: book.document.text,
      variables: { id: '1' },
      operationName: 'Book',
    });
    assert.match(response.advice ?? '', /its operator should set --persistedQueries=off for this API/);
  });

  test('an API without APQ that answers the hash alone 400 "Must provide query string." gets the document whole, and advice to set --persistedQueries=off', async (t) => {
    // The method server reads no extensions: a request without a query is its 400.
    const api = await methodServer(t);
    const response = await send(api, book, { id: '1' }, { persisted: 'apollo' });
    assert.deepEqual(response.result, { data: { book: { title: 'Dune' } } });
    assert.equal(api.requests.length, 2);
    assert.equal(api.requests[0]!.params.query, undefined);
    assert.equal(api.requests[1]!.params.query, book.document.text);
    assert.match(response.advice ?? '', /its operator should set --persistedQueries=off for this API/);
  });

  test('graphql-http’s 400 "Missing query" and Apollo Server’s own refusal mean the same', async (t) => {
    for (const message of [
      'Missing query',
      'GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.',
    ]) {
      const api = await methodServer(t, {
        intercept: (params) =>
          params.query === undefined ? { status: 400, body: { errors: [{ message }] } } : undefined,
      });
      const response = await send(api, book, { id: '1' }, { persisted: 'apollo' });
      assert.deepEqual(response.result, { data: { book: { title: 'Dune' } } }, message);
      assert.match(response.advice ?? '', /--persistedQueries=off/, message);
    }
  });

  test('an API of trusted documents only that reads no Apollo hash is not sent the document: its answer, with advice naming --persistedQueries', async (t) => {
    const api = await methodServer(t);
    const response = await send(api, book, { id: '1' }, { persisted: 'apollo', trustedOnly: true });
    assert.equal(api.requests.length, 1);
    assert.equal(response.status, 400);
    assert.match(response.advice ?? '', /set --persistedQueries=off .*or to the form of id the API reads/);
  });
});
