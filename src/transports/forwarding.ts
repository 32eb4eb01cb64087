import type { Config } from '../config.js';
import { HeaderSet } from '../http/headers.js';

/**
 * The headers of a request that --forwardHeaders copies onto its GraphQL calls, renamed as asked; never one
 * holding the MCP token (shared or OAuth). A header that cannot be sent throws a HeaderError saying why.
 */
export function forwardedHeaders(
  header: (name: string) => string | undefined,
  config: Config,
  accessToken?: string,
): HeaderSet {
  const headers = new HeaderSet();
  for (const { from, to } of config.http.forwardHeaders) {
    const text = header(from);
    if (text === undefined) continue;
    if (config.http.token !== undefined && text.includes(config.http.token)) continue;
    if (accessToken !== undefined && text.includes(accessToken)) continue;
    headers.set(to, text);
  }
  return headers;
}
