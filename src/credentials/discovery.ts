import { isLoopback } from '../config/parsers.js';
import { describeEndpoint } from '../http/endpoint.js';
import { fetchJson, ProviderError } from './token-request.js';

// An authorization server's endpoints, from its metadata: RFC 8414's `/.well-known/oauth-authorization-server`
// (put before the issuer's path), then OpenID Connect Discovery's `<issuer>/.well-known/openid-configuration`.
// The metadata must name the same issuer (RFC 8414 §3.3), and an endpoint must be https (http on loopback). Used
// for the token endpoint of an API's `auth`, and for the keys remote mode verifies its tokens with.

const found = new Map<string, Promise<URL>>();

/**
 * The token endpoint `issuer`'s metadata names, or a ProviderError. Found once per issuer and kept; a failure
 * is kept by nobody, so the next call tries again.
 */
export function discoverTokenEndpoint(issuer: URL, timeoutMs: number): Promise<URL> {
  const key = issuer.href;
  let endpoint = found.get(key);
  if (endpoint === undefined) {
    endpoint = discoverEndpoint(issuer, 'token_endpoint', timeoutMs);
    found.set(key, endpoint);
    endpoint.catch(() => found.delete(key));
  }
  return endpoint;
}

/** The endpoint `issuer`'s metadata names under `field` (e.g. `jwks_uri`), or a ProviderError. */
export async function discoverEndpoint(issuer: URL, field: string, timeoutMs: number): Promise<URL> {
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  const candidates = [
    new URL(`${issuer.origin}/.well-known/oauth-authorization-server${path}`),
    new URL(`${issuer.origin}${path}/.well-known/openid-configuration`),
  ];
  let failure: ProviderError | undefined;
  for (const candidate of candidates) {
    try {
      return endpointOf(await fetchJson(candidate, timeoutMs), field, issuer, candidate);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      // A server that cannot be reached at the first address will not be at the second.
      if (error.failure.kind !== 'invalid') throw error;
      failure ??= error;
    }
  }
  throw failure!;
}

function endpointOf(metadata: Record<string, unknown>, field: string, issuer: URL, at: URL): URL {
  const invalid = (problem: string) => new ProviderError({ kind: 'invalid', problem }, describeEndpoint(at));
  if (String(metadata.issuer).replace(/\/$/, '') !== issuer.href.replace(/\/$/, '')) {
    throw invalid('its metadata names another issuer');
  }
  const endpoint = metadata[field];
  let url: URL;
  try {
    url = new URL(typeof endpoint === 'string' ? endpoint : '');
  } catch {
    throw invalid(`its metadata names no ${field}`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw invalid(`its ${field} is not an https URL`);
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') {
    throw invalid(`its ${field} holds user-info or a fragment`);
  }
  return url;
}
