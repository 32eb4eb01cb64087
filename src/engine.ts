// The engine: everything but start-up, bundled on its own (dist/engine.cjs) and loaded by the bin when first
// needed (engine-loader.ts). It parses the command line again rather than take the bin's Config: the two
// bundles have their own copies of the config modules, and so of their classes.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { parseCommand, type Config } from './config.js';
import { createServer } from './server.js';
import type { StartupRecord } from './startup.js';
import type { RunningHttpServer } from './transports/http.js';
import { plainDispatch, readMessage } from './transports/jsonrpc.js';

/** An MCP server session on stdio lines (transports/stdio.ts owns stdin and stdout). */
export interface StdioEngine {
  /** One line from stdin. */
  receive(line: string): void;
  close(): Promise<void>;
}

/** The id the engine's own answer to the client's initialize is sent under, to be dropped: the client has its answer. */
const REPLAYED = 'graphql-mcp:initialize-replayed';

/**
 * Starts the MCP server on lines from stdio. `startup` holds the lines answered before the engine was
 * loaded (initialize, notifications/initialized): it gets them first, so that it knows the client.
 */
export function openStdio(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  write: (line: string) => Promise<void>,
  startup: readonly string[],
): StdioEngine {
  const server = createServer(configOf(argv, env));
  const transport = new LineTransport(write, plainDispatch(server.server));
  void server.connect(transport);
  for (const line of startup) {
    const message = JSON.parse(line) as JSONRPCMessage;
    transport.receive(JSON.stringify('id' in message ? { ...message, id: REPLAYED } : message));
  }
  return { receive: (line) => transport.receive(line), close: () => server.close() };
}

/** Remote mode: the Streamable HTTP server. */
export async function serveHttp(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<RunningHttpServer> {
  // Imported when used, as before the split: bundled eagerly, the SDK's web-standard transport puts zod's
  // module initialisation out of order (esbuild), and stdio sessions have no use for it.
  const http = await import('./transports/http.js');
  return http.serveHttp(configOf(argv, env), log);
}

/** What the SDK answers to initialize and tools/list, for the build to record (see startup.ts). */
export async function recordStartup(): Promise<StartupRecord> {
  const ask = async (argv: string[], method: string, params: object) => {
    const answers: JSONRPCMessage[] = [];
    const transport = new LineTransport(async (line) => void answers.push(JSON.parse(line)));
    const server = createServer(configOf(argv, {}));
    await server.connect(transport);
    transport.receive(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
    while (answers.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await server.close();
    const [answer] = answers;
    if (answer === undefined || !('result' in answer))
      throw new Error(`${method}: ${JSON.stringify(answer)}`);
    return answer.result;
  };
  const { protocolVersion: _, ...initialize } = await ask([], 'initialize', {
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS[0],
    capabilities: {},
    clientInfo: { name: 'build', version: '0' },
  });
  const tools = async (argv: string[]) => (await ask(argv, 'tools/list', {}))['tools'] as never;
  return {
    protocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
    initialize,
    tools: { default: await tools([]), readOnly: await tools(['--readOnly']) },
  };
}

function configOf(argv: readonly string[], env: NodeJS.ProcessEnv): Config {
  const command = parseCommand(argv, env);
  if (command.kind !== 'serve') throw new Error(`graphql-mcp: no server for --${command.kind}`);
  return command.config;
}

/**
 * The SDK's stdio transport, on lines that transports/stdio.ts reads and writes: the same framing and the
 * same checks of each message (a line that is not a JSON-RPC message is reported to onerror and dropped).
 */
class LineTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  #replayAnswered = false;

  /** `dispatchPlain`: where plain requests go, past the SDK's type guards (transports/jsonrpc.ts). */
  constructor(
    private readonly write: (line: string) => Promise<void>,
    private readonly dispatchPlain?: (message: JSONRPCMessage) => void,
  ) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#replayAnswered && 'id' in message && message.id === REPLAYED && !('method' in message)) {
      this.#replayAnswered = true;
      return;
    }
    await this.write(JSON.stringify(message));
  }

  async close(): Promise<void> {
    this.onclose?.();
  }

  receive(line: string): void {
    let read: ReturnType<typeof readMessage>;
    try {
      read = readMessage(JSON.parse(line));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (read.plain && this.dispatchPlain !== undefined) this.dispatchPlain(read.message);
    else this.onmessage?.(read.message);
  }
}
