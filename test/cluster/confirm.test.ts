// The team deployment asks the person, exactly once, across replicas: three replicas of the built server behind
// HAProxy (round robin, no stickiness) sharing one Redis (--store) and one --stateKey. A 2025-era client asked on
// the stream of its call answers through the proxy, so its answer usually lands on another replica; a 2026 answer
// is replayed to every replica; Redis is stopped; the replica holding a call is killed. The API's own log proves
// what was sent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { rawRequest } from '../fixtures/http-mcp.ts';
import { LegacyClient } from '../fixtures/legacy-client.ts';
import { modernClient } from '../fixtures/modern-client.ts';
import { CLUSTER_MISSING, startCluster, type Cluster } from './harness.ts';
import { mutationsReceived } from '../fixtures/mutations.ts';

const ADD = 'mutation Add($id: ID!) { addReview(bookId: $id, rating: 3) { rating } }';
const add = { query: ADD, variables: { id: 'b2' }, allowMutations: true };
const text = (response: Record<string, unknown>) =>
  ((response.result as { content?: Array<{ text?: string }> } | undefined)?.content ?? [])
    .map((item) => item.text)
    .join('\n');

describe('mutations confirmed across three replicas sharing Redis', { skip: CLUSTER_MISSING }, () => {
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
        '--confirmTimeout=20',
      ],
    });
  });
  after(async () => {
    await cluster?.stop();
    await api?.close();
  });

  test('every accepted mutation runs exactly once and every declined one sends nothing, whichever replica takes the answer', async () => {
    const since = cluster.mark();
    const before = mutationsSent();
    const actions = ['accept', 'decline', 'accept', 'cancel', 'accept', 'decline'] as const;
    // Where each call was served, and where its answer was taken: the replicas' logs, read call by call.
    const places: Array<{ call: number; answer: number }> = [];
    for (const action of actions) {
      const mark = cluster.mark();
      const client = await LegacyClient.connect(cluster.url);
      const call = client.call('graphql_query', add);
      const question = (await call.question)!;
      assert.ok(question !== undefined, 'asked');
      const answered = await client.answer(question.id, action);
      assert.equal(answered.status, 202, answered.body);
      const response = await call.response;
      if (action === 'accept') assert.doesNotMatch(text(response), /^[A-Z_]+: /, text(response));
      else assert.match(text(response), /^MUTATION_DECLINED: /);
      // A second answer, through the proxy to whichever replica, changes nothing.
      assert.equal((await client.answer(question.id, 'accept')).status, 409);
      const ours = await cluster.waitForServed(
        3,
        mark,
        ({ entry }) => entry.rpc === 'tools/call' || entry.rpc === 'answer',
      );
      const served = (rpc: string, status: number) =>
        ours.find(({ entry }) => entry.rpc === rpc && entry.status === status)!.replica;
      places.push({ call: served('tools/call', 200), answer: served('answer', 202) });
    }
    assert.equal(mutationsSent(), before + 3);
    assert.equal(
      cluster.served(since).filter(({ entry }) => entry.rpc === 'tools/call').length,
      actions.length,
    );
    // Round robin puts an answer elsewhere than its call more often than not: at least one must have been.
    assert.ok(
      places.some(({ call, answer }) => call !== answer),
      `answers taken at other replicas than their calls: ${JSON.stringify(places)}`,
    );
  });

  test('MUST run a 2026 answer once when it is replayed to every replica at once', async () => {
    const urls = cluster.replicas.map((replica) => replica.process().url);
    const clients = await Promise.all(urls.map((url) => modernClient({ url })));
    try {
      const before = mutationsSent();
      const state = await clients[0]!.ask(add);
      const results = await Promise.all(clients.map((client) => client.answer(add, state)));
      const ran = results.filter((result) => result.isError !== true);
      assert.equal(ran.length, 1, JSON.stringify(results.map((result) => result.content?.[0]?.text)));
      for (const refused of results.filter((result) => result.isError === true)) {
        assert.match(refused.content?.[0]?.text ?? '', /^MUTATION_NOT_ALLOWED: .*used already/);
      }
      assert.equal(mutationsSent(), before + 1);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  test('MUST refuse a mutation while the store is down (nothing sent), answer queries, and say so at /health', async () => {
    await cluster.redis.stop();
    try {
      const before = mutationsSent();
      const client = await LegacyClient.connect(cluster.url);
      const refused = await client.call('graphql_query', add).response;
      assert.match(text(refused), /^CONFIRMATION_UNAVAILABLE: /);
      assert.equal(mutationsSent(), before);
      const query = await client.call('graphql_query', { query: '{ books(first: 1) { title } }' }).response;
      assert.doesNotMatch(text(query), /^[A-Z_]+: /, text(query));
      const health = await rawRequest(`${new URL(cluster.url).origin}/health`);
      assert.equal(health.status, 200);
      assert.equal((JSON.parse(health.body) as { store: { state: string } }).store.state, 'unreachable');
    } finally {
      await cluster.redis.start();
    }
  });

  test('MUST NOT send a mutation whose replica died while it waited; the late answer gets a clear error at another replica', async () => {
    // Back in service after Redis came back: the replicas' subscriptions resume.
    await cluster.waitForStore();
    const before = mutationsSent();
    const holder = cluster.replicas[2]!;
    const client = await LegacyClient.connect(holder.process().url);
    const call = client.call('graphql_query', add);
    const outcome = call.response.then(
      () => 'answered',
      () => 'cut',
    );
    const question = (await call.question)!;
    await cluster.kill(2);
    assert.equal(await outcome, 'cut');
    const late = await client.answer(question.id, 'accept', { url: cluster.url });
    assert.equal(late.status, 410, late.body);
    assert.match(late.body, /has stopped; its call sent nothing/);
    assert.equal(mutationsSent(), before);
    await cluster.restart(2);
  });
});
