// The team deployment acts as each person: remote mode with OAuth, an API whose `auth.tokenExchange` trades each
// caller's verified access token at a real authorization server (oidc-provider, test/fixtures/oidc.ts) for one
// with the API's audience; the API verifies every bearer against the provider's keys and records who it saw.
// And an API of the server's own identity (`auth.clientCredentials`), on stdio.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startHttpMcp, type HttpMcpProcess } from '../fixtures/http-mcp.ts';
import { LegacyClient } from '../fixtures/legacy-client.ts';
import { CLI } from '../fixtures/mcp.ts';
import { startOidc, startProtectedApi, type ProtectedApi, type TestOidc } from '../fixtures/oidc.ts';
import { startOtlpReceiver, type OtlpReceiver } from '../fixtures/otlp-receiver.ts';

const ME = '{ me { sub actor } }';
const CRM_SECRET = 'CRM_CLIENT_SECRET';

type ToolResult = {
  isError?: boolean;
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: unknown;
};
const textOf = (result: ToolResult) => (result.content ?? []).map((item) => item.text ?? '').join('\n');

/** A config file naming one API, `crm`, with this auth. */
function configFile(dir: string, url: string, auth: Record<string, unknown>): string {
  const file = join(dir, 'graphql-mcp.json');
  writeFileSync(file, JSON.stringify({ apis: { crm: { endpoint: url, auth } } }));
  return file;
}

/** The exchange of crm at this provider, its secret from the environment, with a short deadline. */
const tokenExchange = (oidc: TestOidc) => ({
  tokenExchange: {
    issuer: oidc.issuer,
    clientId: oidc.basicClient.clientId,
    clientSecret: `\${env:${CRM_SECRET}}`,
    audience: oidc.apiAudiences[0],
    timeout: 1000,
  },
});

/** A connected client of remote mode, as `user`, with a fresh access token from the provider. */
async function userClient(remote: HttpMcpProcess, oidc: TestOidc, user: string) {
  const token = await oidc.userToken(user);
  return { token, client: await remote.connect({ authorization: `Bearer ${token}` }) };
}

