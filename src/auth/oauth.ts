import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { OAuthOptions } from '../config.js';

// Remote mode as an OAuth 2.1 resource server (MCP authorization; RFC 9728, RFC 6750, RFC 8707): every /mcp
// request carries an access token (a JWT) that the organisation's authorization server issued for this
// server. Its signature is checked against the issuer's published keys (JWKS, discovered from the issuer's
// metadata, cached, fetched again for an unknown key id at most every JWKS_COOLDOWN_MS), then its issuer,
// audience (this server), lifetime and scopes. jose does the cryptography. The token is never passed on.

/** Asymmetric signatures only: an HMAC key would be a shared secret, and `none` is no signature. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** RFC 6750's b64token: what a Bearer credential is made of. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Clock difference tolerated on exp, nbf and iat. */
const CLOCK_TOLERANCE_S = 30;
/** The least time between two fetches of the JWKS caused by unknown key ids (a flood of forged tokens). */
export const JWKS_COOLDOWN_MS = 3_000;
/** How long fetched keys are used before they are fetched again anyway. */
const JWKS_MAX_AGE_MS = 10 * 60_000;

/** Who called, as the token says. */
export interface Principal {
  readonly subject: string | undefined;
  readonly clientId: string | undefined;
  readonly scopes: ReadonlySet<string>;
  readonly expiresAt: number | undefined;
  readonly token: string;
}

/** Why a request is refused: the status and the WWW-Authenticate challenge to answer with. */
export interface Refusal {
  readonly status: 401 | 403 | 503;
  readonly challenge: string | undefined;
  readonly message: string;
}

export class ResourceServer {
  readonly metadataUrl: string;
  /** The paths the protected resource metadata is served at (RFC 9728: with and without the resource's path). */
  readonly metadataPaths: readonly string[];
  #keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  #discovering: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;

  constructor(
    private readonly options: OAuthOptions,
    private readonly timeoutMs: number,
  ) {
    const resource = new URL(options.audience);
    const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
    this.metadataUrl = `${resource.origin}/.well-known/oauth-protected-resource${path}`;
    this.metadataPaths = [
      ...new Set(['/.well-known/oauth-protected-resource', `/.well-known/oauth-protected-resource${path}`]),
    ];
  }

