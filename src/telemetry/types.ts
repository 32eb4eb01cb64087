// The interface of telemetry as the rest of the server sees it (telemetry.ts starts it): types only, so that the
// implementation (otel.ts) and its callers share them without importing each other.
import type { McpServerFactory } from '@modelcontextprotocol/server';

/** The OTLP encodings over HTTP that graphql-mcp exports (OTEL_EXPORTER_OTLP_PROTOCOL). */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** What the environment asks for: each signal's protocol, or undefined when that signal is off. */
export interface TelemetryPlan {
  readonly traces: OtlpProtocol | undefined;
  readonly metrics: OtlpProtocol | undefined;
  /** The context formats read from `_meta` and headers and written into the GraphQL request (OTEL_PROPAGATORS). */
  readonly propagators: readonly ('tracecontext' | 'baggage')[];
  /** What was asked for and is not done, each a line for stderr. */
  readonly warnings: readonly string[];
}

/** Options of graphql-mcp's own, beside the OTEL_* variables. */
export interface TelemetryOptions {
  /** service.version. */
  readonly version: string;
  /**
   * Record each GraphQL document as sent (graphql.document). Off by default: a document may hold literal values.
   * @default false
   */
  readonly documents?: boolean;
  /** Where the SDK's own diagnostics go (an export that failed), one line each: stderr. */
  readonly log: (line: string) => void;
}

/** What the network carried an MCP request over: stdio is a pipe, remote mode TCP. */
export type NetworkTransport = 'pipe' | 'tcp';

/** An MCP request as remote mode's HTTP front received it: what the HTTP request says besides the message. */
export interface HttpArrival {
  /** The `traceparent` header: the parent of the request's span when its `_meta` carries none. */
  readonly traceparent?: string | undefined;
  readonly tracestate?: string | undefined;
  /** The `MCP-Protocol-Version` header (a 2026 request's `_meta` claim wins). */
  readonly protocolVersion?: string | undefined;
  /** The `Mcp-Session-Id` header, where there is a session. */
  readonly sessionId?: string | undefined;
  /** `req.httpVersion`: 1.1, 2. */
  readonly httpVersion?: string | undefined;
}

/** The SERVER span of one MCP request, for a caller that sees the request and its response itself. */
export interface McpRequestTrace {
  /** Runs `fn` inside the request's span, so that what the handling starts (tool calls, requests) is its child. */
  run<T>(fn: () => T): T;
  /**
   * Ends the span, once. `response`: the JSON-RPC response as an object, or its JSON text or bytes, when the
   * caller has it; its error (a JSON-RPC error, or a tool result with isError) sets error.type. `httpStatus`: the
   * HTTP status it went out with, an error.type of its own when 400 or more and the response says nothing more.
   */
  end(response?: unknown, httpStatus?: number): void;
}

/** The GraphQL operation a call is about to send. */
export interface GraphQLOperationInfo {
  readonly type: 'query' | 'mutation' | 'subscription';
  /** The operation's name, when it has one. */
  readonly name?: string | undefined;
  /** The document as sent: recorded only when the operator opted in (TelemetryOptions.documents). */
  readonly document?: string | undefined;
  /** The API's name, with several APIs (--config). */
  readonly api?: string | undefined;
  /** The list items it can return by its estimate (graphql/cost.ts). */
  readonly cost?: number | undefined;
}

/** The span of one GraphQL operation: its HTTP requests run inside it. */
export interface GraphQLTrace {
  /** Runs `fn` inside the operation's span: the HTTP requests it sends become the operation's children. */
  run<T>(fn: () => T): T;
  /** Ends the span and records its duration, once; `errorType`: the call's error code when it failed (TIMEOUT, …). */
  end(errorType?: string): void;
}

/** The CLIENT span of one HTTP request to a GraphQL endpoint. */
export interface HttpRequestTrace {
  /** The W3C trace context (`traceparent`, `tracestate`) this request must carry, so that the API's traces join. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Ends the span, once: `status`, the response's status, when one came; `errorType`, what ended the request
   * without one (the system code, ECONNREFUSED, or our code, TIMEOUT).
   */
  end(status: number | undefined, errorType?: string): void;
}

/**
 * How the person's decision on a mutation went: the values of tools/confirmation.ts's Outcome, so that a decision's
 * outcome is passed on as it is.
 */
export type MutationOutcome =
  /** The person accepted it. */
  | 'accepted'
  | 'declined'
  /** The question was dismissed without an answer. */
  | 'dismissed'
  /** No answer within --confirmTimeout. */
  | 'timed-out'
  /** Nobody was asked: the policy allows it, or the client cannot ask and the policy lets allowMutations decide. */
  | 'not-asked'
  /** Refused without a question (the client cannot ask under require-confirm; an answer for another call). */
  | 'refused'
  /** The question went to a 2026-07-28 client in an input_required result; the retried call brings the answer. */
  | 'asked';

/** Traces and metrics of a running server; each span is a child of the span current where it starts. */
export interface Telemetry {
  /**
   * The factory for stdio's serveStdio, its servers wrapped so that every request they answer gets a SERVER
   * span (traced-transport.ts), handled inside it. Not for createMcpHandler: remote mode uses `request`.
   * @param network what carries the connection; stdio is a pipe (the default)
   */
  traceServers(factory: McpServerFactory, network?: NetworkTransport): McpServerFactory;
  /** Remote mode: an MCP request its HTTP front received; undefined when the message is not a JSON-RPC request. */
  request(message: unknown, arrival: HttpArrival): McpRequestTrace | undefined;
  /** A GraphQL operation about to be sent. */
  graphql(operation: GraphQLOperationInfo): GraphQLTrace;
  /** One HTTP request to a GraphQL endpoint (each redirect hop and retry is one). */
  httpRequest(method: string, url: URL): HttpRequestTrace;
  /** The decision on a mutation: an event on the current span, and a count by outcome. */
  mutationDecided(outcome: MutationOutcome): void;
  /** A result was shortened to fit its budget. */
  resultShortened(tool: string): void;
  /** Remote mode: a request its front refused by a bound; `reason`, a constant (in_flight, body_too_large, …). */
  requestRefused(reason: string): void;
  /** Exports what is pending, within `deadlineMs`. */
  flush(deadlineMs?: number): Promise<void>;
  /** Exports what is pending and stops, within `deadlineMs` (a dead collector must not hold the exit). */
  shutdown(deadlineMs?: number): Promise<void>;
}

/** The telemetry started, if any, and what the environment asked for that is not done. */
export interface StartedTelemetry {
  readonly telemetry: Telemetry | undefined;
  readonly warnings: readonly string[];
}
