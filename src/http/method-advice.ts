// What to do about an endpoint that refuses POST with 405 and no Allow header: the HTTP specification asks for
// the header, but GET-only GraphQL servers (and the proxies in front of them) often leave it out, so the
// endpoint cannot be learnt to take GET the way one that lists it is (post-graphql.ts).

/**
 * The end of an HTTP_ERROR message for a POST answered 405 without an Allow header: for a query, the option that
 * sends this API's queries by GET (the operator's to set), unless it is set already; a mutation is never sent by GET.
 */
export function noAllowAdvice(
  kind: 'query' | 'mutation',
  setting: 'auto' | 'get' | 'post' | undefined,
): string {
  // Set to GET already: this query went by POST because its URL would have been too long for a GET.
  if (kind === 'query' && setting === 'get') {
    return '. The endpoint does not accept POST and does not say which methods it does (no Allow header); this query went by POST because its GET URL would be longer than a GET may be: send a shorter document or smaller variables';
  }
  return kind === 'mutation'
    ? '. The endpoint does not accept POST and does not say which methods it does (no Allow header); a mutation is sent only by POST (GraphQL over HTTP forbids GET for it), so this endpoint cannot run it: check the endpoint URL'
    : '. The endpoint does not accept POST and does not say which methods it does (no Allow header): if it takes queries by GET, its operator should set --queryMethod=get for this API (every query then goes by GET); else check the endpoint URL';
}
