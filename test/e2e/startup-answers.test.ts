// The stdio start-up answers initialize and tools/list before the MCP SDK is loaded (src/transports/stdio.ts),
// from what the build recorded of the SDK's answers. These tests hold them to the SDK: the same results as
// the engine gives once loaded, for every configuration that changes them, and a clean end in every phase.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { parseCommand } from '../../src/config.ts';
import { createServer } from '../../src/server.ts';
import { CLI } from '../fixtures/mcp.ts';
import { RawMcp, type JsonRpcMessage } from '../stress/harness.ts';

const { version: VERSION } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as { version: string };

const ENDPOINT = 'http://127.0.0.1:9/graphql';

/** What the SDK's McpServer answers to one request, in this process. */
async function sdkAnswer(argv: string[], method: string, params: Record<string, unknown>): Promise<unknown> {
  const command = parseCommand(argv, {});
  assert.equal(command.kind, 'serve');
  const server = createServer(command.config);
  const [client, ours] = InMemoryTransport.createLinkedPair();
  const answer = new Promise<JSONRPCMessage>((resolve) => (client.onmessage = resolve));
  await server.connect(ours);
  await client.start();
  await client.send({ jsonrpc: '2.0', id: 1, method, params });
  const message = await answer;
  await server.close();
  assert.ok('result' in message, JSON.stringify(message));
  // As it would cross the wire (in memory, fields set to undefined are still there).
  const result = JSON.parse(JSON.stringify(message.result)) as { serverInfo?: { version: string } };
  // Run from source, the server has no release version; the build writes package.json's into the bin.
  if (result.serverInfo?.version === '0.0.0-dev') result.serverInfo.version = VERSION;
  return result;
}

const clientInfo = { name: 'startup-answers', version: '1.0.0' };

