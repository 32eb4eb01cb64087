import { createHash, timingSafeEqual } from 'node:crypto';
import { Refusal } from './refusal.js';

const UNAUTHORIZED = new Refusal(401, 'send Authorization: Bearer <token>', 'Bearer realm="graphql-mcp"');

/** --httpToken: one secret every /mcp request sends as `Authorization: Bearer <token>`. */
export class SharedToken {
  readonly #digest: Buffer;

  constructor(token: string) {
    this.#digest = digest(token);
  }

  /** Nothing when the header carries the token (there is no one to name), else the 401 to answer with. */
  async authenticate(authorization: string | undefined): Promise<Refusal | undefined> {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
    // Comparing digests of equal length in constant time: the token's length leaks nothing either.
    return match !== null && timingSafeEqual(digest(match[1]!), this.#digest) ? undefined : UNAUTHORIZED;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
