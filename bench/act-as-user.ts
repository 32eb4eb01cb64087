// npm run bench:act-as-user: what acting as each person costs a call once the user's token is exchanged. Two
// remote-mode servers of the same build, both behind OAuth with a real authorization server (oidc-provider, the
// test fixture): one whose API has auth.tokenExchange (the exchanged token cached after the first call), one
// whose API gets a static Authorization header (a token for the same API, configured). The same user calls both
// over Streamable HTTP, 32 calls in flight, in alternating rounds; the figure is the CPU time each server process
// spent per call, and the median of each round's ratio. `--node=PATH` runs the servers on another Node.js.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startHttpMcp, type HttpMcpClient, type HttpMcpProcess } from '../test/fixtures/http-mcp.ts';
import { startOidc, startProtectedApi } from '../test/fixtures/oidc.ts';
import { cpuMsOf } from './processes.ts';
import { median, rotate, timeBurst } from './stats.ts';

const { values } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    rounds: { type: 'string', default: '8' },
    calls: { type: 'string', default: '1500' },
  },
});
const ROUNDS = Number(values.rounds);
const CALLS = Number(values.calls);
const IN_FLIGHT = 32;
const QUERY = '{ me { sub actor } }';
const SECRET = 'CRM_CLIENT_SECRET';

const progress = (text: string) => process.stderr.write(`bench:act-as-user: ${text}\n`);

interface Subject {
  readonly name: string;
  readonly server: HttpMcpProcess;
  readonly client: HttpMcpClient;
  readonly cpuPerCallUs: number[];
}

async function main(): Promise<void> {
  const oidc = await startOidc();
  const api = await startProtectedApi(oidc);
  const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-bench-act-'));
  // A token the API accepts, obtained once by an exchange, configured as a static header for the second server.
  const { TokenExchange } = await import('../src/credentials/credentials.ts');
  const audience = oidc.apiAudiences[0]!;
  const auth = {
    source: 'bench',
    tokenEndpoint: new URL(oidc.tokenEndpoint),
    issuer: undefined,
    clientId: oidc.basicClient.clientId,
    clientSecret: oidc.basicClient.clientSecret,
    audience,
    resource: undefined,
    scope: [],
    header: 'Authorization',
    clientAuth: 'client_secret_basic' as const,
    timeout: 5_000,
    kind: 'tokenExchange' as const,
    grant: 'token-exchange' as const,
  };
  const userToken = await oidc.userToken('alice', { expiresIn: 3600 });
  const staticHeader = await new TokenExchange('crm', auth).header({
    token: userToken,
    expiresAt: undefined,
    key: 'bench',
  });
  oidc.ttl = 3600;
  const config = (name: string, crm: Record<string, unknown>) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ apis: { crm: { endpoint: api.url, ...crm } } }));
    return file;
  };
  const exchanging = config('exchange', {
    auth: {
      tokenExchange: {
        tokenEndpoint: oidc.tokenEndpoint,
        clientId: oidc.basicClient.clientId,
        clientSecret: `\${env:${SECRET}}`,
        audience,
      },
    },
  });
  const fixed = config('static', { headers: { Authorization: staticHeader.value } });
  const oauth = [`--oauthIssuer=${oidc.issuer}`, `--oauthAudience=${oidc.mcpAudience}`, '--maxInFlight=256'];
  const env = { [SECRET]: oidc.basicClient.clientSecret };
  const subjects: Subject[] = [];
  try {
    for (const [name, file] of [
      ['exchanged token', exchanging],
      ['static header', fixed],
    ] as const) {
      const server = await startHttpMcp([`--config=${file}`, ...oauth], env, values.node);
      const client = await server.connect({ authorization: `Bearer ${userToken}` });
      subjects.push({ name, server, client, cpuPerCallUs: [] });
    }
    const call = (subject: Subject) => async () => {
      const result = await subject.client.call('graphql_query', { query: QUERY });
      if (result.isError === true) throw new Error(JSON.stringify(result).slice(0, 300));
    };
    for (const subject of subjects) {
      progress(`warming up: ${subject.name}`);
      await timeBurst(call(subject), CALLS, IN_FLIGHT);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const subject of rotate(subjects, round)) {
        const before = cpuMsOf(subject.server.pid);
        await timeBurst(call(subject), CALLS, IN_FLIGHT);
        subject.cpuPerCallUs.push(((cpuMsOf(subject.server.pid) - before) * 1000) / CALLS);
        api.requests.length = 0;
      }
      progress(`round ${round + 1} of ${ROUNDS}`);
    }
  } finally {
    for (const subject of subjects) {
      await subject.client.close();
      await subject.server.stop();
    }
    await api.close();
    await oidc.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const [exchanged, fixedHeader] = subjects as [Subject, Subject];
  const ratios = exchanged.cpuPerCallUs.map((value, round) => value / fixedHeader.cpuPerCallUs[round]!);
  const cpu = (subject: Subject) => median(subject.cpuPerCallUs).toFixed(0);
  process.stdout.write(
    [
      `remote mode with OAuth, ${ROUNDS} rounds of ${CALLS} calls at ${IN_FLIGHT} in flight`,
      `CPU per call, median round: exchanged token (cached) ${cpu(exchanged)} µs, static header ${cpu(fixedHeader)} µs`,
      `median of the rounds' exchanged ÷ static: ${median(ratios).toFixed(2)}×`,
      `exchanges made: ${oidc.exchanged.length} (one for the static header, one per replica for the calls)`,
    ].join('\n') + '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:act-as-user: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
