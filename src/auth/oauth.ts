import {
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  type AuthInfo,
  type OAuthProtectedResourceMetadata,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import type { OAuthOptions } from '../config/types.js';
import { Refusal } from './refusal.js';

// Remote mode as an OAuth 2.1 resource server (MCP authorization; RFC 9728, RFC 6750, RFC 8707): every /mcp
// request carries an access token that the organisation's authorization server issued for this server; a
// verifier (the SDK's seam: jwt-verifier.ts) checks it, then this checks the scopes. The token is never
// passed on. Ours rather than the SDK's verifyBearerToken and bearerAuthChallengeResponse: those answer a
// request without a token with error="invalid_token" (RFC 6750 §3.1: no error code), one message for every
// malformed header, error_description on insufficient_scope, an OAuth body (ours are JSON-RPC) and 500 where
// the issuer's keys cannot be had (ours: 503 and Retry-After).

/** RFC 6750's b64token: what a Bearer credential is made of. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
const METADATA_PATH = '/.well-known/oauth-protected-resource';

export class ResourceServer {
  /** Where the protected resource metadata is, as the challenges name it (RFC 9728 §5.1). */
  readonly metadataUrl: string;
  /** The paths the metadata is served at (RFC 9728: with and without the resource's path). */
  readonly metadataPaths: readonly string[];

  constructor(
    private readonly options: OAuthOptions,
    private readonly verifier: OAuthTokenVerifier,
    /** Scopes that some APIs need beyond those of every request (a config file's `apis.<name>.oauthScopes`). */
    private readonly apiScopes: readonly string[] = [],
  ) {
    this.metadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(options.audience));
    this.metadataPaths = [...new Set([METADATA_PATH, new URL(this.metadataUrl).pathname])];
  }

  /**
   * The RFC 9728 protected resource metadata document. Not the SDK's buildOAuthProtectedResourceMetadata: it
   * wants the issuer's whole RFC 8414 metadata, refuses an http issuer on loopback addresses but localhost and
   * 127.0.0.1, and leaves out bearer_methods_supported.
   */
  metadata(): OAuthProtectedResourceMetadata {
    const scopes = new Set([...this.options.scopes, ...this.apiScopes]);
    for (const toolScopes of this.options.toolScopes.values())
      for (const scope of toolScopes) scopes.add(scope);
    return {
      resource: this.options.audience,
      authorization_servers: [this.options.issuer.href.replace(/\/$/, '')],
      ...(scopes.size > 0 ? { scopes_supported: [...scopes] } : {}),
      bearer_methods_supported: ['header'],
      resource_name: 'graphql-mcp',
    };
  }

  /** The caller of a request's Authorization header, or why it is refused. */
  async authenticate(authorization: string | undefined): Promise<AuthInfo | Refusal> {
    if (authorization === undefined) return this.#unauthorized('an access token is required', false);
    const bearer = /^Bearer(?:[ \t]+(.*?))?[ \t]*$/i.exec(authorization);
    if (bearer === null) return this.#unauthorized('the Authorization header is not a Bearer token', true);
    const token = bearer[1] ?? '';
    if (token === '') return this.#unauthorized('the Bearer token is empty', true);
    if (!TOKEN68.test(token))
      return this.#unauthorized('the Bearer token holds characters a token cannot have', true);
    let caller: AuthInfo;
    try {
      caller = await this.verifier.verifyAccessToken(token);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      if (error.code === OAuthErrorCode.TemporarilyUnavailable) return new Refusal(503, error.message);
      return this.#unauthorized(error.message, true);
    }
    const missing = this.options.scopes.some((scope) => !caller.scopes.includes(scope));
    return missing ? this.insufficientScope() : caller;
  }

  /**
   * Whether a caller with these scopes may see and call a tool (--oauthToolScopes), for an API that needs
   * `apiScopes` besides (a config file's `apis.<name>.oauthScopes`).
   */
  allows(scopes: readonly string[], tool: string, apiScopes: readonly string[] = []): boolean {
    return [...this.#toolScopes(tool), ...apiScopes].every((scope) => scopes.includes(scope));
  }

  /** 403 naming the scopes to ask for, a tool's and its API's with every request's (a client may ask: step-up). */
  insufficientScope(tool?: string, apiScopes: readonly string[] = []): Refusal {
    const needed = tool === undefined ? [...apiScopes] : [...this.#toolScopes(tool), ...apiScopes];
    const scope = [...new Set([...this.options.scopes, ...needed])].join(' ');
    return new Refusal(
      403,
      `the access token lacks a scope this needs (${scope})`,
      `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${this.metadataUrl}"`,
    );
  }

  /** The scopes a tool needs beyond those every request needs (--oauthToolScopes). */
  #toolScopes(tool: string): readonly string[] {
    return this.options.toolScopes.get(tool) ?? [];
  }

  #unauthorized(message: string, tokenSent: boolean): Refusal {
    const scope = this.options.scopes.length > 0 ? `, scope="${this.options.scopes.join(' ')}"` : '';
    const error = tokenSent
      ? `, error="invalid_token", error_description="${message.replace(/["\\]/g, '')}"`
      : '';
    return new Refusal(401, message, `Bearer resource_metadata="${this.metadataUrl}"${scope}${error}`);
  }
}
