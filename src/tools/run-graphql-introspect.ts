// graphql_introspect's work, loaded on its first call: introspection, the schema cache and the views.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { IntrospectionQuery } from 'graphql';
import type { Config } from '../config.js';
import { errorResult, ToolError } from '../errors.js';
import { answerSchemaQuestion, prepareSearchSoon } from '../graphql/schema-answer.js';
import { SchemaCache } from '../graphql/schema-cache.js';
import { searchTerms } from '../graphql/schema-search.js';
import { IntrospectedSchema } from '../graphql/schema-view.js';
import {
  BASIC_INTROSPECTION_QUERY,
  errorMessages,
  INTROSPECTION_QUERY,
  introspectionOf,
} from '../graphql/schema.js';
import { clampText } from '../graphql/text-budget.js';
import { describeEndpoint } from '../http/endpoint.js';
import type { HeaderSet } from '../http/headers.js';
import { postGraphQL } from '../http/post-graphql.js';
import { assertEndpointAllowed, configuredUrls, headersFor, redact } from '../security.js';
import { inputSchema } from './graphql-introspect.js';
import { parseInput, readEndpoint, readHeaders } from './input.js';

/** Introspection results of large APIs are big; queries keep the smaller --maxResponseBytes. */
export const MAX_INTROSPECTION_BYTES = 64 * 1024 * 1024;
// What the schema text keeps at least when notes (withheld headers) share the budget with it.
const MIN_TEXT_CHARS = 500;

/** A cache of fetched schemas: per endpoint and headers sent, for --schemaTtl seconds. */
export function createSchemaCache(config: Config): SchemaCache<IntrospectedSchema> {
  return new SchemaCache({ ttlMs: config.schemaTtl * 1000 });
}

// Remote mode makes a server per HTTP request, whose calls must share fetched schemas all the same: servers
// share one cache per process (and TTL). That is safe because a schema is found only by the endpoint and the
// very headers it was fetched with.
const processCaches = new Map<number, SchemaCache<IntrospectedSchema>>();

/** The cache that the servers of this process with this config share. */
export function sharedSchemaCache(config: Config): SchemaCache<IntrospectedSchema> {
  let cache = processCaches.get(config.schemaTtl);
  if (cache === undefined) {
    cache = createSchemaCache(config);
    processCaches.set(config.schemaTtl, cache);
  }
  return cache;
}

/** Runs one call; every failure is an error result whose text starts with its code. */
export async function runIntrospect(
  config: Config,
  schemas: SchemaCache<IntrospectedSchema>,
  args: unknown,
  signal?: AbortSignal,
): Promise<CallToolResult> {
  const raw = (args ?? {}) as Record<string, unknown>;
  let notes: string[] = [];
  let sentHeaders = [config.headers];
  let urls = configuredUrls(config);
  try {
    const input = parseInput(inputSchema, raw);
    if (input.search !== undefined && searchTerms(input.search).length === 0) {
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
    const key = schemas.keyOf(endpoint, request.headers.entries());
    const schema = await schemas.get(
      key,
      async (loadSignal) => {
        const fetched = new IntrospectedSchema(
          await fetchIntrospection(config, endpoint, request.headers, loadSignal, (text) =>
            redact(text, sentHeaders, urls),
          ),
        );
        // A schema that cannot be read is a failure, and failures are not kept.
        await fetched.view(includeDeprecated);
        return fetched;
      },
      signal,
    );
    let view;
    try {
      view = await schema.view(includeDeprecated);
    } catch (error) {
      schemas.delete(key);
      throw error;
    }
    const question = { typeNames: input.typeNames, search: input.search };
    const text = await answerSchemaQuestion(schema, view, question, textBudget(config.maxSchemaChars, notes));
    if (config.schemaTtl > 0) prepareSearchSoon(view);
    return { content: [text, ...notes].map((text) => ({ type: 'text' as const, text })) };
  } catch (error) {
    if (!(error instanceof ToolError)) {
      // The cache rejects a caller that gave up with its signal's reason.
      if (signal?.aborted)
        return errorResult(new ToolError('CANCELLED', 'the client cancelled the call'), notes);
      throw error;
    }
    const message = redact(error.message, sentHeaders, urls);
    // Errors obey the budget too: a long list of suggestions or an endpoint's messages are cut.
    const room = textBudget(config.maxSchemaChars, notes) - error.code.length - 2;
    return errorResult(new ToolError(error.code, clampText(message, room)), notes);
  }
}

/** The introspection result of an endpoint: the full query, or the basic one for servers that predate it. */
async function fetchIntrospection(
  config: Config,
  endpoint: URL,
  headers: HeaderSet,
  signal: AbortSignal,
  redactText: (text: string) => string,
): Promise<IntrospectionQuery> {
  const introspect = async (query: string) =>
    (
      await postGraphQL({
        endpoint,
        headers,
        body: JSON.stringify({ query }),
        timeoutMs: config.timeout,
        maxBytes: MAX_INTROSPECTION_BYTES,
        signal,
        retryable: true,
        redact: redactText,
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
  return introspection;
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
