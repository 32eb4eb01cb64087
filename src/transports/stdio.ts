import type { Config } from '../config.js';
import type { StdioEngine } from '../engine.js';
import { loadEngine, startupRecord } from '../engine-loader.js';
import { initializeResult, toolsListResult, type StartupRecord } from '../startup.js';
import { StdioLines } from './stdio-lines.js';

/**
 * Serves one MCP client over stdin/stdout until it closes stdin or a signal ends the process.
 *
 * A host starts its servers together and lists their tools before anything else, so start-up is what users
 * wait for. The MCP SDK (the engine, engine.ts) takes longer to load than Node.js takes to start; so the
 * first messages (initialize, notifications/initialized, ping, tools/list) are answered here from the answers
 * the build recorded from the SDK (startup.ts), and the engine loads right after tools/list, or as soon as a
 * message needs it. It is then given the client's initialize, as if it had answered it, and every message
 * from there on.
 */
export function serveStdio(
  config: Config,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): void {
  let engine: StdioEngine | undefined;
  let record: StartupRecord | undefined;
  const startup: string[] = [];
  let stopping = false;

  const engineNow = (): StdioEngine => {
    if (engine === undefined) {
      lines.useStreams();
      engine = loadEngine().openStdio(argv, env, (line) => lines.write(line), startup);
    }
    return engine;
  };

  const answerAtStartup = (line: string): boolean => {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      return false;
    }
    if (typeof message !== 'object' || message === null || message.jsonrpc !== '2.0') return false;
    const { id, method, params } = message;
    if (method === 'notifications/initialized' && id === undefined) {
      startup.push(line);
      return true;
    }
    if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
    const answer = (result: object) => void lines.write(JSON.stringify({ result, jsonrpc: '2.0', id }));
    record ??= startupRecord();
    if (method === 'initialize' && startup.length === 0 && isInitializeParams(params)) {
      startup.push(line);
      answer(initializeResult(record, params.protocolVersion));
      return true;
    }
    if (method === 'ping' && (params === undefined || isObject(params))) {
      answer({});
      return true;
    }
    if (
      method === 'tools/list' &&
      (params === undefined || (isObject(params) && isCursor(params['cursor'])))
    ) {
      answer(toolsListResult(record, config));
      // The host lists tools at start-up and calls them later: the engine loads in between.
      lines.useStreams();
      setTimeout(() => void (stopping || engineNow()), 0);
      return true;
    }
    return false;
  };

  const lines = new StdioLines(
    (line) => {
      if (engine !== undefined || !answerAtStartup(line)) engineNow().receive(line);
    },
    (why) => {
      if (why !== undefined) log(`graphql-mcp: ${why}; ending the session`);
      stop();
    },
  );

  const stop = (signal?: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    if (signal !== undefined && lines.exitMayHang) {
      // Node's exit would wait for the pending read of stdin: the signal's own default action ends the
      // process at once instead.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    void (engine?.close() ?? Promise.resolve()).finally(() => process.exit(0));
    // A close that hangs must not keep the process alive.
    setTimeout(() => process.exit(0), 500).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  lines.start();
}

/** A JSON-RPC message as far as start-up looks at it. */
interface Message {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCursor = (value: unknown) => value === undefined || typeof value === 'string';

/** The shape the SDK requires of initialize's params; anything else goes to the SDK for its own answer. */
function isInitializeParams(params: unknown): params is { protocolVersion: string } {
  if (!isObject(params) || typeof params['protocolVersion'] !== 'string') return false;
  const { capabilities, clientInfo } = params;
  return (
    isObject(capabilities) &&
    isObject(clientInfo) &&
    typeof clientInfo['name'] === 'string' &&
    typeof clientInfo['version'] === 'string'
  );
}
