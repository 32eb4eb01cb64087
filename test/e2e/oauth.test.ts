// Remote mode as an OAuth 2.1 resource server, against a real authorization server on 127.0.0.1 (keys made at
// test time, test/fixtures/issuer.ts) and a real GraphQL API: valid tokens work; every kind of bad token is
// refused with the right status and WWW-Authenticate challenge before anything reaches the API.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Client,
  ClientCredentialsProvider,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { SignJWT } from 'jose';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import {
  connectHttp,
  MCP_POST_HEADERS,
  rawRequest,
  runUntilExitOrServing,
  spawnHttpMcp,
  type HttpMcpProcess,
} from '../fixtures/http-mcp.ts';
import { startIssuer, type TestIssuer } from '../fixtures/issuer.ts';
import { freePort } from '../fixtures/oauth-remote.ts';

let api: RunningGraphQLServer;
let issuer: TestIssuer;
let server: HttpMcpProcess;
let audience: string;

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

before(async () => {
  const library = createLibraryApi();
  api = await serveGraphQL(library.schema, library.rootValue);
  issuer = await startIssuer();
  const port = await freePort();
  audience = `http://127.0.0.1:${port}/mcp`;
  issuer.grant.audience = audience;
  issuer.grant.scope = 'mcp:use';
  server = await spawnHttpMcp([
    '--transport=http',
    `--port=${port}`,
    `--endpoint=${api.url}`,
    `--oauthIssuer=${issuer.issuer}`,
    `--oauthAudience=${audience}`,
    '--oauthScopes=mcp:use',
    '--oauthToolScopes=graphql_introspect=schema:read',
    '--forwardHeaders=X-GraphQL-Authorization:Authorization',
  ]);
});

after(async () => {
  await server.stop();
  await Promise.all([api.close(), issuer.close()]);
});

const token = (claims: Record<string, unknown> = {}, options?: Parameters<TestIssuer['sign']>[1]) =>
  issuer.sign({ sub: 'user-42', aud: audience, scope: 'mcp:use schema:read', ...claims }, options);

const post = (authorization: string | undefined, body = INITIALIZE) =>
  rawRequest(server.url, {
    method: 'POST',
    headers: { ...MCP_POST_HEADERS, ...(authorization ? { authorization } : {}) },
    body,
  });

describe('the protected resource metadata (RFC 9728)', () => {
  test('is served at both well-known paths, exactly', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const response = await rawRequest(`${server.origin}${path}`);
      assert.equal(response.status, 200, path);
      assert.deepEqual(JSON.parse(response.body), {
        resource: audience,
        authorization_servers: [issuer.issuer],
        scopes_supported: ['mcp:use', 'schema:read'],
        bearer_methods_supported: ['header'],
        resource_name: 'graphql-mcp',
      });
      assert.equal(response.headers['access-control-allow-origin'], '*');
    }
  });
});

describe('a valid access token', () => {
  test('lets the tools work, and the request log names the subject, never the token', async () => {
    const bearer = await token();
    const client = await connectHttp(server.url, { authorization: `Bearer ${bearer}` });
    try {
      const result = await client.call('graphql_query', { query: '{ books(first: 1) { title } }' });
      assert.equal(result.isError, undefined);
      assert.deepEqual(result.structuredContent, { data: { books: [{ title: 'SPQR' }] } });
      const introspected = await client.call('graphql_introspect', { typeNames: ['Book'] });
      assert.equal(introspected.isError, undefined);
    } finally {
      await client.close();
    }
    const lines = server.requestLog().filter((line) => line.path === '/mcp' && line.status === 200);
    assert.ok(lines.length > 0 && lines.every((line) => line.sub === 'user-42'));
    assert.ok(!server.stderr().includes(bearer.slice(-20)), 'MUST NOT log the token');
  });

  test('MUST NOT be sent to the GraphQL API; a forwarded API credential of its own is', async () => {
    const bearer = await token();
    const before = api.requests.length;
    const client = await connectHttp(server.url, {
      authorization: `Bearer ${bearer}`,
      'x-graphql-authorization': 'Bearer api-credential-of-user-42',
    });
    try {
      await client.call('graphql_query', { query: '{ books(first: 1) { title } }' });
    } finally {
      await client.close();
    }
    const sent = api.requests.slice(before);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.headers.authorization, 'Bearer api-credential-of-user-42');
    assert.ok(!JSON.stringify(sent[0]!.headers).includes(bearer.slice(-30)));
  });
});

