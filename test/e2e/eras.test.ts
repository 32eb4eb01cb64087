// Both protocol eras, over both transports: a 2025-era client (the initialize handshake, here the SDK v1
// Client that Claude Desktop, Cursor and the Inspector are built on) and a 2026-07-28 client (server/discover,
// a _meta envelope on every request, no session; the SDK v2 Client pinned to that revision) each get the
// whole product: both tools, the same results, and log notifications by their era's rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { startHttpMcp, type HttpMcpProcess } from '../fixtures/http-mcp.ts';
import { CLI } from '../fixtures/mcp.ts';

const MODERN = '2026-07-28';
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
const BOOKS = '{ books(first: 2) { title } }';

/** What each era's client offers the tests, whichever SDK it comes from. */
interface EraClient {
  protocolVersion(): string | undefined;
  listTools(): Promise<Array<{ name: string }>>;
  call(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<Result>;
  setLevel?(level: string): Promise<void>;
  /** Log notifications received so far: their data. */
  readonly logs: string[];
  close(): Promise<void>;
}

interface Result {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
  isError?: boolean;
}

let api: RunningGraphQLServer;
let remote: HttpMcpProcess;

before(async () => {
  const library = createLibraryApi();
  api = await serveGraphQL(library.schema, library.rootValue);
  remote = await startHttpMcp([`--endpoint=${api.url}`]);
});
after(async () => {
  await remote?.stop();
  await api.close();
});

const stdioParams = () => ({
  command: process.execPath,
  args: [CLI, `--endpoint=${api.url}`],
  env: { PATH: process.env.PATH ?? '' },
  stderr: 'ignore' as const,
});

async function clientV1(transport: 'stdio' | 'http'): Promise<EraClient> {
  const client = new ClientV1({ name: 'era-2025', version: '1.0.0' });
  const logs: string[] = [];
  await client.connect(
    transport === 'stdio' ? new StdioTransportV1(stdioParams()) : new HttpTransportV1(new URL(remote.url)),
  );
  const { LoggingMessageNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
  client.setNotificationHandler(
    LoggingMessageNotificationSchema,
    (n) => void logs.push(String(n.params.data)),
  );
  return {
    protocolVersion: () => undefined,
    listTools: async () => (await client.listTools()).tools,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as Result,
    setLevel: async (level) => void (await client.setLoggingLevel(level as 'info')),
    logs,
    close: () => client.close(),
  };
}

async function clientV2(transport: 'stdio' | 'http'): Promise<EraClient> {
  const client = new ClientV2(
    { name: 'era-2026', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  const logs: string[] = [];
  client.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.data)));
  await client.connect(
    transport === 'stdio' ? new StdioTransportV2(stdioParams()) : new HttpTransportV2(new URL(remote.url)),
  );
  return {
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    listTools: async () => (await client.listTools()).tools,
    call: async (name, args, meta) =>
      (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as Result,
    logs,
    close: () => client.close(),
  };
}

const text = (result: Result) => result.content[0]?.text ?? '';
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

/** What every client gets, whatever its era and transport: both tools, the same results, the mutation guard. */
function theWholeProduct(client: () => EraClient): void {
  test('lists both tools', async () => {
    const names = (await client().listTools()).map((tool) => tool.name).sort();
    assert.deepEqual(names, ['graphql_introspect', 'graphql_query']);
  });

  test('runs a query and gets the GraphQL response', async () => {
    const result = await client().call('graphql_query', { query: BOOKS });
    assert.notEqual(result.isError, true, text(result));
    const books = (result.structuredContent as { data: { books: unknown[] } }).data.books;
    assert.equal(books.length, 2);
    assert.deepEqual(JSON.parse(text(result)), result.structuredContent);
  });

  test('introspects the schema as SDL', async () => {
    const result = await client().call('graphql_introspect', {});
    assert.notEqual(result.isError, true, text(result));
    assert.match(text(result), /type Query \{/);
  });

  test('refuses a mutation with MUTATION_NOT_ALLOWED', async () => {
    const result = await client().call('graphql_query', {
      query: 'mutation { addReview(bookId: "b1", rating: 5) { rating } }',
    });
    assert.equal(result.isError, true);
    assert.match(text(result), /^MUTATION_NOT_ALLOWED: /);
  });
}

for (const transport of ['stdio', 'http'] as const) {
  describe(`a 2025-era client (SDK v1, initialize) over ${transport}`, () => {
    let client: EraClient;
    before(async () => (client = await clientV1(transport)));
    after(() => client.close());

    theWholeProduct(() => client);

    if (transport === 'stdio') {
      test('gets log notifications at the level it set with logging/setLevel', async () => {
        await client.setLevel!('info');
        client.logs.length = 0;
        await client.call('graphql_query', { query: BOOKS });
        await settle();
        assert.deepEqual(
          client.logs.map((line) => line.replace(/\(\d+ ms\)/, '(N ms)')),
          ['graphql_query: answered (N ms)'],
        );
      });
    }
  });

  describe(`a 2026-07-28 client (SDK v2, server/discover) over ${transport}`, () => {
    let client: EraClient;
    before(async () => (client = await clientV2(transport)));
    after(() => client.close());

    test(`negotiates protocol revision ${MODERN}`, () => {
      assert.equal(client.protocolVersion(), MODERN);
    });

    theWholeProduct(() => client);

    test('MUST NOT send a log notification for a request whose _meta asks for no level', async () => {
      client.logs.length = 0;
      await client.call('graphql_query', { query: '{ books {' });
      await client.call('graphql_query', { query: BOOKS });
      await settle();
      assert.deepEqual(client.logs, []);
    });

    test('sends log notifications at the level the request _meta asks for', async () => {
      client.logs.length = 0;
      await client.call('graphql_query', { query: BOOKS }, { [LOG_LEVEL]: 'info' });
      await client.call('graphql_query', { query: BOOKS }, { [LOG_LEVEL]: 'warning' });
      await client.call('graphql_query', { query: '{ books {' }, { [LOG_LEVEL]: 'warning' });
      await settle();
      assert.deepEqual(
        client.logs.map((line) =>
          line.replace(/\(\d+ ms\)/, '(N ms)').replace(/SYNTAX_ERROR: .*/, 'SYNTAX_ERROR'),
        ),
        ['graphql_query: answered (N ms)', 'graphql_query: SYNTAX_ERROR'],
      );
    });
  });
}
