import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { Call, guarded } from './call.js';
import { describeTools } from './catalog.js';
import { targetFor, type ToolContext } from './context.js';
import { advertisedInputs, endpointInput, headersInput, parseInput, withApiInput } from './input.js';
import { callTarget } from '../call/target.js';
import * as z from './zod.js';
import { lazily } from '../common/lazily.js';

// graphql_introspect: its inputs, description and annotations, and its handler, which checks the inputs and works
// out the call's target, then reads the schema (schema/read.ts, loaded with graphql-js on the first call).

/** The schema's answers (graphql-js), loaded on the first call. */
export const schemaRead = lazily(() => import('../schema/read.js'));

/** Most entries of typeNames in one call. */
const MAX_TYPE_NAMES = 500;
/** Longest search accepted. */
const MAX_SEARCH_CHARS = 200;

/** The inputs of graphql_introspect, validated by the tool itself (see input.ts). */
export const inputSchema = z.strictObject({
  endpoint: endpointInput.optional(),
  headers: headersInput.optional(),
  includeDeprecated: z
    .boolean({ error: 'must be true or false' })
    .describe('Include deprecated fields, arguments, input fields and enum values, with their reasons')
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
      'Types to read in full, e.g. ["Repository", "IssueState"]; "Type.field" gives one member. ' +
        'Names as the overview or a search shows them.',
    )
    .optional(),
  search: z
    .string({ error: 'must be a string of words' })
    .trim()
    .min(1, { error: 'must hold at least one word' })
    .max(MAX_SEARCH_CHARS, { error: `must be at most ${MAX_SEARCH_CHARS} characters` })
    .describe(
      'Words for what you need, e.g. "pull request"; ranked, not filtered: add words the API may use ' +
        '("avatar picture"). Best matches first, with a path from a root field.',
    )
    .optional(),
});

/** Registers graphql_introspect: an API's schema as SDL, whole or in parts; returns what removes it again. */
export function registerGraphQLIntrospect(server: McpServer, tools: ToolContext): () => void {
  const { apis, diagnostics } = tools;
  const tool = server.registerTool(
    'graphql_introspect',
    {
      title: 'GraphQL schema',
      description: describeTools(apis).graphql_introspect,
      inputSchema: advertisedInputs('graphql_introspect', apis),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    diagnostics.reported('graphql_introspect', (args, context) =>
      runIntrospect(tools, args, context.mcpReq.signal),
    ),
  );
  return () => tool.remove();
}

/** Runs one call; every failure is an error result whose text starts with its code. */
export async function runIntrospect(
  tools: Pick<ToolContext, 'apis' | 'secrets' | 'credentials' | 'target'>,
  args: unknown,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  const { apis } = tools;
  const raw = (args ?? {}) as Record<string, unknown>;
  const call = new Call(tools.secrets);
  // The API whose budget an error obeys: the call's, once its inputs are read.
  let config = apis[0]!.config;
  const run = await schemaRead();
  return guarded(
    call,
    async () => {
      const input = parseInput(withApiInput(inputSchema, apis), raw) as z.output<typeof inputSchema> & {
        api?: string;
      };
      run.checkSearch(input.search);
      const target = targetFor(tools, 'graphql_introspect', () =>
        callTarget(apis, input, raw, tools.credentials),
      );
      config = target.api.config;
      call.sends(target);
      const question = {
        includeDeprecated: input.includeDeprecated ?? false,
        typeNames: input.typeNames,
        search: input.search,
      };
      const texts = await run.readSchema(target, question, call, signal);
      return { content: texts.map((text) => ({ type: 'text' as const, text })) };
    },
    // Errors obey the budget too: a long list of suggestions or an endpoint's messages are cut.
    { signal, fit: (message, code) => run.fitError(config, call, message, code) },
  );
}