describe('start-up answers', () => {
  const configs = [
    [`--endpoint=${ENDPOINT}`],
    [`--endpoint=${ENDPOINT}`, '--readOnly'],
    [`--endpoint=${ENDPOINT}`, '--maxComplexity=0', '--maxSchemaChars=5000'],
    ['--maxComplexity=7', '--endpoint=https://api.example.com/graphql?key=abc'],
  ];
  for (const argv of configs) {
    const extra = argv.filter((arg) => arg !== `--endpoint=${ENDPOINT}`);
    test(`tools/list at start-up equals the SDK's own answer (${extra.join(' ') || 'defaults'})`, async () => {
      const mcp = new RawMcp(argv);
      try {
        await mcp.initialize();
        const early = await mcp.request('tools/list');
        // A call needs the engine: from here on the SDK answers everything.
        await mcp.callTool('graphql_query', { query: '{ a' });
        const late = await mcp.request('tools/list');
        assert.deepEqual(early.result, late.result);
        assert.deepEqual(early.result, await sdkAnswer(argv, 'tools/list', {}));
        assert.deepEqual(mcp.strayLines, []);
      } finally {
        mcp.kill();
      }
    });
  }

  for (const version of [LATEST_PROTOCOL_VERSION, '2024-11-05', '1999-01-01']) {
    test(`initialize for protocol version ${version} is answered as the SDK answers it`, async () => {
      const argv = [`--endpoint=${ENDPOINT}`];
      const params = { protocolVersion: version, capabilities: {}, clientInfo };
      const mcp = new RawMcp(argv);
      try {
        const answer = await mcp.request('initialize', params);
        assert.deepEqual(answer.result, await sdkAnswer(argv, 'initialize', params));
      } finally {
        mcp.kill();
      }
    });
  }

  test('an initialize the SDK would refuse is left to the SDK, which refuses it', async () => {
    const mcp = new RawMcp([`--endpoint=${ENDPOINT}`]);
    try {
      const answer = await mcp.request('initialize', { protocolVersion: 42, capabilities: {}, clientInfo });
      assert.ok(answer.error, JSON.stringify(answer));
      assert.equal(answer.result, undefined);
    } finally {
      mcp.kill();
    }
  });

  test('the engine loaded later knows the session: calls, pings and log levels work after start-up', async () => {
    const mcp = new RawMcp([`--endpoint=${ENDPOINT}`]);
    try {
      await mcp.initialize();
      assert.deepEqual((await mcp.request('ping')).result, {});
      assert.deepEqual((await mcp.request('logging/setLevel', { level: 'error' })).result, {});
      const call = await mcp.callTool('graphql_query', { query: '{ a' });
      const result = call.result as { isError?: boolean; content: Array<{ text: string }> };
      assert.equal(result.isError, true);
      assert.match(result.content[0]!.text, /^SYNTAX_ERROR/);
      // The engine's own answer to the replayed initialize never reaches the client.
      const answers = mcp.stdoutMessages().filter((message) => message.method === undefined);
      assert.equal(answers.length, 4, JSON.stringify(answers));
      assert.deepEqual(mcp.strayLines, []);
    } finally {
      mcp.kill();
    }
  });

  test('while the engine loads, messages wait for it in order and pings are still answered', async () => {
    const mcp = new RawMcp([`--endpoint=${ENDPOINT}`]);
    try {
      await mcp.initialize();
      // The first call makes the engine load; what follows it in the same write comes while it loads.
      const written = [
        {
          jsonrpc: '2.0',
          id: 10,
          method: 'tools/call',
          params: { name: 'graphql_query', arguments: { query: '{ a' } },
        },
        { jsonrpc: '2.0', id: 11, method: 'ping' },
        { jsonrpc: '2.0', id: 12, method: 'logging/setLevel', params: { level: 'error' } },
        { jsonrpc: '2.0', id: 13, method: 'tools/list' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 14 } },
        {
          jsonrpc: '2.0',
          id: 15,
          method: 'tools/call',
          params: { name: 'graphql_query', arguments: { query: '{ b' } },
        },
      ];
      mcp.child.stdin.write(written.map((message) => `${JSON.stringify(message)}\n`).join(''));
      // Every request answered: the initialize and the five written (the cancelled one never was asked).
      const answers = new Map<unknown, JsonRpcMessage>();
      for (let waited = 0; answers.size < 6 && waited < 5_000; waited += 10) {
        for (const message of mcp.stdoutMessages())
          if (message.id !== undefined) answers.set(message.id, message);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.deepEqual(answers.get(11)?.result, {});
      assert.deepEqual(answers.get(12)?.result, {});
      assert.equal((answers.get(13)?.result as { tools: unknown[] }).tools.length, 2);
      for (const id of [10, 15]) {
        const result = answers.get(id)?.result as { content: Array<{ text: string }> };
        assert.match(result.content[0]!.text, /^SYNTAX_ERROR/, `call ${id}`);
      }
      // One answer to each request, and none to the initialize replayed to the engine.
      const all = mcp.stdoutMessages().filter((message) => message.method === undefined);
      assert.deepEqual(all.map((message) => message.id).sort(), [1, 10, 11, 12, 13, 15].sort());
      assert.deepEqual(mcp.strayLines, []);
    } finally {
      mcp.kill();
    }
  });

  test('messages over 1 MB wait a turn for the engine, and lose nothing: around them, and with stdin closed right after, every request is answered', async () => {
    const mcp = new RawMcp([`--endpoint=${ENDPOINT}`]);
    try {
      await mcp.initialize();
      const loaded = await mcp.request('tools/call', { name: 'graphql_query', arguments: { query: '{ a' } });
      assert.ok(loaded.result, 'the engine answers');
      const longCall = (id: number) => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'graphql_query', arguments: { query: `{ a ${' '.repeat(2_000_000)}}` } },
      });
      const written = [
        longCall(20),
        { jsonrpc: '2.0', id: 21, method: 'ping' },
        { jsonrpc: '2.0', id: 22, method: 'logging/setLevel', params: { level: 'error' } },
        longCall(23),
        {
          jsonrpc: '2.0',
          id: 24,
          method: 'tools/call',
          params: { name: 'graphql_query', arguments: { query: '{ b' } },
        },
        { jsonrpc: '2.0', id: 25, method: 'ping' },
      ];
      mcp.child.stdin.end(written.map((message) => `${JSON.stringify(message)}\n`).join(''));
      const exit = await mcp.exit;
      assert.equal(exit.code, 0);
      const messages = mcp.stdoutMessages();
      const answer = (id: number) => messages.find((message) => message.id === id);
      for (const id of [21, 22, 25]) assert.deepEqual(answer(id)?.result, {}, `answer to ${id}`);
      for (const id of [20, 23, 24]) {
        const result = answer(id)?.result as { content: Array<{ text: string }> } | undefined;
        assert.match(result?.content[0]?.text ?? JSON.stringify(answer(id)), /^SYNTAX_ERROR/, `call ${id}`);
      }
      const answered = messages.filter((message) => message.method === undefined).map(({ id }) => id);
      assert.deepEqual(answered.sort(), [1, 2, 20, 21, 22, 23, 24, 25].sort());
      assert.deepEqual(mcp.strayLines, []);
    } finally {
      mcp.kill();
    }
  });

  test('requests written just before stdin closes are answered before the process exits', async () => {
    const mcp = new RawMcp([`--endpoint=${ENDPOINT}`]);
    try {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo },
      };
      const call = {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'graphql_query', arguments: { query: '{ a' } },
      };
      mcp.child.stdin.end(
        [initialize, { jsonrpc: '2.0', method: 'notifications/initialized' }, call]
          .map((message) => `${JSON.stringify(message)}\n`)
          .join(''),
      );
      const exit = await mcp.exit;
      assert.equal(exit.code, 0);
      const answer = mcp.stdoutMessages().find((message) => message.id === 2);
      const result = answer?.result as { content: Array<{ text: string }> } | undefined;
      assert.match(result?.content[0]?.text ?? JSON.stringify(answer), /^SYNTAX_ERROR/);
    } finally {
      mcp.kill();
    }
  });

  test('lines are framed as the SDK frames them: CRLF, messages split across writes, UTF-8 split mid-character', async () => {
    const mcp = new RawMcp([`--endpoint=${ENDPOINT}`]);
    const answerTo = async (id: number) => {
      for (let waited = 0; waited < 5_000; waited += 10) {
        const found = mcp.stdoutMessages().find((message) => message.id === id);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`no answer to ${id}`);
    };
    // Each message is written in two parts, cut inside the two bytes of "é", with a pause between them.
    const send = async (message: object) => {
      const bytes = Buffer.from(`${JSON.stringify(message)}\r\n`, 'utf8');
      const cut = bytes.indexOf(Buffer.from('é', 'utf8')) + 1;
      mcp.child.stdin.write(bytes.subarray(0, cut));
      await new Promise((resolve) => setTimeout(resolve, 30));
      mcp.child.stdin.write(bytes.subarray(cut));
    };
    try {
      const params = {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'é', version: '1' },
      };
      await send({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
      assert.ok((await answerTo(1)).result);
      await send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { note: 'é' } } });
      assert.ok((await answerTo(2)).result);
      // Now the engine reads (from Node's stream): the same framing.
      const args = { query: 'query a { __typename }', operationName: 'café' };
      await send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'graphql_query', arguments: args },
      });
      const result = (await answerTo(3)).result as { content: Array<{ text: string }> };
      assert.match(result.content[0]!.text, /^OPERATION_NOT_FOUND: .*"café"/);
      assert.deepEqual(mcp.strayLines, []);
    } finally {
      mcp.kill();
    }
  });

  for (const phase of ['before initialize', 'after initialize', 'after tools/list'] as const) {
    for (const end of ['SIGTERM', 'SIGINT', 'stdin closed'] as const) {
      test(`${end} ${phase} ends the process at once`, async () => {
        const mcp = new RawMcp([`--endpoint=${ENDPOINT}`]);
        try {
          if (phase !== 'before initialize') await mcp.initialize();
          if (phase === 'after tools/list') await mcp.request('tools/list');
          const sent = performance.now();
          if (end === 'stdin closed') mcp.child.stdin.end();
          else mcp.child.kill(end);
          const exit = await Promise.race([
            mcp.exit,
            new Promise<null>((resolve) => setTimeout(() => resolve(null), 3_000).unref()),
          ]);
          assert.ok(exit, 'still running 3 s later');
          // Ended by the signal itself or by exit code 0, never by an error.
          if (exit.signal === null) assert.equal(exit.code, 0);
          else assert.equal(exit.signal, end);
          assert.ok(exit.at - sent < 1_000, `took ${Math.round(exit.at - sent)} ms`);
          assert.deepEqual(mcp.strayLines, []);
        } finally {
          mcp.kill();
        }
      });
    }
  }
});

