// OpenTelemetry traces and metrics, off unless the standard OTEL_* variables ask for them. This module decides,
// from the environment alone, and only then loads the implementation (otel.ts, a bundle of its own: with
// telemetry off nothing of OpenTelemetry is read or compiled). The domain knows nothing of it: it publishes
// what happens on diagnostics channels (common/diagnostics.ts), which the running telemetry subscribes to; the
// transports, where it is attached, wrap their MCP servers with it.
import type { OtlpProtocol, StartedTelemetry, TelemetryOptions, TelemetryPlan } from './types.js';

export type * from './types.js';

/**
 * Starts telemetry when `env` asks for it. `env` is the process's environment: the SDK's exporters read their
 * own variables (endpoint, headers, timeout, compression) from it too.
 */
export async function startTelemetry(
  env: NodeJS.ProcessEnv,
  options: TelemetryOptions,
): Promise<StartedTelemetry> {
  const plan = telemetryPlan(env);
  if (plan.traces === undefined && plan.metrics === undefined) {
    return { telemetry: undefined, warnings: plan.warnings };
  }
  const { createTelemetry } = await import('./otel.js');
  return { telemetry: createTelemetry(plan, env, options), warnings: plan.warnings };
}

const SIGNALS = { traces: 'TRACES', metrics: 'METRICS' } as const;

/**
 * What the OTEL_* variables ask for, read as the official SDK reads them, except that nothing is exported unless
 * asked: a signal is on when its exporter is `otlp` (OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER), or unset
 * with an OTLP endpoint given (OTEL_EXPORTER_OTLP_ENDPOINT or the signal's own); `none` or OTEL_SDK_DISABLED
 * turns it off.
 */
export function telemetryPlan(env: NodeJS.ProcessEnv): TelemetryPlan {
  const warnings: string[] = [];
  const propagators = propagatorsOf(env, warnings);
  // The specification: only "true", in any case, disables the SDK; any other value leaves it on.
  const disabled = value(env, 'OTEL_SDK_DISABLED')?.toLowerCase();
  if (disabled === 'true') return { traces: undefined, metrics: undefined, propagators, warnings };
  if (disabled !== undefined && disabled !== 'false') {
    warnings.push(
      `telemetry: OTEL_SDK_DISABLED=${disabled.slice(0, 20)} does not turn telemetry off: only "true" does ` +
        '(as the OpenTelemetry specification reads it); set OTEL_SDK_DISABLED=true to turn it off',
    );
  }
  const traces = signalPlan(env, 'traces', warnings);
  const metrics = signalPlan(env, 'metrics', warnings);
  const detectors = list(env, 'OTEL_NODE_RESOURCE_DETECTORS').filter(
    (name) => name !== 'env' && name !== 'none',
  );
  if ((traces !== undefined || metrics !== undefined) && detectors.length > 0) {
    warnings.push(
      `telemetry: OTEL_NODE_RESOURCE_DETECTORS is ignored; the resource comes from OTEL_SERVICE_NAME and ` +
        `OTEL_RESOURCE_ATTRIBUTES only (the process detector would record the command line, which may hold a token)`,
    );
  }
  return { traces, metrics, propagators, warnings };
}

function signalPlan(
  env: NodeJS.ProcessEnv,
  signal: keyof typeof SIGNALS,
  warnings: string[],
): OtlpProtocol | undefined {
  const SIGNAL = SIGNALS[signal];
  const exporters = list(env, `OTEL_${SIGNAL}_EXPORTER`);
  const others = exporters.filter((name) => name !== 'otlp' && name !== 'none');
  if (others.length > 0) {
    warnings.push(
      `telemetry: OTEL_${SIGNAL}_EXPORTER=${others.join(',')} is not supported; graphql-mcp exports ${signal} ` +
        `over OTLP (otlp) or not at all (none), and never to stdout, which carries the protocol`,
    );
  }
  const own = `OTEL_EXPORTER_OTLP_${SIGNAL}_ENDPOINT`;
  const endpointVariable = value(env, own) !== undefined ? own : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  const endpoint = value(env, endpointVariable);
  const wanted = exporters.includes('none')
    ? false
    : exporters.includes('otlp') || (exporters.length === 0 && endpoint !== undefined);
  if (!wanted) return undefined;
  // An endpoint that is not a URL would only ever say "export timed out": said here, at start-up, instead.
  if (endpoint !== undefined && !isHttpUrl(endpoint)) {
    warnings.push(
      `telemetry: ${endpointVariable} is not an http(s) URL (e.g. http://otel-collector:4318), so ${signal} are ` +
        'not exported',
    );
    return undefined;
  }
  const variable = value(env, `OTEL_EXPORTER_OTLP_${SIGNAL}_PROTOCOL`)
    ? `OTEL_EXPORTER_OTLP_${SIGNAL}_PROTOCOL`
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = value(env, variable) ?? 'http/protobuf';
  if (protocol === 'http/protobuf' || protocol === 'http/json') return protocol;
  warnings.push(
    `telemetry: ${variable}=${protocol} is not supported, so ${signal} are not exported; use http/protobuf ` +
      `(the collector's OTLP/HTTP port, 4318) or http/json`,
  );
  return undefined;
}

/**
 * W3C trace context unless OTEL_PROPAGATORS says otherwise. Baggage only when asked: the SDK's default sends it
 * too, but here it would carry what an MCP client put in a request's `_meta` to whichever endpoint a model calls.
 */
function propagatorsOf(env: NodeJS.ProcessEnv, warnings: string[]): TelemetryPlan['propagators'] {
  const names = list(env, 'OTEL_PROPAGATORS');
  if (names.length === 0) return ['tracecontext'];
  const others = names.filter((name) => !['tracecontext', 'baggage', 'none'].includes(name));
  if (others.length > 0) {
    warnings.push(
      `telemetry: OTEL_PROPAGATORS=${others.join(',')} is not supported; graphql-mcp reads and writes tracecontext ` +
        `and baggage`,
    );
  }
  if (names.includes('none')) return [];
  return (['tracecontext', 'baggage'] as const).filter((name) => names.includes(name));
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An OTEL_* variable's value, trimmed; an empty one counts as unset, as the OpenTelemetry specification says. */
function value(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const text = env[name]?.trim();
  return text === undefined || text === '' ? undefined : text;
}

function list(env: NodeJS.ProcessEnv, name: string): string[] {
  return (value(env, name) ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== '');
}
