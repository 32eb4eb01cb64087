import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MAX_TIMEOUT_MS, type Config } from '../config.js';
import type { Diagnostics } from '../diagnostics.js';
import { errorResult, ToolError } from '../errors.js';
import { measureComplexity } from '../graphql/complexity.js';
import { analyseDocument, containsMutation, selectOperation } from '../graphql/operation.js';
import { describeEndpoint } from '../http/endpoint.js';
import { postGraphQL } from '../http/post-graphql.js';
import { configuredUrls, describeAllowed, headersFor, isEndpointAllowed, redact } from '../security.js';
import { advertised, endpointInput, headersInput, parseInput, readEndpoint, readHeaders } from './input.js';

const inputSchema = z.strictObject({
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

const outputSchema = z.looseObject({
  data: z
    .union([z.record(z.string(), z.unknown()), z.null()])
    .describe('The result of the operation; null when it failed as a whole')
    .optional(),
  errors: z
    .union([z.array(z.unknown()), z.null()])
    .describe('GraphQL errors, each with a message and often a path; partial data may come with them')
    .optional(),
  extensions: z.union([z.record(z.string(), z.unknown()), z.null()]).optional(),
});

/** Registers graphql_query: DESIGN.md's eight-step pipeline, from inputs to the endpoint's response. */
export function registerGraphQLQuery(server: McpServer, config: Config, diagnostics: Diagnostics): void {
  // With --readOnly the model is not offered a switch that cannot work.
  const offered = config.readOnly ? readOnlyInputSchema : inputSchema;
  server.registerTool(
    'graphql_query',
    {
      title: 'GraphQL query',
      description: describeTool(config),
      inputSchema: advertised(offered),
      outputSchema,
      annotations: {
        readOnlyHint: config.readOnly,
        destructiveHint: !config.readOnly,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    diagnostics.reported('graphql_query', (args, signal) => runQuery(config, args, signal)),
  );
}

function describeTool(config: Config): string {
  const limit = config.maxComplexity > 0 ? ` A query may select at most ${config.maxComplexity} fields.` : '';
  const mutations = config.readOnly
    ? ' This server is read-only: mutations are refused.'
    : ' Mutations are refused unless allowMutations is true.';
  return (
    `Execute a GraphQL query against ${describeEndpoint(config.endpoint)} (or the endpoint given) and return the GraphQL response JSON.` +
    `${mutations}${limit} Call graphql_introspect first to learn the schema.`
  );
}

/** Runs one call; every failure is an error result whose text starts with its code. */
export async function runQuery(config: Config, args: unknown, signal?: AbortSignal): Promise<CallToolResult> {
  const raw = (args ?? {}) as Record<string, unknown>;
  let notes: string[] = [];
  let sentHeaders = [config.headers];
  let urls = configuredUrls(config);
  try {
    // 1. Inputs. variables and headers are read from the raw arguments: the validator's copies
    //    silently drop a "__proto__" key, and these go to the endpoint exactly as given.
    const input = parseInput(inputSchema, raw);
    const variables = readVariables(raw.variables);
    const callHeaders = readHeaders(
      input.headers === undefined ? undefined : (raw.headers as Record<string, unknown>),
    );
    sentHeaders = [config.headers, callHeaders];
    const endpoint = readEndpoint(input.endpoint, config.endpoint);
    urls = [...urls, endpoint];

    // 2. Endpoint.
    if (!isEndpointAllowed(config, endpoint)) {
      throw new ToolError(
        'ENDPOINT_NOT_ALLOWED',
        `${describeEndpoint(endpoint)} is not an allowed endpoint; allowed: ${describeAllowed(config)}`,
      );
    }

    // 3.–5. Document, operation, no subscription.
    const document = analyseDocument(input.query);
    const operation = selectOperation(document, input.operationName);
    if (operation.operation === 'subscription') {
      throw new ToolError(
        'SUBSCRIPTION_NOT_SUPPORTED',
        'subscriptions need a streaming transport; run a query instead',
      );
    }

    // 6. Mutations: any mutation in the document, run or not, needs both permissions.
    const mutates = containsMutation(document);
    if (mutates) {
      if (config.readOnly) {
        throw new ToolError(
          'MUTATION_NOT_ALLOWED',
          'this server was started with --readOnly, so it refuses every mutation',
        );
      }
      if (input.allowMutations !== true) {
        throw new ToolError(
          'MUTATION_NOT_ALLOWED',
          'the document contains a mutation; set allowMutations to true to run it (only if changing data is intended)',
        );
      }
    }

    // 7. Complexity.
    if (config.maxComplexity > 0) {
      const complexity = measureComplexity(document, operation, config.maxComplexity);
      if (complexity.value > config.maxComplexity) {
        throw new ToolError(
          'COMPLEXITY_LIMIT',
          `the query selects ${complexity.atLeast ? 'at least ' : ''}${complexity.value} fields, more than the limit of ${config.maxComplexity}; select fewer fields or split the query`,
        );
      }
    }

    // 8. The request.
    const request = headersFor(config, endpoint, callHeaders);
    notes = request.notes;
    const body = JSON.stringify({ query: input.query, variables, operationName: input.operationName });
    const { result } = await postGraphQL({
      endpoint,
      headers: request.headers,
      body,
      timeoutMs: input.timeout ?? config.timeout,
      maxBytes: config.maxResponseBytes,
      signal,
      retryable: !mutates,
    });
    return graphqlResult(result, notes);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const safe = new ToolError(error.code, redact(error.message, sentHeaders, urls));
    return errorResult(safe, notes);
  }
}

function readVariables(given: unknown): Record<string, unknown> | undefined {
  if (typeof given !== 'string') return given as Record<string, unknown> | undefined;
  if (given.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(given);
  } catch {
    throw new ToolError(
      'INVALID_INPUT',
      'variables is a string but not valid JSON; pass an object, or a string holding a JSON object',
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ToolError('INVALID_INPUT', 'variables is a string but does not hold a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** The endpoint's GraphQL response, unchanged; an error only when it has errors and no data. */
function graphqlResult(result: Record<string, unknown>, notes: readonly string[]): CallToolResult {
  const failed = Array.isArray(result.errors) && result.errors.length > 0 && (result.data ?? null) === null;
  return {
    content: [JSON.stringify(result), ...notes].map((text) => ({ type: 'text' as const, text })),
    structuredContent: result,
    ...(failed ? { isError: true } : {}),
  };
}
