import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { DEFAULT_API } from '../config/types.js';
import { cancelled, ToolError } from '../common/errors.js';
import { estimateCost, type CostEstimate } from '../graphql/cost.js';
import { mutationQuestion, rootFieldNames, UnconfirmableMutation } from '../graphql/mutation-question.js';
import {
  analyseDocument,
  containsMutation,
  selectOperation,
  type AnalysedDocument,
} from '../graphql/operation.js';
import { errorCodes, errorMessages, isAuthFailure } from '../graphql/response.js';
import { hintsForMessages } from '../graphql/validate.js';
import { describeEndpoint } from '../http/endpoint.js';
import type { PersistedDocument } from '../http/persisted.js';
import { postGraphQL, wholeDocumentRefused, type GraphQLResponse } from '../http/post-graphql.js';
import * as diagnostics from '../common/diagnostics.js';
import type { FixedOperation } from '../operations/load.js';
import { operatorRedactor } from '../redaction/redactor.js';
import { jsonLengthAtLeast } from '../common/json-length.js';
import { letInputIn } from '../common/time-slice.js';
import type { Call } from './call.js';
import { checkAgainstSchema, checkComplexity, checkCost, permissionRefusal } from './query-checks.js';
import type { Confirm, Decision, MutationAudit, Outcome } from './confirmation.js';
import { graphqlResult } from './query-result.js';
import { asTrusted } from './trusted.js';
import { knownSchema, loadSchema, withAdvice } from '../schema/source.js';
import type { CallTarget } from '../call/target.js';

// The pipeline of graphql_query (docs/contract.md), after its inputs and its target are known (query.ts): each
// step throws a ToolError that ends the call, or passes the call on. Operation tools join it at step 7.

/** A call of graphql_query, its inputs checked (step 1 of the pipeline). */
export interface QueryInput {
  readonly query: string;
  readonly variables: Record<string, unknown> | undefined;
  readonly operationName: string | undefined;
  readonly timeout: number | undefined;
  readonly allowMutations: boolean;
}

/**
 * Steps 3 to 10 of a graphql_query call to `target`; `toolPrefix` goes before the names of the API's operation
 * tools (several APIs), which a refusal under trusted documents only names.
 */
export async function runPipeline(
  target: CallTarget,
  input: QueryInput,
  call: Call,
  signal: AbortSignal | undefined,
  confirm: Confirm | undefined,
  toolPrefix = '',
): Promise<CallToolResult | InputRequiredResult> {
  // 3.–5. Document, operation, no subscription. An API that runs only its trusted documents runs the model's
  // only as one of them, by its id; any other is refused before anything else.
  const trusted =
    target.api.config.protocol.trustedOnly === true
      ? asTrusted(target.api, target.endpoint, input.query, input.operationName, toolPrefix)
      : undefined;
  const document = trusted?.document ?? analyseDocument(input.query);
  const operation = trusted?.operation ?? selectOperation(document, input.operationName);
  if (operation.operation === 'subscription') {
    throw new ToolError(
      'SUBSCRIPTION_NOT_SUPPORTED',
      'subscriptions need a streaming transport; run a query instead',
    );
  }

  const plan: Plan = {
    tool: 'graphql_query',
    target,
    ...(trusted !== undefined && { persisted: trusted.persisted }),
    document,
    operation,
    operationName: input.operationName,
    variables: input.variables,
    timeout: input.timeout,
    mutates: containsMutation(document),
    ask: true,
    confirm,
  };
  // 6. Mutations: any mutation in the document, run or not, needs both permissions.
  if (plan.mutates) {
    const refusal = permissionRefusal(target.api.config, input.allowMutations);
    if (refusal !== undefined) {
      audit(plan, { decision: 'refused', sent: false });
      throw refusal;
    }
  }
  return execute(plan, call, signal);
}

/**
 * Runs an operation the operator wrote (--operations): checked at start-up, so it goes from the complexity step
 * on, against the default endpoint, with the variables the tool's inputs gave.
 */
export async function runOperation(
  target: CallTarget,
  operation: FixedOperation,
  variables: Record<string, unknown>,
  call: Call,
  signal: AbortSignal | undefined,
  confirm: Confirm | undefined,
): Promise<CallToolResult | InputRequiredResult> {
  const mutates = operation.operation.operation === 'mutation';
  const { config } = target.api;
  const untrusted = wholeDocumentRefused(config.endpoint, config.protocol, operation);
  if (untrusted !== undefined) throw untrusted;
  return execute(
    {
      tool: operation.name,
      target,
      persisted: operation.persisted,
      document: operation.document,
      operation: operation.operation,
      operationName: operation.operation.name?.value,
      variables,
      timeout: undefined,
      mutates,
      // Its author allowed it; the user still confirms it, unless the author marked it as needing no question.
      ask: operation.confirm,
      confirm,
    },
    call,
    signal,
  );
}

