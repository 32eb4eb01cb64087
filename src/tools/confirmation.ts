import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type InputRequiredResult,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { MutationPolicy, ServerConfig } from '../config/types.js';
import type { Era } from './diagnostics.js';
import { principalOf } from '../auth/principal.js';
import { cancelled, ToolError } from '../errors.js';

// The person decides: a mutation the model allowed runs only once the user has said yes through the client.
// A 2025-era client is asked with elicitation/create while the call waits; a 2026-07-28 client gets an
// input_required result and calls again with the answer and the state we minted. That state travels through the
// client, so it is signed (the SDK's HMAC codec), expires with the question, is bound to the very call (tool,
// API, endpoint, document, operation, variables, the call's headers, user) and is used once: an answer for one mutation can never run
// another, run twice, or be forged. Where nobody can be asked, the policy (--mutations) says what happens.

/** What a call is about to send, for the question and for the binding of its answer. */
export interface PendingMutation {
  /** The question shown to the person (bounded, invisible characters made visible, no header value). */
  readonly question: string;
  /**
   * Everything the answer is bound to: tool, API, endpoint, document, operation name, variables and the call's
   * own headers (hashed, never kept); the user is added here.
   */
  readonly call: readonly unknown[];
  /** The policy of the API it goes to (--mutations). */
  readonly policy: MutationPolicy;
}

/** What happens to a mutation: it runs (with a note when nobody was asked), it is refused, or the user is asked. */
export type Decision =
  | { readonly kind: 'run'; readonly note?: string }
  | { readonly kind: 'refuse'; readonly error: ToolError }
  | { readonly kind: 'ask'; readonly result: InputRequiredResult };

/** Decides the mutations of one call; `undefined` where no client is connected (a bench, a script). */
export type Confirm = (mutation: PendingMutation) => Promise<Decision>;

const KEY = 'confirm';
const NOBODY_ASKED =
  "Note: this mutation ran without the user's confirmation: this client cannot ask its user (no elicitation).";

/** Declining carries what the model must do next: not retry, not argue, ask in the conversation. */
function declined(how: string): ToolError {
  return new ToolError(
    'MUTATION_DECLINED',
    `${how}; nothing was sent. Do not retry it: ask the user in the conversation what they want instead.`,
  );
}

/** The confirmations of one server instance: its era and client decide how a question is put. */
export class Confirmer {
  constructor(
    private readonly server: McpServer,
    private readonly era: Era,
    private readonly config: ServerConfig,
  ) {}

  /** The decision on `mutation` for the call whose context is `ctx`. */
  async decide(ctx: ServerContext, mutation: PendingMutation): Promise<Decision> {
    const { policy } = mutation;
    if (policy === 'allow') return { kind: 'run' };
    if (!this.#canAsk(ctx)) {
      if (policy === 'confirm') return { kind: 'run', note: NOBODY_ASKED };
      return {
        kind: 'refuse',
        error: new ToolError(
          'MUTATION_NOT_ALLOWED',
          'this server runs a mutation only once its user confirms it (--mutations=require-confirm), and this ' +
            'client cannot ask its user; nothing was sent. Tell the user: a client that supports elicitation can ' +
            'confirm it, or the operator can set --mutations=confirm.',
        ),
      };
    }
    return this.era === 'modern' ? this.#askOnRetry(ctx, mutation) : this.#askNow(ctx, mutation);
  }

