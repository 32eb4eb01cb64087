import type { CallToolResult, InputRequiredResult, McpServer } from '@modelcontextprotocol/server';
import { MAX_TIMEOUT_MS } from '../config/parsers.js';
import { ToolError } from '../common/errors.js';
import { toolPrefix } from '../api/api.js';
import { Call, guarded } from './call.js';
import { describeTools } from './catalog.js';
import type { Confirm } from './confirmation.js';
import { targetFor, type ToolContext } from './context.js';
import {
  advertisedInputs,
  advertisedJson,
  endpointInput,
  headersInput,
  parseInput,
  withApiInput,
} from './input.js';
import type { QueryInput } from './query-run.js';
import { callTarget, type CallTarget } from '../call/target.js';
import * as z from './zod.js';
import { lazily } from '../common/lazily.js';

// graphql_query: its inputs, description and annotations, and its handler, which checks the inputs and the
// endpoint and then hands the call to the pipeline (query-run.ts). The pipeline and what it uses (graphql-js,
// the HTTP client) are loaded on the first call, so that start-up only lists tools.

/** The call's path (graphql-js, the HTTP client), loaded on the first call. */
export const queryRun = lazily(() => import('./query-run.js'));

/** The inputs of graphql_query, validated by the tool itself (see input.ts). */
export const inputSchema = z.strictObject({
  query: z
    .string({ error: 'must be a string holding a GraphQL document' })
    .refine((query) => query.trim() !== '', 'must not be empty')
    .describe('The GraphQL document, e.g. "query($id: ID!) { user(id: $id) { name } }"'),
  variables: z
    .union([z.record(z.string(), z.unknown()), z.string()], {
      error: 'must be an object, or a string holding a JSON object',
    })
    .describe("The operation's variables")
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
    .describe("Deadline in ms; default: the server's")
    .optional(),
  allowMutations: z
    .boolean({ error: 'must be true or false' })
    .describe('true to run a mutation (it changes data)')
    .optional(),
});

/**
 * What structuredContent holds: a GraphQL response (post-graphql.ts has classified it before it gets here).
 * Written as JSON Schema rather than converted from zod, whose `anyOf` form of "object or null" takes a
 * client's validator twice as long to compile.
 */
export const outputSchema = advertisedJson({
  type: 'object',
  properties: {
    data: {
      type: ['object', 'null'],
      description: 'null when the operation failed as a whole',
    },
    errors: { type: ['array', 'null'] },
    extensions: { type: ['object', 'null'] },
  },
});

/** Registers graphql_query for the server's APIs; returns what removes it again. */
export function registerGraphQLQuery(server: McpServer, tools: ToolContext): () => void {
  const { apis, diagnostics, confirmer } = tools;
  const readOnly = apis.every((api) => api.config.readOnly);
  const tool = server.registerTool(
    'graphql_query',
    {
      title: 'GraphQL query',
      description: describeTools(apis).graphql_query,
      // Without allowMutations where every API refuses mutations, so that the model is not offered a switch that
      // cannot work (one that sends it all the same is told MUTATION_NOT_ALLOWED).
      inputSchema: advertisedInputs('graphql_query', apis, readOnly ? ['allowMutations'] : []),
      outputSchema,
      annotations: {
        readOnlyHint: readOnly,
        destructiveHint: !readOnly,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    diagnostics.reported('graphql_query', (args, context) =>
      runQuery(tools, args, context.mcpReq.signal, confirmer.forCall(context)),
    ),
  );
  tools.views?.show(tool);
  return () => {
    tools.views?.forget(tool);
    tool.remove();
  };
}

/**
 * Runs one call; every failure is an error result whose text starts with its code. A mutation the model allowed
 * is put to the user through `confirm` (a 2026-07-28 client gets the question as the result, and calls again).
 */
export async function runQuery(
  tools: Pick<ToolContext, 'apis' | 'secrets' | 'credentials' | 'target'>,
  args: unknown,
  signal?: AbortSignal,
  confirm?: Confirm,
): Promise<CallToolResult | InputRequiredResult> {
  const call = new Call(tools.secrets);
  return guarded(call, async () => {
    // 1. and 2. The inputs, and where the call goes: its API, its endpoint (allowed), the headers to send.
    const { target, input } = queryInput(tools, (args ?? {}) as Record<string, unknown>);
    call.sends(target);
    // 3. to 10., from the first call on.
    const { runPipeline } = await queryRun();
    return runPipeline(target, input, call, signal, confirm, toolPrefix(target.api, tools.apis));
  });
}

/** The inputs, checked, and the target they give. */
function queryInput(
  tools: Pick<ToolContext, 'apis' | 'credentials' | 'target'>,
  raw: Record<string, unknown>,
): { target: CallTarget; input: QueryInput } {
  const { apis } = tools;
  const input = parseInput(withApiInput(inputSchema, apis), raw) as z.output<typeof inputSchema> & {
    api?: string;
  };
  return {
    target: targetFor(tools, 'graphql_query', () => callTarget(apis, input, raw, tools.credentials)),
    input: {
      query: input.query,
      // Read from the raw arguments, as the headers are: the validator's copy drops a "__proto__" key.
      variables: readVariables(raw.variables),
      operationName: input.operationName,
      timeout: input.timeout,
      allowMutations: input.allowMutations === true,
    },
  };
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
