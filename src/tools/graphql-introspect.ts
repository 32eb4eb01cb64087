import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from './zod.js';
import type { Config } from '../config.js';
import type { Diagnostics } from '../diagnostics.js';
import { errorResult, ToolError } from '../errors.js';
import { clampText } from '../graphql/text-budget.js';
import { Redactor, redactionNote } from '../redaction/redactor.js';
import { assertEndpointAllowed, configuredUrls, headersFor } from '../security.js';
import { describeTools } from './catalog.js';
import { advertised, endpointInput, headersInput, parseInput, readEndpoint, readHeaders } from './input.js';
import { loadSchema, sharedSchemaCache } from './schema-source.js';

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
      'Words to find in type and field names and descriptions, e.g. "pull request"; gives the best ' +
        'matches with a path from a root field.',
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
    diagnostics.reported('graphql_introspect', (args, context) =>
      runIntrospect(config, args, context.mcpReq.signal),
    ),
  );
}

// What the schema text keeps at least when notes (withheld headers) share the budget with it.
const MIN_TEXT_CHARS = 500;

/** Runs one call; every failure is an error result whose text starts with its code. */
export async function runIntrospect(
  config: Config,
  args: unknown,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  const raw = (args ?? {}) as Record<string, unknown>;
  let notes: string[] = [];
  let sentHeaders = [config.headers];
  let urls = configuredUrls(config);
  // One matcher per call, built when first needed: by then the call's headers and URL are known.
  let redactor: Redactor | undefined;
  const hide = () => (redactor ??= Redactor.of(sentHeaders, urls));
  try {
    const input = parseInput(inputSchema, raw);
    // Introspection, the schema views and the cache, from the first call on.
    const steps = await import('./pipeline.js');
    if (input.search !== undefined && steps.searchTerms(input.search).length === 0) {
      throw new ToolError('INVALID_INPUT', 'search must hold a word (letters or digits)');
    }
    const callHeaders = readHeaders(
      input.headers === undefined ? undefined : (raw.headers as Record<string, unknown>),
    );
    sentHeaders = [config.headers, callHeaders];
    const endpoint = readEndpoint(input.endpoint, config.endpoint);
    urls = [...urls, endpoint];
    assertEndpointAllowed(config, endpoint);
    const request = headersFor(config, endpoint, callHeaders);
    notes = fitNotes(request.notes, config.maxSchemaChars);
    const includeDeprecated = input.includeDeprecated ?? false;

    // One fetch per endpoint and credentials while it is fresh, shared by concurrent calls.
    const { schema, key } = await loadSchema(
      steps,
      config,
      { endpoint, headers: request.headers, redact: (text) => hide().text(text) },
      signal,
    );
    let view;
    try {
      view = await schema.view(includeDeprecated);
    } catch (error) {
      sharedSchemaCache(steps, config).delete(key);
      throw error;
    }
    const question = { typeNames: input.typeNames, search: input.search };
    const budget = textBudget(config.maxSchemaChars, notes);
    let room = budget;
    let answer = await steps.answerSchemaQuestion(schema, view, question, room);
    // Descriptions in CJK (or other dense text) hold more tokens per character: fewer characters for them.
    for (let round = 0; round < 3; round++) {
      const denser = steps.denserBudget(answer, budget);
      if (denser === undefined || denser < MIN_TEXT_CHARS) break;
      room = denser;
      answer = await steps.answerSchemaQuestion(schema, view, question, room);
    }
    if (config.schemaTtl > 0) steps.prepareSearchSoon(view);
    // A schema's names and descriptions are the endpoint's text, and may quote the request's headers.
    const { value: text, hidden } = hide().json(answer);
    const texts = [text, ...notes];
    if (room < budget) texts.push(denseNote(config.maxSchemaChars));
    if (hidden > 0) {
      const note = redactionNote(hidden, 'schema');
      texts[0] = clampText(text, room - note.length - 2);
      texts.push(note);
    }
    return { content: texts.map((text) => ({ type: 'text' as const, text })) };
  } catch (error) {
    if (!(error instanceof ToolError)) {
      // The cache rejects a caller that gave up with its signal's reason.
      if (signal?.aborted)
        return errorResult(new ToolError('CANCELLED', 'the client cancelled the call'), notes);
      throw error;
    }
    const message = hide().text(error.message);
    // Errors obey the budget too: a long list of suggestions or an endpoint's messages are cut.
    const room = textBudget(config.maxSchemaChars, notes) - error.code.length - 2;
    return errorResult(new ToolError(error.code, clampText(message, room)), notes);
  }
}

/** Why an answer holds fewer characters than --maxSchemaChars. */
function denseNote(maxChars: number): string {
  return `This schema's text is dense in tokens (CJK or the like): answers hold fewer characters than --maxSchemaChars (${maxChars.toLocaleString('en-US')}), about half as many tokens.`;
}

// Every text of a result counts against --maxSchemaChars, with two characters between texts for the
// separator a client may put between them.
function textBudget(maxChars: number, notes: readonly string[]): number {
  return notes.reduce((room, note) => room - note.length - 2, maxChars);
}

/** Notes that leave the schema text at least MIN_TEXT_CHARS (they hold header names, which may be many). */
function fitNotes(notes: readonly string[], maxChars: number): string[] {
  if (textBudget(maxChars, notes) >= MIN_TEXT_CHARS) return [...notes];
  const room = Math.floor((maxChars - MIN_TEXT_CHARS) / Math.max(notes.length, 1)) - 2;
  return notes.map((note) => clampText(note, room));
}
