import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  createMcpHandler,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpServer,
  type McpServerFactory,
  type Transport,
} from '@modelcontextprotocol/server';
import type { RequestCredentials } from '../call/credentials.js';
import type { FrontTarget } from '../tools/context.js';
import { AskingTransport, type Questions } from './questions.js';
import type { Sessions, SessionReading } from './session.js';

/** Who makes a request, as the front worked it out: the authenticated caller, the session, who may answer. */
export interface Caller {
  readonly authInfo: AuthInfo | undefined;
  readonly session: SessionReading;
  /** Who may answer a question asked on this request (session.ts askerOf); undefined without a session. */
  readonly asker: string | undefined;
  /** Who its questions are put to (the principal, else the session), for --maxOpenQuestions. */
  readonly user: string | undefined;
  /** What the front worked out for the request's calls, handed to the server it gets. */
  readonly call?: RequestCall | undefined;
}

/** What the front worked out once for a request: its credentials, and a tool call's target. */
interface RequestCall {
  readonly credentials: RequestCredentials;
  readonly target?: FrontTarget | undefined;
}

/** What was written: the status, and a JSON answer's bytes (none for an SSE stream). */
interface Written {
  readonly status: number;
  readonly body?: Buffer;
}

/** Serves one MCP message, read and parsed in front, on an HTTP exchange, and writes the answer. */
export type Exchange = (
  req: IncomingMessage,
  res: ServerResponse,
  message: unknown,
  caller: Caller,
) => Promise<Written>;

/**
 * Makes the server of one request: a 2025-era request's server knows what its session says of the client, and
 * every server what the front worked out for the request.
 */
export type ServerFactory = (
  context: Parameters<McpServerFactory>[0] & {
    readonly session?: SessionReading;
    readonly call?: RequestCall | undefined;
    /** The HTTP version the request came in (1.1, 2), for telemetry. */
    readonly httpVersion?: string;
  },
) => McpServer | Promise<McpServer>;

export interface ExchangeOptions {
  readonly maxRequestBodySize: number;
  /** Mints the session ids of 2025-era clients and reads them. */
  readonly sessions: Sessions;
  /** Where the questions asked of 2025-era clients are held until answered. */
  readonly questions: Questions;
  /** Between the keep-alive comments of a stream that waits for an answer (--keepAlive). */
  readonly keepAliveMs: number;
}

/**
 * Both protocol eras over stateless HTTP, each request on a fresh server from `factory`:
 *
 * - 2026-07-28 requests go to the SDK's createMcpHandler (its classification, header checks and caching
 *   hints), which answers in one JSON body unless a notification precedes the result.
 * - 2025-era requests (as the SDK's classifyInboundRequest, the rule behind its isLegacyRequest, classifies
 *   them) go to the SDK's streamable HTTP transport: `initialize` is answered with a signed session id that
 *   says whether the client can ask its user (session.ts); a tools/call of such a session is answered on an
 *   SSE stream, which can carry the question (questions.ts) and keep-alive comments while the person thinks;
 *   everything else in one JSON body.
 *
 * The SDK's toNodeHandler would serialise the parsed body again into the Request and write a JSON answer in
 * pieces; here the Request carries no body (the handler takes the parsed one) and a JSON answer goes out in
 * one write, with its length.
 */