  #canAsk(ctx: ServerContext): boolean {
    const capabilities =
      this.era === 'modern'
        ? ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
            { elicitation?: { form?: unknown; url?: unknown } } | undefined)
        : this.server.server.getClientCapabilities();
    const elicitation = capabilities?.elicitation;
    // An empty object is form mode (the 2025-06-18 shape); a client that offers only URL mode cannot show a form.
    return elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
  }

  /** 2025 era: the client is asked now, while the call waits, for at most --confirmTimeout. */
  async #askNow(ctx: ServerContext, mutation: PendingMutation): Promise<Decision> {
    let answer;
    try {
      answer = await ctx.mcpReq.send(
        { method: 'elicitation/create', params: elicitation(mutation.question) },
        { timeout: this.config.confirmTimeout * 1000, signal: ctx.mcpReq.signal },
      );
    } catch (error) {
      if (ctx.mcpReq.signal.aborted) throw cancelled();
      const timedOut = /timed? ?out/i.test(error instanceof Error ? error.message : '');
      return {
        kind: 'refuse',
        error: declined(
          timedOut
            ? `the user did not answer within ${this.config.confirmTimeout} s (--confirmTimeout), so the mutation was declined`
            : 'the client could not put the question to its user, so the mutation was declined',
        ),
      };
    }
    return decisionOf(answer.action);
  }

  /** 2026-07-28 era: ask with an input_required result; the retried call brings the answer and our state. */
  async #askOnRetry(ctx: ServerContext, mutation: PendingMutation): Promise<Decision> {
    const codec = codecOf(this.config);
    const binding = bindingOf(ctx, mutation);
    const state = ctx.mcpReq.requestState<string>();
    if (typeof state !== 'string') {
      const requestState = await codec.mint({ b: binding, n: randomUUID() });
      return {
        kind: 'ask',
        result: inputRequired({
          inputRequests: { [KEY]: inputRequired.elicit(elicitation(mutation.question)) },
          requestState,
        }),
      };
    }
    let payload: StatePayload;
    try {
      payload = await codec.verify(state, ctx);
    } catch (error) {
      if (error instanceof Error && error.message === 'expired') {
        return {
          kind: 'refuse',
          error: declined(
            `the answer came after ${this.config.confirmTimeout} s (--confirmTimeout), so the mutation was declined`,
          ),
        };
      }
      return { kind: 'refuse', error: mismatch('its state was altered or not minted by this server') };
    }
    if (payload.b !== binding) return { kind: 'refuse', error: mismatch('it was given for another call') };
    if (!useOnce(payload.n, this.config.confirmTimeout)) {
      return { kind: 'refuse', error: mismatch('it was used already') };
    }
    const answer = inputResponse(ctx.mcpReq.inputResponses, KEY);
    if (answer.kind !== 'elicit') return { kind: 'refuse', error: declined('the user gave no answer') };
    return decisionOf(answer.action);
  }
}

function decisionOf(action: 'accept' | 'decline' | 'cancel'): Decision {
  if (action === 'accept') return { kind: 'run' };
  return {
    kind: 'refuse',
    error: declined(
      action === 'decline'
        ? 'the user declined this mutation'
        : 'the user dismissed the question without an answer',
    ),
  };
}

function mismatch(why: string): ToolError {
  return new ToolError(
    'MUTATION_NOT_ALLOWED',
    `the confirmation does not belong to this mutation (${why}); nothing was sent. Call the tool again to ask the user.`,
  );
}

/** A form with no fields: the person's answer is the action (accept, decline, cancel). */
function elicitation(message: string) {
  return { message, requestedSchema: { type: 'object' as const, properties: {} } };
}

interface StatePayload {
  /** The binding: a digest of the call and the user. */
  readonly b: string;
  /** A nonce, so that an answer is used once. */
  readonly n: string;
}

/** A digest of the call and of who makes it (principal.ts: the OAuth issuer and subject, in remote mode). */
function bindingOf(ctx: ServerContext, mutation: PendingMutation): string {
  return createHash('sha256')
    .update(JSON.stringify([...mutation.call, principalOf(ctx.http?.authInfo) ?? null]))
    .digest('base64url');
}

// Without --stateKey, a key of this process: a question asked by one replica cannot be answered at another.
const processKey = randomBytes(32);
const codecs = new Map<string, RequestStateCodec<StatePayload>>();

function codecOf(config: ServerConfig): RequestStateCodec<StatePayload> {
  const key = config.http.stateKey;
  const id = `${key ?? ''}\n${config.confirmTimeout}`;
  let codec = codecs.get(id);
  if (codec === undefined) {
    codec = createRequestStateCodec<StatePayload>({
      key: key ?? processKey,
      ttlSeconds: config.confirmTimeout,
    });
    codecs.set(id, codec);
  }
  return codec;
}

// Nonces of answers used, until their state would have expired anyway (in insertion order, so oldest first).
const used = new Map<string, number>();

function useOnce(nonce: string, ttlSeconds: number): boolean {
  const now = Date.now();
  for (const [known, until] of used) {
    if (until > now) break;
    used.delete(known);
  }
  if (used.has(nonce)) return false;
  used.set(nonce, now + ttlSeconds * 1000);
  return true;
}
