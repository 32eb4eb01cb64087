// The team deployment acts as each person across replicas: three replicas of the built server behind HAProxy
// (round robin) sharing Redis, OAuth against a real authorization server (oidc-provider, test/fixtures/oidc.ts),
// and an API whose auth.tokenExchange gets each user's own token. Each replica exchanges on its own (tokens are
// never shared through the store); a mutation confirmed through the proxy runs once, as the user who confirmed it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LegacyClient } from '../fixtures/legacy-client.ts';
import { startOidc, startProtectedApi, type ProtectedApi, type TestOidc } from '../fixtures/oidc.ts';
import { CLUSTER_MISSING, startCluster, type Cluster } from './harness.ts';

const SECRET = 'CRM_CLIENT_SECRET';

describe('three replicas act as each person', { skip: CLUSTER_MISSING }, () => {
  let oidc: TestOidc;
  let api: ProtectedApi;
  let cluster: Cluster;
  let dir: string;

  before(async () => {
    oidc = await startOidc();
    api = await startProtectedApi(oidc);
    dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-cluster-act-'));
    const config = join(dir, 'graphql-mcp.json');
    writeFileSync(
      config,
      JSON.stringify({
        apis: {
          crm: {
            endpoint: api.url,
            auth: {
              tokenExchange: {
                issuer: oidc.issuer,
                clientId: oidc.basicClient.clientId,
                clientSecret: `\${env:${SECRET}}`,
                audience: oidc.apiAudiences[0],
              },
            },
          },
        },
      }),
    );
    cluster = await startCluster({
      args: ({ redisUrl, stateKey }) => [
        `--config=${config}`,
        `--store=${redisUrl}`,
        `--stateKey=${stateKey}`,
        `--oauthIssuer=${oidc.issuer}`,
        `--oauthAudience=${oidc.mcpAudience}`,
        '--confirmTimeout=20',
      ],
      env: () => ({ [SECRET]: oidc.basicClient.clientSecret }),
    });
  });
  after(async () => {
    await cluster?.stop();
    await api?.close();
    await oidc?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test("each replica exchanges a user's token on its own, and every call reaches the API as that user", async () => {
    const token = await oidc.userToken('dana');
    const client = await cluster.connect({ authorization: `Bearer ${token}` });
    try {
      const mark = cluster.mark();
      const before = api.requests.length;
      for (let i = 0; i < 6; i++) {
        const result = await client.call('graphql_query', { query: '{ me { sub } }' });
        assert.deepEqual(result.structuredContent, { data: { me: { sub: 'dana' } } });
      }
      assert.ok(api.requests.slice(before).every((request) => request.claims?.sub === 'dana'));
      const served = await cluster.waitForServed(6, mark, ({ entry }) => entry.rpc === 'tools/call');
      const replicas = new Set(served.map(({ replica }) => replica));
      assert.equal(replicas.size, 3, 'round robin spread the calls over the three replicas');
      // One exchange per replica that served dana: the token is kept in each replica's memory, never shared.
      assert.equal(oidc.exchanged.filter((exchange) => exchange.sub === 'dana').length, replicas.size);
    } finally {
      await client.close();
    }
  });

  test('a mutation confirmed through the proxy runs once, as the user who confirmed it', async () => {
    const token = await oidc.userToken('eve');
    const bearer = { authorization: `Bearer ${token}` };
    const client = await LegacyClient.connect(cluster.url, { headers: bearer });
    const before = api.requests.length;
    const call = client.call('graphql_query', {
      query: 'mutation { addNote(text: "from the cluster") }',
      allowMutations: true,
    });
    const question = (await call.question)!;
    assert.match(question.message, /^As: eve at crm$/m);
    assert.equal((await client.answer(question.id, 'accept')).status, 202);
    const response = await call.response;
    assert.deepEqual((response.result as { structuredContent?: unknown }).structuredContent, {
      data: { addNote: 'eve: from the cluster' },
    });
    assert.equal((await client.answer(question.id, 'accept')).status, 409);
    const mutations = api.requests.slice(before);
    assert.equal(mutations.length, 1, 'the API got the mutation once');
    assert.equal(mutations[0]!.claims?.sub, 'eve');
  });
});
