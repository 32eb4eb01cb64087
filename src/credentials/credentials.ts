import { createHash } from 'node:crypto';
import { cancelled, ToolError } from '../common/errors.js';
import type {
  ApiConfig,
  ClientCredentialsAuth,
  OAuthClientAuth,
  TokenExchangeAuth,
} from '../config/types.js';
import { Redactor } from '../redaction/redactor.js';
import { discoverTokenEndpoint } from './discovery.js';
import { TokenCache, type Obtained } from './token-cache.js';
import { ProviderError, requestToken } from './token-request.js';
import { unavailable } from './unavailable.js';

// Who an API sees, per call: with `auth.tokenExchange`, the caller, by a token the authorization server issues
// for the API in exchange for the caller's verified access token (RFC 8693, or Entra's on-behalf-of); with
// `auth.clientCredentials`, this server (RFC 6749 §4.4). Tokens are kept in memory per user and API
// (token-cache.ts) and are secrets from the moment they exist: a failure's message never holds one, nor the
// client secret, nor the caller's token. A failure sends nothing: there is no fallback to configured headers.

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
/** Most tokens one API keeps (a user's, per sign-in); the least recently used are forgotten first. */
const MAX_KEPT_TOKENS = 10_000;

/** The caller whose verified access token is exchanged, its subject (remote mode with OAuth: the SDK's AuthInfo). */
export interface TokenSubject {
  /** The access token the caller sent, verified: the exchange's subject token. */
  readonly token: string;
  /** When it expires, in seconds since the epoch; undefined: unknown. No token obtained with it outlives it. */
  readonly expiresAt: number | undefined;
  /** Who the caller is, the same across their tokens (auth/principal.ts's principalOf). */
  readonly key: string;
}

/** The header a call sends: `auth.header` (Authorization) holding `Bearer <token>`. */
export interface ObtainedHeader {
  readonly name: string;
  readonly value: string;
  /** The token alone, for the call's secrets: hidden wherever anything is shown. */
  readonly token: string;
}

/** How one API's calls get their credential. */
export interface ApiCredentials {
  /**
   * The header to send on a call of `caller` (which a token exchange needs; client credentials ignore it), or a
   * ToolError CREDENTIALS_UNAVAILABLE naming the API and why. `signal` stops this call's wait (CANCELLED),
   * not the request that other calls may be waiting for too.
   */
  header(caller: TokenSubject | undefined, signal?: AbortSignal): Promise<ObtainedHeader>;
}

/** Options for tests: the clock the cache reads. */
export interface CredentialsOptions {
  readonly now?: () => number;
}

const ofConfig = new WeakMap<ApiConfig, ApiCredentials>();

/** The credentials of an API with `auth`, one per configuration (a reload starts anew); undefined without. */
export function credentialsOf(config: ApiConfig): ApiCredentials | undefined {
  if (config.auth === undefined) return undefined;
  let credentials = ofConfig.get(config);
  if (credentials === undefined) {
    credentials =
      config.auth.kind === 'tokenExchange'
        ? new TokenExchange(config.name, config.auth)
        : new ClientCredentials(config.name, config.auth);
    ofConfig.set(config, credentials);
  }
  return credentials;
}

/** The token endpoint of an auth: configured, or found in its issuer's metadata (once per issuer). */
async function tokenEndpoint(auth: OAuthClientAuth): Promise<URL> {
  return auth.tokenEndpoint ?? discoverTokenEndpoint(auth.issuer!, auth.timeout);
}

/** RFC 8693 (or Entra's on-behalf-of): each caller's own token for the API, kept per caller. */
export class TokenExchange implements ApiCredentials {
  readonly #cache: TokenCache;

  constructor(
    private readonly api: string,
    private readonly auth: TokenExchangeAuth,
    options: CredentialsOptions = {},
  ) {
    this.#cache = new TokenCache(MAX_KEPT_TOKENS, options.now);
  }

  async header(caller: TokenSubject | undefined, signal?: AbortSignal): Promise<ObtainedHeader> {
    if (caller === undefined) {
      throw new ToolError(
        'CREDENTIALS_UNAVAILABLE',
        `API ${this.api} acts as each user (auth.tokenExchange), and this call carries no verified user: nothing was sent`,
      );
    }
    // Per user and sign-in: a new token is a new exchange, and one user's two clients do not take turns.
    const key = JSON.stringify([caller.key, createHash('sha256').update(caller.token).digest('base64url')]);
    const cap = caller.expiresAt === undefined ? Infinity : caller.expiresAt * 1000;
    const pending = this.#cache.get(key, () => this.#exchange(caller.token), cap);
    return headerOf(this.auth, await waitFor(pending, signal));
  }

  async #exchange(subject: string): Promise<Obtained> {
    const { auth } = this;
    const scope = auth.scope.length > 0 ? auth.scope.join(' ') : undefined;
    const grant =
      auth.grant === 'on-behalf-of'
        ? { grant_type: JWT_BEARER, assertion: subject, requested_token_use: 'on_behalf_of', scope }
        : {
            grant_type: TOKEN_EXCHANGE,
            subject_token: subject,
            subject_token_type: ACCESS_TOKEN_TYPE,
            requested_token_type: ACCESS_TOKEN_TYPE,
            audience: auth.audience,
            resource: auth.resource?.href,
            scope,
          };
    try {
      return await requestToken(await tokenEndpoint(auth), auth, grant);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw unavailable(error, { api: this.api, auth, exchange: true }, hide([subject, auth.clientSecret]));
    }
  }
}

/** RFC 6749 §4.4: this server's own token for the API, one for every call, replaced before it expires. */
export class ClientCredentials implements ApiCredentials {
  readonly #cache: TokenCache;

  constructor(
    private readonly api: string,
    private readonly auth: ClientCredentialsAuth,
    options: CredentialsOptions = {},
  ) {
    this.#cache = new TokenCache(1, options.now);
  }

  async header(_caller: TokenSubject | undefined, signal?: AbortSignal): Promise<ObtainedHeader> {
    return headerOf(
      this.auth,
      await waitFor(
        this.#cache.get('', () => this.#obtain()),
        signal,
      ),
    );
  }

  async #obtain(): Promise<Obtained> {
    const { auth } = this;
    const grant = {
      grant_type: 'client_credentials',
      audience: auth.audience,
      resource: auth.resource?.href,
      scope: auth.scope.length > 0 ? auth.scope.join(' ') : undefined,
    };
    try {
      return await requestToken(await tokenEndpoint(auth), auth, grant);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw unavailable(error, { api: this.api, auth, exchange: false }, hide([auth.clientSecret]));
    }
  }
}

function headerOf(auth: OAuthClientAuth, token: string): ObtainedHeader {
  return { name: auth.header, value: `Bearer ${token}`, token };
}

/** A redactor of these secrets, for what the provider's description may echo. */
function hide(secrets: readonly string[]): (text: string) => string {
  const redactor = new Redactor(secrets);
  return (text) => redactor.text(text);
}

/** `pending`, unless `signal` aborts first (CANCELLED): the request goes on for whoever else waits for it. */
function waitFor<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return pending;
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(cancelled());
    signal.addEventListener('abort', abort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
