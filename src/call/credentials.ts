import type { AuthInfo } from '@modelcontextprotocol/server';
import { principalOf } from '../auth/principal.js';
import type { ApiConfig } from '../config/types.js';
import { HeaderSet } from '../http/headers.js';
import { lazily } from '../common/lazily.js';

// The credentials one request brings for the APIs it calls, worked out once, by remote mode's front, and handed
// to every target of the request as inputs: the headers an API's --forwardHeaders copies from it (the user's own
// API token, say), and the verified user an API's `auth.tokenExchange` acts for. They are the user's, never the
// operator's configuration.

/** What obtains credentials from an identity provider, loaded when an `auth` header is first needed. */
const credentialsModule = lazily(() => import('../credentials/credentials.js'));

/** The person a request acts for, as its verified OAuth access token says. */
export interface RequestUser {
  /** The access token, verified: the subject of a token exchange, never sent to an API itself. */
  readonly token: string;
  /** When it expires, in seconds since the epoch: no token obtained with it outlives it. */
  readonly expiresAt: number | undefined;
  /** Who they are, across their tokens (auth/principal.ts). */
  readonly principal: string;
  /** How a person knows them: the token's preferred_username, email or sub, the first present. */
  readonly name: string;
}

/** What one request brings for each API. */
export interface RequestCredentials {
  /** Headers forwarded to each API, by the API's name; an API that forwards nothing is absent. */
  readonly forwarded: ReadonlyMap<string, HeaderSet>;
  /** The verified user of remote mode with OAuth; undefined elsewhere. */
  readonly user?: RequestUser | undefined;
}

/**
 * The credentials of a request: for each API, the headers its --forwardHeaders copies, renamed as asked, never
 * one holding the MCP token (`mcpTokens`: the shared --httpToken or the OAuth access token), which must not
 * reach another service; and the OAuth user, when `authInfo` is one. A header that cannot be sent throws a
 * HeaderError saying why.
 */
export function requestCredentials(
  apis: readonly ApiConfig[],
  header: (name: string) => string | undefined,
  mcpTokens: readonly string[],
  authInfo?: AuthInfo,
): RequestCredentials {
  const forwarded = new Map<string, HeaderSet>();
  for (const api of apis) {
    const headers = new HeaderSet();
    for (const { from, to } of api.forwardHeaders) {
      const text = header(from);
      if (text === undefined || mcpTokens.some((token) => text.includes(token))) continue;
      headers.set(to, text);
    }
    if (headers.size > 0) forwarded.set(api.name, headers);
  }
  return { forwarded, user: userOf(authInfo) };
}

/** The user of a verified OAuth token with a subject; undefined for a shared token or a client's own. */
function userOf(authInfo: AuthInfo | undefined): RequestUser | undefined {
  const subject = authInfo?.extra?.subject;
  if (authInfo === undefined || typeof subject !== 'string' || subject === '') return undefined;
  const name = authInfo.extra?.name;
  return {
    token: authInfo.token,
    expiresAt: authInfo.expiresAt,
    principal: principalOf(authInfo)!,
    name: typeof name === 'string' && name !== '' ? name : subject,
  };
}

/** The header an API's `auth` sets on a call, obtained from its identity provider when the call is sent. */
export interface ObtainedCredential {
  readonly name: string;
  readonly value: string;
  /** The token alone: a secret of the call from the moment it exists. */
  readonly token: string;
}

/**
 * Who an API with `auth` sees on a call: the user (token exchange) or this server (client credentials), and
 * how the header is obtained. The credentials module (its token requests and cache, node:crypto) is loaded on
 * the first call that needs it.
 */
export class CallCredential {
  constructor(
    private readonly config: ApiConfig,
    /** The user a token exchange acts for. */
    readonly user: RequestUser | undefined,
  ) {}

  /** The header it sets. */
  get header(): string {
    return this.config.auth!.header;
  }

  /** Who acts at the API, as a person reads it: the user's name, or this server. */
  get actor(): string {
    return this.config.auth!.kind === 'tokenExchange'
      ? (this.user?.name ?? 'nobody (no verified user)')
      : "this server's own client (client credentials), not a person";
  }

  /** Who acts, as a key: what a schema fetched with it may be kept by. */
  get key(): string {
    return this.config.auth!.kind === 'tokenExchange' ? `user:${this.user?.principal ?? ''}` : 'server';
  }

  /** The header, from the cache or the identity provider; CREDENTIALS_UNAVAILABLE (nothing sent) when refused. */
  async obtain(signal?: AbortSignal): Promise<ObtainedCredential> {
    const { credentialsOf } = await credentialsModule();
    const user = this.user;
    const caller = user && { token: user.token, expiresAt: user.expiresAt, key: user.principal };
    return credentialsOf(this.config)!.header(caller, signal);
  }
}
