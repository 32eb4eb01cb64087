import type { CacheHint, McpServer, ServerCapabilities } from '@modelcontextprotocol/server';
import type { Live } from '../common/live.js';
import { builtInPrompts } from '../prompts/built-in.js';
import { registerPrompts, type PromptDefinition } from '../prompts/prompt.js';
import { OperationResources } from '../resources/operation-resources.js';
import { registerSchemaResources } from '../resources/schema-resources.js';
import { apiUris } from '../resources/uris.js';
import type { ToolContext } from '../tools/context.js';
import { followOperations, toolPrefix, type Api } from '../api/api.js';

// What a server offers besides its tools: each API's schema and curated operations as resources, and prompts.
// Each follows the tools it stands for, so that the operator's --tools (and remote mode's per-tool scopes)
// govern them too: the schema resources are graphql_introspect's answers, the operation resources are the
// operation tools' documents, and the built-in prompts steer the two built-in tools.

/** What one server offers besides its tools. */
export interface Features {
  /** graphql://<api>/schema and graphql://<api>/types/{name}: where graphql_introspect is offered. */
  readonly schema: boolean;
  /** The built-in prompts (where both built-in tools are offered), then the operator's. */
  readonly prompts: readonly PromptDefinition[];
  /**
   * The MCP Apps view of graphql_query and the operation tools (ui://graphql-mcp/query): where either is
   * offered or may be (a watched config file). A client that declares no MCP Apps is never shown it.
   */
  readonly views: boolean;
}

/** What to offer, given which tools this server offers. */
export function featuresOf(
  offers: (tool: 'graphql_query' | 'graphql_introspect') => boolean,
  apis: readonly Api[],
  operatorPrompts: readonly PromptDefinition[],
  watched = false,
): Features {
  const builtIn = offers('graphql_query') && offers('graphql_introspect') ? builtInPrompts(apis) : [];
  const views = offers('graphql_query') || watched || apis.some((api) => api.operations !== undefined);
  return { schema: offers('graphql_introspect'), prompts: [...builtIn, ...operatorPrompts], views };
}

/**
 * The capabilities the features need, declared only when offered. Operation resources are declared whenever
 * operations are given or may be (a watched config file): a reload may add the first one, and capabilities
 * cannot change once connected. `watched`: whether the resources may change; the prompts change only with
 * the APIs they name (a watched config file).
 */
export function featureCapabilities(
  features: Features,
  apis: Live<readonly Api[]>,
  watched: boolean,
): ServerCapabilities {
  const operations = apis.watched || apis.current.some((api) => api.operations !== undefined);
  return {
    ...((features.schema || operations || features.views) && { resources: { listChanged: watched } }),
    ...(features.prompts.length > 0 && { prompts: { listChanged: apis.watched } }),
  };
}

/** Registers the features of `apis` on `server`; returns what removes them again. */
export function registerFeatures(
  server: McpServer,
  tools: ToolContext,
  features: Features,
  hints: { readonly schema: CacheHint; readonly operations: CacheHint },
  allowed: (name: string) => boolean,
): () => void {
  const { apis } = tools;
  const removals: Array<() => void> = [];
  for (const api of apis) {
    const uris = apiUris(api.config.name);
    if (features.schema) removals.push(registerSchemaResources(server, api, tools, uris, hints.schema));
    if (api.operations === undefined) continue;
    const prefix = toolPrefix(api, apis);
    const resources = new OperationResources(server, uris, hints.operations, allowed, prefix);
    removals.push(followOperations(api.operations, resources));
  }
  removals.push(registerPrompts(server, features.prompts));
  return () => {
    for (const remove of removals.reverse()) remove();
  };
}
