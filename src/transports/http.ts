import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { ResourceServer, type Principal, type Refusal } from '../auth/oauth.js';
import type { Config } from '../config.js';
import { HeaderSet } from '../http/headers.js';
import type { LiveOperations } from '../operations/live.js';
import type { PromptDefinition } from '../prompts/prompt.js';
import { createServer } from '../server.js';
import { hostProblem } from './host-check.js';
import { createExchange, headerText } from './mcp-exchange.js';

/**
 * Largest MCP request body accepted: a tool call carries a document and its variables, a few kilobytes; 4 MiB
 * leaves room for large variables while bounding what --maxInFlight requests can hold together.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Most bytes of request bodies held at once, over all requests in flight (a body is held, parsed, until its
 * request ends, in some five copies: bytes, text, parsed values, the POST to the endpoint): a few clients
 * sending large tool calls to a slow endpoint must not fill a small machine. Small calls are a few KB each.
 */
export const MAX_HELD_BYTES = 16 * 1024 * 1024;

/** A running remote-mode server. */
export interface RunningHttpServer {
  readonly url: string;
  /** Stops accepting, lets calls in flight finish (within their deadlines), then resolves. */
  shutdown(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP at /mcp through the SDK's handler (createMcpHandler): the 2026-07-28
 * protocol, and 2025-era clients statelessly. Every request gets its own McpServer, so replicas behind any
 * load balancer behave as one and no user's state (or forwarded credential) outlives its request.
 * In front of it, ours: GET /health, the Host/Origin check, the bearer token, the bounds on requests in
 * flight and body size, and one request-log line per request naming its method and tool.
 */
export async function serveHttp(
  config: Config,
  log: (line: string) => void,
  operations?: LiveOperations,
  prompts: readonly PromptDefinition[] = [],
): Promise<RunningHttpServer> {
  let shuttingDown = false;
  let inFlight = 0;
  const held = { bytes: 0 };
  const tokenDigest = config.http.token === undefined ? undefined : digest(config.http.token);
  const oauth =
    config.http.oauth === undefined ? undefined : new ResourceServer(config.http.oauth, config.timeout);

  const exchange = createExchange(({ era, requestInfo, authInfo }) => {
    // Validated in front (forwardedHeaders below), so read again here without a problem to report.
    const forwarded = forwardedHeaders(
      (name) => requestInfo?.headers.get(name) ?? undefined,
      config,
      authInfo?.token,
    );
    const headers = typeof forwarded === 'string' ? new HeaderSet() : forwarded;
    const requestConfig = headers.size === 0 ? config : { ...config, headers: config.headers.merge(headers) };
    // With per-tool scopes, a token sees only the tools it may call.
    const scopes = new Set(authInfo?.scopes);
    const allowTool =
      oauth === undefined || config.http.oauth?.toolScopes.size === 0
        ? undefined
        : (tool: string) => oauth.scopesFor(tool).every((scope) => scopes.has(scope));
    return createServer(requestConfig, { era, log, operations, allowTool, prompts });
  }, MAX_BODY_BYTES);

  const server = createHttpServer((req, res) => {
    const started = performance.now();
    const entry: Record<string, unknown> = { method: req.method, path: (req.url ?? '').split('?', 1)[0] };
    // While shutting down, a finished request's keep-alive connection would hold close() open until it idles out.
    res.on('finish', () => {
      if (shuttingDown) setImmediate(() => server.closeIdleConnections());
    });
    res.on('close', () => {
      entry.status = res.statusCode;
      entry.ms = Math.round((performance.now() - started) * 10) / 10;
      if (!res.writableFinished) entry.aborted = true;
      log(JSON.stringify({ time: new Date().toISOString(), ...entry }));
    });
    handle(req, res, entry).catch((error: unknown) => {
      entry.error = error instanceof Error ? error.message.slice(0, 200) : String(error);
      if (!res.headersSent) sendJson(res, 500, rpcError(-32603, 'Internal server error'));
      else res.destroy();
    });
  });

  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    entry: Record<string, unknown>,
  ): Promise<void> {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    if (path === '/health') {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return sendJson(res, 405, { error: 'use GET' }, { allow: 'GET, HEAD' });
      return sendJson(res, shuttingDown ? 503 : 200, { status: shuttingDown ? 'stopping' : 'ok' });
    }
    if (oauth !== undefined && oauth.metadataPaths.includes(path)) return sendMetadata(req, res, oauth);
    if (path !== '/mcp') return sendJson(res, 404, { error: 'not found; the MCP endpoint is /mcp' });

    // DNS rebinding: a browser page on another site may reach this port under a name that resolves here.
    const forbidden = hostProblem(req.headers.host, req.headers.origin, config.http.allowedHosts);
    if (forbidden !== undefined) return sendJson(res, 403, rpcError(-32000, forbidden));
    if (tokenDigest !== undefined && !hasToken(req, tokenDigest)) {
      return sendJson(res, 401, rpcError(-32001, 'Unauthorized: send Authorization: Bearer <token>'), {
        'www-authenticate': 'Bearer realm="graphql-mcp"',
      });
    }
    let principal: Principal | undefined;
    if (oauth !== undefined) {
      const outcome = await oauth.authenticate(headerText(req, 'authorization'));
      if (!('token' in outcome)) return refuse(res, outcome);
      principal = outcome;
      if (principal.subject !== undefined) entry.sub = principal.subject.slice(0, 100);
    }
    if (shuttingDown)
      return sendJson(res, 503, rpcError(-32000, 'the server is shutting down'), { connection: 'close' });
    // Stateless: there is no session to stream to or to delete.
    if (req.method !== 'POST') {
      return sendJson(
        res,
        405,
        rpcError(-32000, 'Method not allowed: this stateless server takes POST only'),
        {
          allow: 'POST',
        },
      );
    }
    // Each request in flight holds its body and its GraphQL response: beyond the bound, come back later.
    if (inFlight >= config.http.maxInFlight) {
      req.resume();
      return sendJson(
        res,
        503,
        rpcError(-32000, `the server is busy (${config.http.maxInFlight} requests in flight); retry shortly`),
        { 'retry-after': '1' },
      );
    }
    inFlight++;
    const body = { bytes: 0 };
    try {
      const message = await readJsonBody(req, body, held);
      if (message === TOO_LARGE) {
        return sendJson(res, 413, rpcError(-32600, `request body over ${MAX_BODY_BYTES} bytes`), {
          connection: 'close',
        });
      }
      if (message === BUSY) {
        return sendJson(
          res,
          503,
          rpcError(-32000, 'the server holds too many request bodies; retry shortly'),
          {
            connection: 'close',
            'retry-after': '1',
          },
        );
      }
      if (message instanceof Error)
        return sendJson(res, 400, rpcError(-32700, 'Parse error: the body is not JSON'));
      // JSON-RPC batches left MCP in 2025-06-18: one message per request, so that one log line tells its method.
      if (Array.isArray(message)) {
        entry.rpc = 'batch';
        return sendJson(
          res,
          400,
          rpcError(
            -32600,
            'Invalid Request: JSON-RPC batches are not supported; send one message per request',
          ),
        );
      }
      describeCall(message, entry);
      // A tool the token may not call: 403 naming the scope, so that a client can ask for it (step-up).
      if (
        oauth !== undefined &&
        principal !== undefined &&
        typeof entry.tool === 'string' &&
        entry.rpc === 'tools/call'
      ) {
        if (!oauth.allows(principal, entry.tool))
          return refuse(res, oauth.insufficientScope(oauth.scopesFor(entry.tool)));
      }

      const forwarded = forwardedHeaders((name) => headerText(req, name), config, principal?.token);
      if (typeof forwarded === 'string') return sendJson(res, 400, rpcError(-32602, forwarded));
      await exchange(req, res, message, principal === undefined ? undefined : authInfoOf(principal));
    } finally {
      inFlight--;
      held.bytes -= body.bytes;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.http.port, config.http.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}/mcp`,
    shutdown: () =>
      new Promise<void>((resolve) => {
        shuttingDown = true;
        // Idle keep-alive connections would hold close() open; busy ones finish their request first.
        server.close(() => resolve());
        server.closeIdleConnections();
        const hardStop = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, config.timeout + 1_000);
        hardStop.unref();
      }),
  };
}

/** A refusal of the resource server: its status, the WWW-Authenticate challenge, a JSON-RPC error body. */
function refuse(res: ServerResponse, refusal: Refusal): void {
  const headers: Record<string, string> =
    refusal.challenge === undefined ? { 'retry-after': '5' } : { 'www-authenticate': refusal.challenge };
  const code = refusal.status === 503 ? -32000 : -32001;
  sendJson(
    res,
    refusal.status,
    rpcError(
      code,
      `${refusal.status === 403 ? 'Forbidden' : refusal.status === 401 ? 'Unauthorized' : 'Unavailable'}: ${refusal.message}`,
    ),
    headers,
  );
}

/** RFC 9728 protected resource metadata, readable from any origin (browser-based clients discover it). */
function sendMetadata(req: IncomingMessage, res: ServerResponse, oauth: ResourceServer): void {
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS' };
  if (req.method === 'OPTIONS') {
    res.writeHead(204, cors);
    return void res.end();
  }
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return sendJson(res, 405, { error: 'use GET' }, { allow: 'GET, HEAD, OPTIONS' });
  sendJson(res, 200, oauth.metadata(), { ...cors, 'cache-control': 'public, max-age=3600' });
}

/** What the SDK passes to the server factory (authInfo) and its handlers (ctx.http.authInfo). */
function authInfoOf(principal: Principal): AuthInfo {
  return {
    token: principal.token,
    clientId: principal.clientId ?? '',
    scopes: [...principal.scopes],
    ...(principal.expiresAt !== undefined ? { expiresAt: principal.expiresAt } : {}),
    extra: { subject: principal.subject },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

// Comparing digests of equal length in constant time: the token's length leaks nothing either.
function hasToken(req: IncomingMessage, tokenDigest: Buffer): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), tokenDigest);
}

/** The configured headers of this request, renamed as asked; never the MCP token (shared or OAuth). */
function forwardedHeaders(
  header: (name: string) => string | undefined,
  config: Config,
  accessToken?: string,
): HeaderSet | string {
  const headers = new HeaderSet();
  for (const { from, to } of config.http.forwardHeaders) {
    const text = header(from);
    if (text === undefined) continue;
    if (config.http.token !== undefined && text.includes(config.http.token)) continue;
    if (accessToken !== undefined && text.includes(accessToken)) continue;
    const problem = headers.trySet(to, text);
    if (problem !== undefined) return `forwarded ${problem}`;
  }
  return headers;
}

const TOO_LARGE = Symbol('too large');
const BUSY = Symbol('busy');

/**
 * The body as JSON (or the parse error); TOO_LARGE or BUSY, leaving the rest unread, past either bound. Its
 * bytes are counted in `body` and in `held`; the caller takes them off `held` when the request ends.
 */
async function readJsonBody(
  req: IncomingMessage,
  body: { bytes: number },
  held: { bytes: number },
): Promise<unknown> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of req) {
      const length = (chunk as Buffer).length;
      body.bytes += length;
      held.bytes += length;
      if (body.bytes > MAX_BODY_BYTES) return TOO_LARGE;
      if (held.bytes > MAX_HELD_BYTES) return BUSY;
      chunks.push(chunk as Buffer);
    }
    return JSON.parse(Buffer.concat(chunks, body.bytes).toString('utf8')) as unknown;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

// For the request log: which JSON-RPC method and tool, never the arguments.
function describeCall(body: unknown, entry: Record<string, unknown>): void {
  const message = body as { method?: unknown; params?: { name?: unknown } } | null;
  if (typeof message?.method === 'string') entry.rpc = message.method.slice(0, 60);
  if (typeof message?.params?.name === 'string') entry.tool = message.params.name.slice(0, 60);
}

function rpcError(code: number, message: string): unknown {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
