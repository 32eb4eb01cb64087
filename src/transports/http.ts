import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { JwtVerifier } from '../auth/jwt-verifier.js';
import { ResourceServer } from '../auth/oauth.js';
import { Refusal } from '../auth/refusal.js';
import { SharedToken } from '../auth/shared-token.js';
import { BUILT_IN_TOOLS, type ApiConfig, type ServerConfig } from '../config/types.js';
import { principalOf } from '../auth/principal.js';
import { HeaderError } from '../http/headers.js';
import { operationTools, type Api } from '../api/api.js';
import { createServer } from '../server/create-server.js';
import { StoreUnavailable, type Store } from '../store/store.js';
import * as diagnostics from '../common/diagnostics.js';
import { requestCredentials, type RequestCredentials } from '../call/credentials.js';
import { apiTarget, callTarget, type CallTarget } from '../call/target.js';
import { ToolError } from '../common/errors.js';
import type { FrontTarget } from '../tools/context.js';
import { stateKeyOf, type Askability } from '../tools/confirmation.js';
import { Bounds, MAX_BODY_BYTES, type Place } from './bounds.js';
import { hostProblem } from './host-check.js';
import {
  createExchange,
  headerText,
  type Caller,
  type Exchange,
  type ServerFactory,
} from './mcp-exchange.js';
import type { Running, Serving } from './serving.js';
import { Questions } from './questions.js';
import * as reply from './replies.js';
import { describeCall, logRequest, type LogEntry } from './request-log.js';
import { askerOf, Sessions, type SessionReading } from './session.js';

/**
 * Serves MCP over Streamable HTTP at /mcp through the SDK's handler (mcp-exchange.ts): the 2026-07-28
 * protocol, and 2025-era clients statelessly. Every request gets its own McpServer, so replicas behind any
 * load balancer behave as one and no user's state (or forwarded credential) outlives its request. In front of
 * it, ours: the steps of `Front.handle`, and one request-log line per request.
 */
