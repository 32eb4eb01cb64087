// Start-up pays only for what serving needs: a server that starts and lists its tools, and is closed, has loaded
// neither node:crypto (loaded when a question is first signed, an epoch first made, a token first hashed) nor
// node:fs/promises (the MCP Apps view, read when a client first asks for it), nor read the chunk of the bundle that
// holds graphql-js (a call's path, read on the first call). The built server, preloaded with a probe that records
// the built-in modules it loaded and the files of the modules it read.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI } from '../fixtures/mcp.ts';

const PROBE = new URL('../fixtures/module-probe.mjs', import.meta.url).href;

/** The built-in modules a server loaded, started with `args` and asked `ask` by a client. */
async function loadedBy(
  ask: (client: Client) => Promise<unknown>,
  capabilities: Record<string, unknown> = {},
): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-probe-'));
  const file = join(dir, 'modules.json');
  try {
    const client = new Client({ name: 'startup-lazy', version: '1.0.0' }, { capabilities });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', PROBE, CLI, '--endpoint=http://127.0.0.1:9/graphql'],
      env: { PATH: process.env.PATH ?? '', MODULE_PROBE_FILE: file },
      stderr: 'ignore',
    });
    await client.connect(transport);
    await ask(client);
    const exited = new Promise((resolve) => (transport.onclose = () => resolve(undefined)));
    await client.close();
    await exited;
    for (let waited = 0; waited < 5_000; waited += 50) {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as string[];
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    assert.fail('the probe wrote nothing');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('start-up and tools/list load neither node:crypto nor node:fs/promises', async () => {
  const loaded = await loadedBy((client) => client.listTools());
  assert.ok(loaded.length > 0, 'the probe recorded modules');
  assert.deepEqual(
    loaded.filter((name) => /crypto\b|NativeModule fs\/promises$/.test(name)),
    [],
  );
});

test('the check can fail: reading the MCP Apps view loads node:fs/promises', async () => {
  const apps = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
  const loaded = await loadedBy(async (client) => {
    await client.listTools();
    await client.readResource({ uri: 'ui://graphql-mcp/query' });
  }, apps);
  assert.ok(
    loaded.includes('NativeModule fs/promises'),
    loaded.filter((name) => name.includes('fs')).join(', '),
  );
});

/** The files of the bundle a server read that hold graphql-js (its schema class's name). */
const graphqlChunks = (loaded: string[]) =>
  loaded
    .filter((name) => name.startsWith('file:') && name.endsWith('.mjs'))
    .filter((url) => readFileSync(fileURLToPath(url), 'utf8').includes('GraphQLSchema'));

test("start-up and tools/list read no file of the bundle that holds graphql-js; a call's first query does", async () => {
  const listed = await loadedBy((client) => client.listTools());
  assert.ok(
    listed.some((name) => name.endsWith('/server.mjs')),
    `the probe recorded the bundle's files: ${listed.filter((name) => name.startsWith('file:')).join(', ')}`,
  );
  assert.deepEqual(graphqlChunks(listed), []);
  const called = await loadedBy(async (client) => {
    await client.listTools();
    await client.callTool({ name: 'graphql_query', arguments: { query: '{ __typename }' } });
  });
  assert.equal(graphqlChunks(called).length, 1, 'the call read the chunk of graphql-js');
});
