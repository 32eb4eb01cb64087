// MCP Apps over the protocol: what a client that declares the extension sees (the view on the tools, the view's
// HTML, the app-only tool) and what any other client does not; a mutation that waits for the person in the panel;
// and graphql_confirm_mutation, which runs it once with the panel's confirmation and nothing without it. The
// built server, the real SDK clients over stdio (both protocol eras) and over HTTP (remote mode, two OAuth
// users); the API's own log proves what was sent.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import type { HttpMcpProcess } from '../fixtures/http-mcp.ts';
import type { TestIssuer } from '../fixtures/issuer.ts';
import { CLI, type CallToolResult } from '../fixtures/mcp.ts';
import { mutationsReceived } from '../fixtures/mutations.ts';
import { startOAuthRemote } from '../fixtures/oauth-remote.ts';

const MIME = 'text/html;profile=mcp-app';
const APPS: ClientCapabilities = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [MIME] } } };
const VIEW = 'ui://graphql-mcp/query';
const CONFIRM = 'graphql_confirm_mutation';
const ADD = 'mutation Add($id: ID!) { addReview(bookId: $id, rating: 4, text: "kept quiet") { rating } }';
const add = { query: ADD, variables: { id: 'b3' }, allowMutations: true };
const HEADER = { 'X-Request-Tag': 'tag-6a5b4c3d2e1f' };

let api: RunningGraphQLServer;
let dir: string;
before(async () => {
  const library = createLibraryApi();
  api = await serveGraphQL(library.schema, library.rootValue);
  dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-apps-'));
  writeFileSync(
    join(dir, 'reviews.graphql'),
    '# Adds a two-star review.\nmutation Grumble($id: ID!) { addReview(bookId: $id, rating: 2) { rating } }\n',
  );
});
after(async () => {
  await api?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** The mutations the API received. */
const mutationsSent = () => mutationsReceived(api);
const text = (result: CallToolResult) => (result.content[0] as { text?: string } | undefined)?.text ?? '';
const confirmationOf = (result: CallToolResult) =>
  (result._meta as Record<string, unknown> | undefined)?.['graphql-mcp/confirmation'] as string;

interface Connected {
  readonly client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

async function stdio(capabilities: ClientCapabilities, options: { modern?: boolean; args?: string[] } = {}) {
  const client = new Client(
    { name: 'apps-tests', version: '1.0.0' },
    {
      capabilities,
      ...(options.modern && { versionNegotiation: { mode: { pin: '2026-07-28' as const } } }),
    },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, `--endpoint=${api.url}`, ...(options.args ?? [])],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'ignore',
    }),
  );
  return connected(client);
}

function connected(client: Client): Connected {
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

describe('a client that declares no MCP Apps', () => {
  test('MUST get the same tools/list, byte for byte, as a client that declares other capabilities only', async () => {
    const lists: string[] = [];
    for (const capabilities of [
      {},
      { elicitation: { form: {} } },
      // The extension without the MCP App HTML type is no MCP Apps support.
      { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } },
    ] satisfies ClientCapabilities[]) {
      const session = await stdio(capabilities, { args: [`--operations=${dir}`] });
      try {
        lists.push(JSON.stringify(await session.client.listTools()));
        const resources = await session.client.listResources();
        assert.ok(
          !resources.resources.some((resource) => resource.uri.startsWith('ui://')),
          'no view listed',
        );
      } finally {
        await session.close();
      }
    }
    assert.equal(lists[1], lists[0]);
    assert.equal(lists[2], lists[0]);
    const tools = (JSON.parse(lists[0]!) as { tools: Array<{ name: string; _meta?: unknown }> }).tools;
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['graphql_query', 'graphql_introspect', 'Grumble'],
    );
    assert.ok(
      tools.every((tool) => tool._meta === undefined),
      'no tool carries _meta',
    );
  });

  test('MUST NOT let it call graphql_confirm_mutation, nor read the view', async () => {
    const session = await stdio({});
    try {
      await assert.rejects(session.call(CONFIRM, { confirmation: 'x' }), /disabled/);
      await assert.rejects(session.client.readResource({ uri: VIEW }), /disabled|not found/i);
    } finally {
      await session.close();
    }
  });
});

