import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { declaresApps } from '../apps/declared.js';
import { askabilityOf } from '../tools/confirmation.js';

// Remote mode serves 2025-era clients without server-side sessions, yet the replica serving a tool call must know
// what the client declared at `initialize`, which another replica may have served: whether it can ask its user
// (elicitation), and whether it renders MCP Apps (the views, and the confirmation panel). So the answer to `initialize` carries an Mcp-Session-Id that holds that, signed: the client
// sends it with every later request, and any replica holding the same key reads it. It grants nothing; it only
// says what the client can do, and names the session an answer must come from.

/** What a client declared when it initialized, as its session id carries it. */
export interface Session {
  /** It declared form-mode elicitation: it can put a question to its user. */
  readonly elicitation: boolean;
  /** It declared elicitation in URL mode only, which cannot show a question. */
  readonly urlOnly: boolean;
  /** It declared MCP Apps (the io.modelcontextprotocol/ui extension): it renders the views. */
  readonly apps: boolean;
  /** Unguessable, one per `initialize`: answers to a question must come from the same session. */
  readonly nonce: string;
}

/** How a request's session id reads: its session, none sent, or one this deployment did not issue. */
export type SessionReading =
  | { readonly kind: 'session'; readonly session: Session }
  | { readonly kind: 'none' }
  | { readonly kind: 'foreign' };

const PREFIX = 'gm1';

/** Mints and reads signed session ids with one key (--stateKey, or the process's own). */
export class Sessions {
  readonly #key: Buffer;

  constructor(stateKey: string | Buffer) {
    // A key of its own, derived: a session id can never pass for another signed value of the server.
    this.#key = createHmac('sha256', stateKey).update('graphql-mcp session').digest();
  }

  /** The session id for a client that initialized with these capabilities. */
  mint(capabilities: unknown): string {
    const elicitation = canElicit(capabilities);
    const declared = (capabilities as { elicitation?: unknown } | null | undefined)?.elicitation;
    // 1: it can be asked; 2: it declared elicitation, in URL mode only; 0: none.
    const e = elicitation ? 1 : typeof declared === 'object' && declared !== null ? 2 : 0;
    const body = Buffer.from(
      JSON.stringify({
        e,
        n: randomBytes(16).toString('base64url'),
        ...(declaresApps(capabilities) && { a: 1 }),
      }),
    ).toString('base64url');
    return `${PREFIX}.${body}.${this.#mac(body)}`;
  }

  /** The session a request's Mcp-Session-Id header names. */
  read(header: string | undefined): SessionReading {
    if (header === undefined || header === '') return { kind: 'none' };
    const [prefix, body, mac] = header.split('.');
    if (prefix !== PREFIX || body === undefined || mac === undefined || !this.#valid(body, mac)) {
      return { kind: 'foreign' };
    }
    try {
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
        e?: unknown;
        n?: unknown;
        a?: unknown;
      };
      if (typeof payload.n !== 'string') return { kind: 'foreign' };
      return {
        kind: 'session',
        session: {
          elicitation: payload.e === 1,
          urlOnly: payload.e === 2,
          nonce: payload.n,
          apps: payload.a === 1,
        },
      };
    } catch {
      return { kind: 'foreign' };
    }
  }

  #mac(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }

  #valid(body: string, mac: string): boolean {
    const expected = Buffer.from(this.#mac(body));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** Whether capabilities declare form-mode elicitation (tools/confirmation.ts: askabilityOf). */
export function canElicit(capabilities: unknown): boolean {
  return askabilityOf(capabilities, '').canAsk;
}

/**
 * Who may answer a question: a digest of the caller's principal (auth/principal.ts) and the session's nonce, so
 * that neither another user nor another session of the same user can answer it.
 */
export function askerOf(principal: string | undefined, session: Session): string {
  return createHash('sha256')
    .update(JSON.stringify([principal ?? null, session.nonce]))
    .digest('base64url');
}
