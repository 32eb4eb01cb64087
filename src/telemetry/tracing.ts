import type {
  Context,
  Counter,
  Histogram,
  TextMapGetter,
  TextMapPropagator,
  Tracer,
} from '@opentelemetry/api';
import type { Contexts } from './contexts.js';

/**
 * What the spans and measures of this server are made with: the tracer, its own context manager (never the
 * global one: a host's or a test's second instance keeps its own), the propagator, and the instruments.
 */
export interface Tracing {
  readonly tracer: Tracer;
  readonly contexts: Contexts;
  readonly propagator: TextMapPropagator;
  readonly instruments: Instruments;
  /** Whether graphql.document is recorded (the operator's opt-in). */
  readonly documents: boolean;
}

/** The metrics' instruments. */
export interface Instruments {
  /** mcp.server.operation.duration, in seconds. */
  readonly operationDuration: Histogram;
  readonly resultsShortened: Counter;
  readonly mutationDecisions: Counter;
  readonly requestsRefused: Counter;
}

/** Reads trace context from a plain object of strings (a request's `_meta`, a few headers). */
const RECORD_GETTER: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** The context `carrier` propagates on top of `base`. */
export function extracted(
  tracing: Tracing,
  base: Context,
  carrier: Readonly<Record<string, unknown>>,
): Context {
  return tracing.propagator.extract(base, carrier, RECORD_GETTER);
}

/** Most characters kept of a text a client chose (a tool's name, a request id): a span is no place for a book. */
const MAX_CHOSEN_TEXT = 256;

/** A client's text as an attribute value, bounded. */
export function bounded(text: string): string {
  return text.length <= MAX_CHOSEN_TEXT ? text : `${text.slice(0, MAX_CHOSEN_TEXT)}…`;
}
