import { channel, tracingChannel } from 'node:diagnostics_channel';

// What happens in the server, published on node:diagnostics_channel as undici publishes its requests: the code
// that does the work names what it does here and knows nothing of who listens. Telemetry (src/telemetry/)
// subscribes when the OTEL_* variables turn it on; with no subscriber a publish costs a check of a flag.

/** A GraphQL operation sent to an API (a tool call's, or an introspection): its HTTP requests run inside it. */
export interface GraphQLOperationEvent {
  readonly type: 'query' | 'mutation' | 'subscription';
  /** The operation's name, when it has one. */
  readonly name?: string | undefined;
  /** The document as sent (recorded only where the operator opted in: --traceDocuments). */
  readonly document?: string | undefined;
  /** The API's name. */
  readonly api?: string | undefined;
  /** The list items it can return by its estimate (graphql/cost.ts). */
  readonly cost?: number | undefined;
  /** Set by the publisher when the operation answered but failed as a whole (errors and no data). */
  failure?: string;
}

/** One HTTP request to a GraphQL endpoint (each redirect hop and retry is one). */
export interface HttpRequestEvent {
  readonly method: string;
  readonly url: URL;
  /** Hides the call's secrets in a text (a URL's path may hold a part the environment filled in). */
  readonly redact: (text: string) => string;
  /**
   * Headers the request is sent with besides its own: a subscriber adds the trace context here (traceparent),
   * at the start of the request.
   */
  readonly headers: Record<string, string>;
}

/** A tracing channel's message once it ended: what the traced function returned, or threw. */
export type Traced<T, R> = T & { result?: R; error?: unknown };

/** The GraphQL operations, traced from the first request to the answer. */
export const graphqlOperation = tracingChannel<unknown, Traced<GraphQLOperationEvent, unknown>>(
  'graphql-mcp:graphql:operation',
);

/** The HTTP requests to the APIs, traced from the request to its response's headers. */
export const httpRequest = tracingChannel<unknown, Traced<HttpRequestEvent, { statusCode?: number }>>(
  'graphql-mcp:http:request',
);

/** The decision on a mutation: its outcome (tools/confirmation.ts's Outcome). */
export const mutationDecided = channel('graphql-mcp:mutation:decided');

/** A result shortened to fit its budget: the tool's name. */
export const resultShortened = channel('graphql-mcp:result:shortened');

/** A request remote mode's front refused by a bound: why (in_flight, body_too_large, …). */
export const requestRefused = channel('graphql-mcp:request:refused');
