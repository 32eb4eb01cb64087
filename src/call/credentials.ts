import type { ApiConfig } from '../config/types.js';
import { HeaderSet } from '../http/headers.js';

// The credentials one remote-mode request brings for the APIs it calls: the headers an API's --forwardHeaders
// copies from it (the user's own API token, say). Worked out once, by the front, and handed to every target of
// the request as an input: they are the user's, never the operator's configuration.

/** What one request brings for each API. */
export interface RequestCredentials {
  /** Headers forwarded to each API, by the API's name; an API that forwards nothing is absent. */
  readonly forwarded: ReadonlyMap<string, HeaderSet>;
}

/**
 * The credentials of a request: for each API, the headers its --forwardHeaders copies, renamed as asked; never
 * one holding the MCP token (`mcpTokens`: the shared --httpToken or the OAuth access token), which must not
 * reach another service. A header that cannot be sent throws a HeaderError saying why.
 */
export function requestCredentials(
  apis: readonly ApiConfig[],
  header: (name: string) => string | undefined,
  mcpTokens: readonly string[],
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
  return { forwarded };
}
