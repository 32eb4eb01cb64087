import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Config } from '../config.js';
import type { Diagnostics } from '../diagnostics.js';
import { describeTools } from './catalog.js';
import { advertised, endpointInput, headersInput } from './input.js';

/** Most entries of typeNames in one call. */
export const MAX_TYPE_NAMES = 500;
/** Longest search accepted. */
export const MAX_SEARCH_CHARS = 200;

/** The inputs of graphql_introspect, validated by the tool itself (see input.ts). */
export const inputSchema = z.strictObject({
  endpoint: endpointInput.optional(),
  headers: headersInput.optional(),
  includeDeprecated: z
    .boolean({ error: 'must be true or false' })
    .describe(
      'Include deprecated fields, arguments, input fields and enum values (with their reasons); false by default',
    )
    .optional(),
  typeNames: z
    .array(
      z
        .string({ error: 'must hold strings' })
        .trim()
        .min(1, { error: 'must not hold an empty name' })
        .max(300, { error: 'must hold names of at most 300 characters' }),
      { error: 'must be an array of type names, e.g. ["Repository"]' },
    )
    .min(1, { error: 'must name at least one type' })
    .max(MAX_TYPE_NAMES, { error: `must name at most ${MAX_TYPE_NAMES} types per call` })
    .describe(
      'Read these types in full: their SDL definitions, e.g. ["Repository", "IssueState"]. "Type.field" ' +
        'gives one field (or input field, enum value) in full. Use the names the overview or a search shows.',
    )
    .optional(),
  search: z
    .string({ error: 'must be a string of words' })
    .trim()
    .min(1, { error: 'must hold at least one word' })
    .max(MAX_SEARCH_CHARS, { error: `must be at most ${MAX_SEARCH_CHARS} characters` })
    .describe(
      'Find types and fields by words in their names and descriptions, e.g. "pull request" (any case; ' +
        'finds pullRequests). Gives the best matches, each with its SDL and a path from a root field.',
    )
    .optional(),
});

/** Registers graphql_introspect: the endpoint's schema as SDL, whole or in parts. */
export function registerGraphQLIntrospect(server: McpServer, config: Config, diagnostics: Diagnostics): void {
  server.registerTool(
    'graphql_introspect',
    {
      title: 'GraphQL schema',
      description: describeTools(config).graphql_introspect,
      inputSchema: advertised(inputSchema),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    // Introspection, the schema views and the cache load on the first call: start-up only lists tools.
    diagnostics.reported('graphql_introspect', async (args, signal) => {
      const { runIntrospect, sharedSchemaCache } = await import('./run-graphql-introspect.js');
      return runIntrospect(config, sharedSchemaCache(config), args, signal);
    }),
  );
}