describe('the code caches of the start-up code and the engine', () => {
  /** A session that loads the engine (one call), and what the server wrote to stderr by its end. */
  async function stderrOfSession(bin = CLI): Promise<string> {
    const mcp = new RawMcp([`--endpoint=${ENDPOINT}`], {}, bin);
    try {
      await mcp.initialize();
      const call = await mcp.callTool('graphql_query', { query: '{ a' });
      assert.match((call.result as { content: Array<{ text: string }> }).content[0]!.text, /^SYNTAX_ERROR/);
      return mcp.stderr().toString('utf8');
    } finally {
      mcp.kill();
    }
  }

  // The heap flags are set once V8 has checked the cache: set before, they would make V8 reject it.
  test('V8 accepts the caches the build made: nothing about them is logged', async () => {
    assert.doesNotMatch(await stderrOfSession(), /cache/);
  });

  /** The built dist/ copied, with `cacheName` altered as by another V8; the stderr of a session on it. */
  async function stderrWithRejected(cacheName: string): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-cache-'));
    try {
      for (const name of readdirSync(dirname(CLI))) copyFileSync(join(dirname(CLI), name), join(dir, name));
      // Its magic number altered: V8 checks the header before reading anything else.
      const cache = readFileSync(join(dir, cacheName));
      cache.writeUInt8(cache.readUInt8(0) ^ 0xff, 0);
      writeFileSync(join(dir, cacheName), cache);
      return await stderrOfSession(join(dir, 'cli.cjs'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  test('a start-up cache V8 rejects is reported on stderr, and the bin, compiled from source, still serves', async () => {
    const stderr = await stderrWithRejected('start.cache');
    assert.match(
      stderr,
      /V8 rejected the start-up code's code cache \(.*start\.cache; .*\): compiling the start-up code from source instead/,
    );
    assert.doesNotMatch(stderr, /engine's code cache/);
  });

  test('an engine cache V8 rejects is reported on stderr, and the engine, compiled from source, still serves', async () => {
    const stderr = await stderrWithRejected('engine.cache');
    assert.match(
      stderr,
      /V8 rejected the engine's code cache \(.*engine\.cache; .*\): compiling the engine from source instead/,
    );
    assert.doesNotMatch(stderr, /start-up code's code cache/);
  });
});
