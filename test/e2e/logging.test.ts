import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LoggingMessageNotification } from '@modelcontextprotocol/client';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { startMcp, type McpSession } from '../fixtures/mcp.ts';
import { RawMcp } from '../stress/harness.ts';

// MCP logging: how each tool call ended reaches the client as a log notification, at the level it set.
describe('log notifications', () => {
  let api: RunningGraphQLServer;
  let session: McpSession;
  const messages: LoggingMessageNotification['params'][] = [];

  before(async () => {
    const library = createLibraryApi();
    api = await serveGraphQL(library.schema, library.rootValue);
    session = await startMcp([
      `--endpoint=${api.url}`,
      '--headers={"Authorization":"Bearer log-secret-4242"}',
    ]);
    session.client.setNotificationHandler('notifications/message', (notification) => {
      messages.push(notification.params);
    });
  });
  after(async () => {
    await session.close();
    await api.close();
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

  test('the server declares the logging capability', () => {
    assert.ok(session.client.getServerCapabilities()?.logging);
  });

  test('until the client sets a level, a failed call is reported at warning and a successful one is not', async () => {
    messages.length = 0;
    await session.call('graphql_query', { query: '{ books { title } }' });
    await session.call('graphql_query', { query: '{ books {' });
    await settle();
    assert.equal(messages.length, 1);
    assert.equal(messages[0]!.level, 'warning');
    assert.match(String(messages[0]!.data), /^graphql_query: SYNTAX_ERROR: /);
  });

  test('logging/setLevel info reports successful calls at info with their time', async () => {
    await session.client.setLoggingLevel('info');
    messages.length = 0;
    await session.call('graphql_query', { query: '{ books { title } }' });
    await settle();
    assert.equal(messages.length, 1);
    assert.equal(messages[0]!.level, 'info');
    assert.match(String(messages[0]!.data), /^graphql_query: answered \(\d+ ms\)$/);
  });

  test('logging/setLevel warning silences info reports but keeps warnings', async () => {
    await session.client.setLoggingLevel('warning');
    messages.length = 0;
    await session.call('graphql_introspect', {});
    await session.call('graphql_query', { query: 'mutation { addReview(bookId: "b1", rating: 5) { id } }' });
    await settle();
    assert.deepEqual(
      messages.map((message) => message.level),
      ['warning'],
    );
    assert.match(String(messages[0]!.data), /MUTATION_NOT_ALLOWED/);
    await session.client.setLoggingLevel('info');
  });

  test('on stdio each notification comes just before the result it reports, on the same request', async () => {
    const mcp = new RawMcp([`--endpoint=${api.url}`]);
    try {
      await mcp.initialize();
      await mcp.request('logging/setLevel', { level: 'info' });
      for (const query of ['{ books { title } }', '{ books {'])
        await mcp.callTool('graphql_query', { query });
      await settle();
      const lines = mcp
        .stdout()
        .toString('utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id?: unknown; method?: string; params?: { data?: unknown } });
      const order = lines
        .filter((message) => message.method === 'notifications/message' || typeof message.id === 'number')
        .map((message) =>
          message.method === undefined ? `result ${String(message.id)}` : String(message.params?.data),
        );
      assert.equal(order.length, 6, order.join('\n')); // initialize, setLevel, then a result and its report for each call
      assert.match(order[2]!, /^graphql_query: answered/);
      assert.match(order[3]!, /^result /);
      assert.match(order[4]!, /^graphql_query: SYNTAX_ERROR/);
      assert.match(order[5]!, /^result /);
    } finally {
      mcp.kill();
    }
  });

  test('MUST NOT put a header value in a log notification', async () => {
    messages.length = 0;
    await session.call('graphql_query', {
      query: '{ books { title } }',
      headers: { 'X-Call': 'call-secret-9191' },
    });
    await session.call('graphql_query', {
      query: '{ books { title } }',
      endpoint: 'http://127.0.0.1:9/graphql?key=qs-secret-7373',
    });
    await settle();
    const all = JSON.stringify(messages);
    for (const secret of ['log-secret-4242', 'call-secret-9191', 'qs-secret-7373'])
      assert.ok(!all.includes(secret));
  });
});
