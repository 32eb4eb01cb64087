import { McpServer } from '@modelcontextprotocol/server';
import type { Config } from './config.js';
import { Diagnostics, type Era } from './diagnostics.js';
import { registerGraphQLIntrospect } from './tools/graphql-introspect.js';
import { registerGraphQLQuery } from './tools/graphql-query.js';
import { VERSION } from './version.js';

const INSTRUCTIONS =
  'Tools for a GraphQL API. Learn the schema with graphql_introspect, then run queries with graphql_query. ' +
  'Results are GraphQL responses; failures start with an error code (e.g. COMPLEXITY_LIMIT) and say what to change.';

/**
 * The tool list changes only when the server restarts with other options; clients of the 2026-07-28 protocol
 * may keep it (and server/discover's answer) this long. It depends on no user, so shared caches may too.
 */
const LIST_CACHE = { ttlMs: 5 * 60_000, cacheScope: 'public' } as const;

/** Options of one server instance: which protocol era it serves, and where remote mode's request log goes. */
export interface ServerOptions {
  readonly era?: Era;
  /** Receives one JSON line per tool call (remote mode writes them to stderr). */
  readonly log?: (line: string) => void;
}

/**
 * An MCP server with both tools registered, not yet connected to a transport. No I/O: the SDK's serving
 * entries (serveStdio, createMcpHandler) call it once per connection or request.
 */
export function createServer(config: Config, options: ServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'graphql-mcp', version: VERSION },
    {
      // The tools are fixed for the life of the process: no list_changed notification will ever come.
      capabilities: { tools: { listChanged: false }, logging: {} },
      instructions: INSTRUCTIONS,
      cacheHints: { 'tools/list': LIST_CACHE, 'server/discover': LIST_CACHE },
    },
  );
  const diagnostics = new Diagnostics(server, options.era ?? 'legacy', options.log);
  registerGraphQLQuery(server, config, diagnostics);
  registerGraphQLIntrospect(server, config, diagnostics);
  return server;
}