describe('bad tokens are refused before anything reaches the API', () => {
  const metadata = () => `resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp"`;
  const cases: Array<{ name: string; authorization: () => Promise<string | undefined>; error?: RegExp }> = [
    { name: 'no token', authorization: async () => undefined },
    { name: 'a Basic credential', authorization: async () => 'Basic dXNlcjpwYXNz', error: /invalid_token/ },
    {
      name: 'an expired token',
      authorization: async () => `Bearer ${await token({ exp: Math.floor(Date.now() / 1000) - 120 })}`,
      error: /error_description="the access token has expired"/,
    },
    {
      name: 'a token not valid yet',
      authorization: async () => `Bearer ${await token({ nbf: Math.floor(Date.now() / 1000) + 600 })}`,
      error: /not valid yet/,
    },
    {
      name: 'a token issued a day in the future',
      authorization: async () => {
        const now = Math.floor(Date.now() / 1000);
        return `Bearer ${await token({ iat: now + 86_400, exp: now + 86_400 + 300 })}`;
      },
      error: /error_description="the access token was issued in the future/,
    },
    {
      name: 'a Bearer token with a quote in it',
      authorization: async () => `Bearer ${(await token()).slice(0, 20)}"x`,
      error: /error_description="the Bearer token holds characters a token cannot have"/,
    },
    {
      name: 'an empty Bearer token',
      authorization: async () => 'Bearer ',
      error: /error_description="the Bearer token is empty"/,
    },
    {
      name: 'a token of another issuer',
      authorization: async () => `Bearer ${await token({ iss: 'http://127.0.0.1:1/other' })}`,
      error: /from another issuer/,
    },
    {
      name: 'a token for another audience',
      authorization: async () => `Bearer ${await token({ aud: 'https://other.example.com/mcp' })}`,
      error: /for another resource/,
    },
    {
      name: 'a token with a wrong signature',
      authorization: async () => {
        const [header, payload] = (await token()).split('.');
        const [, , signature] = (await token({ sub: 'someone-else' })).split('.');
        return `Bearer ${header}.${payload}.${signature}`;
      },
      error: /signature is not valid/,
    },
    {
      name: 'a token signed by a key the issuer does not publish',
      authorization: async () => `Bearer ${await token({}, { key: await issuer.foreignKey() })}`,
      error: /invalid_token/,
    },
    {
      name: 'an unsigned token (alg: none)',
      authorization: async () => {
        const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
        const now = Math.floor(Date.now() / 1000);
        return `Bearer ${encode({ alg: 'none', typ: 'JWT' })}.${encode({ iss: issuer.issuer, aud: audience, sub: 'x', scope: 'mcp:use', exp: now + 300 })}.`;
      },
      error: /invalid_token/,
    },
    {
      name: 'an HMAC token made with a guessable secret',
      authorization: async () =>
        `Bearer ${await new SignJWT({ iss: issuer.issuer, aud: audience, sub: 'x', scope: 'mcp:use' })
          .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode('secret'))}`,
      error: /invalid_token/,
    },
  ];

  for (const { name, authorization, error } of cases) {
    test(`MUST answer 401 with the challenge to ${name}`, async () => {
      const before = api.requests.length;
      const response = await post(await authorization());
      assert.equal(response.status, 401);
      const challenge = String(response.headers['www-authenticate']);
      assert.match(challenge, /^Bearer /);
      assert.ok(challenge.includes(metadata()), challenge);
      if (error === undefined)
        assert.ok(!challenge.includes('error='), 'no error code when no token was sent');
      else {
        assert.match(challenge, /error="invalid_token"/);
        assert.match(challenge, error);
      }
      assert.equal(api.requests.length, before);
    });
  }

  test('MUST answer 403 insufficient_scope to a token without the required scope', async () => {
    const response = await post(`Bearer ${await token({ scope: 'other' })}`);
    assert.equal(response.status, 403);
    assert.match(
      String(response.headers['www-authenticate']),
      /^Bearer error="insufficient_scope", scope="mcp:use", resource_metadata="/,
    );
  });
});