for (const modern of [false, true]) {
  describe(`a ${modern ? '2026-07-28' : '2025-era'} client over stdio that declares MCP Apps and no elicitation`, () => {
    let session: Connected;
    before(async () => {
      session = await stdio(APPS, { modern, args: [`--operations=${dir}`] });
    });
    after(() => session?.close());

    test("MUST list graphql_query and the operation tools with the view's URI, and the app-only tool", async () => {
      const { tools } = await session.client.listTools();
      const meta = (name: string) =>
        tools.find((tool) => tool.name === name)?._meta as Record<string, unknown>;
      for (const name of ['graphql_query', 'Grumble']) {
        assert.deepEqual(meta(name), { ui: { resourceUri: VIEW }, 'ui/resourceUri': VIEW }, name);
      }
      assert.equal(meta('graphql_introspect'), undefined);
      assert.deepEqual((meta(CONFIRM).ui as { visibility: string[] }).visibility, ['app']);
    });

    test('MUST serve the view as the MCP App type: one self-contained HTML file of at most 1 MB, which fetches nothing', async () => {
      const { resources } = await session.client.listResources();
      assert.equal(resources.find((resource) => resource.uri === VIEW)?.mimeType, MIME);
      const [contents] = (await session.client.readResource({ uri: VIEW })).contents;
      assert.equal(contents?.mimeType, MIME);
      const html = (contents as { text: string }).text;
      assert.ok(Buffer.byteLength(html) <= 1024 * 1024, `${Buffer.byteLength(html)} bytes`);
      assert.match(html, /^<!doctype html>/);
      const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
      assert.match(policy, /default-src 'none'/);
      assert.match(policy, /connect-src 'none'/);
      assert.match(policy, /script-src 'sha256-[\w+/=]+'(;|$)/, 'only its own script');
      assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href=/, 'nothing loaded from elsewhere');
      assert.deepEqual((contents?._meta as { ui: { csp: unknown } }).ui.csp, {
        connectDomains: [],
        resourceDomains: [],
        frameDomains: [],
      });
    });

    test('MUST NOT send a mutation that waits for the panel, and MUST keep its confirmation out of what the model reads', async () => {
      const before = mutationsSent();
      const result = await session.call('graphql_query', { ...add, headers: HEADER });
      assert.equal(result.isError, undefined);
      assert.match(text(result), /Waiting for the user/);
      assert.equal(
        (result.structuredContent as { extensions: { 'graphql-mcp': { waitsFor: string } } }).extensions[
          'graphql-mcp'
        ].waitsFor,
        'panel',
      );
      assert.equal(mutationsSent(), before, 'nothing sent');
      const confirmation = confirmationOf(result);
      assert.match(confirmation, /^v1\./);
      const question = (result._meta as Record<string, string>)['graphql-mcp/question'] ?? '';
      assert.match(question, /addReview\(bookId: "b3", rating: 4, text: "kept quiet"\)/);
      assert.match(question, /X-Request-Tag/, 'the headers the call adds, by name');
      const visible = JSON.stringify([result.content, result.structuredContent]);
      assert.ok(!visible.includes(confirmation), 'not in content or structuredContent');
      assert.ok(!visible.includes(confirmation.split('.')[1]!.slice(0, 40)), 'nor any part of it');
      assert.ok(!confirmation.includes('tag-6a5b4c3d2e1f'), "the call's header value is sealed");
      assert.ok(!Buffer.from(confirmation.split('.')[1]!, 'base64url').toString().includes('tag-6a5b'));
    });

    test('MUST run a confirmed mutation once, with the headers of the call, and refuse the same confirmation again', async () => {
      const before = mutationsSent();
      const waiting = await session.call('graphql_query', { ...add, headers: HEADER });
      const ran = await session.call(CONFIRM, { confirmation: confirmationOf(waiting) });
      assert.deepEqual(ran.structuredContent, { data: { addReview: { rating: 4 } } });
      assert.equal(mutationsSent(), before + 1);
      assert.equal(api.requests.at(-1)?.headers['x-request-tag'], 'tag-6a5b4c3d2e1f');
      const again = await session.call(CONFIRM, { confirmation: confirmationOf(waiting) });
      assert.match(text(again), /^MUTATION_NOT_ALLOWED: .*used already.*nothing was sent/);
      assert.equal(mutationsSent(), before + 1);
    });

    test('MUST run an operation tool that waits once confirmed', async () => {
      const before = mutationsSent();
      const waiting = await session.call('Grumble', { id: 'b4' });
      assert.equal(mutationsSent(), before);
      const ran = await session.call(CONFIRM, { confirmation: confirmationOf(waiting) });
      assert.deepEqual(ran.structuredContent, { data: { addReview: { rating: 2 } } });
      assert.equal(mutationsSent(), before + 1);
    });

    test('MUST NOT send anything for no confirmation or an altered one', async () => {
      const before = mutationsSent();
      const waiting = await session.call('graphql_query', add);
      const confirmation = confirmationOf(waiting);
      const [prefix, body, mac] = confirmation.split('.') as [string, string, string];
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { p: { b: string } };
      const rebound = Buffer.from(JSON.stringify({ ...payload, p: { ...payload.p, b: 'x' } })).toString(
        'base64url',
      );
      const flipped = mac.slice(0, -2) + (mac.at(-2) === 'A' ? 'B' : 'A') + mac.at(-1);
      for (const args of [
        {},
        { confirmation: '' },
        { confirmation: 'v1.forged.signature' },
        { confirmation: `${prefix}.${body}.${flipped}` },
        { confirmation: `${prefix}.${rebound}.${mac}` },
      ]) {
        const refused = await session.call(CONFIRM, args);
        assert.equal(refused.isError, true, JSON.stringify(args));
        assert.match(text(refused), /^(INVALID_INPUT|MUTATION_NOT_ALLOWED): /);
      }
      assert.equal(mutationsSent(), before);
      // The real one still works: a refused attempt does not use it up.
      await session.call(CONFIRM, { confirmation });
      assert.equal(mutationsSent(), before + 1);
    });
  });
}

