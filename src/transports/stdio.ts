import type { Config } from '../config.js';
import type { StdioEngine } from '../engine.js';
import { letInputIn } from '../graphql/time-slice.js';
import { loadEngineInTurns, startupRecord } from '../engine-loader.js';
import { initializeResult, toolsListResult } from '../startup.js';
import { StdioLines } from './stdio-lines.js';

/**
 * Serves one MCP client over stdin/stdout until it closes stdin or a signal ends the process.
 *
 * A host starts its servers together and lists their tools before anything else, so start-up is what users
 * wait for. The MCP SDK (the engine, engine.ts) takes longer to load than Node.js takes to start; so the
 * first messages (initialize, notifications/initialized, ping, tools/list) are answered here from the answers
 * the build recorded from the SDK (startup.ts), and the engine loads right after tools/list, or as soon as a
 * message needs it. It is then given the client's initialize, as if it had answered it, and every message
 * from there on; a line over LONG_LINE a turn after it was read, with what follows it.
 */
export function serveStdio(
  config: Config,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): void {
  let engine: StdioEngine | undefined;
  /** Settles once the engine has been given the lines that came while it loaded. */
  let ready: Promise<void> | undefined;
  /** Lines for the engine that came while it loaded, or while a long line waited for its turn; in order. */
  const queued: string[] = [];
  const record = startupRecord();
  /** The tools/list result as JSON: made while the client reads the initialize answer, so ready when asked. */
  let toolsList: string | undefined;
  const listTools = (): string => (toolsList ??= JSON.stringify(toolsListResult(record, config)));
  const startup: string[] = [];
  let stopping = false;

  const loadEngine = (): void => {
    if (ready !== undefined) return;
    lines.useStreams();
    ready = loadEngineInTurns(log)
      .then(async (loaded) => {
        await letInputIn(); // the server starts in a turn of its own too
        engine = loaded.openStdio(argv, env, (line) => lines.write(line), startup);
        deliverQueued();
      })
      .catch((error: unknown) => {
        log(
          `graphql-mcp: the engine failed to load: ${error instanceof Error ? error.message : String(error)}`,
        );
        process.exit(1);
      });
  };

  const deliverQueued = (): void => {
    for (const line of queued.splice(0)) engine!.receive(line);
  };

  /** Answers a message that needs no engine; `pureOnly`: only one that changes nothing (ping, tools/list). */
  const answerAtStartup = (line: string, pureOnly: boolean): boolean => {
    let message: Message;
    try {
      message = JSON.parse(line) as Message;
    } catch {
      return false;
    }
    if (typeof message !== 'object' || message === null || message.jsonrpc !== '2.0') return false;
    const { id, method, params } = message;
    if (method === 'notifications/initialized' && id === undefined && !pureOnly) {
      startup.push(line);
      return true;
    }
    if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
    const answer = (result: string) =>
      void lines.write(`{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
    if (method === 'initialize' && startup.length === 0 && !pureOnly && isInitializeParams(params)) {
      startup.push(line);
      answer(JSON.stringify(initializeResult(record, params.protocolVersion)));
      setImmediate(listTools);
      return true;
    }
    if (method === 'ping' && (params === undefined || isObject(params))) {
      answer('{}');
      return true;
    }
    if (
      method === 'tools/list' &&
      (params === undefined || (isObject(params) && isCursor(params['cursor'])))
    ) {
      answer(listTools());
      // The host lists tools at start-up and calls them later: the engine loads in between.
      lines.useStreams();
      setTimeout(() => stopping || loadEngine(), 0);
      return true;
    }
    return false;
  };

  const lines = new StdioLines(
    (line) => {
      if (engine !== undefined && queued.length === 0) {
        if (line.length < LONG_LINE) return engine.receive(line);
        // A long line was just decoded, and the engine's JSON.parse of it is as long again: it gets a turn
        // of its own, so that a ping read in between is answered in between (below).
        queued.push(line);
        void letInputIn().then(deliverQueued);
        return;
      }
      // While the engine loads, or a long line waits, what the engine will be given waits in order; pings
      // and tools/list, which change nothing, are still answered here.
      if (line.length < LONG_LINE && answerAtStartup(line, queued.length > 0)) return;
      queued.push(line);
      loadEngine();
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
    // What came before the end is handed to the engine and given a turn to start, as it would have been had
    // the engine been loaded all along; only then is the session closed.
    void (ready ?? Promise.resolve())
      .then(() => (engine === undefined ? undefined : letInputIn().then(() => engine?.close())))
      .finally(() => process.exit(0));
    // A close that hangs must not keep the process alive.
    setTimeout(() => process.exit(0), 500).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  lines.start();
}

/**
 * Lines this long (about 1 MB) are handed to the engine a turn after they were read: decoding one and parsing
 * it are each some milliseconds per megabyte.
 */
const LONG_LINE = 1_000_000;

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