describe('per-tool scopes (--oauthToolScopes)', () => {
  test('a token without the scope neither sees nor calls the tool', async () => {
    const bearer = await token({ scope: 'mcp:use' });
    const client = await connectHttp(server.url, { authorization: `Bearer ${bearer}` });
    try {
      const { tools } = await client.client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ['graphql_query'],
      );
    } finally {
      await client.close();
    }
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'graphql_introspect', arguments: {} },
    });
    const response = await post(`Bearer ${bearer}`, call);
    assert.equal(response.status, 403);
    assert.match(
      String(response.headers['www-authenticate']),
      /error="insufficient_scope", scope="mcp:use schema:read"/,
    );
  });

  test("a token without graphql_introspect's scope neither sees nor reads the schema resources, nor gets the prompts that steer the tools", async () => {
    const client = await connectHttp(server.url, {
      authorization: `Bearer ${await token({ scope: 'mcp:use' })}`,
    });
    try {
      const capabilities = client.client.getServerCapabilities();
      assert.equal(capabilities?.prompts, undefined);
      // graphql_query's MCP Apps view is a resource: the capability may be declared, never a schema resource.
      if (capabilities?.resources !== undefined) {
        const { resources } = await client.client.listResources();
        assert.deepEqual(
          resources.filter((resource) => resource.uri.startsWith('graphql://')),
          [],
        );
      }
      await assert.rejects(
        client.client.request({ method: 'resources/read', params: { uri: 'graphql://default/schema' } }),
      );
    } finally {
      await client.close();
    }
  });

  test("a token with the scope reads the schema, which only the user's own cache may keep (headers are forwarded)", async () => {
    const client = new Client(
      { name: 'graphql-mcp-oauth-2026', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const headers = { authorization: `Bearer ${await token()}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }),
    );
    try {
      assert.deepEqual(client.getServerCapabilities()?.resources, { listChanged: false });
      const read = await client.readResource({ uri: 'graphql://default/schema' });
      assert.match(JSON.stringify(read.contents), /type Query/);
      assert.equal(read.cacheScope, 'private');
    } finally {
      await client.close();
    }
  });

  test('a token with the scope sees both tools', async () => {
    const client = await connectHttp(server.url, { authorization: `Bearer ${await token()}` });
    try {
      const { tools } = await client.client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), ['graphql_introspect', 'graphql_query']);
    } finally {
      await client.close();
    }
  });
});

describe('key rotation at the issuer', () => {
  test('a token signed with the new key is accepted once the keys are fetched again', async () => {
    await post(`Bearer ${await token()}`);
    const fetched = issuer.hits.get('/jwks') ?? 0;
    await issuer.rotate();
    const rotated = `Bearer ${await token()}`;
    // Unknown key ids fetch the keys again, at most every 3 s (a flood of forged tokens costs one fetch).
    const deadline = Date.now() + 8_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await post(rotated)).status;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.equal(status, 200);
    const refetches = (issuer.hits.get('/jwks') ?? 0) - fetched;
    assert.ok(refetches >= 1 && refetches <= 3, `${refetches} fetches of the keys`);
  });
});

describe("the SDK client's OAuth provider", () => {
  test('completes the client-credentials flow from the 401 challenge and calls a tool', async () => {
    const provider = new ClientCredentialsProvider({
      clientId: 'test-client',
      clientSecret: 'test-secret',
      scope: 'mcp:use schema:read',
      expectedIssuer: issuer.issuer,
    });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    const tokensBefore = issuer.hits.get('/token') ?? 0;
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: 'graphql_query',
        arguments: { query: '{ authors { name } }' },
      });
      assert.equal(result.isError, undefined);
      assert.equal((issuer.hits.get('/token') ?? 0) - tokensBefore, 1, 'one token from the token endpoint');
    } finally {
      await client.close();
    }
  });
});

describe('start-up', () => {
  test('MUST refuse --httpToken with --oauthIssuer, and an http issuer that is not loopback', async () => {
    const both = await runUntilExitOrServing([
      '--transport=http',
      '--port=0',
      '--httpToken=0123456789abcdef0123',
      `--oauthIssuer=${issuer.issuer}`,
      `--oauthAudience=${audience}`,
    ]);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /--httpToken and --oauthIssuer cannot be combined/);
    const insecure = await runUntilExitOrServing([
      '--transport=http',
      '--port=0',
      '--oauthIssuer=http://auth.example.com',
      `--oauthAudience=${audience}`,
    ]);
    assert.equal(insecure.status, 2);
    assert.match(insecure.stderr, /--oauthIssuer must be an https URL/);
  });

  test('MUST refuse --oauthToolScopes naming a tool the server does not offer', async () => {
    const run = await runUntilExitOrServing([
      '--transport=http',
      '--port=0',
      `--oauthIssuer=${issuer.issuer}`,
      `--oauthAudience=${audience}`,
      '--oauthToolScopes=graphql_querry=api:write',
    ]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /--oauthToolScopes names graphql_querry, which is not a tool of this server/);
  });

  test('MUST refuse forwarding the incoming Authorization header, which carries the access token', async () => {
    const run = await runUntilExitOrServing([
      '--transport=http',
      '--port=0',
      `--oauthIssuer=${issuer.issuer}`,
      `--oauthAudience=${audience}`,
      '--forwardHeaders=Authorization',
    ]);
    assert.equal(run.status, 2);
    assert.match(run.stderr, /cannot forward the incoming Authorization header while --oauthIssuer is set/);
  });
});
