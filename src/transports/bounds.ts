import type { IncomingMessage } from 'node:http';
import { HOLDING_TOO_MUCH, NOT_JSON, tooLarge, type Reply } from './replies.js';

/**
 * Largest MCP request body accepted: a tool call carries a document and its variables, a few kilobytes; 4 MiB
 * leaves room for large variables while bounding what --maxInFlight requests can hold together.
 */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Most bytes of request bodies held at once, over all requests in flight (a body is held, parsed, until its
 * request ends, in some five copies: bytes, text, parsed values, the POST to the endpoint): a few clients
 * sending large tool calls to a slow endpoint must not fill a small machine. Small calls are a few KB each.
 */
const MAX_HELD_BYTES = 16 * 1024 * 1024;

/** A request's body: the parsed message, or the answer to give instead (and the bound it met, if one did). */
type Body =
  | { readonly message: unknown }
  | { readonly reply: Reply; readonly bound?: 'body_too_large' | 'holding_too_much' };

/** A request's place among those in flight: it reads the body, and gives the place and the bytes back. */
export interface Place {
  read(req: IncomingMessage): Promise<Body>;
  release(): void;
}

/**
 * The bounds on what requests in flight hold: their number (--maxInFlight) and their bodies' bytes, each body
 * and all together. Ours rather than the SDK's readRequestBody, which bounds one body and not the sum.
 */
export class Bounds {
  #inFlight = 0;
  #heldBytes = 0;

  constructor(private readonly maxInFlight: number) {}

  /** A place for one more request, or undefined when --maxInFlight are in flight. */
  take(): Place | undefined {
    if (this.#inFlight >= this.maxInFlight) return undefined;
    this.#inFlight++;
    let bytes = 0;
    return {
      read: async (req) => {
        const chunks: Buffer[] = [];
        try {
          for await (const chunk of req) {
            const length = (chunk as Buffer).length;
            bytes += length;
            this.#heldBytes += length;
            // The rest is left unread: the reply closes the connection.
            if (bytes > MAX_BODY_BYTES) return { reply: tooLarge(MAX_BODY_BYTES), bound: 'body_too_large' };
            if (this.#heldBytes > MAX_HELD_BYTES)
              return { reply: HOLDING_TOO_MUCH, bound: 'holding_too_much' };
            chunks.push(chunk as Buffer);
          }
          return { message: JSON.parse(Buffer.concat(chunks, bytes).toString('utf8')) as unknown };
        } catch {
          return { reply: NOT_JSON };
        }
      },
      release: () => {
        this.#inFlight--;
        this.#heldBytes -= bytes;
      },
    };
  }
}
