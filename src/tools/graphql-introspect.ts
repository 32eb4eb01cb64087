import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Config } from '../config.js';
import { errorResult, ToolError } from '../errors.js';
import {
  BASIC_INTROSPECTION_QUERY,
  errorMessages,
  INTROSPECTION_QUERY,
  introspectionOf,
  printIntrospection,
} from '../graphql/schema.js';
import { describeEndpoint } from '../http/endpoint.js';
import { postGraphQL } from '../http/post-graphql.js';
import { describeAllowed, headersFor, isEndpointAllowed, redact } from '../security.js';
import { advertised, endpointInput, headersInput, parseInput, readEndpoint, readHeaders } from './input.js';

/** Introspection results of large APIs are big; queries keep the smaller --maxResponseBytes. */
export const MAX_INTROSPECTION_BYTES = 64 * 1024 * 1024;

const inputSchema = z.strictObject({
  endpoint: endpointInput.optional(),
  headers: headersInput.optional(),
  includeDeprecated: z
    .boolean({ error: 'must be true or false' })
    .describe(
      'Include deprecated fields, arguments, input fields and enum values (with their reasons); false by default',
    )
    .optional(),
});

/** Registers graphql_introspect: the endpoint's schema as SDL. */
export function registerGraphQLIntrospect(server: McpServer, config: Config): void {
  server.registerTool(
    'graphql_introspect',
    {
      title: 'GraphQL schema',
      description:
        `Return the schema of ${describeEndpoint(config.endpoint)} (or the endpoint given) as GraphQL SDL: ` +
        'its types, fields, arguments and descriptions. Use it to write correct queries for graphql_query.',
      inputSchema: advertised(inputSchema),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (args, extra) => runIntrospect(config, args, extra.signal),
  );
}

/** Runs one call; every failure is an error result whose text starts with its code. */
export async function runIntrospect(
  config: Config,
  args: unknown,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  const raw = (args ?? {}) as Record<string, unknown>;
  let notes: string[] = [];
  let sentHeaders = [config.headers];
  try {
    const input = parseInput(inputSchema, raw);
    const callHeaders = readHeaders(
      input.headers === undefined ? undefined : (raw.headers as Record<string, unknown>),
    );
    sentHeaders = [config.headers, callHeaders];
    const endpoint = readEndpoint(input.endpoint, config.endpoint);
    if (!isEndpointAllowed(config, endpoint)) {
      throw new ToolError(
        'ENDPOINT_NOT_ALLOWED',
        `${describeEndpoint(endpoint)} is not an allowed endpoint; allowed: ${describeAllowed(config)}`,
      );
    }
    const request = headersFor(config, endpoint, callHeaders);
    notes = request.notes;
    const introspect = async (query: string) =>
      (
        await postGraphQL({
          endpoint,
          headers: request.headers,
          body: JSON.stringify({ query }),
          timeoutMs: config.timeout,
          maxBytes: MAX_INTROSPECTION_BYTES,
          signal,
        })
      ).result;

    let result = await introspect(INTROSPECTION_QUERY);
    // Older servers reject the newer introspection fields: ask again with the basic query.
    if (introspectionOf(result) === undefined) result = await introspect(BASIC_INTROSPECTION_QUERY);
    const introspection = introspectionOf(result);
    if (introspection === undefined) {
      throw new ToolError(
        'INTROSPECTION_FAILED',
        `${describeEndpoint(endpoint)} answered introspection with: ${errorMessages(result)}`,
      );
    }
    const sdl = printIntrospection(introspection, input.includeDeprecated ?? false);
    return { content: [sdl, ...notes].map((text) => ({ type: 'text' as const, text })) };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return errorResult(new ToolError(error.code, redact(error.message, sentHeaders)), notes);
  }
}
