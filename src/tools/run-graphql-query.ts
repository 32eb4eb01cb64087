// graphql_query's pipeline, loaded on its first call: graphql-js analysis and the HTTP client.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.js';
import { errorResult, ToolError } from '../errors.js';
import { measureComplexity } from '../graphql/complexity.js';
import { analyseDocument, containsMutation, selectOperation } from '../graphql/operation.js';
import { jsonLengthAtLeast, letInputIn } from '../graphql/time-slice.js';
import { postGraphQL } from '../http/post-graphql.js';
import { assertEndpointAllowed, configuredUrls, headersFor, redact } from '../security.js';
import { inputSchema } from './graphql-query.js';
import { parseInput, readEndpoint, readHeaders } from './input.js';

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
    assertEndpointAllowed(config, endpoint);

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
    // Serialising megabytes of variables and encoding the result take tens of milliseconds each: each
    // gets a turn of the event loop of its own, so that pings and cancellations are not kept waiting.
    const large = jsonLengthAtLeast(variables, LARGE_VARIABLES);
    if (large) await letInputIn();
    const body = serialise({ query: input.query, variables, operationName: input.operationName });
    if (large) await letInputIn();
    const { result } = await postGraphQL({
      endpoint,
      headers: request.headers,
      body,
      timeoutMs: input.timeout ?? config.timeout,
      maxBytes: config.maxResponseBytes,
      signal,
      retryable: !mutates,
      redact: (text) => redact(text, sentHeaders, urls),
    });
    return graphqlResult(result, notes);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const safe = new ToolError(error.code, redact(error.message, sentHeaders, urls));
    return errorResult(safe, notes);
  }
}

/** Variables this long as JSON (about 2 ms of work to serialise) are serialised in a turn of their own. */
const LARGE_VARIABLES = 1_000_000;

// Variables nested tens of thousands deep exhaust JSON.stringify's stack.
function serialise(body: Record<string, unknown>): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    if (error instanceof RangeError)
      throw new ToolError('INVALID_INPUT', 'variables are nested too deeply to send');
    throw error;
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
