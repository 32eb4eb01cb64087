// The proxy configurations of docs/remote.md work as written: each is checked by the proxy itself (haproxy -c,
// nginx -t) with only its addresses replaced, says what a stream that waits for a person needs, and is run in
// front of three replicas sharing Redis, where a 2025-era client is asked through it, sees the keep-alive comments
// of the wait as they are written, answers, and the mutation runs once. (Every other cluster test runs behind the
// documented HAProxy too: test/cluster/haproxy.ts.) How fast a confirmation is through each is a figure of
// bench/confirm-proxy.ts, not asserted here.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { OPTIONS } from '../../src/config/options.ts';
import { LegacyClient } from '../fixtures/legacy-client.ts';
import { documentedBlock } from './documented.ts';
import { checkHaproxy, HAPROXY_MISSING, haproxyConfig } from './haproxy.ts';
import { CLUSTER_MISSING, startCluster, type Cluster } from './harness.ts';
import { checkNginx, NGINX_MISSING, nginxBlock, startNginx, type Nginx } from './nginx.ts';
import { eventually } from './processes.ts';
import { mutationsReceived } from '../fixtures/mutations.ts';

const ADD = 'mutation Add($id: ID!) { addReview(bookId: $id, rating: 2) { rating } }';
const add = { query: ADD, variables: { id: 'b3' }, allowMutations: true };
const KEEP_ALIVE_S = Number(OPTIONS.keepAlive.default);
/** Seconds in an HAProxy or nginx time (`60s`, `2m`, `500ms`, or a bare number: seconds for nginx). */
const seconds = (time: string) => {
  const [, value, unit] = /^(\d+)(ms|s|m|h)?$/.exec(time) ?? [];
  return Number(value) * { ms: 0.001, s: 1, m: 60, h: 3_600 }[unit ?? 's']!;
};

describe("docs/remote.md's HAProxy configuration", { skip: HAPROXY_MISSING }, () => {
  const config = () => haproxyConfig({ port: 8080, socket: '/tmp/admin.sock', backends: [3001, 3002, 3003] });

  test('is a complete configuration that haproxy -c accepts without a warning, only its addresses replaced', () => {
    const { valid, output } = checkHaproxy(config());
    assert.ok(valid, output);
    assert.doesNotMatch(output, /WARNING|ALERT/, output);
  });

  test('MUST pass each event of a stream on at once (option http-no-delay) and let it idle longer than --keepAlive', () => {
    assert.match(documentedBlock('haproxy'), /^\s*option http-no-delay\b/m);
    for (const side of ['client', 'server']) {
      const [, time] = new RegExp(`^\\s*timeout ${side}\\s+(\\S+)`, 'm').exec(config()) ?? [];
      assert.ok(time !== undefined, `no timeout ${side}`);
      assert.ok(seconds(time) > KEEP_ALIVE_S, `timeout ${side} ${time} is not above --keepAlive`);
    }
  });
});

describe("docs/remote.md's nginx configuration", { skip: NGINX_MISSING }, () => {
  const block = () => nginxBlock({ port: 8080, backends: [3001, 3002, 3003] });

  test('is a complete server that nginx -t accepts, only its addresses replaced', () => {
    const { valid, output } = checkNginx(block());
    assert.ok(valid, output);
    assert.doesNotMatch(output, /\[(warn|emerg|alert|crit)\]/, output);
  });

  test('MUST NOT buffer a stream, and MUST let it idle longer than --keepAlive', () => {
    const mcp = /location = \/mcp \{([^}]*)\}/.exec(block())?.[1] ?? '';
    assert.match(mcp, /^\s*proxy_buffering off;/m);
    assert.match(mcp, /^\s*proxy_http_version 1\.1;/m);
    for (const directive of ['proxy_read_timeout', 'proxy_send_timeout']) {
      const [, time] = new RegExp(`^\\s*${directive}\\s+([^;\\s]+);`, 'm').exec(mcp) ?? [];
      assert.ok(time !== undefined, `no ${directive}`);
      assert.ok(seconds(time) > KEEP_ALIVE_S, `${directive} ${time} is not above --keepAlive`);
    }
  });
});

describe('a person asked through each documented proxy', { skip: CLUSTER_MISSING }, () => {
  let api: RunningGraphQLServer;
  let cluster: Cluster;
  let nginx: Nginx | undefined;
  const mutationsSent = () => mutationsReceived(api);

  before(async () => {
    const library = createLibraryApi();
    api = await serveGraphQL(library.schema, library.rootValue);
    cluster = await startCluster({
      args: ({ redisUrl, stateKey }) => [
        `--endpoint=${api.url}`,
        `--store=${redisUrl}`,
        `--stateKey=${stateKey}`,
        '--keepAlive=1',
        '--confirmTimeout=60',
      ],
    });
    if (NGINX_MISSING === undefined) {
      nginx = await startNginx(cluster.replicas.map((replica) => replica.port));
    }
  });
  after(async () => {
    await nginx?.stop();
    await cluster?.stop();
    await api?.close();
  });

  const proxies = [
    { name: 'HAProxy', skip: undefined, url: () => cluster.url },
    { name: 'nginx', skip: NGINX_MISSING, url: () => `${nginx!.origin}/mcp` },
  ];
  for (const proxy of proxies) {
    test(
      `MUST pass a question, the keep-alive comments of its wait and the result through ${proxy.name} as they are written`,
      { skip: proxy.skip },
      async () => {
        const before = mutationsSent();
        const client = await LegacyClient.connect(proxy.url());
        const call = client.call('graphql_query', add);
        const question = await call.question;
        assert.ok(question !== undefined, 'the question came through');
        // Comments come every second while the question waits: a proxy that held the stream back would pass none.
        await eventually('two keep-alive comments through the proxy', () => call.comments() >= 2);
        assert.equal((await client.answer(question.id, 'accept')).status, 202);
        const response = (await call.response) as { result?: { isError?: boolean } };
        assert.notEqual(response.result?.isError, true, JSON.stringify(response));
        assert.equal(mutationsSent(), before + 1);
      },
    );

    test(
      `a 2025-era SDK client asked through ${proxy.name} accepts, and the mutation runs once`,
      { skip: proxy.skip },
      async () => {
        const before = mutationsSent();
        const questions: string[] = [];
        const client = new ClientV1(
          { name: 'proxies-2025', version: '1.0.0' },
          { capabilities: { elicitation: {} } },
        );
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          questions.push(request.params.message);
          return { action: 'accept' as const };
        });
        await client.connect(new HttpTransportV1(new URL(proxy.url())));
        try {
          const result = (await client.callTool({ name: 'graphql_query', arguments: add })) as {
            isError?: boolean;
            content: Array<{ text?: string }>;
          };
          assert.notEqual(result.isError, true, result.content[0]?.text);
          assert.equal(questions.length, 1);
          assert.match(questions[0]!, /addReview/);
          assert.equal(mutationsSent(), before + 1);
        } finally {
          await client.close();
        }
      },
    );
  }
});
