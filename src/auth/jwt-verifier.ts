import {
  OAuthError,
  OAuthErrorCode,
  type AuthInfo,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { OAuthOptions } from '../config/types.js';
import { discoverEndpoint } from '../credentials/discovery.js';

// An access token is a JWT that the organisation's authorization server issued for this server. Its signature
// is checked against the issuer's published keys (JWKS, discovered from the issuer's metadata, cached, fetched
// again for an unknown key id at most every JWKS_COOLDOWN_MS), then its issuer, audience (this server) and
// lifetime. jose does the cryptography; the SDK's token-verifier seam carries the outcome.

/** Asymmetric signatures only: an HMAC key would be a shared secret, and `none` is no signature. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** Clock difference tolerated on exp, nbf and iat. */
const CLOCK_TOLERANCE_S = 30;
/** The least time between two fetches of the JWKS caused by unknown key ids (a flood of forged tokens). */
const JWKS_COOLDOWN_MS = 3_000;
/** How long fetched keys are used before they are fetched again anyway. */
const JWKS_MAX_AGE_MS = 10 * 60_000;
/** The deadline of one request to the issuer (its metadata, its keys). */
const ISSUER_TIMEOUT_MS = 10_000;

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/**
 * The SDK's OAuthTokenVerifier for JWT access tokens, with jose. A bad token throws OAuthError invalid_token
 * naming what is wrong; keys that cannot be had throw temporarily_unavailable (worth a retry).
 */
export class JwtVerifier implements OAuthTokenVerifier {
  #keys: KeySet | undefined;
  #discovering: Promise<KeySet> | undefined;

  constructor(private readonly options: OAuthOptions) {}

  /** The token's claims as the SDK's AuthInfo: client id from client_id or azp, subject and issuer in extra. */
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.#jwks(), {
        issuer: [this.options.issuer.href, this.options.issuer.href.replace(/\/$/, '')],
        audience: this.options.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      // The issuer's keys could not be fetched (jose's errors but its timeout are about the token).
      if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
        throw new OAuthError(
          OAuthErrorCode.TemporarilyUnavailable,
          `the authorization server's keys cannot be had: ${describe(error)}`,
        );
      }
      throw new OAuthError(OAuthErrorCode.InvalidToken, reasonOf(error));
    }
    // jose compares iat with the clock only under maxTokenAge, which also makes iat required: not every
    // issuer sets it (RFC 9068 asks for it), so a token without one stays accepted.
    if (typeof payload.iat === 'number' && payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_S) {
      throw new OAuthError(
        OAuthErrorCode.InvalidToken,
        "the access token was issued in the future (its iat is ahead of this server's clock)",
      );
    }
    return {
      token,
      clientId: stringClaim(payload.client_id) ?? stringClaim(payload.azp) ?? '',
      scopes: scopesOf(payload),
      ...(payload.exp !== undefined ? { expiresAt: payload.exp } : {}),
      extra: {
        subject: stringClaim(payload.sub),
        issuer: stringClaim(payload.iss),
        // How a person knows them, for the question before a mutation run in their name.
        name: (
          stringClaim(payload.preferred_username) ??
          stringClaim(payload.email) ??
          stringClaim(payload.sub)
        )?.slice(0, 200),
      },
    };
  }

  /** The issuer's key set: from --oauthJwksUri, or the jwks_uri of its metadata (fetched once). */
  #jwks(): Promise<KeySet> {
    if (this.#keys !== undefined) return Promise.resolve(this.#keys);
    this.#discovering ??= this.#jwksUri()
      .then((uri) => {
        this.#keys = createRemoteJWKSet(uri, {
          timeoutDuration: ISSUER_TIMEOUT_MS,
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

  #jwksUri(): Promise<URL> {
    if (this.options.jwksUri !== undefined) return Promise.resolve(this.options.jwksUri);
    return discoverEndpoint(this.options.issuer, 'jwks_uri', ISSUER_TIMEOUT_MS);
  }
}

/** The scopes of the `scope` claim (space-separated) and of `scp` (a string or an array). */
function scopesOf(payload: JWTPayload): string[] {
  const scopes = new Set<string>();
  for (const claim of [payload.scope, payload.scp]) {
    const list = typeof claim === 'string' ? claim.split(' ') : Array.isArray(claim) ? claim : [];
    for (const scope of list) if (typeof scope === 'string' && scope !== '') scopes.add(scope);
  }
  return [...scopes];
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
