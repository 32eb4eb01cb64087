// The schema and the curated operations as MCP resources, the completion of a type name, and the prompts, as
// each protocol era's client gets them over each transport: a 2025-era client (the SDK v1 Client, initialize)
// and a 2026-07-28 client (the SDK v2 Client pinned to that revision, server/discover), over stdio and over
// Streamable HTTP, against a real GraphQL server on 127.0.0.1.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLibraryApi } from '../../demo/library-api.ts';
import { startHttpMcp, type HttpMcpProcess } from '../fixtures/http-mcp.ts';
import { graphqlHandler, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { CLI } from '../fixtures/mcp.ts';

const MODERN = '2026-07-28';
const OPERATIONS = join(dirname(fileURLToPath(import.meta.url)), '../../demo/operations');
const SCHEMA = 'graphql://default/schema';
const TYPES = 'graphql://default/types/{name}';
const OPERATION_URIS = ['AddReview', 'BooksByGenre', 'GetBook'].map(
  (name) => `graphql://default/operations/${name}`,
);
const BOOK_REPORT = `---
description: A short report on one book
arguments:
  - name: title
    description: The book's title
    required: true
---
Find the book titled "{{title}}" with graphql_query and report on it in three sentences.
`;

/** What the tests need of a client, whichever SDK and transport it comes from. */
interface FeatureClient {
  capabilities(): Record<string, unknown> | undefined;
  listResources(): Promise<Record<string, unknown> & { resources: Array<Record<string, unknown>> }>;
  listTemplates(): Promise<Array<Record<string, unknown>>>;
  read(uri: string): Promise<Record<string, unknown> & { contents: Array<Record<string, unknown>> }>;
  complete(uri: string, value: string): Promise<{ values: string[]; total?: number }>;
  listPrompts(): Promise<Array<{ name: string; arguments?: Array<Record<string, unknown>> }>>;
  /** The text of the prompt's one message. */
  getPrompt(name: string, args: Record<string, string>): Promise<string>;
  /** The first text of a tool's result. */
  call(name: string, args: Record<string, unknown>): Promise<string>;
  /** The 2026-07-28 client itself, whose results carry the caching hints. */
  readonly modern?: ClientV2;
  close(): Promise<void>;
}

type Era = 'legacy' | 'modern';
type Transport = 'stdio' | 'http';

let api: FaultServer;
let work: string;
let args: string[];
let refusingArgs: string[];
let narrowArgs: string[];
let introspectingArgs: string[];
let remote: {
  main: HttpMcpProcess;
  refusing: HttpMcpProcess;
  narrow: HttpMcpProcess;
  introspecting: HttpMcpProcess;
};

before(async () => {
  api = await startFaultServer();
  const library = createLibraryApi();
  const endpoint = api.route('/graphql', graphqlHandler(library.schema, library.rootValue));
  const refuse = api.route('/refuse', ({ res }) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"errors":[{"message":"introspection is disabled"}]}');
  });
  work = mkdtempSync(join(tmpdir(), 'graphql-mcp-resources-'));
  writeFileSync(join(work, 'book-report.md'), BOOK_REPORT);
  args = [`--endpoint=${endpoint}`, `--operations=${OPERATIONS}`, `--prompts=${work}`];
  refusingArgs = [`--endpoint=${refuse}`];
  narrowArgs = [`--endpoint=${endpoint}`, '--tools=graphql_query'];
  introspectingArgs = [`--endpoint=${endpoint}`, '--tools=graphql_introspect'];
  const [main, refusing, narrow, introspecting] = await Promise.all([
    startHttpMcp(args),
    startHttpMcp(refusingArgs),
    startHttpMcp(narrowArgs),
    startHttpMcp(introspectingArgs),
  ]);
  remote = { main, refusing, narrow, introspecting };
});

after(async () => {
  await Promise.all([
    remote?.main.stop(),
    remote?.refusing.stop(),
    remote?.narrow.stop(),
    remote?.introspecting.stop(),
  ]);
  await api.close();
  rmSync(work, { recursive: true, force: true });
});

