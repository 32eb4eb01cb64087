import { McpServer } from '@modelcontextprotocol/server';
import type { BuiltInTool, Config } from './config.js';
import { Diagnostics, type Era } from './diagnostics.js';
import { featureCapabilities, featuresOf, registerFeatures } from './features.js';
import type { LiveOperations } from './operations/live.js';
import type { PromptDefinition } from './prompts/prompt.js';
import { Confirmer } from './tools/confirmation.js';
import { registerGraphQLIntrospect } from './tools/introspect.js';
import { OperationTools } from './tools/operations.js';
import { registerGraphQLQuery } from './tools/query.js';
import { VERSION } from './version.js';

const INSTRUCTIONS =
  'Tools for a GraphQL API. Learn the schema with graphql_introspect, then run queries with graphql_query. ' +
  'Results are GraphQL responses; failures start with an error code (e.g. COMPLEXITY_LIMIT) and say what to change.';

/**
 * The lists change only when the server restarts with other options (unless operation files are watched);
 * clients of the 2026-07-28 protocol may keep them (and server/discover's answer) this long. Per-tool OAuth
 * scopes make them depend on the user: then only the user's own cache may keep them.
 */
const LIST_CACHE = { ttlMs: 5 * 60_000, cacheScope: 'public' } as const;
const PRIVATE_LIST_CACHE = { ...LIST_CACHE, cacheScope: 'private' } as const;

function listCache(perUser: boolean, watched: boolean) {
  const hint = perUser ? PRIVATE_LIST_CACHE : LIST_CACHE;
  // Prompts and resource templates never change while the process runs; watched operation files may change
  // the tools and the operation resources at any time: then those lists are not to be kept.
  const fixed = { 'prompts/list': hint, 'resources/templates/list': hint };
  return watched ? fixed : { ...fixed, 'tools/list': hint, 'resources/list': hint, 'server/discover': hint };
}

/** How long a resource's text may be kept: a schema's for --schemaTtl, an operation's like the lists. */
function readCache(config: Config, watched: boolean) {
  // Forwarded headers make the schema the request's user's own.
  const cacheScope = config.http.forwardHeaders.length > 0 ? 'private' : 'public';
  return {
    schema: { ttlMs: config.schemaTtl * 1000, cacheScope },
    operations: watched ? { ...LIST_CACHE, ttlMs: 0 } : LIST_CACHE,
  } as const;
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
  /** The operator's prompts (--prompts), read at start-up. */
  readonly prompts?: readonly PromptDefinition[];
}

/**
 * An MCP server with its tools registered (the built-in ones --tools names, and the operation tools), and the
 * resources and prompts that go with them (features.ts), not yet connected to a transport. No I/O: the SDK's
 * serving entries (serveStdio, createMcpHandler) call it once per connection or request.
 */
export function createServer(config: Config, options: ServerOptions = {}): McpServer {
  const allowed = options.allowTool ?? (() => true);
  const offers = (tool: BuiltInTool) => config.tools.includes(tool) && allowed(tool);
  const features = featuresOf(config, offers, options.operations, options.prompts ?? []);
  const watched = options.operations?.watched ?? false;
  const server = new McpServer(
    { name: 'graphql-mcp', version: VERSION },
    {
      // Only watched operation files change the tools during the life of the process.
      capabilities: { tools: { listChanged: watched }, logging: {}, ...featureCapabilities(features) },
      instructions: INSTRUCTIONS,
      cacheHints: listCache(options.allowTool !== undefined, watched),
      // A reload removes, updates and adds tools one by one, each of which would tell the client again.
      debouncedNotificationMethods: ['notifications/tools/list_changed'],
    },
  );
  const era = options.era ?? 'legacy';
  const diagnostics = new Diagnostics(server, era, options.log);
  const confirmer = new Confirmer(server, era, config);
  if (offers('graphql_query')) registerGraphQLQuery(server, config, diagnostics, confirmer);
  if (offers('graphql_introspect')) registerGraphQLIntrospect(server, config, diagnostics);
  const resources = registerFeatures(server, config, features, readCache(config, watched), allowed);
  const { operations } = options;
  if (operations !== undefined) {
    const tools = new OperationTools(server, config, diagnostics, confirmer, allowed);
    tools.show(operations.current);
    if (operations.watched) {
      const unsubscribe = operations.subscribe((set) => {
        tools.show(set);
        resources?.show(set);
      });
      server.server.onclose = unsubscribe;
    }
  }
  return server;
}
