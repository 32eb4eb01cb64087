import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { Refusal } from './refusal.js';

const UNAUTHORIZED = new Refusal(401, 'send Authorization: Bearer <token>', 'Bearer realm="graphql-mcp"');

/** --httpToken: one secret every /mcp request sends as `Authorization: Bearer <token>`. */
export class SharedToken {
  readonly #digest: Buffer;

  constructor(token: string) {
    this.#digest = digest(token);
  }

  /**
   * The caller when the header carries the token (everyone who holds it, one principal: auth/principal.ts), else
   * the 401 to answer with.
   */
  async authenticate(authorization: string | undefined): Promise<Refusal | AuthInfo> {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    // Comparing digests of equal length in constant time: the token's length leaks nothing either.
    if (match === null || !timingSafeEqual(digest(match[1]!), this.#digest)) return UNAUTHORIZED;
    return { token: match[1]!, clientId: '', scopes: [] };
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