/** A client of `era` connected over `transport` to a server with these arguments (HTTP: the one running). */
async function connect(
  era: Era,
  transport: Transport,
  serverArgs: string[],
  url: string,
): Promise<FeatureClient> {
  const stdio = {
    command: process.execPath,
    args: [CLI, ...serverArgs],
    env: { PATH: process.env.PATH ?? '' },
  };
  const ref = (uri: string) => ({ type: 'ref/resource' as const, uri });
  if (era === 'legacy') {
    const client = new ClientV1({ name: 'resources-2025', version: '1.0.0' });
    await client.connect(
      transport === 'stdio'
        ? new StdioTransportV1({ ...stdio, stderr: 'ignore' })
        : new HttpTransportV1(new URL(url)),
    );
    return {
      capabilities: () => client.getServerCapabilities(),
      listResources: async () => await client.listResources(),
      listTemplates: async () => (await client.listResourceTemplates()).resourceTemplates,
      read: async (uri) => await client.readResource({ uri }),
      complete: async (uri, value) =>
        (await client.complete({ ref: ref(uri), argument: { name: 'name', value } })).completion,
      listPrompts: async () => (await client.listPrompts()).prompts,
      getPrompt: async (name, promptArgs) =>
        textOf((await client.getPrompt({ name, arguments: promptArgs })).messages),
      call: async (name, toolArgs) =>
        firstText((await client.callTool({ name, arguments: toolArgs })).content),
      close: () => client.close(),
    };
  }
  const client = new ClientV2(
    { name: 'resources-2026', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(
    transport === 'stdio'
      ? new StdioTransportV2({ ...stdio, stderr: 'ignore' })
      : new HttpTransportV2(new URL(url)),
  );
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
  return {
    capabilities: () => client.getServerCapabilities(),
    listResources: async () => await client.listResources(),
    listTemplates: async () => (await client.listResourceTemplates()).resourceTemplates,
    read: async (uri) => await client.readResource({ uri }),
    complete: async (uri, value) =>
      (await client.complete({ ref: ref(uri), argument: { name: 'name', value } })).completion,
    listPrompts: async () => (await client.listPrompts()).prompts,
    getPrompt: async (name, promptArgs) =>
      textOf((await client.getPrompt({ name, arguments: promptArgs })).messages),
    call: async (name, toolArgs) => firstText((await client.callTool({ name, arguments: toolArgs })).content),
    modern: client,
    close: () => client.close(),
  };
}

function textOf(messages: ReadonlyArray<{ role: string; content: unknown }>): string {
  assert.equal(messages.length, 1);
  assert.equal(messages[0]!.role, 'user');
  const content = messages[0]!.content as { type: string; text: string };
  assert.equal(content.type, 'text');
  return content.text;
}

function firstText(content: unknown): string {
  const first = (content as Array<{ type: string; text?: string }>)[0];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

/** The MCP error a promise rejects with: its code, and its message without the v1 SDK's "MCP error N: ". */
async function failure(
  promise: Promise<unknown>,
): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return { code, message: message.replace(/^MCP error -?\d+: /, ''), data };
  }
  assert.fail('expected an MCP error');
}

for (const transport of ['stdio', 'http'] as const) {
  for (const era of ['legacy', 'modern'] as const) {
    const who = era === 'legacy' ? 'a 2025-era client (SDK v1, initialize)' : `a ${MODERN} client (SDK v2)`;
    describe(`${who} over ${transport}`, () => {
      let client: FeatureClient;
      let refusing: FeatureClient;
      let narrow: FeatureClient;
      before(async () => {
        [client, refusing, narrow] = await Promise.all([
          connect(era, transport, args, remote.main.url),
          connect(era, transport, refusingArgs, remote.refusing.url),
          connect(era, transport, narrowArgs, remote.narrow.url),
        ]);
      });
      after(() => Promise.all([client?.close(), refusing?.close(), narrow?.close()]));

      // Only stdio watches the operation files, whose changes change the list of resources.
      const watched = transport === 'stdio';

      test(`is told of resources, completions and prompts, and that only ${watched ? 'the resource list' : 'no list'} may change`, () => {
        const capabilities = client.capabilities()!;
        assert.deepEqual(capabilities.resources, { listChanged: watched });
        assert.deepEqual(capabilities.prompts, { listChanged: false });
        assert.deepEqual(capabilities.completions, {});
      });

      test('lists the schema and each curated operation as text/plain resources', async () => {
        const { resources } = await client.listResources();
        assert.deepEqual(
          resources.map((resource) => resource.uri).sort(),
          [...OPERATION_URIS, SCHEMA].sort(),
        );
        assert.ok(resources.every((resource) => resource.mimeType === 'text/plain'));
        const schema = resources.find((resource) => resource.uri === SCHEMA)!;
        assert.match(String(schema.title), /^GraphQL schema of http:\/\/127\.0\.0\.1:\d+\/graphql$/);
      });

      test('lists the template of one type, graphql://default/types/{name}', async () => {
        const templates = await client.listTemplates();
        assert.deepEqual(
          templates.map(({ uriTemplate, mimeType }) => ({ uriTemplate, mimeType })),
          [{ uriTemplate: TYPES, mimeType: 'text/plain' }],
        );
      });

      test('reads the schema: what graphql_introspect answers with no arguments', async () => {
        const { contents } = await client.read(SCHEMA);
        assert.equal(contents.length, 1);
        assert.equal(contents[0]!.uri, SCHEMA);
        assert.equal(contents[0]!.mimeType, 'text/plain');
        assert.match(String(contents[0]!.text), /type Query \{/);
        assert.equal(contents[0]!.text, await client.call('graphql_introspect', {}));
      });

      test("reads one type: what graphql_introspect answers for typeNames ['Book']", async () => {
        const uri = 'graphql://default/types/Book';
        const { contents } = await client.read(uri);
        assert.equal(contents[0]!.uri, uri);
        assert.match(String(contents[0]!.text), /^type Book \{$/m);
        assert.equal(contents[0]!.text, await client.call('graphql_introspect', { typeNames: ['Book'] }));
      });

      test('completes a type name: the names that start with it first, then those that contain it', async () => {
        const { values, total } = await client.complete(TYPES, 'r');
        assert.deepEqual(values, ['Review', 'Author', 'Genre', 'Query', 'SearchResult']);
        assert.equal(total, 5);
      });

      test("answers an unknown type as a resource not found, with the tool's INVALID_INPUT and a suggestion", async () => {
        const uri = 'graphql://default/types/Boook';
        const error = await failure(client.read(uri));
        assert.equal(error.code, -32602);
        assert.deepEqual(error.data, { uri });
        assert.match(error.message, /^INVALID_INPUT: .*"Boook".*did you mean Book\?/);
      });

      test('reads a curated operation: its description and the document its tool sends', async () => {
        const uri = 'graphql://default/operations/BooksByGenre';
        const { contents } = await client.read(uri);
        const text = String(contents[0]!.text);
        assert.match(
          text,
          /^# The newest books of one genre, with their authors\.\n# Run it with the tool BooksByGenre\.\n/,
        );
        assert.match(text, /^query BooksByGenre\(\$genre: Genre!, \$first: Int = 5\) \{$/m);
        assert.match(text, /^fragment BookCard on Book \{$/m);
      });

      test("answers a read of a schema the endpoint will not introspect with INTROSPECTION_FAILED and the tool's advice", async () => {
        const tool = await refusing.call('graphql_introspect', {});
        for (const uri of [SCHEMA, 'graphql://default/types/Book']) {
          const error = await failure(refusing.read(uri));
          assert.equal(error.code, -32603);
          assert.deepEqual(error.data, { code: 'INTROSPECTION_FAILED' });
          assert.match(error.message, /^INTROSPECTION_FAILED: .* has introspection turned off/);
          assert.match(error.message, /--schema=<file>/);
          assert.equal(error.message, tool);
        }
        assert.deepEqual((await refusing.complete(TYPES, 'B')).values, []);
      });

      test("lists the built-in prompts, then the operator's, with their arguments", async () => {
        const prompts = await client.listPrompts();
        assert.deepEqual(
          prompts.map((prompt) => [
            prompt.name,
            prompt.arguments?.map((argument) => [argument.name, argument.required]),
          ]),
          [
            ['explore_api', [['goal', true]]],
            ['write_query', [['need', true]]],
            [
              'explain_error',
              [
                ['error', true],
                ['query', false],
              ],
            ],
            ['book-report', [['title', true]]],
          ],
        );
      });

      test('gets a built-in prompt with its arguments in the text', async () => {
        const text = await client.getPrompt('explain_error', {
          error: 'COMPLEXITY_LIMIT: the query selects 140 fields',
          query: '{ books { title } }',
        });
        assert.match(text, /COMPLEXITY_LIMIT: the query selects 140 fields/);
        assert.match(text, /```graphql\n\{ books \{ title \} \}\n```/);
      });

      test("gets an operator's prompt with its placeholder filled", async () => {
        const text = await client.getPrompt('book-report', { title: 'Dune' });
        assert.equal(
          text,
          'Find the book titled "Dune" with graphql_query and report on it in three sentences.',
        );
      });

      test('is told of no completions or prompts where the tools they stand for are not offered, and of resources for the view of graphql_query alone', async () => {
        const capabilities = narrow.capabilities()!;
        // graphql_query's MCP Apps view is a resource, listed only to a client that declares MCP Apps.
        assert.deepEqual(capabilities.resources, { listChanged: false });
        assert.equal(capabilities.prompts, undefined);
        assert.equal(capabilities.completions, undefined);
        assert.deepEqual(capabilities.tools, { listChanged: false });
      });

      if (era === 'modern') {
        test(`gets caching hints: the lists for 5 minutes, for each client's own cache where they depend on its MCP Apps declaration${watched ? ' (with watched files, those of tools and resources not at all)' : ''}, a schema for --schemaTtl`, async () => {
          const modern = client.modern!;
          const hints = (result: Record<string, unknown>) => [result.ttlMs, result.cacheScope];
          // The view's resource and the app-only tool are listed only to a client that declares MCP Apps.
          const listed = [watched ? 0 : 300_000, 'private'];
          assert.deepEqual(hints(await modern.listResources()), listed);
          assert.deepEqual(hints(await modern.listTools()), listed);
          assert.deepEqual(hints(await modern.listResourceTemplates()), [300_000, 'public']);
          assert.deepEqual(hints(await modern.listPrompts()), [300_000, 'public']);
          assert.deepEqual(hints(await modern.readResource({ uri: SCHEMA })), [300_000, 'public']);
          const operation = await modern.readResource({ uri: OPERATION_URIS[0]! });
          assert.deepEqual(hints(operation), [watched ? 0 : 300_000, 'public']);
          // Without graphql_query or operations there is no view: the lists are the same for every client.
          const introspecting = await connect(era, transport, introspectingArgs, remote.introspecting.url);
          try {
            assert.deepEqual(hints(await introspecting.modern!.listTools()), [300_000, 'public']);
            assert.deepEqual(hints(await introspecting.modern!.listResources()), [300_000, 'public']);
          } finally {
            await introspecting.close();
          }
        });
      }
    });
  }
}
