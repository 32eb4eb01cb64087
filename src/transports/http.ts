import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { JwtVerifier } from '../auth/jwt-verifier.js';
import { ResourceServer } from '../auth/oauth.js';
import { Refusal } from '../auth/refusal.js';
import { SharedToken } from '../auth/shared-token.js';
import { BUILT_IN_TOOLS, withSecrets, type Config } from '../config.js';
import { HeaderError } from '../http/headers.js';
import type { PromptDefinition } from '../prompts/prompt.js';
import { apiFor } from '../security.js';
import { operationTools, type ServedApi } from '../api.js';
import { createServer } from '../server.js';
import { Bounds, MAX_BODY_BYTES, type Place } from './bounds.js';
import { forwardedHeaders } from './forwarding.js';
import { hostProblem } from './host-check.js';
import { createExchange, headerText } from './mcp-exchange.js';
import * as reply from './replies.js';
import { describeCall, logRequest, type LogEntry } from './request-log.js';

/** A running remote-mode server. */
export interface RunningHttpServer {
  readonly url: string;
  /** Stops accepting, lets calls in flight finish (within their deadlines), then resolves. */
  shutdown(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP at /mcp through the SDK's handler (mcp-exchange.ts): the 2026-07-28
 * protocol, and 2025-era clients statelessly. Every request gets its own McpServer, so replicas behind any
 * load balancer behave as one and no user's state (or forwarded credential) outlives its request. In front of
 * it, ours: the steps of `handle`, and one request-log line per request.
 */
export async function serveHttp(
  apis: readonly ServedApi[],
  log: (line: string) => void,
  prompts: readonly PromptDefinition[] = [],
): Promise<RunningHttpServer> {
  const configs = apis.map((api) => api.config);
  // The server's settings are the same in every API's configuration.
  const config = configs[0]!;
  const { oauth: oauthOptions, token } = config.http;
  const oauth =
    oauthOptions &&
    new ResourceServer(
      oauthOptions,
      new JwtVerifier(oauthOptions, config.timeout),
      configs.flatMap((api) => api.apiScopes),
    );
  const authenticator = token === undefined ? oauth : new SharedToken(token);
  const bounds = new Bounds(config.http.maxInFlight);
  const exchange = createExchange(
    ({ era, requestInfo, authInfo }) =>
      createServer(
        apisFor((name) => requestInfo?.headers.get(name) ?? undefined, authInfo),
        {
          era,
          log,
          prompts,
          allowTool: toolFilter(authInfo),
        },
      ),
    MAX_BODY_BYTES,
  );
  let shuttingDown = false;

  /** The front's steps, in order: each answers the request itself (a Reply) or lets it on to the next. */
  async function handle(
    req: IncomingMessage,
    res: ServerResponse,
    entry: LogEntry,
  ): Promise<reply.Reply | undefined> {
    const path = entry.path;
    if (path === '/health') return reply.health(req.method, shuttingDown);
    if (oauth?.metadataPaths.includes(path)) return reply.metadata(req.method, oauth.metadata());
    if (path !== '/mcp') return reply.NOT_FOUND;
    // DNS rebinding: a browser page on another site may reach this port under a name that resolves here.
    const forbidden = hostProblem(req.headers.host, req.headers.origin, config.http.allowedHosts);
    if (forbidden !== undefined) return reply.forbidden(forbidden);
    const caller = await authenticator?.authenticate(headerText(req, 'authorization'));
    if (caller instanceof Refusal) return reply.refused(caller);
    if (typeof caller?.extra?.subject === 'string') entry.sub = caller.extra.subject.slice(0, 100);
    if (shuttingDown) return reply.STOPPING;
    // Stateless: there is no session to stream to or to delete.
    if (req.method !== 'POST') return reply.POST_ONLY;
    // Each request in flight holds its body and its GraphQL response: beyond the bound, come back later.
    const place = bounds.take();
    if (place === undefined) {
      req.resume();
      return reply.busy(config.http.maxInFlight);
    }
    try {
      return await call(req, res, entry, place, caller);
    } finally {
      place.release();
    }
  }

  /** The steps of a POST within the bounds: from its body to the SDK's answer. */
  async function call(
    req: IncomingMessage,
    res: ServerResponse,
    entry: LogEntry,
    place: Place,
    caller: AuthInfo | undefined,
  ): Promise<reply.Reply | undefined> {
    const body = await place.read(req);
    if ('reply' in body) return body.reply;
    // JSON-RPC batches left MCP in 2025-06-18: one message per request, so that one log line tells its method.
    if (Array.isArray(body.message)) {
      entry.rpc = 'batch';
      return reply.BATCH;
    }
    const { method, tool } = describeCall(body.message, entry);
    // A tool (or an API) the token may not call: 403 naming the scopes, so that a client can ask for them
    // (step-up). Not the SDK's scopeChallenge of registerTool: its challenge adds an error_description the
    // contract's has not.
    if (oauth && method === 'tools/call' && tool !== undefined) {
      const needed = apiOfCall(tool, body.message)?.apiScopes ?? [];
      if (!oauth.allows(caller?.scopes ?? [], tool, needed))
        return reply.refused(oauth.insufficientScope(tool, needed));
    }
    try {
      for (const api of configs) forwardedHeaders((name) => headerText(req, name), api, caller?.token);
    } catch (error) {
      if (error instanceof HeaderError) return reply.badForwardedHeader(`forwarded ${error.message}`);
      throw error;
    }
    await exchange(req, res, body.message, caller);
  }

  /**
   * The APIs of one request: each with its forwarded headers (validated in front) on top of its configured ones,
   * and every API's as the secrets of its answers.
   */
  function apisFor(header: (name: string) => string | undefined, authInfo?: AuthInfo): readonly ServedApi[] {
    const forwarded = configs.map((api) => forwardedHeaders(header, api, authInfo?.token));
    if (forwarded.every((headers) => headers.size === 0)) return apis;
    const merged = withSecrets(
      configs.map((api, i) => ({ ...api, headers: api.headers.merge(forwarded[i]!) })),
    );
    return apis.map((api, i) => ({ ...api, config: merged[i]! }));
  }

  /** The API a tool call is for: an operation tool's own, or the one a built-in tool's arguments choose. */
  function apiOfCall(tool: string, message: unknown): Config | undefined {
    const owner = operationApis.get(tool);
    if (owner !== undefined) return owner;
    if (!(BUILT_IN_TOOLS as readonly string[]).includes(tool)) return undefined;
    const args = (message as { params?: { arguments?: Record<string, unknown> } }).params?.arguments ?? {};
    let endpoint: URL | undefined;
    try {
      endpoint = typeof args.endpoint === 'string' ? new URL(args.endpoint) : undefined;
    } catch {
      endpoint = undefined;
    }
    try {
      return apiFor(configs, typeof args.api === 'string' ? args.api : undefined, endpoint);
    } catch {
      // An endpoint several APIs trust: the call itself is refused (INVALID_INPUT), naming them.
      return undefined;
    }
  }
  /** Each operation tool's API, by the tool's name (remote mode reads the operation files once). */
  const operationApis = new Map<string, Config>(
    operationTools(apis).map(([name, api]) => [name, api.config]),
  );

  /** With per-tool or per-API scopes, a token sees only the tools it may call. */
  function toolFilter(authInfo?: AuthInfo): ((tool: string) => boolean) | undefined {
    const perApi = configs.some((api) => api.apiScopes.length > 0);
    if (oauth === undefined || (oauthOptions?.toolScopes.size === 0 && !perApi)) return undefined;
    return (tool) => oauth.allows(authInfo?.scopes ?? [], tool, operationApis.get(tool)?.apiScopes ?? []);
  }

  const server = createHttpServer((req, res) => {
    const entry = logRequest(req, res, log);
    // While shutting down, a finished request's keep-alive connection would hold close() open until it idles out.
    res.on('finish', () => {
      if (shuttingDown) setImmediate(() => server.closeIdleConnections());
    });
    handle(req, res, entry).then(
      (answer) => answer && reply.send(res, answer),
      (error: unknown) => {
        entry.error = error instanceof Error ? error.message.slice(0, 200) : String(error);
        if (!res.headersSent) reply.send(res, reply.INTERNAL_ERROR);
        else res.destroy();
      },
    );
  });

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
