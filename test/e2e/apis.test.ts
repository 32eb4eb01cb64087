// Several APIs in one server (--config): each API's calls reach that API with that API's token and no other
// (the APIs' own logs prove it), whichever way the call names its API; credentials never cross; each API has its
// own mutation policy and operation tools; the file's values come from the environment; a bad file stops the
// start naming the file, the line and the key; an edited file is applied in stdio mode. Against real GraphQL
// servers on 127.0.0.1, each requiring its own token.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { graphql } from 'graphql';
import { createLibraryApi } from '../../demo/library-api.ts';
import { responseOf } from '../fixtures/client-views.ts';
import { runUntilExitOrServing, spawnHttpMcp, startHttpMcp } from '../fixtures/http-mcp.ts';
import { startIssuer } from '../fixtures/issuer.ts';
import { runCli, startMcp, texts, type CallToolResult, type McpSession } from '../fixtures/mcp.ts';
import { freePort } from '../fixtures/oauth-remote.ts';

/** A GraphQL API on 127.0.0.1 that answers only its own token, and logs every request. */
interface TokenApi {
  readonly url: string;
  readonly origin: string;
  readonly requests: Array<{ path: string; headers: IncomingHttpHeaders; body: string }>;
  /** When set, the title of every book it answers: an API that quotes what it should not. */
  echo: string;
  close(): Promise<void>;
}

