import { ROOT_CONTEXT } from '@opentelemetry/api';
import type {
  JSONRPCMessage,
  McpServer,
  MessageExtraInfo,
  Server,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';
import { startRequestSpan, type RequestSpan } from './mcp-spans.js';
import type { AnyServerFactory, NetworkTransport } from './types.js';
import { extracted, type Tracing } from './tracing.js';

// Every MCP request a server instance answers, as a SERVER span: a Transport around the one the instance is
// connected to, which starts the span when a request comes in, hands the request to the instance inside the
// span's context, and ends the span when the response with the same id goes out.
//
// Why around the instance's transport rather than the wire transport given to serveStdio: serveStdio reads the
// wire through an async pump, which hands a message to the instance synchronously only when the pump is idle.
// When several messages arrive in one read (a client sending calls in parallel), or while the pump awaits a
// write, the later ones are handed over from the pump's continuation, in the async context of the earlier one:
// a span started on the wire would then parent another request's tool calls. The instance's transport receives
// each message synchronously from whoever delivers it, so the context given there is the one the SDK's handler
// runs in (the protocol layer defers the handler with a promise, which keeps the current context).

/**
 * The factory, its servers connecting through a TracedTransport: on stdio, serveStdio calls `connect` on each
 * instance it makes (the connection's, and a `server/discover` probe's) with the instance's own transport; in
 * remote mode the SDK's handler, or our 2025 leg, connects each request's instance to the request's transport.
 * Remote mode's context may say the HTTP version the request came in (`httpVersion`).
 */
export function traceServers<F extends AnyServerFactory>(
  factory: F,
  tracing: Tracing,
  network: NetworkTransport,
): F {
  const traceable = (context: unknown) => {
    const httpVersion = (context as { httpVersion?: unknown } | undefined)?.httpVersion;
    const origin = { network, httpVersion: typeof httpVersion === 'string' ? httpVersion : undefined };
    const traced = <T extends McpServer | Server>(server: T): T => {
      const connectable = server as { connect(transport: Transport): Promise<void> };
      const connect = connectable.connect.bind(server);
      connectable.connect = (transport) => connect(new TracedTransport(transport, tracing, origin));
      return server;
    };
    const made = factory(context);
    return made instanceof Promise ? made.then(traced) : traced(made);
  };
  return traceable as F;
}

/** What carries a server's messages. */
interface Carrier {
  readonly network: NetworkTransport;
  readonly httpVersion: string | undefined;
}

/**
 * A Transport that traces the requests passing through it and forwards everything untouched: messages both
 * ways, the session id, the protocol version the server negotiates, its supported versions, close and errors.
 */
class TracedTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage, extra?: MessageExtraInfo) => void) | undefined;

  readonly #inner: Transport;
  readonly #tracing: Tracing;
  readonly #carrier: Carrier;
  /** The spans of the requests not answered yet, by JSON-RPC id. */
  readonly #pending = new Map<string | number, RequestSpan>();
  /** The version a 2025 initialize negotiated (a 2026 request claims its own in `_meta`). */
  #protocolVersion: string | undefined;

  constructor(inner: Transport, tracing: Tracing, carrier: Carrier) {
    this.#inner = inner;
    this.#tracing = tracing;
    this.#carrier = carrier;
    inner.onmessage = (message, extra) => this.#receive(message, extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      for (const span of this.#pending.values()) span.abandon('connection_closed');
      this.#pending.clear();
      this.onclose?.();
    };
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.#inner.hasPerRequestStream;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const response = message as { id?: unknown; method?: unknown };
    if (
      response.method === undefined &&
      (typeof response.id === 'string' || typeof response.id === 'number')
    ) {
      const span = this.#pending.get(response.id);
      if (span !== undefined) {
        this.#pending.delete(response.id);
        span.end(message);
      }
    }
    return this.#inner.send(message, options);
  }

  setProtocolVersion = (version: string): void => {
    this.#protocolVersion = version;
    this.#inner.setProtocolVersion?.(version);
  };

  setSupportedProtocolVersions = (versions: string[]): void => {
    this.#inner.setSupportedProtocolVersions?.(versions);
  };

  #receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    // Over HTTP, what the request's headers say: its trace context (the parent when `_meta` has none), its
    // protocol version and its session.
    const headers = extra?.request?.headers;
    const header = (name: string) => headers?.get(name) ?? undefined;
    const ambient =
      headers === undefined
        ? undefined
        : extracted(this.#tracing, ROOT_CONTEXT, {
            traceparent: header('traceparent'),
            tracestate: header('tracestate'),
          });
    const span = startRequestSpan(this.#tracing, message, {
      transport: this.#carrier.network,
      protocolVersion: this.#protocolVersion ?? header('mcp-protocol-version'),
      sessionId: this.#inner.sessionId ?? header('mcp-session-id'),
      httpVersion: this.#carrier.httpVersion,
      ambient,
    });
    if (span === undefined) {
      this.#cancelled(message);
      this.onmessage?.(message, extra);
      return;
    }
    const { id } = message as { id: string | number };
    // An id still in flight used again: the first request's answer can no longer be told from the second's.
    this.#pending.get(id)?.abandon('duplicate_id');
    this.#pending.set(id, span);
    span.run(() => this.onmessage?.(message, extra));
  }

  /** A request the client cancelled gets no response: its span ends here. */
  #cancelled(message: JSONRPCMessage): void {
    const notification = message as { method?: unknown; params?: { requestId?: unknown } };
    if (notification.method !== 'notifications/cancelled') return;
    const id = notification.params?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    this.#pending.get(id)?.abandon('cancelled');
    this.#pending.delete(id);
  }
}
