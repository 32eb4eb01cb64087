import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  SetLevelRequestSchema,
  type CallToolResult,
  type LoggingLevel,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';

const SEVERITY: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

/** What a tool handler receives from the SDK that diagnostics need. */
interface CallContext {
  readonly signal: AbortSignal;
  sendNotification(notification: ServerNotification): Promise<void>;
}

/**
 * How each tool call ended, as an MCP log notification at the level the client set with logging/setLevel,
 * and as a JSON line through `log` when one is given (remote mode's stderr).
 *
 * Until a client sets a level, notifications start at notice: a failed call (warning) is sent, a call that
 * answered (info) is not. One notification per call is some 15% of the server's work for a small query, and
 * the client parses it too; most clients never ask for them.
 *
 * `afterResult` (stdio): the notification follows the call's result, which so reaches the client sooner.
 * Over HTTP it must come before: it travels on the request's own stream, which the result closes.
 */
export class Diagnostics {
  #level: LoggingLevel = 'notice';

  constructor(
    server: McpServer,
    private readonly afterResult: boolean,
    private readonly log?: (line: string) => void,
  ) {
    // Replaces the SDK's own handler, which keeps a level per session for sendLoggingMessage: ours sends
    // notifications tied to the request, which is what reaches a client in stateless remote mode too.
    server.server.setRequestHandler(SetLevelRequestSchema, (request) => {
      this.#level = request.params.level;
      return {};
    });
  }

  /** A tool handler that runs `run` and reports its outcome. */
  reported<A>(tool: string, run: (args: A, signal: AbortSignal) => Promise<CallToolResult>) {
    return async (args: A, context: CallContext): Promise<CallToolResult> => {
      const started = performance.now();
      const result = await run(args, context.signal);
      const ms = Math.round(performance.now() - started);
      const first = result.content[0];
      const text = first?.type === 'text' ? first.text : '';
      // Error texts start with their code; a GraphQL response is not repeated here.
      const outcome = result.isError ? text.slice(0, 300) : 'answered';
      this.#report(context, result.isError ? 'warning' : 'info', `${tool}: ${outcome} (${ms} ms)`);
      return result;
    };
  }

  #report(context: CallContext, level: LoggingLevel, data: string): void {
    this.log?.(JSON.stringify({ time: new Date().toISOString(), level, message: data }));
    if (SEVERITY.indexOf(level) < SEVERITY.indexOf(this.#level) || context.signal.aborted) return;
    const send = () =>
      void context
        .sendNotification({ method: 'notifications/message', params: { level, logger: 'graphql-mcp', data } })
        .catch(() => undefined);
    // The SDK sends the result in the promise jobs that follow this handler's return: before the next turn.
    if (this.afterResult) setImmediate(send);
    else send();
  }
}
