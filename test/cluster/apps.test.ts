// The confirmation panel across replicas: three replicas of the built server behind HAProxy sharing one Redis
// (--store) and one --stateKey. A confirmation minted by one replica is accepted by any other, and used once
// across all of them: replayed to every replica at once, it runs the mutation once. The API's own log proves it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import type { CallToolResult } from '../fixtures/mcp.ts';
import { CLUSTER_MISSING, startCluster, type Cluster } from './harness.ts';
import { mutationsReceived } from '../fixtures/mutations.ts';

const APPS: ClientCapabilities = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};
const add = {
  query: 'mutation Add($id: ID!) { addReview(bookId: $id, rating: 1) { rating } }',
  variables: { id: 'b4' },
  allowMutations: true,
};

describe('the confirmation panel across three replicas sharing Redis', { skip: CLUSTER_MISSING }, () => {
  let api: RunningGraphQLServer;
  let cluster: Cluster;
  const mutationsSent = () => mutationsReceived(api);

  before(async () => {
    const library = createLibraryApi();
    api = await serveGraphQL(library.schema, library.rootValue);
    cluster = await startCluster({
      args: ({ redisUrl, stateKey }) => [
        `--endpoint=${api.url}`,
        `--store=${redisUrl}`,
        `--stateKey=${stateKey}`,
      ],
    });
  });
  after(async () => {
    await cluster?.stop();
    await api?.close();
  });

  /** An SDK client that declares MCP Apps (and no elicitation), connected to one replica. */
  async function appsClient(url: string) {
    const client = new Client({ name: 'apps-replica', version: '1.0.0' }, { capabilities: APPS });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return {
      call: async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })) as CallToolResult,
      close: () => client.close(),
    };
  }

  test('MUST run a confirmation once when it is replayed to every replica at once', async () => {
    const urls = cluster.replicas.map((replica) => replica.process().url);
    const clients = await Promise.all(urls.map((url) => appsClient(url)));
    try {
      const before = mutationsSent();
      const waiting = await clients[0]!.call('graphql_query', add);
      const confirmation = (waiting._meta as Record<string, string>)['graphql-mcp/confirmation'];
      assert.ok(confirmation !== undefined, 'the mutation waits for the panel');
      assert.equal(mutationsSent(), before);
      const results = await Promise.all(
        clients.map((client) => client.call('graphql_confirm_mutation', { confirmation })),
      );
      const ran = results.filter((result) => result.isError !== true);
      assert.equal(ran.length, 1, JSON.stringify(results.map((result) => result.content[0])));
      for (const refused of results.filter((result) => result.isError === true)) {
        assert.match((refused.content[0] as { text: string }).text, /^MUTATION_NOT_ALLOWED: .*used already/);
      }
      assert.equal(mutationsSent(), before + 1);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
