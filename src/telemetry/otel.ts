// The telemetry of telemetry.ts, made of the official OpenTelemetry SDK: a tracer provider with a batch span
// processor and the OTLP exporter of the protocol asked for, a meter provider with a periodic reader and the
// OTLP metric exporter, the sampler the OTEL_TRACES_SAMPLER variables choose (the provider reads them), and an
// AsyncLocalStorage context manager of its own. A bundle of its own (scripts/build.mjs), loaded only when the
// environment turns telemetry on. The SDK's packages read their own variables (OTEL_EXPORTER_OTLP_* by the
// exporters, OTEL_BSP_* by the batch processor, OTEL_TRACES_SAMPLER* and the span limits by the provider).
import {
  createNoopMeter,
  diag,
  DiagLogLevel,
  trace,
  type DiagLogFunction,
  type Meter,
  type TextMapPropagator,
} from '@opentelemetry/api';
import {
  CompositePropagator,
  diagLogLevelFromString,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import * as diagnostics from '../common/diagnostics.js';
import * as names from './attributes.js';
import { ClientSpans } from './client-spans.js';
import { Contexts } from './contexts.js';
import type { Telemetry, TelemetryOptions, TelemetryPlan } from './types.js';
import { traceServers } from './traced-transport.js';
import { bounded, type Instruments, type Tracing } from './tracing.js';

const SCOPE = 'graphql-mcp';

/** How long flush and shutdown wait for the collector by default: a dead one must not hold the exit. */
const DEFAULT_DEADLINE_MS = 2_000;

/** The official SDK's defaults for the periodic metric reader (OTEL_METRIC_EXPORT_INTERVAL, _TIMEOUT). */
const METRIC_EXPORT_INTERVAL_MS = 60_000;
const METRIC_EXPORT_TIMEOUT_MS = 30_000;

/** The SDK's own diagnostics (export failures) as lines on stderr, at ERROR unless OTEL_LOG_LEVEL says. */
function logDiagnostics(env: NodeJS.ProcessEnv, options: TelemetryOptions): void {
  diag.setLogger(
    {
      error: line(options, 'error'),
      warn: line(options, 'warn'),
      info: line(options, 'info'),
      debug: line(options, 'debug'),
      verbose: line(options, 'verbose'),
    },
    {
      logLevel: diagLogLevelFromString(env.OTEL_LOG_LEVEL) ?? DiagLogLevel.ERROR,
      suppressOverrideMessage: true,
    },
  );
}

/** Starts the providers `plan` asks for, and subscribes to what the domain publishes. */
export function createTelemetry(
  plan: TelemetryPlan,
  env: NodeJS.ProcessEnv,
  options: TelemetryOptions,
): Telemetry {
  logDiagnostics(env, options);
  const resource = resourceOf(options.version);
  const tracerProvider =
    plan.traces === undefined
      ? undefined
      : new BasicTracerProvider({
          resource,
          spanProcessors: [
            new BatchSpanProcessor(
              plan.traces === 'http/json' ? new JsonTraceExporter() : new ProtobufTraceExporter(),
            ),
          ],
        });
  const meterProvider =
    plan.metrics === undefined
      ? undefined
      : new MeterProvider({ resource, readers: [metricReader(plan.metrics, env)] });
  const tracing: Tracing = {
    // Without traces, the API's tracer makes spans that record nothing but carry their parent's context on.
    tracer: tracerProvider?.getTracer(SCOPE, options.version) ?? trace.getTracer(SCOPE, options.version),
    contexts: new Contexts(),
    propagator: propagatorOf(plan),
    instruments: instrumentsOf(meterProvider?.getMeter(SCOPE, options.version) ?? createNoopMeter()),
    documents: options.documents ?? false,
  };
  const unsubscribe = subscribe(tracing);
  let stopping: Promise<void> | undefined;
  return {
    traceServers: (factory, network) => traceServers(factory, tracing, network),
    flush: (deadlineMs = DEFAULT_DEADLINE_MS) =>
      withDeadline(
        Promise.all([tracerProvider?.forceFlush(), meterProvider?.forceFlush()]).then(() => undefined),
        deadlineMs,
      ),
    shutdown: (deadlineMs = DEFAULT_DEADLINE_MS) =>
      (stopping ??= withDeadline(
        Promise.allSettled([tracerProvider?.shutdown(), meterProvider?.shutdown()]).then(() => undefined),
        deadlineMs,
      ).finally(unsubscribe)),
  };
}

/**
 * Subscribes to the domain's diagnostics channels: the GraphQL operations and HTTP requests become spans (each
 * started in the channel's bound store, so that what it starts is its child), decisions events and counts,
 * shortened results and refused requests counts. Returns what unsubscribes again.
 */
function subscribe(tracing: Tracing): () => void {
  const { store } = tracing.contexts;
  const { instruments } = tracing;
  const spans = new ClientSpans(tracing);
  const decided = (outcome: unknown) => {
    const attributes = { [names.MUTATION_OUTCOME]: bounded(String(outcome)) };
    trace.getSpan(tracing.contexts.active())?.addEvent(names.MUTATION_DECISION_EVENT, attributes);
    instruments.mutationDecisions.add(1, attributes);
  };
  const shortened = (tool: unknown) =>
    instruments.resultsShortened.add(1, { [names.GEN_AI_TOOL_NAME]: bounded(String(tool)) });
  const refused = (reason: unknown) =>
    instruments.requestsRefused.add(1, { [names.REFUSAL_REASON]: bounded(String(reason)) });
  diagnostics.graphqlOperation.start.bindStore(store, spans.graphqlStarted);
  diagnostics.graphqlOperation.asyncEnd.subscribe(spans.ended);
  diagnostics.httpRequest.start.bindStore(store, spans.httpStarted);
  diagnostics.httpRequest.asyncEnd.subscribe(spans.ended);
  diagnostics.mutationDecided.subscribe(decided);
  diagnostics.resultShortened.subscribe(shortened);
  diagnostics.requestRefused.subscribe(refused);
  return () => {
    diagnostics.graphqlOperation.start.unbindStore(store);
    diagnostics.graphqlOperation.asyncEnd.unsubscribe(spans.ended);
    diagnostics.httpRequest.start.unbindStore(store);
    diagnostics.httpRequest.asyncEnd.unsubscribe(spans.ended);
    diagnostics.mutationDecided.unsubscribe(decided);
    diagnostics.resultShortened.unsubscribe(shortened);
    diagnostics.requestRefused.unsubscribe(refused);
  };
}

/**
 * The resource: service.name graphql-mcp (OTEL_SERVICE_NAME wins), service.version, the runtime, and
 * OTEL_RESOURCE_ATTRIBUTES. Not the SDK's process detector: it records the command line, where a user may have
 * put `--headers` with a token.
 */
function resourceOf(version: string) {
  return defaultResource()
    .merge(
      resourceFromAttributes({
        [names.SERVICE_NAME]: 'graphql-mcp',
        [names.SERVICE_VERSION]: version,
        [names.PROCESS_RUNTIME_NAME]: 'nodejs',
        [names.PROCESS_RUNTIME_VERSION]: process.versions.node,
        [names.PROCESS_PID]: process.pid,
      }),
    )
    .merge(detectResources({ detectors: [envDetector] }));
}

function metricReader(protocol: 'http/protobuf' | 'http/json', env: NodeJS.ProcessEnv) {
  const interval = positive(env.OTEL_METRIC_EXPORT_INTERVAL) ?? METRIC_EXPORT_INTERVAL_MS;
  return new PeriodicExportingMetricReader({
    exporter: protocol === 'http/json' ? new JsonMetricExporter() : new ProtobufMetricExporter(),
    exportIntervalMillis: interval,
    // The reader refuses a timeout longer than its interval.
    exportTimeoutMillis: Math.min(
      positive(env.OTEL_METRIC_EXPORT_TIMEOUT) ?? METRIC_EXPORT_TIMEOUT_MS,
      interval,
    ),
  });
}

function propagatorOf(plan: TelemetryPlan): TextMapPropagator {
  return new CompositePropagator({
    propagators: plan.propagators.map((name) =>
      name === 'baggage' ? new W3CBaggagePropagator() : new W3CTraceContextPropagator(),
    ),
  });
}

function instrumentsOf(meter: Meter): Instruments {
  return {
    operationDuration: meter.createHistogram(names.MCP_SERVER_OPERATION_DURATION, {
      unit: 's',
      description:
        'MCP request duration as observed on the receiver from the time it was received until the result is sent.',
      advice: { explicitBucketBoundaries: names.DURATION_BUCKETS },
    }),
    resultsShortened: meter.createCounter(names.RESULTS_SHORTENED, {
      unit: '{result}',
      description: 'Results shortened to fit their budget.',
    }),
    mutationDecisions: meter.createCounter(names.MUTATION_DECISIONS, {
      unit: '{decision}',
      description: 'Decisions on mutations, by outcome.',
    }),
    requestsRefused: meter.createCounter(names.REQUESTS_REFUSED, {
      unit: '{request}',
      description: "Requests remote mode's front refused by a bound, by reason.",
    }),
  };
}

/** A diag level's lines for stderr: one line each, bounded, an error by its message rather than its stack. */
function line(options: TelemetryOptions, level: string): DiagLogFunction {
  return (message, ...args) => {
    const details = args.map((arg) =>
      arg instanceof Error ? arg.message : typeof arg === 'string' ? arg : '',
    );
    const text = [readable(message), ...details]
      .filter((part) => part !== '')
      .join(' ')
      .replace(/\s+/g, ' ');
    options.log(`graphql-mcp: telemetry ${level}: ${text.slice(0, 300)}`);
  };
}

/** The SDK's error handler logs an exception as JSON of its fields: its message, or its stack's first line. */
function readable(message: string): string {
  if (!message.startsWith('{')) return message;
  try {
    const fields = JSON.parse(message) as { message?: unknown; stack?: unknown };
    if (typeof fields.message === 'string') return fields.message;
    if (typeof fields.stack === 'string') return fields.stack.split('\n')[0] ?? message;
  } catch {
    // Not JSON after all: as it is.
  }
  return message;
}

/** Resolves when `work` settles or `deadlineMs` has passed, whichever comes first; never rejects. */
function withDeadline(work: Promise<void>, deadlineMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, deadlineMs);
    timer.unref();
    work
      .then(
        () => resolve(),
        () => resolve(),
      )
      .finally(() => clearTimeout(timer));
  });
}

function positive(text: string | undefined): number | undefined {
  const number = Number(text);
  return text !== undefined && text.trim() !== '' && Number.isFinite(number) && number > 0
    ? number
    : undefined;
}
