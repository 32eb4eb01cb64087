/** A URL the server may POST to, or what is wrong with it (never quoting its user-info or query string). */
export function parseEndpoint(text: string): URL | string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    const quoted = text.includes('@')
      ? ''
      : `, got ${JSON.stringify(text.trim().split(/[?#]/, 1)[0]!.slice(0, 80))}`;
    return `must be an absolute http(s) URL such as https://api.example.com/graphql${quoted}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `must be an http(s) URL, got the scheme ${JSON.stringify(url.protocol.slice(0, -1).slice(0, 20))}`;
  }
  if (url.username !== '' || url.password !== '') {
    return 'must not hold credentials (user:password@); pass them as headers instead';
  }
  return url;
}

/** How an endpoint is named in messages: origin and path, without user-info, query string or fragment. */
export function describeEndpoint(url: URL): string {
  return url.origin + url.pathname;
}
