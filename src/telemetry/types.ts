// The interface of telemetry as the rest of the server sees it (telemetry.ts starts it): types only, so that the
// implementation (otel.ts) and its callers share them without importing each other.
import type { McpServer, Server } from '@modelcontextprotocol/server';

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

/** A factory of MCP servers (the SDK's McpServerFactory, or remote mode's, whose context says more). */
export type ServerFactoryOf<C> = (context: C) => McpServer | Server | Promise<McpServer | Server>;

/** Any such factory. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyServerFactory = ServerFactoryOf<any>;

/**
 * Traces and metrics of a running server. The domain publishes what happens on diagnostics channels
 * (common/diagnostics.ts); a running telemetry subscribes to them, and wraps each transport's MCP servers.
 */
export interface Telemetry {
  /**
   * The factory, its servers wrapped so that every request they answer gets a SERVER span (traced-transport.ts),
   * handled inside it: stdio's serveStdio factory (network `pipe`), remote mode's (`tcp`).
   */
  traceServers<F extends AnyServerFactory>(factory: F, network: NetworkTransport): F;
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
