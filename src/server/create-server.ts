import { McpServer } from '@modelcontextprotocol/server';
import type { ApiConfig, BuiltInTool, ServerConfig } from '../config/types.js';
import { Live } from '../common/live.js';
import type { PromptDefinition } from '../prompts/prompt.js';
import { secretsOf } from '../redaction/redactor.js';
import type { Store } from '../store/store.js';
import { Confirmer, type Askability } from '../tools/confirmation.js';
import type { RequestCredentials } from '../call/credentials.js';
import { panelOf, registerConfirmTool } from '../tools/confirm-mutation.js';
import { Views } from '../apps/views.js';
import type { FrontTarget, ToolContext } from '../tools/context.js';
import { Diagnostics, type Era } from '../tools/diagnostics.js';
import { registerGraphQLIntrospect } from '../tools/introspect.js';
import { OperationTools } from '../tools/operations.js';
import { registerGraphQLQuery } from '../tools/query.js';
import { VERSION } from '../common/version.js';
import { followOperations, toolPrefix, type Api } from '../api/api.js';
import { featureCapabilities, featuresOf, registerFeatures } from './features.js';

const INSTRUCTIONS =
  'Tools for a GraphQL API. Learn the schema with graphql_introspect, then run queries with graphql_query. ' +
  'Results are GraphQL responses; failures start with an error code (e.g. COMPLEXITY_LIMIT) and say what to change.';

/**
 * The lists change only when the server restarts with other options (unless files are watched); clients of
 * the 2026-07-28 protocol may keep them (and server/discover's answer) this long. Per-tool OAuth scopes make
 * them depend on the user: then only the user's own cache may keep them.
 */
const LIST_CACHE = { ttlMs: 5 * 60_000, cacheScope: 'public' } as const;
const PRIVATE_LIST_CACHE = { ...LIST_CACHE, cacheScope: 'private' } as const;

interface ListsDependOn {
  /** The user's token (per-tool OAuth scopes). */
  readonly user: boolean;
  /** The client's declaration of MCP Apps: the view's resource and the app-only tool are listed to it alone. */
  readonly client: boolean;
  /** Watched operation or config files, which may change the tools and resources at any time. */
  readonly files: boolean;
  /** A watched config file, which may change the prompts that name its APIs. */
  readonly apis: boolean;
}

function listCache(dependOn: ListsDependOn) {
  const hint = dependOn.user ? PRIVATE_LIST_CACHE : LIST_CACHE;
  // A shared cache cannot tell clients apart: what differs between them is for each one's own cache.
  const clientHint = dependOn.client ? PRIVATE_LIST_CACHE : hint;
  const fixed = { 'resources/templates/list': hint, ...(!dependOn.apis && { 'prompts/list': hint }) };
  return dependOn.files
    ? fixed
    : { ...fixed, 'tools/list': clientHint, 'resources/list': clientHint, 'server/discover': hint };
}

/**
 * How long a resource's text may be kept: a schema's for --schemaTtl (the shortest of the APIs'), an operation's
 * like the lists.
 */
function readCache(apis: readonly ApiConfig[], watched: boolean) {
  // Forwarded headers make the schema the request's user's own.
  const cacheScope = apis.some((api) => api.forwardHeaders.length > 0) ? 'private' : 'public';
  return {
    schema: { ttlMs: Math.min(...apis.map((api) => api.schemaTtl)) * 1000, cacheScope },
    operations: watched ? { ...LIST_CACHE, ttlMs: 0 } : LIST_CACHE,
  } as const;
}

/** Options of one server instance: which protocol era it serves, and where remote mode's request log goes. */
export interface ServerOptions {
  readonly era?: Era;
  /** Receives one JSON line per tool call and per mutation decided (remote mode writes them to stderr). */
  readonly log?: (line: string) => void;
  /** Whether the client can be asked, where the transport knows it (remote mode's 2025-era sessions). */
  readonly askability?: Askability;
  /** Whether the client renders MCP Apps, where the transport knows it (remote mode's 2025-era sessions). */
  readonly apps?: boolean;
  /** Which tools this server offers (remote mode: those the request's token has the scopes for). */
  readonly allowTool?: (name: string) => boolean;
  /** The operator's prompts (--prompts), read at start-up. */
  readonly prompts?: readonly PromptDefinition[];
  /** What the request brings for the APIs (remote mode's forwarded headers). */
  readonly credentials?: RequestCredentials;
  /** The target remote mode's front worked out for the request's tool call. */
  readonly target?: FrontTarget | undefined;
}