/** What a call will send, once its document is known. */
interface Plan {
  /** The tool called, which the user's answer is bound to. */
  readonly tool: string;
  readonly target: CallTarget;
  /** The trusted document it is (a manifest's operation), sent by id where the API takes ids. */
  readonly persisted?: PersistedDocument;
  readonly document: AnalysedDocument;
  readonly operation: OperationDefinitionNode;
  readonly operationName: string | undefined;
  readonly variables: Record<string, unknown> | undefined;
  readonly timeout: number | undefined;
  readonly mutates: boolean;
  /** Whether a mutation of it is put to the person (an operation its author marked no-confirm is not). */
  readonly ask: boolean;
  /** Who decides a mutation before it is sent, and records its fate; undefined where no client is connected. */
  readonly confirm: Confirm | undefined;
}

/** Steps 7 to 10: complexity, validation against a known schema, the user's word, the request and its result. */
async function execute(
  plan: Plan,
  call: Call,
  signal: AbortSignal | undefined,
): Promise<CallToolResult | InputRequiredResult> {
  const { target, document, operation } = plan;
  const { config } = target.api;
  // 7. Complexity.
  checkComplexity(config, document, operation);
  call.notes = target.withheldNotes();

  // 8. Against the schema, when it is known: a mistake is answered here, with the names that are valid.
  const schema = await schemaToValidate(target, call, signal);
  if (schema !== undefined) {
    checkAgainstSchema(schema, target.endpoint, document, operation, plan.variables);
  }
  // Then its cost: the list items it can return, counted with the schema where known.
  const cost = estimateCost(document, operation, {
    variables: plan.variables,
    schema,
    limit: config.maxCost || undefined,
  });
  checkCost(config, cost, call);

  // 9. The person decides: asked last, so that nothing the server would refuse anyway is put to them.
  let outcome: Outcome = 'not-asked';
  if (plan.mutates && plan.ask && plan.confirm !== undefined) {
    let decision: Decision;
    try {
      decision = await decide(plan, plan.confirm, call, cost);
    } catch (error) {
      // The call went away while its question waited (the client cancelled, or the connection was cut).
      audit(plan, { decision: 'abandoned', sent: false });
      throw error;
    }
    outcome = decision.outcome;
    diagnostics.mutationDecided.publish(outcome);
    if (decision.kind !== 'run') audit(plan, { decision: outcome, sent: false });
    if (decision.kind === 'ask') return decision.result;
    if (decision.kind === 'refuse') throw decision.error;
    if (decision.note !== undefined) call.notes = [...call.notes, decision.note];
  }

  // 10. The request, and its answer as the result.
  const { status, result, advice } = await request(plan, call, signal, outcome, cost);
  if (plan.mutates) audit(plan, { decision: outcome, sent: true, status });
  if (advice !== undefined) call.notes = [...call.notes, advice];
  return graphqlResult(plan.tool, config, result, call.notes, call.hide, () =>
    failureHints(target, status, result, schema),
  );
}

/**
 * Sends the plan's operation, in a span of its own when telemetry is on. Serialising megabytes of variables and
 * encoding the result take tens of milliseconds each: each gets a turn of the event loop of its own, so that
 * pings and cancellations are not kept waiting.
 */
async function request(
  plan: Plan,
  call: Call,
  signal: AbortSignal | undefined,
  outcome: Outcome,
  cost: CostEstimate,
): Promise<GraphQLResponse> {
  const { target, document, operation, operationName, variables } = plan;
  const { config } = target.api;
  const large = jsonLengthAtLeast(variables, LARGE_VARIABLES);
  if (large) await letInputIn();
  const json = variables === undefined ? undefined : serialise(variables);
  if (large) await letInputIn();
  // The API's auth token, obtained now: a refusal (CREDENTIALS_UNAVAILABLE) ends the call with nothing sent.
  let headers;
  try {
    headers = await target.sending(signal);
  } catch (error) {
    if (plan.mutates) {
      audit(plan, {
        decision: outcome,
        sent: false,
        ...(error instanceof ToolError && { error: error.code }),
      });
    }
    throw error;
  }
  const send = () =>
    postGraphQL({
      endpoint: target.endpoint,
      headers,
      protocol: config.protocol,
      // The document as analysed, printed from its tree: what was checked is what is sent.
      operation: {
        query: document.text,
        operationName,
        variables: json,
        kind: plan.mutates ? 'mutation' : 'query',
        persisted: plan.persisted,
      },
      timeoutMs: plan.timeout ?? config.timeout,
      maxBytes: config.maxResponseBytes,
      signal,
      retryable: !plan.mutates,
      checkHop: target.checkHop,
      redact: (text) => call.hide.text(text),
    });
  const event: diagnostics.GraphQLOperationEvent = {
    type: operation.operation,
    name: operationName ?? operation.name?.value,
    document: document.text,
    api: config.name,
    cost: cost.total,
  };
  try {
    return await diagnostics.graphqlOperation.tracePromise(async () => {
      const answer = await send();
      const { result } = answer;
      if (Array.isArray(result.errors) && (result.data ?? null) === null) event.failure = 'graphql_error';
      return answer;
    }, event);
  } catch (error) {
    if (plan.mutates) {
      audit(plan, {
        decision: outcome,
        sent: true,
        ...(error instanceof ToolError && { error: error.code }),
      });
    }
    throw error instanceof ToolError ? withAdvice(error, target) : error;
  }
}

