import { McpServer } from '@modelcontextprotocol/server';
import type { BuiltInTool, Config } from './config.js';
import { Diagnostics, type Era } from './diagnostics.js';
import type { LiveOperations } from './operations/live.js';
import { Confirmer } from './tools/confirmation.js';
import { registerGraphQLIntrospect } from './tools/graphql-introspect.js';
import { registerGraphQLQuery } from './tools/graphql-query.js';
import { OperationTools } from './tools/operation-tools.js';
import { VERSION } from './version.js';

const INSTRUCTIONS =
  'Tools for a GraphQL API. Learn the schema with graphql_introspect, then run queries with graphql_query. ' +
  'Results are GraphQL responses; failures start with an error code (e.g. COMPLEXITY_LIMIT) and say what to change.';

/**
 * The tool list changes only when the server restarts with other options (unless operation files are
 * watched); clients of the 2026-07-28 protocol may keep it (and server/discover's answer) this long. Per-tool
 * OAuth scopes make it depend on the user: then only the user's own cache may keep it.
 */
const LIST_CACHE = { ttlMs: 5 * 60_000, cacheScope: 'public' } as const;
const PRIVATE_LIST_CACHE = { ...LIST_CACHE, cacheScope: 'private' } as const;

function listCache(perUser: boolean) {
  const hint = perUser ? PRIVATE_LIST_CACHE : LIST_CACHE;
  return { 'tools/list': hint, 'server/discover': hint };
}

/** Options of one server instance: which protocol era it serves, and where remote mode's request log goes. */
export interface ServerOptions {
  readonly era?: Era;
  /** Receives one JSON line per tool call (remote mode writes them to stderr). */
  readonly log?: (line: string) => void;
  /** The operator's operations as tools (--operations); followed as they change when they are watched. */
  readonly operations?: LiveOperations;
  /** Which tools this server offers (remote mode: those the request's token has the scopes for). */
  readonly allowTool?: (name: string) => boolean;
}

/**
 * An MCP server with its tools registered (the built-in ones --tools names, and the operation tools), not yet
 * connected to a transport. No I/O: the SDK's serving entries (serveStdio, createMcpHandler) call it once per
 * connection or request.
 */
export function createServer(config: Config, options: ServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'graphql-mcp', version: VERSION },
    {
      // Only watched operation files change the tools during the life of the process.
      capabilities: { tools: { listChanged: options.operations?.watched ?? false }, logging: {} },
      instructions: INSTRUCTIONS,
      // Watched operation files may change the list at any time: then it is not to be kept.
      ...(options.operations?.watched ? {} : { cacheHints: listCache(options.allowTool !== undefined) }),
      // A reload removes, updates and adds tools one by one, each of which would tell the client again.
      debouncedNotificationMethods: ['notifications/tools/list_changed'],
    },
  );
  const era = options.era ?? 'legacy';
  const diagnostics = new Diagnostics(server, era, options.log);
  const confirmer = new Confirmer(server, era, config);
  const allowed = options.allowTool ?? (() => true);
  const offers = (tool: BuiltInTool) => config.tools.includes(tool) && allowed(tool);
  if (offers('graphql_query')) registerGraphQLQuery(server, config, diagnostics, confirmer);
  if (offers('graphql_introspect')) registerGraphQLIntrospect(server, config, diagnostics);
  const { operations } = options;
  if (operations !== undefined) {
    const tools = new OperationTools(server, config, diagnostics, confirmer, allowed);
    tools.show(operations.current);
    if (operations.watched) {
      const unsubscribe = operations.subscribe((set) => tools.show(set));
      server.server.onclose = unsubscribe;
    }
  }
  return server;
}
