import {
  isInputRequiredResult,
  LOG_LEVEL_META_KEY,
  type CallToolResult,
  type InputRequiredResult,
  type LoggingLevel,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';

/** The protocol era a server instance serves: 2025's initialize handshake, or 2026-07-28's per-request envelope. */
export type Era = 'legacy' | 'modern';

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

/**
 * How each tool call ended, as an MCP log notification, and as a JSON line through `log` when one is given
 * (remote mode's stderr).
 *
 * Which notifications are sent follows each era's rules. 2026-07-28: only when the request's `_meta` asks
 * for a level. 2025: at the level the client set with logging/setLevel; until it sets one, at notice, so a
 * failed call (warning) is reported and an answered one (info) is not: most clients never read them, and
 * one per call would cost them (and us) more than the call's own answer for a small query.
 */
export class Diagnostics {
  /** The 2025 era's level, from logging/setLevel. */
  #level: LoggingLevel = 'notice';

  constructor(
    server: McpServer,
    private readonly era: Era,
    private readonly log?: (line: string) => void,
  ) {
    // The SDK's own handler would make the level "everything" until the client sets one.
    if (era === 'legacy') {
      server.server.setRequestHandler('logging/setLevel', (request) => {
        this.#level = request.params.level;
        return {};
      });
    }
  }

  /** A tool handler that runs `run` and reports its outcome. */
  reported<A>(
    tool: string,
    run: (args: A, context: ServerContext) => Promise<CallToolResult | InputRequiredResult>,
  ) {
    return async (args: A, context: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
      const started = performance.now();
      const result = await run(args, context);
      // A question put to the user (2026-07-28): the call is answered when the client calls again.
      if (isInputRequiredResult(result)) return result;
      const ms = Math.round(performance.now() - started);
      const first = result.content[0];
      const text = first?.type === 'text' ? first.text : '';
      // A log line never quotes what an endpoint sent: an error text of ours (its code first, already
      // redacted) is quoted; a GraphQL response with errors only, not a word of it.
      const outcome = !result.isError
        ? 'answered'
        : /^[A-Z][A-Z_]*: /.test(text)
          ? text.slice(0, 300)
          : 'GraphQL errors, no data';
      await this.#report(context, result.isError ? 'warning' : 'info', `${tool}: ${outcome} (${ms} ms)`);
      return result;
    };
  }

  async #report(context: ServerContext, level: LoggingLevel, data: string): Promise<void> {
    this.log?.(JSON.stringify({ time: new Date().toISOString(), level, message: data }));
    const threshold = this.era === 'modern' ? asked(context) : this.#level;
    if (threshold === undefined || SEVERITY.indexOf(level) < SEVERITY.indexOf(threshold)) return;
    if (context.mcpReq.signal.aborted) return;
    await context.mcpReq
      .notify({ method: 'notifications/message', params: { level, logger: 'graphql-mcp', data } })
      .catch(() => undefined);
  }
}

/** The level a 2026-07-28 request asks for in its `_meta`, if any. */
function asked(context: ServerContext): LoggingLevel | undefined {
  const envelope: Record<string, unknown> = context.mcpReq.envelope ?? {};
  const level = envelope[LOG_LEVEL_META_KEY];
  return typeof level === 'string' && SEVERITY.includes(level as LoggingLevel)
    ? (level as LoggingLevel)
    : undefined;
}