export function createExchange(factory: ServerFactory, options: ExchangeOptions): Exchange {
  // The SDK hands the factory the very Request it was given: that is how a modern request's server gets what
  // the front worked out for it.
  const arrivals = new WeakMap<Request, { call?: RequestCall | undefined; httpVersion: string }>();
  const modernFactory: McpServerFactory = (context) =>
    factory({ ...context, ...(context.requestInfo && arrivals.get(context.requestInfo)) });
  const modern = createMcpHandler(modernFactory, {
    legacy: 'reject',
    maxRequestBodySize: options.maxRequestBodySize,
    onerror: () => undefined,
  });

  /** A 2025-era request: its answer, and the server to close once the answer is written. */
  async function legacy(
    request: Request,
    httpVersion: string,
    gone: AbortSignal,
    message: unknown,
    caller: Caller,
  ): Promise<{ response: Response; server: McpServer; headers: Record<string, string> }> {
    const { authInfo, session, asker, user, call } = caller;
    const method = (message as { method?: unknown }).method;
    const server = await factory({
      era: 'legacy',
      requestInfo: request,
      session,
      call,
      httpVersion,
      ...(authInfo && { authInfo }),
    });
    const asking = method === 'tools/call' && session.kind === 'session' && session.session.elicitation;
    const inner = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !asking,
      keepAliveMs: options.keepAliveMs,
    });
    const transport: Transport =
      asking && asker !== undefined && user !== undefined
        ? new AskingTransport(inner, options.questions, asker, user)
        : inner;
    await server.connect(transport);
    // Closing the server aborts the calls in flight: the tool's request to the endpoint ends with them.
    gone.addEventListener('abort', () => void server.close().catch(() => undefined), { once: true });
    const response = await inner.handleRequest(request, {
      parsedBody: message,
      ...(authInfo && { authInfo }),
    });
    const capabilities = (message as { params?: { capabilities?: unknown } }).params?.capabilities;
    const headers: Record<string, string> =
      method === 'initialize' && response.ok ? { 'mcp-session-id': options.sessions.mint(capabilities) } : {};
    return { response, server, headers };
  }

  return async (req, res, message, caller) => {
    // A client that goes away cancels its call (the SDK passes the signal on to the tool's request).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const route = classifyInboundRequest({
      httpMethod: req.method ?? 'POST',
      body: message,
      protocolVersionHeader: headerText(req, 'mcp-protocol-version'),
      mcpMethodHeader: headerText(req, 'mcp-method'),
      mcpNameHeader: headerText(req, 'mcp-name'),
    });
    // The modern handler also answers what the classification refuses, in the SDK's words. It cancels a
    // call through its Request's signal; the legacy leg closes its server (an unused signal costs a copy).
    if (route.kind !== 'legacy') {
      const { authInfo } = caller;
      const request = webRequest(req, gone.signal);
      arrivals.set(request, { call: caller.call, httpVersion: req.httpVersion });
      const response = await modern.fetch(request, {
        parsedBody: message,
        ...(authInfo && { authInfo }),
      });
      return write(response, res, gone.signal);
    }
    const { response, server, headers } = await legacy(
      webRequest(req),
      req.httpVersion,
      gone.signal,
      message,
      caller,
    );
    try {
      return await write(response, res, gone.signal, headers);
    } finally {
      void server.close().catch(() => undefined);
    }
  };
}

/** A request header as one string (repeated ones joined), or undefined. */
export function headerText(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The web-standard Request of `req`, without its body (already read, and passed parsed). */
function webRequest(req: IncomingMessage, signal?: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/mcp'}`, {
    method: req.method ?? 'POST',
    headers,
    ...(signal && { signal }),
  });
}

/** Writes a Response: a JSON (or empty) answer at once, an SSE stream as it comes, at the client's pace. */
async function write(
  response: Response,
  res: ServerResponse,
  gone: AbortSignal,
  extra: Readonly<Record<string, string>> = {},
): Promise<Written> {
  const head: Record<string, string> = { ...extra };
  response.headers.forEach((value, name) => (head[name] = value));
  const status = response.status;
  if (response.body === null) {
    res.writeHead(status, head);
    res.end();
    return { status };
  }
  if (!head['content-type']?.startsWith('text/event-stream')) {
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(status, { ...head, 'content-length': String(body.length) });
    res.end(body);
    return { status, body };
  }
  res.writeHead(status, head);
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  const reader = response.body.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done && !gone.aborted; chunk = await reader.read()) {
      if (!res.write(chunk.value)) await Promise.race([once(res, 'drain'), closed]);
    }
  } finally {
    void reader.cancel().catch(() => undefined);
    res.end();
  }
  return { status };
}
