// stdout is the protocol: a session spoken by hand over the built binary's stdin, with its raw stdout
// read line by line. Also how the process ends: stdin closed, SIGTERM, SIGINT.
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/client';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { CLI } from '../fixtures/mcp.ts';

interface JsonRpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The built binary, spoken to in newline-delimited JSON-RPC by hand, its stdout kept raw. */
class RawSession {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every byte the process wrote to stdout, decoded. */
  stdout = '';
  stderr = '';
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  #nextId = 1;
  #pending = new Map<number, (message: JsonRpcMessage) => void>();
  #buffer = '';

  constructor(args: readonly string[]) {
    this.child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.#receive(chunk));
    this.child.stderr.on('data', (chunk: string) => (this.stderr += chunk));
    this.exit = new Promise((resolve) =>
      this.child.on('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
    );
  }

  #receive(chunk: string): void {
    this.stdout += chunk;
    this.#buffer += chunk;
    for (let end = this.#buffer.indexOf('\n'); end >= 0; end = this.#buffer.indexOf('\n')) {
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 1);
      let message: JsonRpcMessage;
      try {
        message = JSON.parse(line) as JsonRpcMessage;
      } catch {
        continue; // the test reads the raw stdout afterwards and reports such a line
      }
      if (typeof message.id === 'number') this.#pending.get(message.id)?.(message);
    }
  }

  #write(message: Record<string, unknown>): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  }

  request(method: string, params?: Record<string, unknown>): Promise<JsonRpcMessage> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${method} within 10 s`)), 10_000);
      this.#pending.set(id, (message) => {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve(message);
      });
      this.#write({ id, method, ...(params === undefined ? {} : { params }) });
    });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.#write({ method, ...(params === undefined ? {} : { params }) });
  }

  async initialize(): Promise<JsonRpcMessage> {
    const answer = await this.request('initialize', {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'raw-stdout-test', version: '1.0.0' },
    });
    this.notify('notifications/initialized');
    return answer;
  }

  callTool(name: string, args: Record<string, unknown>): Promise<JsonRpcMessage> {
    return this.request('tools/call', { name, arguments: args });
  }

  /** Kills the process if a test left it running. */
  dispose(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function isJsonRpcMessage(message: unknown): boolean {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const m = message as JsonRpcMessage;
  if (m.jsonrpc !== '2.0') return false;
  const isResponse =
    (typeof m.id === 'number' || typeof m.id === 'string') &&
    'result' in m !== 'error' in m &&
    !('method' in m);
  const isRequestOrNotification = typeof m.method === 'string';
  return isResponse || isRequestOrNotification;
}

let demo: RunningGraphQLServer;
let deadPort: number;

before(async () => {
  const api = createLibraryApi();
  demo = await serveGraphQL(api.schema, api.rootValue);
  deadPort = await closedPort();
});

after(async () => {
  await demo.close();
});

describe('stdout', () => {
  test('MUST write nothing but JSON-RPC 2.0 messages to stdout, one per line', async () => {
    const session = new RawSession([
      `--endpoint=${demo.url}`,
      '--headers={"Authorization":"Bearer raw-t0ken"}',
    ]);
    try {
      const init = await session.initialize();
      assert.equal(init.result?.protocolVersion, LATEST_PROTOCOL_VERSION);

      const answers = await Promise.all([
        session.request('tools/list'),
        session.request('ping'),
        session.callTool('graphql_query', { query: '{ books(first: 2) { title author { name } } }' }),
        session.callTool('graphql_query', { query: '{ books { title ' }),
        session.callTool('graphql_query', {
          query: 'mutation { addReview(bookId: "b1", rating: 3) { id } }',
        }),
        session.callTool('graphql_query', { query: 5, timeout: 'soon' }),
        session.callTool('graphql_query', {
          query: '{ books { title } }',
          endpoint: `http://127.0.0.1:${deadPort}/`,
        }),
        session.callTool('graphql_introspect', {}),
        session.callTool('no_such_tool', {}),
        session.request('no/such/method'),
      ]);
      const [list, ping, ok, syntax, mutation, invalid, network, introspect, unknownTool, unknownMethod] =
        answers;

      // The session did what it should, so stdout was exercised with results and errors of every kind.
      assert.deepEqual((list?.result?.tools as Array<{ name: string }>).map((tool) => tool.name).sort(), [
        'graphql_introspect',
        'graphql_query',
      ]);
      assert.deepEqual(ping?.result, {});
      assert.equal(ok?.result?.isError, undefined);
      for (const [answer, code] of [
        [syntax, 'SYNTAX_ERROR'],
        [mutation, 'MUTATION_NOT_ALLOWED'],
        [invalid, 'INVALID_INPUT'],
        [network, 'NETWORK_ERROR'],
      ] as const) {
        const content = answer?.result?.content as Array<{ text: string }>;
        assert.match(content[0]!.text, new RegExp(`^${code}: `));
      }
      assert.match((introspect?.result?.content as Array<{ text: string }>)[0]!.text, /type Query/);
      assert.ok(unknownTool?.error !== undefined || unknownTool?.result?.isError === true);
      assert.equal(unknownMethod?.error?.code, -32601);

      session.child.stdin.end();
      const exit = await session.exit;
      assert.equal(exit.code, 0);

      const raw = session.stdout;
      assert.ok(raw.endsWith('\n'), 'stdout ends with a complete line');
      const lines = raw.slice(0, -1).split('\n');
      const messages = lines.map((line) => {
        let message: unknown;
        assert.doesNotThrow(
          () => (message = JSON.parse(line)),
          `not JSON: ${JSON.stringify(line.slice(0, 200))}`,
        );
        assert.ok(isJsonRpcMessage(message), `not a JSON-RPC 2.0 message: ${line.slice(0, 200)}`);
        return message as JsonRpcMessage;
      });
      const responses = messages.filter(
        (message) => message.id !== undefined && message.method === undefined,
      );
      assert.equal(responses.length, 1 + answers.length, 'one response per request');
      assert.ok(!raw.includes('raw-t0ken'), 'the header value is not on stdout');
    } finally {
      session.dispose();
    }
  });
});

describe('ending the process', () => {
  // It exits in tens of ms (bench/responsiveness.ts); a bound many times that holds on a loaded machine too.
  const EXIT_MS = 10_000;
  for (const how of ['closing stdin', 'SIGTERM', 'SIGINT'] as const) {
    test(`${how} makes the process exit with code 0, without hanging`, async () => {
      const session = new RawSession([`--endpoint=${demo.url}`]);
      try {
        await session.initialize();
        await session.callTool('graphql_query', { query: '{ books(first: 1) { title } }' });
        const started = performance.now();
        if (how === 'closing stdin') session.child.stdin.end();
        else session.child.kill(how);
        const exit = await session.exit;
        assert.equal(exit.signal, null, `ended by ${exit.signal}, not by exiting`);
        assert.equal(exit.code, 0);
        assert.ok(exit.at - started < EXIT_MS, `exited after ${Math.round(exit.at - started)} ms`);
      } finally {
        session.dispose();
      }
    });
  }
});
