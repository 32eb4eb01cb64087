import type { CallToolResult, InputRequiredResult, McpServer } from '@modelcontextprotocol/server';
import { z } from './zod.js';
import { MAX_TIMEOUT_MS, type Config } from '../config.js';
import type { Diagnostics } from '../diagnostics.js';
import { errorResult, ToolError } from '../errors.js';
import { Redactor, redactionNote } from '../redaction/redactor.js';
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { AnalysedDocument } from '../graphql/operation.js';
import { describeEndpoint } from '../http/endpoint.js';
import { HeaderSet } from '../http/headers.js';
import {
  assertEndpointAllowed,
  configuredUrls,
  credentialAdvice,
  headersFor,
  redirectCheck,
} from '../security.js';
import { describeTools } from './catalog.js';
import type { Confirm, Confirmer } from './confirmation.js';
import { boundedNote, notesRoom, withNotes } from './notes.js';
import { knownSchema, loadSchema, withAdvice } from './schema-source.js';
import {
  advertised,
  advertisedJson,
  endpointInput,
  headersInput,
  parseInput,
  readEndpoint,
  readHeaders,
} from './input.js';

type Steps = typeof import('./pipeline.js');

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

const readOnlyInputSchema = inputSchema.omit({ allowMutations: true });

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

/** Registers graphql_query: the pipeline of docs/contract.md, from inputs to the endpoint's response. */
export function registerGraphQLQuery(
  server: McpServer,
  config: Config,
  diagnostics: Diagnostics,
  confirmer: Confirmer,
): void {
  // With --readOnly the model is not offered a switch that cannot work.
  const offered = config.readOnly ? readOnlyInputSchema : inputSchema;
  server.registerTool(
    'graphql_query',
    {
      title: 'GraphQL query',
      description: describeTools(config).graphql_query,
      inputSchema: advertised(offered),
      outputSchema,
      annotations: {
        readOnlyHint: config.readOnly,
        destructiveHint: !config.readOnly,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    diagnostics.reported('graphql_query', (args, context) =>
      runQuery(config, args, context.mcpReq.signal, (mutation) => confirmer.decide(context, mutation)),
    ),
  );
}

/**
 * Runs one call; every failure is an error result whose text starts with its code. A mutation the model allowed
 * is put to the user through `confirm` (a 2026-07-28 client gets the question as the result, and calls again).
 */
export async function runQuery(
  config: Config,
  args: unknown,
  signal?: AbortSignal,
  confirm?: Confirm,
): Promise<CallToolResult | InputRequiredResult> {
  const raw = (args ?? {}) as Record<string, unknown>;
  return guarded(config, async (call) => {
    // 1. Inputs. variables and headers are read from the raw arguments: the validator's copies
    //    silently drop a "__proto__" key, and these go to the endpoint exactly as given.
    const input = parseInput(inputSchema, raw);
    const variables = readVariables(raw.variables);
    const callHeaders = readHeaders(
      input.headers === undefined ? undefined : (raw.headers as Record<string, unknown>),
    );
    call.sentHeaders = [config.headers, callHeaders];
    const endpoint = readEndpoint(input.endpoint, config.endpoint);
    call.urls = [...call.urls, endpoint];

    // 2. Endpoint.
    assertEndpointAllowed(config, endpoint);

    // graphql-js and the HTTP client, from the first call on.
    const steps = await import('./pipeline.js');

    // 3.–5. Document, operation, no subscription.
    const document = steps.analyseDocument(input.query);
    const operation = steps.selectOperation(document, input.operationName);
    if (operation.operation === 'subscription') {
      throw new ToolError(
        'SUBSCRIPTION_NOT_SUPPORTED',
        'subscriptions need a streaming transport; run a query instead',
      );
    }

    // 6. Mutations: any mutation in the document, run or not, needs both permissions.
    const mutates = steps.containsMutation(document);
    if (mutates) {
      if (config.readOnly) {
        throw new ToolError(
          'MUTATION_NOT_ALLOWED',
          'this server was started with --readOnly, so it refuses every mutation',
        );
      }
      if (input.allowMutations !== true) {
        const asked = config.mutations === 'allow' ? '' : '; the user is then asked to confirm it';
        throw new ToolError(
          'MUTATION_NOT_ALLOWED',
          `the document contains a mutation; set allowMutations to true to run it (only if changing data is intended)${asked}`,
        );
      }
    }
    const { operationName, timeout } = input;
    const plan = {
      tool: 'graphql_query',
      endpoint,
      callHeaders,
      document,
      operation,
      operationName,
      variables,
      timeout,
      confirm: mutates ? confirm : undefined,
      mutates,
    };
    return execute(steps, config, plan, call, signal);
  });
}

/**
 * Runs an operation the operator wrote (--operations): checked at start-up, so it goes from the
 * complexity step on, against the default endpoint, with the variables the tool's inputs gave.
 */
export async function runOperation(
  config: Config,
  operation: FixedOperation,
  variables: Record<string, unknown>,
  signal?: AbortSignal,
  confirm?: Confirm,
): Promise<CallToolResult | InputRequiredResult> {
  return guarded(config, async (call) => {
    const steps = await import('./pipeline.js');
    const mutates = operation.operation.operation === 'mutation';
    const plan = {
      tool: operation.name,
      endpoint: config.endpoint,
      callHeaders: new HeaderSet(),
      document: operation.document,
      operation: operation.operation,
      operationName: operation.operation.name?.value,
      variables,
      timeout: undefined,
      // Its author allowed it; the user still confirms it, unless the author marked it as needing no question.
      confirm: mutates && operation.confirm ? confirm : undefined,
      mutates,
    };
    return execute(steps, config, plan, call, signal);
  });
}

/** An operation from the operator's files: its document (with the fragments it uses), analysed. */
export interface FixedOperation {
  readonly name: string;
  readonly document: AnalysedDocument;
  readonly operation: OperationDefinitionNode;
  /** Whether the user confirms it before it runs (a mutation not marked as needing no question). */
  readonly confirm: boolean;
}

/** What one call has sent so far: everything that must be hidden if the endpoint echoes it. */
interface CallState {
  notes: string[];
  sentHeaders: HeaderSet[];
  urls: URL[];
  hide(): Redactor;
}

/** A call whose failures (ToolError) become error results, with every credential of the call hidden. */
async function guarded(
  config: Config,
  run: (call: CallState) => Promise<CallToolResult | InputRequiredResult>,
): Promise<CallToolResult | InputRequiredResult> {
  // One matcher per call, built when first needed: by then the call's headers and URL are known.
  let redactor: Redactor | undefined;
  const call: CallState = {
    notes: [],
    sentHeaders: [config.headers],
    urls: configuredUrls(config),
    hide: () => (redactor ??= Redactor.of(call.sentHeaders, call.urls)),
  };
  try {
    return await run(call);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const safe = new ToolError(error.code, call.hide().text(error.message));
    return errorResult(safe, call.notes);
  }
}

interface Plan {
  /** The tool called, which the user's answer is bound to. */
  readonly tool: string;
  readonly endpoint: URL;
  readonly callHeaders: HeaderSet;
  readonly document: AnalysedDocument;
  readonly operation: OperationDefinitionNode;
  readonly operationName: string | undefined;
  readonly variables: Record<string, unknown> | undefined;
  readonly timeout: number | undefined;
  readonly mutates: boolean;
  /** Who decides the mutation before it is sent; undefined when nobody is to be asked. */
  readonly confirm: Confirm | undefined;
}

/** Steps 7 to 10: complexity, validation against a known schema, the user's word, the request and its result. */
async function execute(
  steps: Steps,
  config: Config,
  plan: Plan,
  call: CallState,
  signal: AbortSignal | undefined,
): Promise<CallToolResult | InputRequiredResult> {
  const { endpoint, callHeaders, document, operation, operationName, variables, timeout, mutates } = plan;
  const hide = call.hide;
  // 7. Complexity.
  if (config.maxComplexity > 0) {
    const complexity = steps.measureComplexity(document, operation, config.maxComplexity);
    if (complexity.value > config.maxComplexity) {
      throw new ToolError(
        'COMPLEXITY_LIMIT',
        `the query selects ${complexity.atLeast ? 'at least ' : ''}${complexity.value} fields, more than the limit of ${config.maxComplexity}; select fewer fields or split the query`,
      );
    }
  }

  const request = headersFor(config, endpoint, callHeaders);
  call.notes = request.notes;

  // 8. Against the schema, when it is known: a mistake is answered here, with the names that are valid.
  const schema = await schemaToValidate(steps, config, endpoint, request.headers, hide, signal);
  if (schema !== undefined) {
    const problems = steps.validateDocument(schema, document, operation, variables);
    if (problems.length > 0) {
      throw new ToolError(
        'VALIDATION_FAILED',
        `the document does not match the schema of ${describeEndpoint(endpoint)}, so it was not sent: ` +
          problems.map((problem, i) => `${i + 1}) ${problem}`).join(' '),
      );
    }
  }

  // 9. The person decides: asked last, so that nothing the server would refuse anyway is put to them.
  if (plan.confirm !== undefined) {
    const question = steps.mutationQuestion({
      endpoint: describeEndpoint(endpoint),
      document,
      operation,
      variables,
    });
    const decision = await plan.confirm({
      question: call.hide().text(question),
      call: [plan.tool, endpoint.href, document.text, operationName ?? null, variables ?? null],
    });
    if (decision.kind === 'ask') return decision.result;
    if (decision.kind === 'refuse') throw decision.error;
    if (decision.note !== undefined) call.notes = [...call.notes, decision.note];
  }

  // 10. The request.
  // Serialising megabytes of variables and encoding the result take tens of milliseconds each: each
  // gets a turn of the event loop of its own, so that pings and cancellations are not kept waiting.
  const large = steps.jsonLengthAtLeast(variables, LARGE_VARIABLES);
  if (large) await steps.letInputIn();
  // The document as analysed, printed from its tree: what was checked is what is sent.
  const body = serialise({ query: document.text, variables, operationName });
  if (large) await steps.letInputIn();
  const { status, result } = await steps
    .postGraphQL({
      endpoint,
      headers: request.headers,
      body,
      timeoutMs: timeout ?? config.timeout,
      maxBytes: config.maxResponseBytes,
      signal,
      retryable: !mutates,
      checkHop: redirectCheck(config, endpoint),
      redact: (text) => hide().text(text),
    })
    .catch((error: unknown) => {
      throw error instanceof ToolError ? withAdvice(error, config, endpoint, request.headers) : error;
    });
  return await graphqlResult(steps, config, result, call.notes, hide(), () =>
    failureHints(steps, config, status, result, schema, endpoint, request.headers),
  );
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

/**
 * The schema to check the document against: the one known for this endpoint and these headers (fetched by
 * graphql_introspect within --schemaTtl), fetched first under --validate=always; none under off, or when
 * it cannot be had (the call then goes on: the endpoint judges).
 */
async function schemaToValidate(
  steps: Steps,
  config: Config,
  endpoint: URL,
  headers: HeaderSet,
  hide: () => Redactor,
  signal: AbortSignal | undefined,
): Promise<GraphQLSchema | undefined> {
  if (config.validate === 'off') return undefined;
  let known = knownSchema(steps, config, endpoint, headers);
  if (known === undefined && config.validate === 'always') {
    try {
      known = (
        await loadSchema(steps, config, { endpoint, headers, redact: (text) => hide().text(text) }, signal)
      ).schema;
    } catch (error) {
      if (signal?.aborted) throw new ToolError('CANCELLED', 'the client cancelled the call');
      if (!(error instanceof ToolError)) throw error;
    }
  }
  if (known === undefined) return undefined;
  try {
    return known.validationSchema();
  } catch {
    return undefined;
  }
}

/**
 * The endpoint's GraphQL response, with any credential sent on this call that it echoes hidden (it may
 * quote the request's headers in an error message or in data), shortened to --maxResultChars (and about half
 * as many tokens); an error only when it has errors and no data. Every note (headers withheld, shortened,
 * hints, values redacted) is a text of its own and sits in the response's extensions too (see notes.ts).
 */
async function graphqlResult(
  steps: Steps,
  config: Config,
  response: Record<string, unknown>,
  withheld: readonly string[],
  redactor: Redactor,
  hintsOnFailure: () => string[],
): Promise<CallToolResult> {
  const redacted = redactor.json(response);
  let result = redacted.value;
  const failed = Array.isArray(result.errors) && result.errors.length > 0 && (result.data ?? null) === null;
  // The names come from the endpoint's schema: its text, like the response's, may echo a credential.
  const hints = failed ? hintsOnFailure().map((hint) => boundedNote(redactor.text(hint))) : [];
  const redaction = redacted.hidden > 0 ? [redactionNote(redacted.hidden)] : [];
  const before = withheld.map(boundedNote);
  let notes = [...before, ...hints, ...redaction];
  const text = JSON.stringify(result);
  let shaped;
  if (config.maxResultChars > 0) {
    // The notes take their room in the budget; so does the note on shortening, when there is one to write.
    const budget = config.maxResultChars - notesRoom(notes);
    const reserve = text.length > budget ? notesRoom([...notes, LONGEST_NOTE]) - notesRoom(notes) : 0;
    const chars = Math.max(budget - reserve, MIN_RESULT_CHARS);
    shaped = await steps.fitResponse(result, chars, text);
    // The note names the option's budget, which the whole result (notes included) fits.
    if (shaped !== undefined && shaped.maxChars === chars)
      shaped = { ...shaped, maxChars: config.maxResultChars };
  }
  if (shaped !== undefined) {
    result = shaped.value;
    const note = boundedNote(
      steps.shapeNote(shaped, config.maxResultChars, '--maxResultChars', SHAPE_NOTE_CHARS),
      SHAPE_NOTE_CHARS,
    );
    notes = [...before, note, ...hints, ...redaction];
  }
  const structured = withNotes(result, notes);
  const first = notes.length === 0 ? (shaped?.text ?? text) : JSON.stringify(structured);
  return {
    content: [first, ...notes].map((text) => ({ type: 'text' as const, text })),
    structuredContent: structured,
    ...(failed ? { isError: true } : {}),
  };
}

/** Most characters of the note on shortening (it lists the cuts, then says how to get the rest). */
const SHAPE_NOTE_CHARS = 1_000;
/** The room the note on shortening may take. */
const LONGEST_NOTE = 'x'.repeat(SHAPE_NOTE_CHARS);
/** What a shortened response keeps at least, whatever the notes take. */
const MIN_RESULT_CHARS = 1_000;

/**
 * For a response with errors and no data: the valid names the endpoint's messages leave out (when the
 * schema is known), and what to do about a refusal of credentials.
 */
function failureHints(
  steps: Steps,
  config: Config,
  status: number,
  result: Record<string, unknown>,
  schema: GraphQLSchema | undefined,
  endpoint: URL,
  headers: HeaderSet,
): string[] {
  const texts: string[] = [];
  if (schema !== undefined) {
    const hints = steps.hintsForMessages(schema, steps.errorMessages(result).split('; '));
    if (hints.length > 0) texts.push(`Hint from the schema: ${hints.join(' ')}`);
  }
  if (steps.isAuthFailure(status, steps.errorCodes(result))) {
    texts.push(
      `Hint: the endpoint refused the credentials (HTTP ${status}). ${credentialAdvice(config, endpoint, headers)}.`,
    );
  }
  return texts;
}
