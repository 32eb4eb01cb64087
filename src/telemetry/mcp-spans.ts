import { performance } from 'node:perf_hooks';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';
import * as names from './attributes.js';
import type { NetworkTransport } from './types.js';
import { bounded, extracted, type Tracing } from './tracing.js';
import { isObject } from '../common/is-object.js';

// The SERVER span of each MCP request, in the OpenTelemetry conventions for MCP (semantic-conventions-genai,
// docs/gen-ai/mcp.md): named `{mcp.method.name} {target}` where the target is the tool's or the prompt's name,
// its parent the context the client put in `params._meta`, its end the response with the same id; and the
// mcp.server.operation.duration it took.

/** Where a request came from, besides its message. */
export interface Origin {
  readonly transport: NetworkTransport;
  /** The protocol version negotiated on the connection (a 2026 request's `_meta` claim wins). */
  readonly protocolVersion?: string | undefined;
  readonly sessionId?: string | undefined;
  /** The HTTP version, when HTTP carried the request. */
  readonly httpVersion?: string | undefined;
  /**
   * The context the request arrived in (remote mode: the HTTP request's `traceparent`): the parent when the
   * request's `_meta` carries none, else a link.
   */
  readonly ambient?: Context | undefined;
}

/** The key of a 2026-07-28 request's protocol version claim in `_meta`. */
const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/** An error code at the start of a tool result's text: `COMPLEXITY_LIMIT: the query selects …`. */
const ERROR_CODE = /^([A-Z][A-Z0-9_]{1,63}): /;

/** Most characters of a JSON-RPC error message kept as the span's status description. */
const MAX_STATUS_MESSAGE = 200;

/** Starts the span of `message` when it is a JSON-RPC request; undefined for anything else. */
export function startRequestSpan(
  tracing: Tracing,
  message: unknown,
  origin: Origin,
): RequestSpan | undefined {
  if (!isObject(message) || typeof message.method !== 'string') return undefined;
  const { id } = message;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  return new RequestSpan(tracing, message.method, id, isObject(message.params) ? message.params : {}, origin);
}

/** One request's span, ended once: by its response, its cancellation, or the connection's end. */
export class RequestSpan {
  readonly #tracing: Tracing;
  readonly #span: Span;
  readonly #context: Context;
  readonly #method: string;
  readonly #started = performance.now();
  /** What the duration metric is recorded with (the span's low-cardinality attributes). */
  readonly #measure: Attributes;
  #ended = false;

