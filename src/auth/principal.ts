import type { AuthInfo } from '@modelcontextprotocol/server';

/**
 * Who makes a call, as one string that two different callers never share: an OAuth user is its issuer and
 * subject; a token without a subject stands for its client (client credentials), named in a namespace of its
 * own so that a client id can never pass for a user's subject; a shared --httpToken is everyone who holds it.
 * Undefined where nobody authenticates (stdio, or remote mode on loopback without a token). It may hold the
 * token: it is only ever kept hashed (a question's binding, its asker).
 */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  if (auth === undefined) return undefined;
  const issuer = typeof auth.extra?.issuer === 'string' ? auth.extra.issuer : '';
  const subject = auth.extra?.subject;
  if (typeof subject === 'string' && subject !== '') return JSON.stringify(['user', issuer, subject]);
  if (auth.clientId !== '') return JSON.stringify(['client', issuer, auth.clientId]);
  return JSON.stringify(['token', auth.token]);
}