  /** The RFC 9728 protected resource metadata document. */
  metadata(): Record<string, unknown> {
    const scopes = new Set(this.options.scopes);
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

  /** The principal of a request's Authorization header, or why it is refused. */
  async authenticate(authorization: string | undefined): Promise<Principal | Refusal> {
    if (authorization === undefined) return this.#unauthorized('an access token is required', false);
    const bearer = /^Bearer(?:[ \t]+(.*?))?[ \t]*$/i.exec(authorization);
    if (bearer === null) return this.#unauthorized('the Authorization header is not a Bearer token', true);
    const token = bearer[1] ?? '';
    if (token === '') return this.#unauthorized('the Bearer token is empty', true);
    if (!TOKEN68.test(token))
      return this.#unauthorized('the Bearer token holds characters a token cannot have', true);
    let keys;
    try {
      keys = await this.#jwks();
    } catch (error) {
      return {
        status: 503,
        challenge: undefined,
        message: `the authorization server's keys cannot be had: ${describe(error)}`,
      };
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: [this.options.issuer.href, this.options.issuer.href.replace(/\/$/, '')],
        audience: this.options.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      // The issuer's keys could not be fetched: not the token's fault, and worth a retry.
      if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
        return {
          status: 503,
          challenge: undefined,
          message: `the authorization server's keys cannot be had: ${describe(error)}`,
        };
      }
      return this.#unauthorized(reasonOf(error), true);
    }
    // jose compares iat with the clock only under maxTokenAge, which also makes iat required: not every
    // issuer sets it (RFC 9068 asks for it), so a token without one stays accepted.
    if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_S) {
      return this.#unauthorized(
        "the access token was issued in the future (its iat is ahead of this server's clock)",
        true,
      );
    }
    const scopes = scopesOf(payload);
    const missing = this.options.scopes.filter((scope) => !scopes.has(scope));
    if (missing.length > 0) return this.insufficientScope(this.options.scopes);
    return {
      subject: typeof payload.sub === 'string' ? payload.sub : undefined,
      clientId: stringClaim(payload.client_id) ?? stringClaim(payload.azp),
      scopes,
      expiresAt: payload.exp,
      token,
    };
  }

  /** The scopes a tool needs beyond those every request needs (--oauthToolScopes). */
  scopesFor(tool: string): readonly string[] {
    return this.options.toolScopes.get(tool) ?? [];
  }

  /** Whether a principal may see and call a tool. */
  allows(principal: Principal, tool: string): boolean {
    return this.scopesFor(tool).every((scope) => principal.scopes.has(scope));
  }

  /** 403 naming the scopes to ask for (a client may then ask the user for them: step-up). */
  insufficientScope(scopes: readonly string[]): Refusal {
    const scope = [...new Set([...this.options.scopes, ...scopes])].join(' ');
    return {
      status: 403,
      challenge: `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${this.metadataUrl}"`,
      message: `the access token lacks a scope this needs (${scope})`,
    };
  }

  #unauthorized(message: string, tokenSent: boolean): Refusal {
    const scope = this.options.scopes.length > 0 ? `, scope="${this.options.scopes.join(' ')}"` : '';
    const error = tokenSent
      ? `, error="invalid_token", error_description="${message.replace(/["\\]/g, '')}"`
      : '';
    return {
      status: 401,
      challenge: `Bearer resource_metadata="${this.metadataUrl}"${scope}${error}`,
      message,
    };
  }

  /** The issuer's key set: from --oauthJwksUri, or the jwks_uri of its metadata (fetched once). */
  #jwks(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.#keys !== undefined) return Promise.resolve(this.#keys);
    this.#discovering ??= this.#jwksUri()
      .then((uri) => {
        this.#keys = createRemoteJWKSet(uri, {
          timeoutDuration: this.timeoutMs,
          cooldownDuration: JWKS_COOLDOWN_MS,
          cacheMaxAge: JWKS_MAX_AGE_MS,
        });
        return this.#keys;
      })
      .finally(() => {
        // A failed discovery is tried again by the next request.
        this.#discovering = undefined;
      });
    return this.#discovering;
  }

  async #jwksUri(): Promise<URL> {
    if (this.options.jwksUri !== undefined) return this.options.jwksUri;
    const issuer = this.options.issuer;
    const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
    // RFC 8414 (the well-known part before the issuer's path), then OpenID Connect Discovery.
    const candidates = [
      `${issuer.origin}/.well-known/oauth-authorization-server${path}`,
      `${issuer.origin}${path}/.well-known/openid-configuration`,
    ];
    let last: unknown;
    for (const candidate of candidates) {
      try {
        const response = await fetch(candidate, {
          signal: AbortSignal.timeout(this.timeoutMs),
          redirect: 'error',
        });
        if (!response.ok) throw new Error(`HTTP ${response.status} from ${candidate}`);
        const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
        if (String(metadata.issuer).replace(/\/$/, '') !== issuer.href.replace(/\/$/, '')) {
          throw new Error(`the metadata at ${candidate} names another issuer`);
        }
        if (typeof metadata.jwks_uri !== 'string')
          throw new Error(`the metadata at ${candidate} has no jwks_uri`);
        return new URL(metadata.jwks_uri);
      } catch (error) {
        last = error;
      }
    }
    throw last;
  }
}

function scopesOf(payload: JWTPayload): Set<string> {
  const scopes = new Set<string>();
  for (const claim of [payload.scope, payload.scp]) {
    const list = typeof claim === 'string' ? claim.split(' ') : Array.isArray(claim) ? claim : [];
    for (const scope of list) if (typeof scope === 'string' && scope !== '') scopes.add(scope);
  }
  return scopes;
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** What is wrong with a token, in words that tell nothing of its content. */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return 'the access token is from another issuer';
    if (error.claim === 'aud') return 'the access token is for another resource';
    if (error.claim === 'nbf') return 'the access token is not valid yet';
    return `the access token's ${error.claim} claim is not valid`;
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return 'the access token is signed by a key the issuer does not publish';
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return 'the access token signature is not valid';
  if (error instanceof errors.JOSEAlgNotAllowed)
    return 'the access token is signed with an algorithm not accepted';
  return 'the access token is not a valid JWT';
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}
