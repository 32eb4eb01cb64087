import { performance } from 'node:perf_hooks';
import {
  defaultTextMapSetter,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import * as names from './attributes.js';
import type { GraphQLOperationInfo, GraphQLTrace, HttpRequestTrace } from './types.js';
import { bounded, type Tracing } from './tracing.js';

// What a tool call sends: the GraphQL operation (an INTERNAL span in the GraphQL conventions, named by its type,
// since an operation's name is the caller's and of high cardinality), and under it each HTTP request (a CLIENT
// span in the HTTP conventions), whose trace context the request carries to the API.

/** Starts the span of a GraphQL operation, a child of the current span. */
export function startGraphQLSpan(tracing: Tracing, operation: GraphQLOperationInfo): GraphQLTrace {
  const parent = tracing.contexts.active();
  const measure: Attributes = {
    [names.GRAPHQL_OPERATION_TYPE]: operation.type,
    ...(operation.api !== undefined && { [names.API_NAME]: bounded(operation.api) }),
  };
  const span = tracing.tracer.startSpan(
    operation.type,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        ...measure,
        ...(operation.name !== undefined && { [names.GRAPHQL_OPERATION_NAME]: bounded(operation.name) }),
        ...(operation.cost !== undefined && { [names.COST_ESTIMATE]: operation.cost }),
        ...(tracing.documents &&
          operation.document !== undefined && { [names.GRAPHQL_DOCUMENT]: operation.document }),
      },
    },
    parent,
  );
  const context = trace.setSpan(parent, span);
  const started = performance.now();
  let ended = false;
  return {
    run: (fn) => tracing.contexts.with(context, fn),
    end: (errorType) => {
      if (ended) return;
      ended = true;
      failed(span, errorType);
      span.end();
      tracing.instruments.graphqlDuration.record((performance.now() - started) / 1000, {
        ...measure,
        ...(errorType !== undefined && { [names.ERROR_TYPE]: errorType }),
      });
    },
  };
}

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

/** Starts the span of one HTTP request, a child of the current span, with the headers that carry it on. */
export function startHttpSpan(tracing: Tracing, method: string, url: URL): HttpRequestTrace {
  const parent = tracing.contexts.active();
  const upper = method.toUpperCase();
  const known = KNOWN_METHODS.has(upper);
  const span = tracing.tracer.startSpan(
    known ? upper : 'HTTP',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [names.HTTP_REQUEST_METHOD]: known ? upper : '_OTHER',
        [names.SERVER_ADDRESS]: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        [names.SERVER_PORT]: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
        [names.URL_FULL]: redactedUrl(url),
      },
    },
    parent,
  );
  const headers: Record<string, string> = {};
  tracing.propagator.inject(trace.setSpan(parent, span), headers, defaultTextMapSetter);
  let ended = false;
  return {
    headers,
    end: (status, errorType) => {
      if (ended) return;
      ended = true;
      if (status !== undefined) span.setAttribute(names.HTTP_RESPONSE_STATUS_CODE, status);
      failed(span, errorType ?? (status !== undefined && status >= 400 ? String(status) : undefined));
      span.end();
    },
  };
}

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
