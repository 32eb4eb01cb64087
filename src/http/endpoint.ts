/** What is wrong with an endpoint URL, worded to follow its name ("endpoint must be …"); never quotes a secret. */
export class EndpointError extends Error {
  override readonly name = 'EndpointError';
}

/** A URL the server may POST to; an EndpointError says what is wrong (never quoting user-info or query string). */
export function parseEndpoint(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    const quoted = text.includes('@')
      ? ''
      : `, got ${JSON.stringify(text.trim().split(/[?#]/, 1)[0]!.slice(0, 80))}`;
    throw new EndpointError(
      `must be an absolute http(s) URL such as https://api.example.com/graphql${quoted}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EndpointError(
      `must be an http(s) URL, got the scheme ${JSON.stringify(url.protocol.slice(0, -1).slice(0, 20))}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new EndpointError('must not hold credentials (user:password@); pass them as headers instead');
  }
  return url;
}

/** How an endpoint is named in messages: origin and path, without user-info, query string or fragment. */
export function describeEndpoint(url: URL): string {
  return url.origin + url.pathname;
}

/**
 * Why a URL's path cannot be matched against a path-scoped entry, or undefined. The URL parser has resolved
 * "..", "%2e%2e" and backslashes already, so what is matched is what is sent; but a server that decodes
 * "%2F" or "%5C" (once, or twice for "%252F") before routing reads "/api/..%2F..%2Fadmin" as "/admin", and
 * one that drops path parameters (Tomcat, Jetty) reads "/api/..;/admin" as "/admin".
 */
export function ambiguousPath(url: URL): string | undefined {
  if (!url.pathname.includes('%') && !url.pathname.includes(';')) return undefined;
  let path = url.pathname;
  for (let round = 0; round < 3; round++) {
    const decoded = path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
    if (decoded === path) break;
    path = decoded;
  }
  const segments = path.split('/');
  if (
    path.includes('\\') ||
    segments.length !== url.pathname.split('/').length ||
    segments.some((segment) => /^\.\.?(;|$)/.test(segment))
  ) {
    return 'its path holds an encoded slash, backslash or dot segment (such as %2F, %5C, %2E%2E or ..;), which a server may read as another path';
  }
  return undefined;
}
