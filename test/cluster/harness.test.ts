import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import type { HttpMcpClient } from '../fixtures/http-mcp.ts';
import { CLUSTER_MISSING, startCluster, type Cluster, type Served } from './harness.ts';

// The harness itself, on what remote mode does today: three replicas behind HAProxy answer graphql_query calls
// through the proxy, round robin, and a replica killed leaves the others serving.

const toolCalls = ({ entry }: Served) => entry.rpc === 'tools/call';

describe('a cluster of three replicas behind HAProxy', { skip: CLUSTER_MISSING }, () => {
  let api: RunningGraphQLServer;
  let cluster: Cluster;
  let client: HttpMcpClient | undefined;

  before(async () => {
    const library = createLibraryApi();
    api = await serveGraphQL(library.schema, library.rootValue);
    cluster = await startCluster({
      args: ({ stateKey }) => [`--endpoint=${api.url}`, `--stateKey=${stateKey}`],
    });
    client = await cluster.connect();
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    await cluster?.stop();
    await api?.close();
  });

  test('graphql_query calls through the proxy are answered, and land on every replica', async () => {
    const since = cluster.mark();
    for (let i = 0; i < 9; i++) {
      const result = await client!.call('graphql_query', { query: '{ books(first: 1) { title } }' });
      assert.notEqual(result.isError, true, JSON.stringify(result));
      assert.deepEqual(result.structuredContent, { data: { books: [{ title: 'SPQR' }] } });
    }
    const calls = await cluster.waitForServed(9, since, toolCalls);
    assert.equal(calls.length, 9);
    assert.deepEqual(new Set(calls.map(({ replica }) => replica)), new Set([0, 1, 2]));
    assert.equal(api.requests.length >= 9, true);
  });

  test('a killed replica leaves the rotation, and the others answer every call', async () => {
    await cluster.kill(1);
    const since = cluster.mark();
    for (let i = 0; i < 6; i++) {
      const result = await client!.call('graphql_query', { query: '{ authors { name } }' });
      assert.notEqual(result.isError, true, JSON.stringify(result));
    }
    const replicas = (await cluster.waitForServed(6, since, toolCalls)).map(({ replica }) => replica);
    assert.equal(replicas.length, 6);
    assert.deepEqual(new Set(replicas), new Set([0, 2]));
  });

  test('a restarted replica takes its turns again', async () => {
    await cluster.restart(1);
    const since = cluster.mark();
    for (let i = 0; i < 6; i++) await client!.call('graphql_query', { query: '{ authors { name } }' });
    const replicas = (await cluster.waitForServed(6, since, toolCalls)).map(({ replica }) => replica);
    assert.ok(replicas.includes(1), `replica 1 served none of ${JSON.stringify(replicas)}`);
  });

  test('Redis runs beside the replicas, and stops and starts on demand', async () => {
    assert.match(cluster.redis.url, /^redis:\/\/127\.0\.0\.1:\d+\/0$/);
    await cluster.redis.stop();
    assert.equal(cluster.redis.running(), false);
    await cluster.redis.start();
    assert.equal(cluster.redis.running(), true);
  });
});
