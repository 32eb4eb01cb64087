import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  createMcpHandler,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpServerFactory,
} from '@modelcontextprotocol/server';

/** Serves one MCP message, read and parsed in front, on an HTTP exchange, and writes the answer. */
export type Exchange = (
  req: IncomingMessage,
  res: ServerResponse,
  message: unknown,
  authInfo: AuthInfo | undefined,
) => Promise<void>;

/**
 * Both protocol eras over stateless HTTP, each request on a fresh server from `factory`:
 *
 * - 2026-07-28 requests go to the SDK's createMcpHandler (its classification, header checks and caching
 *   hints), which answers in one JSON body unless a notification precedes the result.
 * - 2025-era requests (as the SDK's classifyInboundRequest, the rule behind its isLegacyRequest, classifies
 *   them) go to the SDK's streamable HTTP transport in stateless JSON mode, as the SDK documents for
 *   hand-wired compositions: one JSON body instead of an SSE stream per call. Such a client cannot keep a
 *   log level between stateless requests, and the only notification it would get (a warning for a failed
 *   call) repeats the error result it gets.
 *
 * The SDK's toNodeHandler would serialise the parsed body again into the Request and write a JSON answer in
 * pieces; here the Request carries no body (the handler takes the parsed one) and a JSON answer goes out in
 * one write, with its length.
 */
export function createExchange(factory: McpServerFactory, maxRequestBodySize: number): Exchange {
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    maxRequestBodySize,
    onerror: () => undefined,
  });

  async function legacy(
    request: Request,
    gone: AbortSignal,
    message: unknown,
    authInfo?: AuthInfo,
  ): Promise<Response> {
    const server = await factory({ era: 'legacy', requestInfo: request, ...(authInfo && { authInfo }) });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    // Closing the server aborts the calls in flight: the tool's request to the endpoint ends with them.
    gone.addEventListener('abort', () => void server.close().catch(() => undefined), { once: true });
    try {
      return await transport.handleRequest(request, { parsedBody: message, ...(authInfo && { authInfo }) });
    } finally {
      void server.close().catch(() => undefined);
    }
  }

  return async (req, res, message, authInfo) => {
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
    const response =
      route.kind === 'legacy'
        ? await legacy(webRequest(req), gone.signal, message, authInfo)
        : await modern.fetch(webRequest(req, gone.signal), {
            parsedBody: message,
            ...(authInfo && { authInfo }),
          });
    await write(response, res, gone.signal);
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
async function write(response: Response, res: ServerResponse, gone: AbortSignal): Promise<void> {
  const head: Record<string, string> = {};
  response.headers.forEach((value, name) => (head[name] = value));
  if (response.body === null) {
    res.writeHead(response.status, head);
    return void res.end();
  }
  if (!head['content-type']?.startsWith('text/event-stream')) {
    const body = Buffer.from(await response.arrayBuffer());
    res.writeHead(response.status, { ...head, 'content-length': String(body.length) });
    return void res.end(body);
  }
  res.writeHead(response.status, head);
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
}