test('MUST NOT send a mutation whose confirmation expired (--confirmTimeout)', async () => {
  const session = await stdio(APPS, { args: ['--confirmTimeout=1'] });
  try {
    const before = mutationsSent();
    const waiting = await session.call('graphql_query', add);
    // A confirmation is valid to the whole second after --confirmTimeout.
    await sleep(2_100);
    const late = await session.call(CONFIRM, { confirmation: confirmationOf(waiting) });
    assert.match(text(late), /^MUTATION_DECLINED: the user did not run it within 1 s/);
    assert.equal(mutationsSent(), before);
  } finally {
    await session.close();
  }
});

test('MUST NOT accept the confirmation of another server process (another key)', async () => {
  const [first, second] = [await stdio(APPS), await stdio(APPS)];
  try {
    const before = mutationsSent();
    const waiting = await first.call('graphql_query', add);
    const foreign = await second.call(CONFIRM, { confirmation: confirmationOf(waiting) });
    assert.match(text(foreign), /^MUTATION_NOT_ALLOWED: .*altered or not minted by this server/);
    assert.equal(mutationsSent(), before);
  } finally {
    await Promise.all([first.close(), second.close()]);
  }
});

describe('remote mode: the session id carries MCP Apps, and a confirmation is its user’s alone (OAuth)', () => {
  let issuer: TestIssuer;
  let remote: HttpMcpProcess;
  let audience: string;
  before(async () => {
    ({ issuer, remote, audience } = await startOAuthRemote([`--endpoint=${api.url}`]));
  });
  after(async () => {
    await remote?.stop();
    await issuer?.close();
  });

  async function as(
    sub: string,
    capabilities: ClientCapabilities = APPS,
    modern = false,
  ): Promise<Connected> {
    const token = await issuer.sign({ sub, aud: audience, scope: 'mcp:use' });
    const client = new Client(
      { name: `apps-${sub}`, version: '1.0.0' },
      { capabilities, ...(modern && { versionNegotiation: { mode: { pin: '2026-07-28' as const } } }) },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(remote.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return connected(client);
  }

  test('MUST list the view to a 2025-era client that declared MCP Apps at initialize, and not to another', async () => {
    const [apps, plain] = [await as('alice'), await as('alice', {})];
    try {
      const meta = async (session: Connected) =>
        (await session.client.listTools()).tools.find((tool) => tool.name === 'graphql_query')?._meta;
      assert.deepEqual(await meta(apps), { ui: { resourceUri: VIEW }, 'ui/resourceUri': VIEW });
      assert.equal(await meta(plain), undefined);
    } finally {
      await Promise.all([apps.close(), plain.close()]);
    }
  });

  test('MUST list the view to a 2026-07-28 client that declares MCP Apps in its requests, and run its confirmed mutation once', async () => {
    const [apps, plain] = [await as('carol', APPS, true), await as('carol', {}, true)];
    try {
      const meta = async (session: Connected) =>
        (await session.client.listTools()).tools.find((tool) => tool.name === 'graphql_query')?._meta;
      assert.deepEqual(await meta(apps), { ui: { resourceUri: VIEW }, 'ui/resourceUri': VIEW });
      assert.equal(await meta(plain), undefined);
      const before = mutationsSent();
      const waiting = await apps.call('graphql_query', add);
      assert.equal(mutationsSent(), before);
      await apps.call(CONFIRM, { confirmation: confirmationOf(waiting) });
      await apps.call(CONFIRM, { confirmation: confirmationOf(waiting) });
      assert.equal(mutationsSent(), before + 1);
    } finally {
      await Promise.all([apps.close(), plain.close()]);
    }
  });

  test("MUST NOT send a mutation confirmed with another user's confirmation", async () => {
    const [alice, bob] = [await as('alice'), await as('bob')];
    try {
      const before = mutationsSent();
      const waiting = await alice.call('graphql_query', add);
      const stolen = await bob.call(CONFIRM, { confirmation: confirmationOf(waiting) });
      assert.match(text(stolen), /^MUTATION_NOT_ALLOWED: .*given for another call/);
      assert.equal(mutationsSent(), before);
      const ran = await alice.call(CONFIRM, { confirmation: confirmationOf(waiting) });
      assert.deepEqual(ran.structuredContent, { data: { addReview: { rating: 4 } } });
      assert.equal(mutationsSent(), before + 1);
    } finally {
      await Promise.all([alice.close(), bob.close()]);
    }
  });
});
