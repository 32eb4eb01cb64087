import type { CacheHint, McpServer, ServerCapabilities } from '@modelcontextprotocol/server';
import type { Config } from './config.js';
import type { LiveOperations } from './operations/live.js';
import { builtInPrompts } from './prompts/built-in.js';
import { registerPrompts, type PromptDefinition } from './prompts/prompt.js';
import { OperationResources } from './resources/operation-resources.js';
import { registerSchemaResources } from './resources/schema-resources.js';
import { apiUris, DEFAULT_API } from './resources/uris.js';

// What a server offers besides its tools: the schema and the curated operations as resources, and prompts.
// Each follows the tools it stands for, so that the operator's --tools (and remote mode's per-tool scopes)
// govern them too: the schema resources are graphql_introspect's answers, the operation resources are the
// operation tools' documents, and the built-in prompts steer the two built-in tools.

/** What one server offers besides its tools. */
export interface Features {
  /** graphql://default/schema and graphql://default/types/{name}: where graphql_introspect is offered. */
  readonly schema: boolean;
  /** One resource per operation tool offered; followed as the files change when they are watched. */
  readonly operations: LiveOperations | undefined;
  /** The built-in prompts (where both built-in tools are offered), then the operator's. */
  readonly prompts: readonly PromptDefinition[];
}

/** What to offer, given which tools this server offers. */
export function featuresOf(
  config: Config,
  offers: (tool: 'graphql_query' | 'graphql_introspect') => boolean,
  operations: LiveOperations | undefined,
  operatorPrompts: readonly PromptDefinition[],
): Features {
  const builtIn = offers('graphql_query') && offers('graphql_introspect') ? builtInPrompts(config) : [];
  return { schema: offers('graphql_introspect'), operations, prompts: [...builtIn, ...operatorPrompts] };
}

/**
 * The capabilities the features need, declared only when offered. Operation resources are declared whenever
 * operations are given (a reload may add the first one, and capabilities cannot change once connected);
 * their list changes only when the files are watched. Prompts never change while the process runs.
 */
export function featureCapabilities(features: Features): ServerCapabilities {
  const watched = features.operations?.watched ?? false;
  return {
    ...((features.schema || features.operations !== undefined) && { resources: { listChanged: watched } }),
    ...(features.prompts.length > 0 && { prompts: { listChanged: false } }),
  };
}

/**
 * Registers the features on `server` (the SDK declares completions with the type template); returns the
 * operation resources, which `show` each new set of operations.
 */
export function registerFeatures(
  server: McpServer,
  config: Config,
  features: Features,
  hints: { readonly schema: CacheHint; readonly operations: CacheHint },
  allowed: (name: string) => boolean,
): OperationResources | undefined {
  const uris = apiUris(DEFAULT_API);
  if (features.schema) registerSchemaResources(server, config, uris, hints.schema);
  let resources: OperationResources | undefined;
  if (features.operations !== undefined) {
    resources = new OperationResources(server, uris, hints.operations, allowed);
    resources.show(features.operations.current);
  }
  registerPrompts(server, features.prompts);
  return resources;
}