export async function serveHttp(
  serving: Serving,
  log: (line: string) => void,
): Promise<Running & { url: string }> {
  // One key signs what travels through clients, session ids as questions' states: --stateKey, else the process's.
  const front = new Front(serving, log, await stateKeyOf(serving.settings));
  const { settings, started } = serving;
  const server = createHttpServer((req, res) => front.serve(req, res, server));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.http.port, settings.http.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}/mcp`;
  // Calls in flight end within their deadlines: the longest of the APIs', and a second more.
  const graceMs = Math.max(...started.apis.map((api) => api.config.timeout)) + 1_000;
  return { url, description: `at ${url}`, graceMs, shutdown: () => front.shutdown(server, graceMs) };
}

/** Remote mode's front: what every request goes through before the SDK's handler, as named steps. */
class Front {
  readonly #settings: ServerConfig;
  readonly #oauth: ResourceServer | undefined;
  readonly #authenticator: ResourceServer | SharedToken | undefined;
  readonly #bounds: Bounds;
  readonly #exchange: Exchange;
  readonly #store: Store;
  readonly #sessions: Sessions;
  readonly #questions: Questions;
  /** Each operation tool's API, by the tool's name (remote mode reads the operation files once). */
  readonly #operationApis: ReadonlyMap<string, Api>;
  readonly #configs: readonly ApiConfig[];
  #shuttingDown = false;

  private readonly apis: readonly Api[];

  constructor(
    serving: Serving,
    private readonly log: (line: string) => void,
    stateKey: string | Buffer,
  ) {
    const { settings, store, prompts, telemetry } = serving;
    const apis = (this.apis = serving.started.apis);
    this.#settings = settings;
    this.#store = store;
    // Without --stateKey, a key of this process: a session minted by one replica is foreign at another.
    this.#sessions = new Sessions(stateKey);
    this.#questions = new Questions(store, settings.confirmTimeout, settings.http.maxOpenQuestions);
    const { oauth, token } = settings.http;
    this.#oauth =
      oauth &&
      new ResourceServer(
        oauth,
        new JwtVerifier(oauth),
        apis.flatMap((api) => api.config.oauthScopes),
      );
    this.#authenticator = token === undefined ? this.#oauth : new SharedToken(token);
    this.#bounds = new Bounds(settings.http.maxInFlight);
    this.#operationApis = new Map(operationTools(apis));
    this.#configs = apis.map((api) => api.config);
    const factory: ServerFactory = ({ era, authInfo, session, call }) =>
      createServer(apis, settings, store, {
        era,
        log,
        prompts,
        allowTool: this.#toolFilter(authInfo),
        ...(session !== undefined && { askability: askabilityOf(session) }),
        ...(session?.kind === 'session' && session.session.apps && { apps: true }),
        ...(call !== undefined && { credentials: call.credentials, target: call.target }),
      });
    // With telemetry on, each request's server is traced: a span per request, the tool's spans under it.
    this.#exchange = createExchange(telemetry?.traceServers(factory, 'tcp') ?? factory, {
      maxRequestBodySize: MAX_BODY_BYTES,
      sessions: this.#sessions,
      questions: this.#questions,
      keepAliveMs: settings.http.keepAlive * 1000,
    });
  }

  /** Answers one request, and logs it when its response closes. */
  serve(req: IncomingMessage, res: ServerResponse, server: Server): void {
    const entry = logRequest(req, res, this.log);
    // While shutting down, a finished request's keep-alive connection would hold close() open until it idles out.
    res.on('finish', () => {
      if (this.#shuttingDown) setImmediate(() => server.closeIdleConnections());
    });
    this.handle(req, res, entry).then(
      (answer) => answer && reply.send(res, answer),
      (error: unknown) => {
        entry.error = error instanceof Error ? error.message.slice(0, 200) : String(error);
        if (!res.headersSent) reply.send(res, reply.INTERNAL_ERROR);
        else res.destroy();
      },
    );
  }

  /** The front's steps, in order: each answers the request itself (a Reply) or lets it on to the next. */
  async handle(req: IncomingMessage, res: ServerResponse, entry: LogEntry): Promise<reply.Reply | undefined> {
    const path = entry.path;
    if (path === '/health') return reply.health(req.method, this.#shuttingDown, this.#store.status());
    if (this.#oauth?.metadataPaths.includes(path)) return reply.metadata(req.method, this.#oauth.metadata());
    if (path !== '/mcp') return reply.NOT_FOUND;
    // DNS rebinding: a browser page on another site may reach this port under a name that resolves here.
    const forbidden = hostProblem(req.headers.host, req.headers.origin, this.#settings.http.allowedHosts);
    if (forbidden !== undefined) return reply.forbidden(forbidden);
    const caller = await this.#authenticator?.authenticate(headerText(req, 'authorization'));
    if (caller instanceof Refusal) return reply.refused(caller);
    if (typeof caller?.extra?.subject === 'string') entry.sub = caller.extra.subject.slice(0, 100);
    if (this.#shuttingDown) return reply.STOPPING;
    // Stateless: there is no session to stream to or to delete.
    if (req.method !== 'POST') return reply.POST_ONLY;
    // Each request in flight holds its body and its GraphQL response: beyond the bound, come back later.
    const place = this.#bounds.take();
    if (place === undefined) {
      req.resume();
      diagnostics.requestRefused.publish('in_flight');
      return reply.busy(this.#settings.http.maxInFlight);
    }
    try {
      return await this.#call(req, res, entry, place, caller);
    } finally {
      place.release();
    }
  }

  /** The steps of a POST within the bounds: from its body to the SDK's answer. */
  async #call(
    req: IncomingMessage,
    res: ServerResponse,
    entry: LogEntry,
    place: Place,
    authInfo: AuthInfo | undefined,
  ): Promise<reply.Reply | undefined> {
    const body = await place.read(req);
    if ('reply' in body) {
      if (body.bound !== undefined) diagnostics.requestRefused.publish(body.bound);
      return body.reply;
    }
    // JSON-RPC batches left MCP in 2025-06-18: one message per request, so that one log line tells its method.
    if (Array.isArray(body.message)) {
      entry.rpc = 'batch';
      return reply.BATCH;
    }
    const asking = this.#callerOf(req, authInfo);
    // An answer to a question one of the replicas asked: routed to the call that waits for it.
    if (isAnswer(body.message)) return this.#answer(body.message, asking, entry);
    const { method, tool } = describeCall(body.message, entry);
    // What the request brings for the APIs, and a tool call's target: worked out once, here, and handed down.
    let credentials: RequestCredentials;
    try {
      credentials = requestCredentials(
        this.#configs,
        (name) => headerText(req, name),
        this.#mcpTokens(authInfo),
        this.#oauth === undefined ? undefined : authInfo,
      );
    } catch (error) {
      if (error instanceof HeaderError) return reply.badForwardedHeader(`forwarded ${error.message}`);
      throw error;
    }
    const target =
      method === 'tools/call' && tool !== undefined
        ? this.#targetOf(tool, body.message, credentials)
        : undefined;
    const refusal =
      tool !== undefined && method === 'tools/call'
        ? this.#scopeRefusal(tool, target?.target.api.config, authInfo)
        : undefined;
    if (refusal !== undefined) return reply.refused(refusal);
    const caller: Caller = { ...asking, call: { credentials, target } };
    await this.#exchange(req, res, body.message, caller);
    return undefined;
  }

  /** Who makes a request: the authenticated caller, its session (2025 era), and who may answer what it asks. */
  #callerOf(req: IncomingMessage, authInfo: AuthInfo | undefined): Caller {
    const session = this.#sessions.read(headerText(req, 'mcp-session-id'));
    if (session.kind !== 'session') return { authInfo, session, asker: undefined, user: undefined };
    const principal = principalOf(authInfo);
    // Who questions are put to: the user, or, where nobody signs in, the session.
    const user = principal ?? `session:${session.session.nonce}`;
    return { authInfo, session, asker: askerOf(principal, session.session), user };
  }

  /** An answer POSTed by a client: accepted (202) only as the first answer of the asker to an open question. */
  async #answer(message: AnswerMessage, caller: Caller, entry: LogEntry): Promise<reply.Reply> {
    entry.rpc = 'answer';
    if (caller.asker === undefined) return reply.ANSWER_WITHOUT_SESSION;
    if ('result' in message && 'error' in message) return reply.ANSWER_WITH_RESULT_AND_ERROR;
    try {
      return reply.answered(await this.#questions.answer(String(message.id), caller.asker, message));
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      // Sent, and no word back in time: it may be taken yet. Never "nothing was sent" when that may be false.
      return error.uncertain ? reply.STORE_UNCERTAIN : reply.STORE_UNAVAILABLE;
    }
  }

  /**
   * A tool (or an API) the token may not call: 403 naming the scopes, so that a client can ask for them
   * (step-up). Not the SDK's scopeChallenge of registerTool: its challenge adds an error_description the
   * contract's has not.
   */
  #scopeRefusal(tool: string, api: ApiConfig | undefined, caller: AuthInfo | undefined): Refusal | undefined {
    if (this.#oauth === undefined) return undefined;
    const needed = api?.oauthScopes ?? [];
    return this.#oauth.allows(caller?.scopes ?? [], tool, needed)
      ? undefined
      : this.#oauth.insufficientScope(tool, needed);
  }

  /**
   * The target of a tool call: an operation tool's API, or the one a built-in tool's arguments choose. Undefined
   * where the arguments cannot give one: the tool then answers what is wrong with them (INVALID_INPUT…).
   */
  #targetOf(tool: string, message: unknown, credentials: RequestCredentials): FrontTarget | undefined {
    const owner = this.#operationApis.get(tool);
    if (owner !== undefined) return { tool, target: apiTarget(owner, credentials) };
    if (!(BUILT_IN_TOOLS as readonly string[]).includes(tool)) return undefined;
    const args = (message as { params?: { arguments?: unknown } }).params?.arguments;
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
    const raw = args as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const input = { api: text(raw.api), endpoint: text(raw.endpoint), headers: raw.headers };
    let target: CallTarget;
    try {
      target = callTarget(this.apis, input, raw, credentials);
    } catch (error) {
      if (error instanceof ToolError) return undefined;
      throw error;
    }
    return { tool, target };
  }

  /** The tokens that authenticate a request to us: never forwarded to an API. */
  #mcpTokens(caller: AuthInfo | undefined): string[] {
    return [this.#settings.http.token, caller?.token].filter((token): token is string => token !== undefined);
  }

  /** With per-tool or per-API scopes, a token sees only the tools it may call. */
  #toolFilter(authInfo?: AuthInfo): ((tool: string) => boolean) | undefined {
    const oauth = this.#oauth;
    const perApi = this.apis.some((api) => api.config.oauthScopes.length > 0);
    if (oauth === undefined || (this.#settings.http.oauth?.toolScopes.size === 0 && !perApi))
      return undefined;
    return (tool) =>
      oauth.allows(authInfo?.scopes ?? [], tool, this.#operationApis.get(tool)?.config.oauthScopes ?? []);
  }

  /** Stops accepting, lets requests in flight finish within `graceMs`, then resolves. */
  shutdown(server: Server, graceMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#shuttingDown = true;
      // Idle keep-alive connections would hold close() open; busy ones finish their request first.
      server.close(() => resolve());
      server.closeIdleConnections();
      const hardStop = setTimeout(() => {
        server.closeAllConnections();
        resolve();
      }, graceMs);
      hardStop.unref();
    });
  }
}

/** A JSON-RPC response (to a question the server asked): an id, a result or an error, no method. */
interface AnswerMessage {
  readonly id: string | number;
  readonly result?: unknown;
  readonly error?: unknown;
}

function isAnswer(message: unknown): message is AnswerMessage {
  if (typeof message !== 'object' || message === null) return false;
  const candidate = message as Record<string, unknown>;
  return (
    !('method' in candidate) &&
    (typeof candidate.id === 'string' || typeof candidate.id === 'number') &&
    ('result' in candidate || 'error' in candidate)
  );
}

/** Whether a 2025-era client of remote mode can be asked, from its session, or why not. */
function askabilityOf(session: SessionReading): Askability {
  if (session.kind === 'none') {
    return {
      canAsk: false,
      why: 'this client sent no Mcp-Session-Id, so remote mode cannot tell whether it can ask its user (a client that keeps the session id it is given at initialize can be asked)',
    };
  }
  if (session.kind === 'foreign') {
    return {
      canAsk: false,
      why: 'its Mcp-Session-Id was not issued by this deployment (replicas without one --stateKey, or a restart without it), so remote mode cannot tell whether it can ask its user; reconnecting gives it a new one',
    };
  }
  if (session.session.elicitation) return { canAsk: true };
  return {
    canAsk: false,
    why: session.session.urlOnly
      ? 'this client offers only URL-mode elicitation, which cannot show the question'
      : 'this client did not declare elicitation (questions to its user) when it initialized',
  };
}
