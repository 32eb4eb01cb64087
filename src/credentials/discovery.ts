import { isLoopback } from '../config/parsers.js';
import { describeEndpoint } from '../http/endpoint.js';
import { fetchJson, ProviderError } from './token-request.js';

// The token endpoint of an issuer, from its metadata: RFC 8414's `/.well-known/oauth-authorization-server` (put
// before the issuer's path), then OpenID Connect Discovery's `<issuer>/.well-known/openid-configuration`. The
// metadata must name the same issuer (RFC 8414 §3.3), and the endpoint must be https (http on loopback). Found
// once per issuer and kept; a failure is kept by nobody, so the next call tries again.

const found = new Map<string, Promise<URL>>();

/** The token endpoint `issuer`'s metadata names, or a ProviderError. */
export function discoverTokenEndpoint(issuer: URL, timeoutMs: number): Promise<URL> {
  const key = issuer.href;
  let endpoint = found.get(key);
  if (endpoint === undefined) {
    endpoint = discover(issuer, timeoutMs);
    found.set(key, endpoint);
    endpoint.catch(() => found.delete(key));
  }
  return endpoint;
}

async function discover(issuer: URL, timeoutMs: number): Promise<URL> {
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  const candidates = [
    new URL(`${issuer.origin}/.well-known/oauth-authorization-server${path}`),
    new URL(`${issuer.origin}${path}/.well-known/openid-configuration`),
  ];
  let failure: ProviderError | undefined;
  for (const candidate of candidates) {
    try {
      return tokenEndpointOf(await fetchJson(candidate, timeoutMs), issuer, candidate);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      // A server that cannot be reached at the first address will not be at the second.
      if (error.failure.kind !== 'invalid') throw error;
      failure ??= error;
    }
  }
  throw failure!;
}

function tokenEndpointOf(metadata: Record<string, unknown>, issuer: URL, at: URL): URL {
  const invalid = (problem: string) => new ProviderError({ kind: 'invalid', problem }, describeEndpoint(at));
  if (String(metadata.issuer).replace(/\/$/, '') !== issuer.href.replace(/\/$/, '')) {
    throw invalid('its metadata names another issuer');
  }
  const endpoint = metadata.token_endpoint;
  let url: URL;
  try {
    url = new URL(typeof endpoint === 'string' ? endpoint : '');
  } catch {
    throw invalid('its metadata names no token_endpoint');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw invalid('its token_endpoint is not an https URL');
  }
  if (url.username !== '' || url.password !== '' || url.hash !== '') {
    throw invalid('its token_endpoint holds user-info or a fragment');
  }
  return url;
}
