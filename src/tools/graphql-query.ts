import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { MAX_TIMEOUT_MS, type Config } from '../config.js';
import type { Diagnostics } from '../diagnostics.js';
import { describeTools } from './catalog.js';
import { advertised, endpointInput, headersInput } from './input.js';

/** The inputs of graphql_query, validated by the tool itself (see input.ts). */
export const inputSchema = z.strictObject({
  query: z
    .string({ error: 'must be a string holding a GraphQL document' })
    .refine((query) => query.trim() !== '', 'must not be empty')
    .describe('The GraphQL document to execute, e.g. "query($id: ID!) { user(id: $id) { name } }"'),
  variables: z
    .union([z.record(z.string(), z.unknown()), z.string()], {
      error: 'must be an object, or a string holding a JSON object',
    })
    .describe('Values for the variables of the operation, as an object')
    .optional(),
  operationName: z
    .string({ error: 'must be a string' })
    .describe('Which operation to run when the document holds several')
    .optional(),
  endpoint: endpointInput.optional(),
  headers: headersInput.optional(),
  timeout: z
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(1, `must be from 1 to ${MAX_TIMEOUT_MS} ms`)
    .max(MAX_TIMEOUT_MS, `must be from 1 to ${MAX_TIMEOUT_MS} ms`)
    .describe('Request deadline in milliseconds; defaults to the server setting')
    .optional(),
  allowMutations: z
    .boolean({ error: 'must be true or false' })
    .describe('Set to true to run a mutation (an operation that changes data); false by default')
    .optional(),
});

const readOnlyInputSchema = inputSchema.omit({ allowMutations: true });

/**
 * What structuredContent holds: a GraphQL response (post-graphql.ts has classified it before it gets here).
 * Written as JSON Schema rather than converted from zod, whose `anyOf` form of "object or null" takes the
 * SDK client's Ajv twice as long to compile, at every tools/list (~0.5 ms warm, ~2 ms in a fresh client).
 */
const outputSchema = z.looseObject({}).meta({
  type: 'object',
  properties: {
    data: {
      type: ['object', 'null'],
      description: 'The result of the operation; null when it failed as a whole',
    },
    errors: {
      type: ['array', 'null'],
      description: 'GraphQL errors, each with a message and often a path; partial data may come with them',
    },
    extensions: { type: ['object', 'null'] },
  },
});

/** Registers graphql_query: DESIGN.md's eight-step pipeline, from inputs to the endpoint's response. */
export function registerGraphQLQuery(server: McpServer, config: Config, diagnostics: Diagnostics): void {
  // With --readOnly the model is not offered a switch that cannot work.
  const offered = config.readOnly ? readOnlyInputSchema : inputSchema;
  server.registerTool(
    'graphql_query',
    {
      title: 'GraphQL query',
      description: describeTools(config).graphql_query,
      inputSchema: advertised(offered),
      // Checked cheaply: zod's copy of every structuredContent would cost on every call.
      outputSchema,
      annotations: {
        readOnlyHint: config.readOnly,
        destructiveHint: !config.readOnly,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    // The pipeline (graphql-js and the HTTP client) loads on the first call: start-up only lists tools.
    diagnostics.reported('graphql_query', async (args, signal) =>
      (await import('./run-graphql-query.js')).runQuery(config, args, signal),
    ),
  );
}