/** Records a mutation's fate (remote mode's audit line): the call's tool, API, operation and root fields. */
function audit(plan: Plan, fate: Pick<MutationAudit, 'decision' | 'sent' | 'status' | 'error'>): void {
  plan.confirm?.audit({
    tool: plan.tool,
    api: plan.target.api.config.name,
    operation: plan.operation.name?.value,
    fields: rootFieldNames(plan.document, plan.operation),
    ...fate,
  });
}

/** The person's decision on the mutation, bound to everything that decides the call. */
function decide(plan: Plan, confirm: Confirm, call: Call, cost: CostEstimate): Promise<Decision> {
  const { target } = plan;
  return confirm.decide({
    question: question(plan, call, cost),
    call: [
      plan.tool,
      target.api.config.name,
      target.endpoint.href,
      plan.document.text,
      plan.operationName ?? null,
      plan.variables ?? null,
      target.own.entries(),
    ],
    policy: target.api.config.mutations,
  });
}

/**
 * The question put to the person: every part of it as the model wrote it, only the operator's own secrets (its
 * configured headers and URLs) masked, never by a value the model chose in this call; refused when it cannot be
 * shown whole.
 */
function question(plan: Plan, call: Call, cost: CostEstimate): string {
  const { target } = plan;
  const operatorSecrets = operatorRedactor(call.secrets);
  try {
    return mutationQuestion({
      endpoint: describeEndpoint(target.endpoint),
      api: target.api.config.name === DEFAULT_API ? undefined : target.api.config.name,
      ...(target.credential !== undefined && {
        actor: `${target.credential.actor} at ${target.api.config.name}`,
      }),
      document: plan.document,
      operation: plan.operation,
      variables: plan.variables,
      callHeaders: target.own.names(),
      lists: cost.contributors,
      hide: (text) => operatorSecrets.text(text),
    });
  } catch (error) {
    if (!(error instanceof UnconfirmableMutation)) throw error;
    throw new ToolError(
      'MUTATION_NOT_ALLOWED',
      `this mutation cannot be shown whole to the person who must confirm it: ${error.message}; nothing was sent`,
    );
  }
}

/** Variables this long as JSON (milliseconds of work to serialise) are serialised in a turn of their own. */
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

/**
 * The schema to check the document against: the one known for this endpoint and these headers (fetched by
 * graphql_introspect within --schemaTtl), fetched first under --validate=always; none under off, or when
 * it cannot be had (the call then goes on: the endpoint judges).
 */
async function schemaToValidate(
  target: CallTarget,
  call: Call,
  signal: AbortSignal | undefined,
): Promise<GraphQLSchema | undefined> {
  const { config } = target.api;
  if (config.validate === 'off') return undefined;
  let known = knownSchema(target);
  if (known === undefined && config.validate === 'always') {
    try {
      known = (await loadSchema(target, (text) => call.hide.text(text), signal)).schema;
    } catch (error) {
      if (signal?.aborted) throw cancelled();
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
 * For a response with errors and no data: the valid names the endpoint's messages leave out (when the
 * schema is known), and what to do about a refusal of credentials.
 */
function failureHints(
  target: CallTarget,
  status: number,
  result: Record<string, unknown>,
  schema: GraphQLSchema | undefined,
): string[] {
  const texts: string[] = [];
  if (schema !== undefined) {
    const hints = hintsForMessages(schema, errorMessages(result).split('; '));
    if (hints.length > 0) texts.push(`Hint from the schema: ${hints.join(' ')}`);
  }
  if (isAuthFailure(status, errorCodes(result))) {
    texts.push(`Hint: the endpoint refused the credentials (HTTP ${status}). ${target.credentialAdvice()}.`);
  }
  return texts;
}
