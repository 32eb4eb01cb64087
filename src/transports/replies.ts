import type { ServerResponse } from 'node:http';
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/server';
import type { Refusal } from '../auth/refusal.js';
import type { AnswerOutcome } from '../store/store.js';

// Every answer the front gives on its own, before a request reaches the SDK: status, headers and body, in one
// place to read against docs/contract.md. MCP clients get JSON-RPC error bodies (id null: the request was not
// read as a message); /health and the metadata, plain JSON.

/** An answer of the front: its status, a JSON body (none: an empty answer) and headers. */
export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Writes a reply in one piece. */
export function send(res: ServerResponse, { status, body, headers }: Reply): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    return void res.end();
  }
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function rpcError(status: number, code: number, message: string, headers?: Record<string, string>): Reply {
  return {
    status,
    body: { jsonrpc: '2.0', error: { code, message }, id: null },
    ...(headers && { headers }),
  };
}

/**
 * GET /health, for load balancers: 503 once shutting down. The store's state is said, not turned into a 503: a
 * replica whose store is down still answers queries (it only refuses mutations that need the store).
 */
export function health(
  method: string | undefined,
  stopping: boolean,
  store: { readonly reachable: boolean; readonly description: string },
): Reply {
  if (method !== 'GET' && method !== 'HEAD')
    return { status: 405, body: { error: 'use GET' }, headers: { allow: 'GET, HEAD' } };
  return {
    status: stopping ? 503 : 200,
    body: {
      status: stopping ? 'stopping' : 'ok',
      store: { kind: store.description, state: store.reachable ? 'reachable' : 'unreachable' },
    },
  };
}

/**
 * RFC 9728 protected resource metadata, readable from any origin (browser-based clients discover it). Not the
 * SDK's oauthMetadataResponse: it serves it at the audience's path only, and serves an authorization server's
 * metadata that this server does not have.
 */
export function metadata(method: string | undefined, document: OAuthProtectedResourceMetadata): Reply {
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS' };
  if (method === 'OPTIONS') return { status: 204, headers: cors };
  if (method !== 'GET' && method !== 'HEAD')
    return { status: 405, body: { error: 'use GET' }, headers: { allow: 'GET, HEAD, OPTIONS' } };
  return { status: 200, body: document, headers: { ...cors, 'cache-control': 'public, max-age=3600' } };
}

export const NOT_FOUND: Reply = { status: 404, body: { error: 'not found; the MCP endpoint is /mcp' } };

/** Host or Origin not allowed (DNS rebinding), saying which. */
export function forbidden(problem: string): Reply {
  return rpcError(403, -32000, problem);
}

/** A refusal of the authentication: its status, its challenge (or Retry-After), a JSON-RPC error body. */
export function refused({ status, message, challenge }: Refusal): Reply {
  const word = status === 403 ? 'Forbidden' : status === 401 ? 'Unauthorized' : 'Unavailable';
  const headers: Record<string, string> =
    challenge === undefined ? { 'retry-after': '5' } : { 'www-authenticate': challenge };
  return rpcError(status, status === 503 ? -32000 : -32001, `${word}: ${message}`, headers);
}

export const STOPPING = rpcError(503, -32000, 'the server is shutting down', { connection: 'close' });

export const POST_ONLY = rpcError(405, -32000, 'Method not allowed: this stateless server takes POST only', {
  allow: 'POST',
});

/** Beyond --maxInFlight requests. */
export function busy(maxInFlight: number): Reply {
  return rpcError(503, -32000, `the server is busy (${maxInFlight} requests in flight); retry shortly`, {
    'retry-after': '1',
  });
}

/** A body over the bound of one request; the rest is left unread, so the connection closes. */
export function tooLarge(maxBytes: number): Reply {
  return rpcError(413, -32600, `request body over ${maxBytes} bytes`, { connection: 'close' });
}

/** Beyond the bytes of request bodies held at once, over all requests in flight. */
export const HOLDING_TOO_MUCH = rpcError(
  503,
  -32000,
  'the server holds too many request bodies; retry shortly',
  { connection: 'close', 'retry-after': '1' },
);

export const NOT_JSON = rpcError(400, -32700, 'Parse error: the body is not JSON');

export const BATCH = rpcError(
  400,
  -32600,
  'Invalid Request: JSON-RPC batches are not supported; send one message per request',
);

/** A forwarded header that cannot be sent, saying which (never its value). */
export function badForwardedHeader(problem: string): Reply {
  return rpcError(400, -32602, problem);
}

export const INTERNAL_ERROR = rpcError(500, -32603, 'Internal server error');

/** What became of an answer POSTed by a client (202: it decides the question; else why it changes nothing). */
export function answered(outcome: AnswerOutcome): Reply {
  switch (outcome) {
    case 'delivered':
      return { status: 202 };
    case 'unknown':
      return rpcError(
        404,
        -32602,
        'no question with this id is open: it was answered, timed out, or its call ended; nothing was sent',
      );
    case 'not-yours':
      return rpcError(
        403,
        -32602,
        'this question was asked in another session or of another user: the answer changes nothing',
      );
    case 'answered':
      return rpcError(
        409,
        -32602,
        'this question was answered already: the first answer decided, this one changes nothing',
      );
    case 'asker-gone':
      return rpcError(
        410,
        -32603,
        'the server instance that asked this question has stopped; its call sent nothing: call the tool again',
      );
  }
}

export const ANSWER_WITHOUT_SESSION = rpcError(
  400,
  -32602,
  'an answer must come with the Mcp-Session-Id of the session that was asked',
);

export const STORE_UNAVAILABLE = rpcError(
  503,
  -32603,
  'the server cannot take answers right now (its shared store cannot be reached); this answer was not taken',
  { 'retry-after': '1' },
);

/**
 * The store did not say in time whether it took the answer (it was sent, and Redis froze): it may still be taken
 * when the store answers again, and then the call that asked acts on it. Its result says what happened.
 */
export const STORE_UNCERTAIN = rpcError(
  503,
  -32603,
  "the server's shared store did not confirm in time whether it took this answer; it may still be taken, and the call that asked then acts on it: its result says whether the mutation ran. Do not answer again",
);

export const ANSWER_WITH_RESULT_AND_ERROR = rpcError(
  400,
  -32600,
  'an answer holds a result or an error, never both (JSON-RPC 2.0); it was not taken',
);
