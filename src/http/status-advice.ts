// What an HTTP status the model can act on means, for the end of an HTTP_ERROR message (classify-response.ts):
// 404, nothing at this path; 405, a method refused, read with the Allow header the HTTP specification asks for.
// GET-only GraphQL servers (and the proxies in front of them) often leave that header out, so such an endpoint
// cannot be learnt to take GET the way one that lists it is (post-graphql.ts).

import type { IncomingMessage } from 'node:http';

/** What a status the model can act on means (401 and 403 get the credentials' advice from the tools). */
export function statusAdvice(
  status: number,
  response: IncomingMessage,
  method: 'GET' | 'POST',
  kind: 'query' | 'mutation',
  setting: 'auto' | 'get' | 'post' | undefined,
): string {
  if (status === 404)
    return '. Nothing answers at this path: check the endpoint URL (GraphQL is often at /graphql)';
  if (status !== 405) return '';
  const allow = allowed(response);
  if (method === 'GET') {
    // Its Allow header listing GET while GET is refused too: the URL serves no GraphQL.
    return allow !== '' && /\bGET\b/i.test(allow)
      ? `. The endpoint refused POST and then GET although it lists ${allow} as allowed: nothing here takes GraphQL requests; check the endpoint URL`
      : `. The endpoint does not accept GET${allow === '' ? '' : ` (it allows ${allow})`}: this API's queries should be sent by POST`;
  }
  if (allow === '') return noAllowAdvice(kind, setting);
  if (!/\bGET\b/i.test(allow)) {
    return `. The endpoint does not accept POST; it allows ${allow}, none of which carries a GraphQL request: check the endpoint URL`;
  }
  if (kind === 'mutation') {
    return `. The endpoint does not accept POST (it allows ${allow}): it takes queries by GET, and a mutation is never sent by GET (GraphQL over HTTP forbids it), so this endpoint cannot run mutations`;
  }
  return setting === 'post'
    ? `. The endpoint does not accept POST (it allows ${allow}), and this API is set to send queries by POST only: its operator should let its queries go by GET`
    : `. The endpoint does not accept POST (it allows ${allow})`;
}

/** The methods a 405 response allows, as its Allow header lists them (letters, commas and spaces only). */
export function allowed(response: IncomingMessage): string {
  return String(response.headers.allow ?? '')
    .replace(/[^A-Za-z, ]/g, '')
    .trim()
    .slice(0, 100);
}

/**
 * The end of an HTTP_ERROR message for a POST answered 405 without an Allow header: for a query, the option that
 * sends this API's queries by GET (the operator's to set), unless it is set already; a mutation is never sent by GET.
 */
function noAllowAdvice(kind: 'query' | 'mutation', setting: 'auto' | 'get' | 'post' | undefined): string {
  // Set to GET already: this query went by POST because its URL would have been too long for a GET.
  if (kind === 'query' && setting === 'get') {
    return '. The endpoint does not accept POST and does not say which methods it does (no Allow header); this query went by POST because its GET URL would be longer than a GET may be: send a shorter document or smaller variables';
  }
  return kind === 'mutation'
    ? '. The endpoint does not accept POST and does not say which methods it does (no Allow header); a mutation is sent only by POST (GraphQL over HTTP forbids GET for it), so this endpoint cannot run it: check the endpoint URL'
    : '. The endpoint does not accept POST and does not say which methods it does (no Allow header): if it takes queries by GET, its operator should set --queryMethod=get for this API (every query then goes by GET); else check the endpoint URL';
}
