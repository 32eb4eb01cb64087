import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Config } from './config.js';
import { Diagnostics } from './diagnostics.js';
import { registerGraphQLIntrospect } from './tools/graphql-introspect.js';
import { registerGraphQLQuery } from './tools/graphql-query.js';
import { VERSION } from './version.js';

const INSTRUCTIONS =
  'Tools for a GraphQL API. Learn the schema with graphql_introspect, then run queries with graphql_query. ' +
  'Results are GraphQL responses; failures start with an error code (e.g. COMPLEXITY_LIMIT) and say what to change.';

/**
 * An MCP server with both tools registered, not yet connected to a transport. `log` receives one JSON line
 * per tool call (remote mode writes them to stderr).
 */
export function createServer(config: Config, log?: (line: string) => void): McpServer {
  const server = new McpServer(
    { name: 'graphql-mcp', version: VERSION },
    { capabilities: { tools: {}, logging: {} }, instructions: INSTRUCTIONS },
  );
  const diagnostics = new Diagnostics(server, config.transport === 'stdio', log);
  registerGraphQLQuery(server, config, diagnostics);
  registerGraphQLIntrospect(server, config, diagnostics);
  return server;
}