async function serveTokenApi(token: string): Promise<TokenApi> {
  const library = createLibraryApi();
  const requests: TokenApi['requests'] = [];
  const api = { echo: '' } as TokenApi;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    requests.push({ path: req.url ?? '', headers: req.headers, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Bearer ${token}`)
      return send(401, { errors: [{ message: 'bad token' }] });
    const { query, variables } = JSON.parse(body) as { query: string; variables?: Record<string, unknown> };
    if (api.echo !== '') return send(200, { data: { books: [{ title: api.echo }] } });
    send(
      200,
      await graphql({
        schema: library.schema,
        source: query,
        rootValue: library.rootValue,
        variableValues: variables,
      }),
    );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(api, {
    origin: `http://127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/graphql`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

const TOKENS = {
  ALPHA_TOKEN: 'alpha-Secret-1111-aaaa',
  BETA_TOKEN: 'beta-Secret-2222-bbbb',
  GAMMA_TOKEN: 'gamma-Secret-3333-cccc',
};
const BOOKS = '{ books(first: 1) { title } }';
const ADD_REVIEW = 'mutation { addReview(bookId: "b1", rating: 5) { rating } }';

let alpha: TokenApi;
let beta: TokenApi;
let gamma: TokenApi;
let dir: string;

before(async () => {
  [alpha, beta, gamma] = await Promise.all([
    serveTokenApi(TOKENS.ALPHA_TOKEN),
    serveTokenApi(TOKENS.BETA_TOKEN),
    serveTokenApi(TOKENS.GAMMA_TOKEN),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-apis-'));
  writeFileSync(
    join(dir, 'alpha.graphql'),
    '# The first book.\nquery FirstBook { books(first: 1) { title } }\n',
  );
  writeFileSync(
    join(dir, 'beta.graphql'),
    '# The first book.\nquery FirstBook { books(first: 1) { title } }\n',
  );
});
after(async () => {
  await Promise.all([alpha?.close(), beta?.close(), gamma?.close()]);
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** A config file of these APIs (name → options), written to the test directory; returns its path. */
function configFile(
  apis: Record<string, Record<string, unknown>>,
  top: Record<string, unknown> = {},
  name = 'graphql-mcp.json',
): string {
  const path = join(dir, name);
  writeFileSync(path, `${JSON.stringify({ $schema: '../config.schema.json', ...top, apis }, null, 2)}\n`);
  return path;
}

const bearer = (variable: string) => ({ Authorization: `Bearer \${env:${variable}}` });

function threeApis(extra: Record<string, Record<string, unknown>> = {}) {
  return {
    alpha: { endpoint: alpha.url, headers: bearer('ALPHA_TOKEN'), mutations: 'deny', ...extra.alpha },
    beta: { endpoint: beta.url, headers: bearer('BETA_TOKEN'), mutations: 'allow', ...extra.beta },
    gamma: { endpoint: gamma.url, headers: bearer('GAMMA_TOKEN'), ...extra.gamma },
  };
}

/** What each API received since `before`, as the Authorization headers it saw. */
function seen(since: Record<string, number>) {
  return Object.fromEntries(
    Object.entries({ alpha, beta, gamma }).map(([name, api]) => [
      name,
      api.requests.slice(since[name]).map((request) => request.headers.authorization ?? 'none'),
    ]),
  );
}
const mark = () => ({
  alpha: alpha.requests.length,
  beta: beta.requests.length,
  gamma: gamma.requests.length,
});
const text = (result: CallToolResult) => texts(result).join('\n');

describe('three APIs from one config file', () => {
  let session: McpSession;
  before(async () => {
    const file = configFile(
      threeApis({
        alpha: { operations: [join(dir, 'alpha.graphql')] },
        beta: { operations: [join(dir, 'beta.graphql')] },
      }),
      // No schema kept: every introspection reaches its API, and no document is checked against one.
      { schemaTtl: 0 },
    );
    session = await startMcp([`--config=${file}`], TOKENS);
  });
  after(() => session?.close());

  test('each call named for an API reaches that API, with its token and no other', async () => {
    for (const name of ['alpha', 'beta', 'gamma'] as const) {
      const since = mark();
      const result = await session.call('graphql_query', { query: BOOKS, api: name });
      assert.notEqual(result.isError, true, text(result));
      const expected = { alpha: [], beta: [], gamma: [] } as Record<string, string[]>;
      expected[name] = [`Bearer ${TOKENS[`${name.toUpperCase()}_TOKEN` as keyof typeof TOKENS]}`];
      assert.deepEqual(seen(since), expected, name);
    }
  });

  test('a call that names no API goes to the first', async () => {
    const since = mark();
    await session.call('graphql_query', { query: BOOKS });
    assert.deepEqual(seen(since), { alpha: [`Bearer ${TOKENS.ALPHA_TOKEN}`], beta: [], gamma: [] });
  });

  test("MUST send a per-call endpoint on an API's origin that API's token, not the first's", async () => {
    const since = mark();
    const result = await session.call('graphql_query', { query: BOOKS, endpoint: `${gamma.origin}/graphql` });
    assert.notEqual(result.isError, true, text(result));
    assert.deepEqual(seen(since), { alpha: [], beta: [], gamma: [`Bearer ${TOKENS.GAMMA_TOKEN}`] });
  });

  test("MUST NOT send an API's token to another API's origin, even when the call names it", async () => {
    const since = mark();
    const result = await session.call('graphql_query', { query: BOOKS, api: 'alpha', endpoint: beta.url });
    assert.deepEqual(seen(since), { alpha: [], beta: ['none'], gamma: [] });
    assert.match(text(result), /startup headers \(Authorization\) were not sent/);
  });

  test("MUST hide every API's token wherever an answer echoes it", async () => {
    alpha.echo = `beta's is ${TOKENS.BETA_TOKEN} and gamma's ${TOKENS.GAMMA_TOKEN}`;
    try {
      const result = await session.call('graphql_query', { query: BOOKS, api: 'alpha' });
      assert.ok(!text(result).includes('Secret'), text(result));
      assert.match(text(result), /\[redacted\]/);
    } finally {
      alpha.echo = '';
    }
  });

  test("a mutation follows its API's policy: refused by a read-only API, run by one that allows it", async () => {
    const since = mark();
    const refused = await session.call('graphql_query', {
      query: ADD_REVIEW,
      api: 'alpha',
      allowMutations: true,
    });
    assert.match(texts(refused)[0]!, /^MUTATION_NOT_ALLOWED: the API alpha refuses every mutation/);
    const ran = await session.call('graphql_query', { query: ADD_REVIEW, api: 'beta', allowMutations: true });
    assert.deepEqual(responseOf(ran), { data: { addReview: { rating: 5 } } });
    assert.deepEqual(seen(since), { alpha: [], beta: [`Bearer ${TOKENS.BETA_TOKEN}`], gamma: [] });
  });

  test('graphql_introspect reads the schema of the API named', async () => {
    const since = mark();
    const result = await session.call('graphql_introspect', { api: 'gamma' });
    assert.match(texts(result)[0]!, /type Book/);
    assert.deepEqual(seen(since), { alpha: [], beta: [], gamma: [`Bearer ${TOKENS.GAMMA_TOKEN}`] });
  });

  test('an API name that is not one is INVALID_INPUT naming the APIs there are, and nothing is sent', async () => {
    const since = mark();
    const result = await session.call('graphql_query', { query: BOOKS, api: 'delta' });
    assert.match(texts(result)[0]!, /^INVALID_INPUT: api must be one of alpha, beta, gamma/);
    assert.deepEqual(seen(since), { alpha: [], beta: [], gamma: [] });
  });

  test("each API's operation tools are named after it, say which API they call, and call it", async () => {
    const { tools } = await session.client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    assert.deepEqual(names, ['alpha_FirstBook', 'beta_FirstBook', 'graphql_introspect', 'graphql_query']);
    assert.match(tools.find((tool) => tool.name === 'beta_FirstBook')!.description!, /\(API beta\)/);
    const since = mark();
    await session.call('beta_FirstBook', {});
    assert.deepEqual(seen(since), { alpha: [], beta: [`Bearer ${TOKENS.BETA_TOKEN}`], gamma: [] });
  });

  test('the tool list stays within 900 tokens (o200k) with three APIs', async (t) => {
    const { tools } = await session.client.listTools();
    const builtIn = tools.filter((tool) => tool.name.startsWith('graphql_'));
    const count = encode(JSON.stringify({ tools: builtIn })).length;
    t.diagnostic(`${count} tokens for graphql_query and graphql_introspect with three APIs`);
    assert.ok(count <= 900, `${count} tokens`);
    const query = builtIn.find((tool) => tool.name === 'graphql_query')!;
    assert.deepEqual((query.inputSchema.properties as Record<string, { enum?: string[] }>).api!.enum, [
      'alpha',
      'beta',
      'gamma',
    ]);
  });

  test("each API's schema is a resource of its own", async () => {
    const { resourceTemplates } = await session.client.listResourceTemplates();
    const uris = resourceTemplates.map((template) => template.uriTemplate).sort();
    assert.deepEqual(uris, [
      'graphql://alpha/types/{name}',
      'graphql://beta/types/{name}',
      'graphql://gamma/types/{name}',
    ]);
    const since = mark();
    const read = await session.client.readResource({ uri: 'graphql://beta/schema' });
    assert.match((read.contents[0] as { text: string }).text, /type Book/);
    assert.deepEqual(seen(since), { alpha: [], beta: [`Bearer ${TOKENS.BETA_TOKEN}`], gamma: [] });
  });
});

describe('a config file that does not check out stops the start (exit 2, one line, no value quoted)', () => {
  test('a variable it uses that is not set: naming the variable, the file, the line and the key', () => {
    const file = configFile(threeApis(), {}, 'missing-variable.json');
    const { status, stderr } = runCli([`--config=${file}`], {
      ALPHA_TOKEN: TOKENS.ALPHA_TOKEN,
      BETA_TOKEN: TOKENS.BETA_TOKEN,
    });
    assert.equal(status, 2);
    assert.match(
      stderr,
      /missing-variable\.json:\d+: apis\.gamma\.headers\.Authorization uses \$\{env:GAMMA_TOKEN\}, which is not set/,
    );
    assert.ok(!stderr.includes('Secret'));
    assert.equal(stderr.trim().split('\n').length, 1);
  });

  test('JSON that does not parse: the file and the line, not the text around it', () => {
    const path = join(dir, 'broken.json');
    writeFileSync(
      path,
      `{\n  "apis": {\n    "alpha": { "endpoint": "${alpha.url}", "headers": {"Authorization": "Bearer tok-Leak-9999"} },\n  }\n}\n`,
    );
    const { status, stderr } = runCli([`--config=${path}`]);
    assert.equal(status, 2);
    assert.match(stderr, /--config .*broken\.json: not valid JSON at line 4/);
    assert.ok(!stderr.includes('Leak'));
  });

  test('a key that is no option: the file, the line, the key and the option meant', () => {
    const file = configFile({ alpha: { endpoint: alpha.url, max_complexity: 5 } }, {}, 'typo.json');
    const { status, stderr } = runCli([`--config=${file}`]);
    assert.equal(status, 2);
    assert.match(
      stderr,
      /typo\.json:6: apis\.alpha\.max_complexity is no option; did you mean maxComplexity\?/,
    );
  });

  test('a value its option refuses: the file, the line and the key', () => {
    const file = configFile({ alpha: { endpoint: alpha.url, timeout: 0 } }, {}, 'bad-value.json');
    const { status, stderr } = runCli([`--config=${file}`]);
    assert.equal(status, 2);
    assert.match(stderr, /bad-value\.json:6: apis\.alpha\.timeout must be a whole number from 1 to 600000/);
  });

  test("a server's option under an API: where it belongs", () => {
    const file = configFile({ alpha: { endpoint: alpha.url, transport: 'http' } }, {}, 'misplaced.json');
    const { status, stderr } = runCli([`--config=${file}`]);
    assert.equal(status, 2);
    assert.match(stderr, /apis\.alpha\.transport applies to the whole server: set it at the top level/);
  });

  test("an API's option on the command line beside --config: it goes in the file", () => {
    const file = configFile({ alpha: { endpoint: alpha.url } }, {}, 'beside.json');
    const { status, stderr } = runCli([`--config=${file}`, '--timeout=5']);
    assert.equal(status, 2);
    assert.match(
      stderr,
      /--timeout: with --config, an API's options go in the file \(apis\.<name>\.timeout\)/,
    );
  });
});

describe('an edited config file (stdio mode)', () => {
  test('is applied: the tools change and the client is told; one that no longer checks out changes nothing', async () => {
    const path = configFile(
      { alpha: { endpoint: alpha.url, headers: bearer('ALPHA_TOKEN') } },
      {},
      'live.json',
    );
    const session = await startMcp([`--config=${path}`], TOKENS);
    try {
      let told = 0;
      session.client.setNotificationHandler('notifications/tools/list_changed', () => void told++);
      const apiEnum = async () => {
        const { tools } = await session.client.listTools();
        const query = tools.find((tool) => tool.name === 'graphql_query')!;
        return (query.inputSchema.properties as Record<string, { enum?: string[] }>).api?.enum;
      };
      assert.equal(await apiEnum(), undefined, 'one API: no api input');
      configFile(
        {
          alpha: { endpoint: alpha.url, headers: bearer('ALPHA_TOKEN') },
          beta: { endpoint: beta.url, headers: bearer('BETA_TOKEN') },
        },
        {},
        'live.json',
      );
      await until(async () => (await apiEnum())?.length === 2, 'the second API to appear');
      assert.ok(told >= 1, 'the client is told');
      const since = mark();
      await session.call('graphql_query', { query: BOOKS, api: 'beta' });
      assert.deepEqual(seen(since), { alpha: [], beta: [`Bearer ${TOKENS.BETA_TOKEN}`], gamma: [] });

      writeFileSync(path, '{ "apis": { "alpha": ');
      await until(
        async () =>
          /live\.json changed but .*not valid JSON.*the previous configuration stays/.test(session.stderr()),
        'stderr to say why',
      );
      assert.deepEqual(await apiEnum(), ['alpha', 'beta']);
    } finally {
      await session.close();
    }
  });
});

describe('an edited config file, with prompt files (stdio mode)', () => {
  test('is applied although a prompt file broke since: prompts are read once, at start-up, and stay', async () => {
    const prompts = join(dir, 'prompts');
    mkdirSync(prompts, { recursive: true });
    writeFileSync(join(prompts, 'digest.md'), '# Sum up\n\nList the books of {{genre}}.\n');
    const path = configFile({ alpha: { endpoint: alpha.url } }, {}, 'with-prompts.json');
    const session = await startMcp([`--config=${path}`, `--prompts=${prompts}`], TOKENS);
    try {
      writeFileSync(join(prompts, 'digest.md'), '---\nname: [not, a, name]\n---\nbroken');
      configFile({ alpha: { endpoint: alpha.url }, beta: { endpoint: beta.url } }, {}, 'with-prompts.json');
      await until(
        async () => /with-prompts\.json reloaded: alpha, beta/.test(session.stderr()),
        'the reload to apply',
      );
      assert.doesNotMatch(session.stderr(), /changed but/);
      const { prompts: listed } = await session.client.listPrompts();
      assert.ok(listed.some((prompt) => prompt.name === 'digest'));
    } finally {
      await session.close();
    }
  });
});

describe('an endpoint that two APIs trust', () => {
  let session: McpSession;
  before(async () => {
    const path = configFile(
      {
        alpha: { endpoint: alpha.url, headers: bearer('ALPHA_TOKEN') },
        beta: {
          endpoint: beta.url,
          headers: bearer('BETA_TOKEN'),
          allowedEndpoints: [new URL(alpha.url).origin],
        },
      },
      {},
      'overlap.json',
    );
    session = await startMcp([`--config=${path}`], TOKENS);
  });
  after(() => session?.close());

  test('MUST NOT guess whose credentials go there: a call naming no API is INVALID_INPUT naming both, and nothing is sent', async () => {
    const since = mark();
    const result = await session.call('graphql_query', { query: BOOKS, endpoint: alpha.url });
    assert.match(
      text(result),
      /^INVALID_INPUT: http:\/\/127\.0\.0\.1:\d+\/graphql is trusted by the APIs alpha and beta, .*name the one to use in the api input/,
    );
    assert.deepEqual(seen(since), { alpha: [], beta: [], gamma: [] });
  });

  test("a call naming the API gets that API's credentials there", async () => {
    const since = mark();
    // alpha refuses beta's token; what matters is which one was sent.
    await session.call('graphql_query', { query: BOOKS, endpoint: alpha.url, api: 'beta' });
    assert.deepEqual(seen(since), { alpha: [`Bearer ${TOKENS.BETA_TOKEN}`], beta: [], gamma: [] });
  });
});

describe('tool names that two sources would both make', () => {
  const ops = (name: string, operation: string) => {
    const path = join(dir, `${name}.graphql`);
    writeFileSync(path, `query ${operation} { books(first: 1) { title } }\n`);
    return path;
  };
  const api = (url: string, token: string, operations: string) => ({
    endpoint: url,
    headers: bearer(token),
    operations,
  });

  test('MUST stop the start (exit 2) naming both, for two APIs whose operations make one name', async () => {
    const path = configFile(
      {
        x: api(alpha.url, 'ALPHA_TOKEN', ops('x-ops', 'y_z')),
        x_y: api(beta.url, 'BETA_TOKEN', ops('xy-ops', 'z')),
      },
      {},
      'clash.json',
    );
    const { status, stderr } = await runUntilExitOrServing([`--config=${path}`], TOKENS);
    assert.equal(status, 2, stderr);
    assert.match(
      stderr,
      /the operation y_z of the API x \(.*x-ops\.graphql:1\) and the operation z of the API x_y \(.*xy-ops\.graphql:1\) would both be the tool x_y_z/,
    );
    assert.doesNotMatch(stderr, /serving/);
  });

  test("MUST stop the start (exit 2) for an operation that would take a built-in tool's name", async () => {
    const path = configFile(
      {
        graphql: api(alpha.url, 'ALPHA_TOKEN', ops('graphql-ops', 'query')),
        other: { endpoint: beta.url, headers: bearer('BETA_TOKEN') },
      },
      {},
      'builtin-clash.json',
    );
    const { status, stderr } = await runUntilExitOrServing([`--config=${path}`], TOKENS);
    assert.equal(status, 2, stderr);
    assert.match(
      stderr,
      /the built-in tool graphql_query and the operation query of the API graphql .* would both be the tool graphql_query/,
    );
  });

  test('a reload that would make a clash leaves the previous tools, and the server keeps serving', async () => {
    const xyOps = ops('xy-live', 'w');
    const path = configFile(
      { x: api(alpha.url, 'ALPHA_TOKEN', ops('x-live', 'y_z')), x_y: api(beta.url, 'BETA_TOKEN', xyOps) },
      {},
      'clash-live.json',
    );
    const session = await startMcp([`--config=${path}`], TOKENS);
    try {
      const names = async () => (await session.client.listTools()).tools.map((tool) => tool.name).sort();
      assert.deepEqual(await names(), ['graphql_introspect', 'graphql_query', 'x_y_w', 'x_y_z']);
      writeFileSync(xyOps, 'query z { books(first: 1) { title } }\n');
      await until(
        async () =>
          /changed but .* would both be the tool x_y_z; the previous tools stay/.test(session.stderr()),
        'stderr to say why',
      );
      assert.deepEqual(await names(), ['graphql_introspect', 'graphql_query', 'x_y_w', 'x_y_z']);
      const result = await session.call('x_y_z', {});
      assert.notEqual(result.isError, true, text(result));
    } finally {
      await session.close();
    }
  });
});

describe('remote mode with a config file', () => {
  test("each user's forwarded credential goes to its own API (per-API --forwardHeaders)", async () => {
    const file = configFile(
      {
        alpha: { endpoint: alpha.url, forwardHeaders: ['X-Alpha-Token:Authorization'] },
        beta: { endpoint: beta.url, forwardHeaders: ['X-Beta-Token:Authorization'] },
      },
      {},
      'remote.json',
    );
    const remote = await startHttpMcp([`--config=${file}`]);
    const client = await remote.connect({
      'X-Alpha-Token': `Bearer ${TOKENS.ALPHA_TOKEN}`,
      'X-Beta-Token': `Bearer ${TOKENS.BETA_TOKEN}`,
    });
    try {
      const since = mark();
      await client.call('graphql_query', { query: BOOKS, api: 'alpha' });
      await client.call('graphql_query', { query: BOOKS, api: 'beta' });
      assert.deepEqual(seen(since), {
        alpha: [`Bearer ${TOKENS.ALPHA_TOKEN}`],
        beta: [`Bearer ${TOKENS.BETA_TOKEN}`],
        gamma: [],
      });
    } finally {
      await client.close();
      await remote.stop();
    }
  });
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('remote mode with OAuth and per-API scopes', () => {
  test("a token without an API's scopes may not use that API, through any tool, and does not see its operation tools", async () => {
    const issuer = await startIssuer();
    const port = await freePort();
    const audience = `http://127.0.0.1:${port}/mcp`;
    const file = configFile(
      {
        alpha: { endpoint: alpha.url, headers: bearer('ALPHA_TOKEN') },
        beta: {
          endpoint: beta.url,
          headers: bearer('BETA_TOKEN'),
          oauthScopes: ['beta:use'],
          operations: [join(dir, 'beta.graphql')],
        },
      },
      { oauthIssuer: issuer.issuer, oauthAudience: audience, oauthScopes: 'mcp:use' },
      'oauth.json',
    );
    const remote = await spawnHttpMcp([`--config=${file}`, '--transport=http', `--port=${port}`], TOKENS);
    const as = async (scope: string) => {
      const token = await issuer.sign({ sub: 'user-1', aud: audience, scope });
      return remote.connect({ authorization: `Bearer ${token}` });
    };
    const [plain, entitled] = [await as('mcp:use'), await as('mcp:use beta:use')];
    try {
      // A client learns from the protected resource metadata which scopes it may ask for: beta's too.
      const metadata = (await (
        await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`)
      ).json()) as { scopes_supported?: string[] };
      assert.deepEqual(metadata.scopes_supported?.sort(), ['beta:use', 'mcp:use']);
      const since = mark();
      assert.notEqual((await plain.call('graphql_query', { query: BOOKS, api: 'alpha' })).isError, true);
      await assert.rejects(
        plain.call('graphql_query', { query: BOOKS, api: 'beta' }),
        /403|insufficient|scope/i,
      );
      await assert.rejects(
        plain.call('graphql_query', { query: BOOKS, endpoint: beta.url }),
        /403|insufficient|scope/i,
      );
      assert.deepEqual((await plain.client.listTools()).tools.map((tool) => tool.name).sort(), [
        'graphql_introspect',
        'graphql_query',
      ]);
      assert.notEqual((await entitled.call('graphql_query', { query: BOOKS, api: 'beta' })).isError, true);
      assert.ok((await entitled.client.listTools()).tools.some((tool) => tool.name === 'beta_FirstBook'));
      assert.deepEqual(seen(since), {
        alpha: [`Bearer ${TOKENS.ALPHA_TOKEN}`],
        beta: [`Bearer ${TOKENS.BETA_TOKEN}`],
        gamma: [],
      });
    } finally {
      await plain.close();
      await entitled.close();
      await remote.stop();
      await issuer.close();
    }
  });
});
