import type { ApiConfig } from '../config/types.js';
import { HeaderSet } from '../http/headers.js';
import type { Api } from '../api/api.js';

/**
 * The headers of a request that an API's --forwardHeaders copies onto its GraphQL calls, renamed as asked; never
 * one holding the MCP token (the shared --httpToken or the OAuth access token). A header that cannot be sent
 * throws a HeaderError saying why.
 */
export function forwardedHeaders(
  header: (name: string) => string | undefined,
  api: ApiConfig,
  mcpTokens: readonly string[],
): HeaderSet {
  const headers = new HeaderSet();
  for (const { from, to } of api.forwardHeaders) {
    const text = header(from);
    if (text === undefined) continue;
    if (mcpTokens.some((token) => text.includes(token))) continue;
    headers.set(to, text);
  }
  return headers;
}

/**
 * The APIs of one request: each with its forwarded headers on top of its configured ones (the request's user's
 * credentials, secrets of its answers like the configured ones); the very list when nothing is forwarded.
 */
export function withForwardedHeaders(
  apis: readonly Api[],
  header: (name: string) => string | undefined,
  mcpTokens: readonly string[],
): readonly Api[] {
  const forwarded = apis.map((api) => forwardedHeaders(header, api.config, mcpTokens));
  if (forwarded.every((headers) => headers.size === 0)) return apis;
  return apis.map((api, i) =>
    forwarded[i]!.size === 0
      ? api
      : {
          ...api,
          config: Object.freeze({ ...api.config, headers: api.config.headers.merge(forwarded[i]!) }),
        },
  );
}
