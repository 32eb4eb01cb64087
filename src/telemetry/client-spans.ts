import {
  defaultTextMapSetter,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { GraphQLOperationEvent, HttpRequestEvent, Traced } from '../common/diagnostics.js';
import * as names from './attributes.js';
import { bounded, type Tracing } from './tracing.js';

// What a tool call sends, as the domain publishes it on diagnostics channels: the GraphQL operation (an INTERNAL
// span in the GraphQL conventions, named by its type, since an operation's name is the caller's and of high
// cardinality), and under it each HTTP request (a CLIENT span in the HTTP conventions), whose trace context the
// request carries to the API. Each span starts where the traced work starts (the channel's bound store, so that
// what the work starts is its child) and ends with it.

/** A span in flight, and how to end it. */
interface Open {
  end(event: Traced<object, unknown>): void;
}

/** The spans of the operations and requests in flight, by the event that traces them. */
export class ClientSpans {
  readonly #open = new WeakMap<object, Open>();

  constructor(private readonly tracing: Tracing) {}

  /** Starts the span of a GraphQL operation; the context it runs in. */
  graphqlStarted = (event: GraphQLOperationEvent): Context => {
    const { tracing } = this;
    const parent = tracing.contexts.active();
    const span = tracing.tracer.startSpan(
      event.type,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [names.GRAPHQL_OPERATION_TYPE]: event.type,
          ...(event.api !== undefined && { [names.API_NAME]: bounded(event.api) }),
          ...(event.name !== undefined && { [names.GRAPHQL_OPERATION_NAME]: bounded(event.name) }),
          ...(event.cost !== undefined && { [names.COST_ESTIMATE]: event.cost }),
          ...(tracing.documents &&
            event.document !== undefined && { [names.GRAPHQL_DOCUMENT]: event.document }),
        },
      },
      parent,
    );
    this.#open.set(event, {
      end: (ended) => {
        failed(span, errorTypeOf(ended.error) ?? (ended as GraphQLOperationEvent).failure);
        span.end();
      },
    });
    return trace.setSpan(parent, span);
  };

  /**
   * Starts the span of one HTTP request and adds its trace context to the request's headers: `traceparent`
   * alone (and `baggage` where the operator lists it), never the client's `tracestate`, which is the client's
   * business and would reach whichever endpoint a model picks. Returns the context it runs in.
   */
  httpStarted = (event: HttpRequestEvent): Context => {
    const { tracing } = this;
    const parent = tracing.contexts.active();
    const upper = event.method.toUpperCase();
    const known = KNOWN_METHODS.has(upper);
    const { url, redact } = event;
    const span = tracing.tracer.startSpan(
      known ? upper : 'HTTP',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [names.HTTP_REQUEST_METHOD]: known ? upper : '_OTHER',
          [names.SERVER_ADDRESS]: redact(url.hostname.replace(/^\[(.*)\]$/, '$1')),
          [names.SERVER_PORT]: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
          [names.URL_FULL]: redact(redactedUrl(url)),
        },
      },
      parent,
    );
    const context = trace.setSpan(parent, span);
    const carrier: Record<string, string> = {};
    tracing.propagator.inject(context, carrier, defaultTextMapSetter);
    for (const name of SENT_CONTEXT) if (carrier[name] !== undefined) event.headers[name] = carrier[name];
    this.#open.set(event, {
      end: (ended) => {
        const status = (ended.result as { statusCode?: number } | undefined)?.statusCode;
        if (status !== undefined) span.setAttribute(names.HTTP_RESPONSE_STATUS_CODE, status);
        const errorType =
          ended.error === undefined
            ? status !== undefined && status >= 400
              ? String(status)
              : undefined
            : (errorTypeOf(ended.error) ?? 'NETWORK_ERROR');
        failed(span, errorType);
        span.end();
      },
    });
    return context;
  };

  /** Ends the span of an operation or request that ended (the channel's asyncEnd). */
  ended = (message: unknown): void => {
    const event = message as Traced<object, unknown>;
    const open = this.#open.get(event);
    if (open === undefined) return;
    this.#open.delete(event);
    open.end(event);
  };
}

/** The code of what ended a traced piece of work: our ToolError's (TIMEOUT), or the system's (ECONNREFUSED). */
function errorTypeOf(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code !== '' ? code : 'error';
}

/** What of the trace context an API is sent: never `tracestate`, the client's vendors' own. */
const SENT_CONTEXT = ['traceparent', 'baggage'] as const;

/** The methods the HTTP conventions name; any other is `_OTHER`. */
const KNOWN_METHODS = new Set([
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'CONNECT',
  'TRACE',
]);

/** Marks a span failed with `errorType`, when there is one. */
function failed(span: Span, errorType: string | undefined): void {
  if (errorType === undefined) return;
  span.setAttribute(names.ERROR_TYPE, errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
}

/**
 * The URL as url.full records it: without user-info or fragment, and every query value replaced by REDACTED (a
 * parameter without `=` is redacted whole), as the HTTP conventions advise for values that may be credentials;
 * a GET request carries the document and the variables there too.
 */
export function redactedUrl(url: URL): string {
  const base = `${url.protocol}//${url.host}${url.pathname}`;
  if (url.search === '') return base;
  const parameters = url.search
    .slice(1)
    .split('&')
    .map((parameter) => {
      const equals = parameter.indexOf('=');
      return equals === -1 ? 'REDACTED' : `${parameter.slice(0, equals)}=REDACTED`;
    });
  return `${base}?${parameters.join('&')}`;
}