/**
 * An MCP server with the tools of these APIs registered (the built-in ones --tools names, each taking an `api`
 * input when there are several, and every API's operation tools), and the resources and prompts that go with
 * them (features.ts), not yet connected to a transport. When the APIs change (a watched config file), it offers
 * the new ones. No I/O: the SDK's serving entries (serveStdio, createMcpHandler) call it once per connection or
 * request.
 */
export function createServer(
  apis: Live<readonly Api[]> | readonly Api[],
  settings: ServerConfig,
  store: Store,
  options: ServerOptions = {},
): McpServer {
  const live = apis instanceof Live ? apis : new Live(apis, false);
  const allowed = options.allowTool ?? (() => true);
  const watched = live.watched || live.current.some((api) => api.operations?.watched === true);
  const features = featuresOf(offersOf(settings, allowed), live.current, options.prompts ?? [], live.watched);
  const server = new McpServer(
    { name: 'graphql-mcp', version: VERSION },
    {
      // Only watched files change the lists during the life of the process.
      capabilities: {
        tools: { listChanged: watched },
        logging: {},
        ...featureCapabilities(features, live, watched),
      },
      instructions: INSTRUCTIONS,
      cacheHints: listCache({
        user: options.allowTool !== undefined,
        client: features.views,
        files: watched,
        apis: live.watched,
      }),
      // A reload removes, updates and adds tools one by one, each of which would tell the client again.
      debouncedNotificationMethods: [
        'notifications/tools/list_changed',
        'notifications/resources/list_changed',
        'notifications/prompts/list_changed',
      ],
    },
  );
  const era = options.era ?? 'legacy';
  const diagnostics = new Diagnostics(server, era, options.log);
  const views = features.views ? new Views(server, era, options.apps) : undefined;
  const confirmer = new Confirmer(server, era, settings, store, {
    ...(options.askability && { askability: options.askability }),
    ...(options.log && { log: options.log }),
    ...(views && { panel: panelOf(views, settings, store) }),
  });
  const context = { settings, diagnostics, confirmer, allowed, options, watched, views, store };
  let dispose = register(server, live.current, context, features);
  if (live.watched) {
    const unsubscribe = live.subscribe((next) => {
      dispose();
      dispose = register(server, next, context);
    });
    const previous = server.server.onclose;
    server.server.onclose = () => {
      unsubscribe();
      dispose();
      previous?.();
    };
  }
  return server;
}

function offersOf(settings: ServerConfig, allowed: (name: string) => boolean) {
  return (tool: BuiltInTool) => settings.tools.includes(tool) && allowed(tool);
}

interface Registration {
  readonly settings: ServerConfig;
  readonly diagnostics: Diagnostics;
  readonly confirmer: Confirmer;
  readonly allowed: (name: string) => boolean;
  readonly options: ServerOptions;
  readonly watched: boolean;
  readonly views: Views | undefined;
  readonly store: Store;
}

/**
 * Registers the tools, resources and prompts of `apis` (`features`: what they offer besides tools, when known
 * already); returns what removes them all again.
 */
function register(
  server: McpServer,
  apis: readonly Api[],
  context: Registration,
  features = featuresOf(offersOf(context.settings, context.allowed), apis, context.options.prompts ?? []),
): () => void {
  const { diagnostics, confirmer, allowed, views } = context;
  const { credentials, target } = context.options;
  const tools: ToolContext = {
    apis,
    secrets: secretsOf(apis),
    diagnostics,
    confirmer,
    credentials,
    target,
    ...(views && { views }),
  };
  const offers = offersOf(context.settings, allowed);
  const removals: Array<() => void> = [];
  if (offers('graphql_query')) removals.push(registerGraphQLQuery(server, tools));
  if (offers('graphql_introspect')) removals.push(registerGraphQLIntrospect(server, tools));
  if (views)
    removals.push(registerConfirmTool(server, { ...tools, views }, context.store, context.settings, allowed));
  for (const api of apis) {
    if (api.operations === undefined) continue;
    const operationTools = new OperationTools(server, api, tools, allowed, toolPrefix(api, apis));
    removals.push(followOperations(api.operations, operationTools));
  }
  const hints = readCache(
    apis.map((api) => api.config),
    context.watched,
  );
  removals.push(registerFeatures(server, tools, features, hints, allowed));
  return () => {
    for (const remove of removals.reverse()) remove();
  };
}