describe('remote mode acts as each person through a token exchange', () => {
  let oidc: TestOidc;
  let api: ProtectedApi;
  let remote: HttpMcpProcess;
  let receiver: OtlpReceiver;
  let dir: string | undefined;
  before(async () => {
    oidc = await startOidc();
    api = await startProtectedApi(oidc);
    receiver = await startOtlpReceiver();
    dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-act-'));
    remote = await startHttpMcp(
      [
        `--config=${configFile(dir, api.url, tokenExchange(oidc))}`,
        `--oauthIssuer=${oidc.issuer}`,
        `--oauthAudience=${oidc.mcpAudience}`,
      ],
      {
        [CRM_SECRET]: oidc.basicClient.clientSecret,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    );
  });
  after(async () => {
    await remote?.stop();
    await api?.close();
    await oidc?.close();
    await receiver?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test("alice's calls reach the API as alice with the API's audience, bob's as bob, each acted for by this server", async () => {
    for (const user of ['alice', 'bob']) {
      const { client } = await userClient(remote, oidc, user);
      try {
        const before = api.requests.length;
        const result = await client.call('graphql_query', { query: ME });
        assert.notEqual(result.isError, true, textOf(result));
        assert.deepEqual(result.structuredContent, {
          data: { me: { sub: user, actor: oidc.basicClient.clientId } },
        });
        const seen = api.requests.slice(before);
        assert.equal(seen.length, 1);
        assert.deepEqual(seen[0]!.claims, {
          sub: user,
          aud: oidc.apiAudiences[0],
          act: { sub: oidc.basicClient.clientId },
        });
      } finally {
        await client.close();
      }
    }
  });

  test('MUST NOT pass the MCP access token through to the API', async () => {
    const { token, client } = await userClient(remote, oidc, 'erin');
    try {
      const before = api.requests.length;
      await client.call('graphql_query', { query: ME });
      const received = api.requests.slice(before).map((request) => request.authorization ?? '');
      assert.equal(received.length, 1);
      assert.ok(received.every((authorization) => !authorization.includes(token)));
    } finally {
      await client.close();
    }
  });

  test('five calls of one user at once make one exchange', async () => {
    const { client } = await userClient(remote, oidc, 'carol');
    try {
      const before = oidc.exchanged.filter((exchange) => exchange.sub === 'carol').length;
      const results = await Promise.all(
        Array.from({ length: 5 }, () => client.call('graphql_query', { query: ME })),
      );
      assert.ok(results.every((result) => result.isError !== true));
      assert.equal(oidc.exchanged.filter((exchange) => exchange.sub === 'carol').length - before, 1);
    } finally {
      await client.close();
    }
  });

  test('MUST NOT show an exchanged token in an answer, a log line or an exported span, even when the API echoes it', async () => {
    const { client } = await userClient(remote, oidc, 'frank');
    try {
      const before = api.requests.length;
      const result = await client.call('graphql_query', { query: '{ echo }' });
      const exchanged = api.requests[before]!.authorization!.replace(/^Bearer /, '');
      assert.ok(exchanged.length > 20, 'the API got a token');
      assert.match(textOf(result), /\[redacted\]/);
      assert.ok(!textOf(result).includes(exchanged.slice(0, 24)));
      assert.ok(!JSON.stringify(result.structuredContent).includes(exchanged.slice(0, 24)));
      for (let waited = 0; waited < 5_000 && receiver.spans.length === 0; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(receiver.exports.length > 0, 'spans were exported');
      const exported = Buffer.concat(receiver.exports.map((each) => each.body)).toString('latin1');
      const logged = remote.stderr();
      for (const place of [exported, logged]) assert.ok(!place.includes(exchanged.slice(0, 24)));
      assert.ok(!logged.includes(oidc.basicClient.clientSecret));
    } finally {
      await client.close();
    }
  });

  test('MUST NOT let a call replace the header the exchange sets: INVALID_INPUT naming it, nothing sent', async () => {
    const { client } = await userClient(remote, oidc, 'alice');
    try {
      const before = api.requests.length;
      const result = await client.call('graphql_query', {
        query: ME,
        headers: { Authorization: 'Bearer chosen-by-the-model' },
      });
      assert.match(
        textOf(result),
        /^INVALID_INPUT: headers: Authorization is what the API crm is sent by its auth/,
      );
      assert.equal(api.requests.length, before);
    } finally {
      await client.close();
    }
  });

  for (const error of ['invalid_target', 'access_denied'] as const) {
    test(`a refused exchange (${error}) sends nothing and says why, naming the API and the provider's error`, async () => {
      const { client } = await userClient(remote, oidc, `refused-${error}`);
      oidc.refuse = { error };
      try {
        const before = api.requests.length;
        const result = await client.call('graphql_query', { query: ME });
        assert.equal(result.isError, true);
        assert.match(textOf(result), /^CREDENTIALS_UNAVAILABLE: /);
        assert.match(textOf(result), /crm/);
        assert.match(textOf(result), new RegExp(error));
        assert.equal(api.requests.length, before, 'nothing reached the API');
      } finally {
        oidc.refuse = undefined;
        await client.close();
      }
    });
  }

  test('a provider that hangs ends the call within its deadline, with nothing sent', async () => {
    const { client } = await userClient(remote, oidc, 'hank');
    oidc.hang = true;
    try {
      const before = api.requests.length;
      const result = await client.call('graphql_query', { query: ME });
      assert.match(textOf(result), /^CREDENTIALS_UNAVAILABLE: /);
      assert.equal(api.requests.length, before);
    } finally {
      oidc.hang = false;
      await client.close();
    }
  });

  test('the person asked about a mutation sees whose name it runs in, and it runs as them once accepted', async () => {
    const token = await oidc.userToken('alice');
    const legacy = await LegacyClient.connect(remote.url, { headers: { authorization: `Bearer ${token}` } });
    const before = api.requests.length;
    const call = legacy.call('graphql_query', {
      query: 'mutation { addNote(text: "hello") }',
      allowMutations: true,
    });
    const question = await call.question;
    assert.ok(question !== undefined, 'asked');
    assert.match(question.message, /^As: alice at crm$/m);
    assert.equal(api.requests.length, before, 'nothing sent while the person thinks');
    assert.equal((await legacy.answer(question.id, 'accept')).status, 202);
    const response = await call.response;
    assert.deepEqual((response.result as ToolResult).structuredContent, {
      data: { addNote: 'alice: hello' },
    });
    assert.equal(api.requests.at(-1)?.claims?.sub, 'alice');
    // The audit line of the mutation decided: who, at which API.
    const accepted = () =>
      remote
        .stderr()
        .split('\n')
        .filter((line) => line.includes('"audit":"mutation"'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.decision === 'accepted');
    for (let waited = 0; waited < 3_000 && accepted() === undefined; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const audit = accepted();
    assert.equal(audit?.api, 'crm');
    assert.equal(audit?.user, 'alice');
  });
});

describe('a provider that is down', () => {
  test('the call ends with CREDENTIALS_UNAVAILABLE and nothing reaches the API', async () => {
    // Whatever fails to start, what did start is stopped: an open server would keep the test process alive.
    const oidc = await startOidc();
    const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-act-down-'));
    let api: ProtectedApi | undefined;
    let remote: HttpMcpProcess | undefined;
    try {
      api = await startProtectedApi(oidc);
      remote = await startHttpMcp(
        [
          `--config=${configFile(dir, api.url, tokenExchange(oidc))}`,
          `--oauthIssuer=${oidc.issuer}`,
          `--oauthAudience=${oidc.mcpAudience}`,
        ],
        { [CRM_SECRET]: oidc.basicClient.clientSecret },
      );
      const { client } = await userClient(remote, oidc, 'alice');
      // The user's token verified once (the keys kept), then the provider goes away.
      await client.client.listTools();
      await oidc.down();
      const result = await client.call('graphql_query', { query: ME });
      assert.match(textOf(result), /^CREDENTIALS_UNAVAILABLE: /);
      assert.equal(api.requests.length, 0);
      await client.close();
    } finally {
      await remote?.stop();
      await api?.close();
      await oidc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an API of the server's own identity, on stdio", () => {
  test("auth.clientCredentials gives every call the server's own token, kept until it expires", async () => {
    const oidc = await startOidc();
    const api = await startProtectedApi(oidc).catch(async (error: unknown) => {
      await oidc.close();
      throw error;
    });
    const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-cc-'));
    const config = configFile(dir, api.url, {
      clientCredentials: {
        tokenEndpoint: oidc.tokenEndpoint,
        clientId: oidc.postClient.clientId,
        clientSecret: `\${env:${CRM_SECRET}}`,
        clientAuth: 'client_secret_post',
        resource: oidc.apiAudiences[0],
      },
    });
    const client = new Client({ name: 'client-credentials-test', version: '1.0.0' });
    try {
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI, `--config=${config}`],
          env: { PATH: process.env.PATH ?? '', [CRM_SECRET]: oidc.postClient.clientSecret },
          stderr: 'ignore',
        }),
      );
      for (let i = 0; i < 3; i++) {
        const result = (await client.callTool({
          name: 'graphql_query',
          arguments: { query: ME },
        })) as ToolResult;
        assert.notEqual(result.isError, true, textOf(result));
      }
      assert.equal(api.requests.length, 3);
      assert.ok(api.requests.every((request) => request.claims?.aud === oidc.apiAudiences[0]));
      assert.equal(oidc.requests.get('client_credentials'), 1, 'one token for the three calls');
    } finally {
      await client.close();
      await api.close();
      await oidc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