  constructor(
    tracing: Tracing,
    method: string,
    id: string | number,
    params: Record<string, unknown>,
    origin: Origin,
  ) {
    this.#tracing = tracing;
    this.#method = method;
    const meta = isObject(params._meta) ? params._meta : {};
    const target = targetOf(method, params);
    const claimed = meta[PROTOCOL_VERSION_META_KEY];
    const protocolVersion = typeof claimed === 'string' ? bounded(claimed) : origin.protocolVersion;
    this.#measure = {
      [names.MCP_METHOD_NAME]: bounded(method),
      [names.NETWORK_TRANSPORT]: origin.transport,
      ...(protocolVersion !== undefined && { [names.MCP_PROTOCOL_VERSION]: protocolVersion }),
      ...(origin.transport === 'tcp' && { [names.NETWORK_PROTOCOL_NAME]: 'http' }),
      ...(origin.httpVersion !== undefined && { [names.NETWORK_PROTOCOL_VERSION]: origin.httpVersion }),
      ...target.attributes,
    };
    const attributes: Attributes = {
      ...this.#measure,
      [names.JSONRPC_REQUEST_ID]: bounded(String(id)),
      ...(origin.sessionId !== undefined && { [names.MCP_SESSION_ID]: bounded(origin.sessionId) }),
      ...target.uri,
    };
    // The client's context from `_meta` is the parent; the context the request arrived in is linked to it.
    const ambient = origin.ambient ?? ROOT_CONTEXT;
    const fromMeta = extracted(tracing, ROOT_CONTEXT, meta);
    const metaSpan = trace.getSpanContext(fromMeta);
    const ambientSpan = trace.getSpanContext(ambient);
    const parent = metaSpan !== undefined ? fromMeta : ambient;
    const links: Link[] =
      metaSpan !== undefined && ambientSpan !== undefined && ambientSpan.spanId !== metaSpan.spanId
        ? [{ context: ambientSpan }]
        : [];
    const name = target.name === undefined ? method : `${method} ${target.name}`;
    this.#span = tracing.tracer.startSpan(
      bounded(name),
      { kind: SpanKind.SERVER, attributes, links },
      parent,
    );
    this.#context = trace.setSpan(parent, this.#span);
  }

  /** Runs `fn` inside the request's span, so that what the handling starts (tool calls, requests) is its child. */
  run<T>(fn: () => T): T {
    return this.#tracing.contexts.with(this.#context, fn);
  }

  /** Ends the span with its response: a JSON-RPC error, or a tool result with isError, sets error.type. */
  end(response: unknown): void {
    if (this.#ended) return;
    const outcome = outcomeOf(this.#method, isObject(response) ? response : undefined);
    this.#finish(outcome.errorType, outcome);
  }

  /** Ends the span of a request that will get no response (cancelled, or its connection gone). */
  abandon(errorType: string): void {
    if (!this.#ended) this.#finish(errorType, {});
  }

  #finish(errorType: string | undefined, outcome: Outcome): void {
    this.#ended = true;
    const attributes: Attributes = {
      ...(errorType !== undefined && { [names.ERROR_TYPE]: errorType }),
      ...(outcome.rpcCode !== undefined && { [names.RPC_RESPONSE_STATUS_CODE]: outcome.rpcCode }),
      ...(outcome.protocolVersion !== undefined && { [names.MCP_PROTOCOL_VERSION]: outcome.protocolVersion }),
    };
    this.#span.setAttributes(attributes);
    if (errorType !== undefined) {
      this.#span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.message ?? errorType });
    }
    this.#span.end();
    const seconds = (performance.now() - this.#started) / 1000;
    this.#tracing.instruments.operationDuration.record(seconds, { ...this.#measure, ...attributes });
  }
}

/** What a request is about: the span name's target and the attributes that name it. */
function targetOf(
  method: string,
  params: Record<string, unknown>,
): { name?: string; attributes: Attributes; uri: Attributes } {
  const name = typeof params.name === 'string' ? bounded(params.name) : undefined;
  if (method === 'tools/call' && name !== undefined) {
    return {
      name,
      attributes: { [names.GEN_AI_TOOL_NAME]: name, [names.GEN_AI_OPERATION_NAME]: 'execute_tool' },
      uri: {},
    };
  }
  if (method === 'prompts/get' && name !== undefined) {
    return { name, attributes: { [names.GEN_AI_PROMPT_NAME]: name }, uri: {} };
  }
  // A resource's URI is an attribute, not the span's name: the conventions keep span names low-cardinality.
  const uri = typeof params.uri === 'string' ? { [names.MCP_RESOURCE_URI]: bounded(params.uri) } : {};
  return { attributes: {}, uri };
}

/** How a response ended its request. */
interface Outcome {
  readonly errorType?: string;
  /** The JSON-RPC error code. */
  readonly rpcCode?: string;
  /** The status description: a JSON-RPC error's message. */
  readonly message?: string;
  /** The version an initialize response negotiated. */
  readonly protocolVersion?: string;
}

function outcomeOf(method: string, response: Record<string, unknown> | undefined): Outcome {
  if (response === undefined) return {};
  if (isObject(response.error)) {
    const { code, message } = response.error;
    const rpcCode = typeof code === 'number' || typeof code === 'string' ? String(code) : '_OTHER';
    return {
      errorType: rpcCode,
      rpcCode,
      ...(typeof message === 'string' && { message: message.slice(0, MAX_STATUS_MESSAGE) }),
    };
  }
  const result = isObject(response.result) ? response.result : {};
  if (method === 'initialize' && typeof result.protocolVersion === 'string') {
    return { protocolVersion: bounded(result.protocolVersion) };
  }
  if (method === 'tools/call' && result.isError === true) return { errorType: toolErrorType(result) };
  return {};
}

/**
 * The error.type of a tool result with isError: our stable code where its first text starts with one, else the
 * conventions' `tool_error` (a GraphQL response with errors and no data).
 */
function toolErrorType(result: Record<string, unknown>): string {
  const first = Array.isArray(result.content) ? (result.content[0] as unknown) : undefined;
  const text = isObject(first) && typeof first.text === 'string' ? first.text : '';
  return ERROR_CODE.exec(text)?.[1] ?? 'tool_error';
}
