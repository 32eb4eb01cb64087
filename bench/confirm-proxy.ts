// How long a 2025-era confirmation takes through the proxies of docs/remote.md: the team deployment of the cluster
// tests (three replicas of the built server sharing Redis, HAProxy as documented in front), the same HAProxy with
// `option http-no-delay` taken out, nginx as documented (when installed), and one replica called directly. A
// confirmation is one tools/call of a mutation by the official SDK v1 client, which declared elicitation: the
// question comes on the stream of the call, the client accepts at once (a POST that any replica may take), the
// mutation runs and the result comes on the stream. A query's call is timed beside it for reference. The subjects
// take turns within every round. Run: npm run bench:confirm-proxy [-- --rounds 40]
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveGraphQL } from '../demo/graphql-server.ts';
import { createLibraryApi } from '../demo/library-api.ts';
import { startProxy, type Proxy } from '../test/cluster/haproxy.ts';
import { CLUSTER_MISSING, startCluster } from '../test/cluster/harness.ts';
import { NGINX_MISSING, startNginx, type Nginx } from '../test/cluster/nginx.ts';
import { renderText } from './report.ts';
import { median, ms, quantile, rotate } from './stats.ts';

const ADD = 'mutation Add($id: ID!) { addReview(bookId: $id, rating: 4) { rating } }';
const QUERY = '{ books(first: 1) { title } }';
/** The figure docs/remote.md promises for a confirmation through the documented HAProxy. */
const TARGET_MS = 50;

interface Subject {
  readonly name: string;
  readonly url: string;
  client?: Client;
  readonly confirmations: number[];
  readonly queries: number[];
}

/** The SDK v1 client, as a 2025-era host runs it: it declared elicitation and its person accepts at once. */
async function connect(url: string): Promise<Client> {
  const client = new Client(
    { name: 'bench-confirm', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept' as const }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** One call, timed; throws unless the tool answered without an error. */
async function timed(client: Client, args: Record<string, unknown>): Promise<number> {
  const started = performance.now();
  const result = (await client.callTool({ name: 'graphql_query', arguments: args })) as {
    isError?: boolean;
    content?: Array<{ text?: string }>;
  };
  const elapsed = performance.now() - started;
  if (result.isError === true) throw new Error(`the call failed: ${result.content?.[0]?.text ?? ''}`);
  return elapsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
  const rounds = Number(values.rounds);
  if (CLUSTER_MISSING !== undefined) throw new Error(CLUSTER_MISSING);
  const library = createLibraryApi();
  const api = await serveGraphQL(library.schema, library.rootValue);
  const cluster = await startCluster({
    args: ({ redisUrl, stateKey }) => [
      `--endpoint=${api.url}`,
      `--store=${redisUrl}`,
      `--stateKey=${stateKey}`,
    ],
  });
  const backends = cluster.replicas.map((replica) => replica.port);
  let withDelay: Proxy | undefined;
  let nginx: Nginx | undefined;
  const subjects: Subject[] = [];
  try {
    withDelay = await startProxy({
      backends,
      edit: (config) => {
        const without = config.replace(/^\s*option http-no-delay\b.*\n/m, '');
        if (without === config) throw new Error("docs/remote.md's HAProxy block has no option http-no-delay");
        return without;
      },
    });
    if (NGINX_MISSING === undefined) nginx = await startNginx(backends);
    const add = (name: string, url: string) => subjects.push({ name, url, confirmations: [], queries: [] });
    add('one replica, directly', cluster.replicas[0]!.process().url);
    add('HAProxy as documented (option http-no-delay)', cluster.url);
    add('HAProxy without option http-no-delay', `${withDelay.origin}/mcp`);
    if (nginx !== undefined) add('nginx as documented', `${nginx.origin}/mcp`);
    for (const subject of subjects) subject.client = await connect(subject.url);

    const mutation = { query: ADD, variables: { id: 'b2' }, allowMutations: true };
    for (let round = -3; round < rounds; round++) {
      for (const subject of rotate(subjects, round + 3)) {
        const confirmation = await timed(subject.client!, mutation);
        const query = await timed(subject.client!, { query: QUERY });
        // The first rounds warm the replicas, the proxies' connections and the client up: not counted.
        if (round < 0) continue;
        subject.confirmations.push(confirmation);
        subject.queries.push(query);
      }
    }
  } finally {
    await Promise.allSettled(subjects.map((subject) => subject.client?.close()));
    await nginx?.stop();
    await withDelay?.stop();
    await cluster.stop();
    await api.close();
  }

  console.log(
    `A 2025-era confirmation (the SDK v1 client accepts at once) and a query, through each proxy in front of three`,
  );
  console.log(`replicas sharing Redis; ${rounds} rounds, the subjects in turn; Node ${process.version}.\n`);
  console.log(
    renderText({
      header: ['subject', 'confirmation p50', 'p90', 'max', 'query p50'],
      rows: subjects.map((subject) => [
        subject.name,
        ms(median(subject.confirmations)),
        ms(quantile(subject.confirmations, 0.9)),
        ms(Math.max(...subject.confirmations)),
        ms(median(subject.queries)),
      ]),
    }),
  );
  const documented = median(subjects[1]!.confirmations);
  const without = median(subjects[2]!.confirmations);
  console.log(
    `\n${documented < TARGET_MS ? 'met' : 'NOT MET'}  a confirmation through HAProxy as documented: ${ms(documented)} (target < ${TARGET_MS} ms); without option http-no-delay ${ms(without)}`,
  );
}

await main();
