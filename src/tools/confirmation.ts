import {
  CLIENT_CAPABILITIES_META_KEY,
  type CallToolResult,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type InputRequiredResult,
  type McpServer,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { principalOf } from '../auth/principal.js';
import type { MutationPolicy, ServerConfig } from '../config/types.js';
import { cancelled, ToolError } from '../common/errors.js';
import { ANSWER_LOST_CODE, StoreUnavailable, type Store } from '../store/store.js';
import type { Era } from './diagnostics.js';
import { lazily } from '../common/lazily.js';

// The person decides: a mutation the model allowed runs only once the user has said yes through the client.
// A 2025-era client is asked with elicitation/create while the call waits (over stdio, or on the SSE stream of
// its tools/call in remote mode, answered at any replica); a 2026-07-28 client gets an input_required result and
// calls again with the answer and the state we minted. That state travels through the client, so it is signed
// (the SDK's HMAC codec), expires with the question, is bound to the very call (tool, API, endpoint, document,
// operation, variables, the call's headers, user) and is used once across every replica sharing the store: an
// answer for one mutation can never run another, run twice, or be forged. Where nobody can be asked, the policy
// (--mutations) says what happens, and the note or refusal says why nobody could be.

/** What a call is about to send, for the question and for the binding of its answer. */
export interface PendingMutation {
  /** The question shown to the person (bounded, invisible characters made visible, no operator secret). */
  readonly question: string;
  /**
   * Everything the answer is bound to: tool, API, endpoint, document, operation name, variables and the call's
   * own headers (hashed, never kept); the user is added here.
   */
  readonly call: readonly unknown[];
  /** The policy of the API it goes to (--mutations). */
  readonly policy: MutationPolicy;
}

/** How a mutation's question ended, for the audit line: what the person (or the policy) decided. */
export type Outcome =
  | 'accepted'
  | 'declined'
  | 'dismissed'
  | 'timed-out'
  | 'not-asked'
  | 'refused'
  | 'asked'
  /** The call went away while its question waited: cancelled by the client, or its connection cut. */
  | 'abandoned';

/** What happens to a mutation: it runs (with a note when nobody was asked), it is refused, or the user is asked. */
export type Decision =
  | { readonly kind: 'run'; readonly outcome: Outcome; readonly note?: string }
  | { readonly kind: 'refuse'; readonly outcome: Outcome; readonly error: ToolError }
  | {
      readonly kind: 'ask';
      readonly outcome: Outcome;
      /** The question (2026-07-28), or the answer that the mutation waits in MCP Apps' panel. */
      readonly result: InputRequiredResult | CallToolResult;
    };

/**
 * Puts a mutation to the person in an MCP App's panel (tools/confirm-mutation.ts), for a client that cannot be
 * asked otherwise; undefined when the client renders no MCP Apps.
 */
export type Panel = (ctx: ServerContext, mutation: PendingMutation) => Promise<Decision | undefined>;

/** A mutation's fate, for the audit line of remote mode's request log: never a document, variables or a header. */
export interface MutationAudit {
  readonly tool: string;
  readonly api: string;
  readonly operation: string | undefined;
  /** The root fields it calls. */
  readonly fields: readonly string[];
  readonly decision: Outcome;
  readonly sent: boolean;
  /** The HTTP status of the API's answer, when it was sent and answered. */
  readonly status?: number;
  /** The error code, when it was sent but no answer came (TIMEOUT, NETWORK_ERROR…). */
  readonly error?: string;
}

/** Decides the mutations of one call (undefined where no client is connected: a bench, a script). */
export interface Confirm {
  decide(mutation: PendingMutation): Promise<Decision>;
  /** Records what became of a mutation (remote mode writes it to its request log). */
  audit(entry: MutationAudit): void;
}

/** Whether this server's client can be asked, where the transport knows it rather than the SDK's handshake. */
export type Askability = { readonly canAsk: true } | { readonly canAsk: false; readonly why: string };

const KEY = 'confirm';

/** Declining carries what the model must do next: not retry, not argue, ask in the conversation. */
export function declined(how: string): ToolError {
  return new ToolError(
    'MUTATION_DECLINED',
    `${how}; nothing was sent. Do not retry it: ask the user in the conversation what they want instead.`,
  );
}

/** The single-use state could not be checked: a mutation is refused rather than run unasked or twice. */
export function unavailable(why = 'its shared store cannot be reached'): ToolError {
  return new ToolError(
    'CONFIRMATION_UNAVAILABLE',
    `the server cannot confirm mutations right now (${why}); nothing was sent. Tell the user; retry later, or ask the server's operator`,
  );
}

/**
 * The transport could not put the question (remote mode: the user has too many waiting already); its message
 * says why, for the refusal.
 */
export class CannotAsk extends Error {
  override readonly name = 'CannotAsk';
}

/** The confirmations of one server instance: its era, its client and its transport decide how a question is put. */
export class Confirmer {
  readonly #log: ((line: string) => void) | undefined;

  constructor(
    private readonly server: McpServer,
    private readonly era: Era,
    private readonly settings: ServerConfig,
    private readonly store: Store,
    options: {
      readonly askability?: Askability;
      readonly log?: (line: string) => void;
      readonly panel?: Panel;
    } = {},
  ) {
    this.#askability = options.askability;
    this.#log = options.log;
    this.#panel = options.panel;
  }

  readonly #panel: Panel | undefined;

  readonly #askability: Askability | undefined;

  /** The Confirm of the call whose context is `ctx`. */
  forCall(ctx: ServerContext): Confirm {
    return { decide: (mutation) => this.decide(ctx, mutation), audit: (entry) => this.#audit(ctx, entry) };
  }

  /** The decision on `mutation` for the call whose context is `ctx`. */
  async decide(ctx: ServerContext, mutation: PendingMutation): Promise<Decision> {
    const { policy } = mutation;
    if (policy === 'allow') return { kind: 'run', outcome: 'not-asked' };
    const askable = this.#askable(ctx);
    if (!askable.canAsk) {
      // A client that shows MCP Apps: the person decides in the panel, which the model cannot act for.
      const panel = await this.#panel?.(ctx, mutation);
      if (panel !== undefined) return panel;
      if (policy === 'confirm') {
        return {
          kind: 'run',
          outcome: 'not-asked',
          note: `Note: this mutation ran without asking the user: ${askable.why}. Under --mutations=confirm, allowMutations decided.`,
        };
      }
      return {
        kind: 'refuse',
        outcome: 'refused',
        error: new ToolError(
          'MUTATION_NOT_ALLOWED',
          `this server runs a mutation only once its user confirms it (--mutations=require-confirm), and nobody can be asked here: ${askable.why}; nothing was sent. Tell the user: a client that supports elicitation can confirm it, or the operator can set --mutations=confirm.`,
        ),
      };
    }
    return this.era === 'modern' ? this.#askOnRetry(ctx, mutation) : this.#askNow(ctx, mutation);
  }

  /** Whether the client of this call can be asked, and if not, why, in words that tell the truth. */
  #askable(ctx: ServerContext): Askability {
    if (this.era === 'modern') {
      const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[
        CLIENT_CAPABILITIES_META_KEY
      ];
      return askabilityOf(capabilities, "this request's client capabilities do not include elicitation");
    }
    // Remote mode's transport knows what the client declared at initialize (its session); stdio's SDK does.
    return (
      this.#askability ??
      askabilityOf(
        this.server.server.getClientCapabilities(),
        'this client did not declare elicitation (questions to its user) when it connected',
      )
    );
  }

  /** 2025 era: the client is asked now, while the call waits, for at most --confirmTimeout. */
  async #askNow(ctx: ServerContext, mutation: PendingMutation): Promise<Decision> {
    let answer;
    try {
      answer = await ctx.mcpReq.send(
        { method: 'elicitation/create', params: elicitation(mutation.question) },
        { timeout: this.settings.confirmTimeout * 1000, signal: ctx.mcpReq.signal },
      );
    } catch (error) {
      if (ctx.mcpReq.signal.aborted) throw cancelled();
      if (error instanceof CannotAsk) {
        return {
          kind: 'refuse',
          outcome: 'refused',
          error: new ToolError(
            'CONFIRMATION_UNAVAILABLE',
            `${error.message}; nothing was sent. Tell the user to answer the questions that wait first`,
          ),
        };
      }
      if (error instanceof StoreUnavailable) {
        return { kind: 'refuse', outcome: 'refused', error: unavailable() };
      }
      if ((error as { code?: unknown }).code === ANSWER_LOST_CODE) {
        const why = 'its shared store went away while the question waited for the answer';
        return { kind: 'refuse', outcome: 'refused', error: unavailable(why) };
      }
      const timedOut = /timed? ?out/i.test(error instanceof Error ? error.message : '');
      return {
        kind: 'refuse',
        outcome: timedOut ? 'timed-out' : 'refused',
        error: declined(
          timedOut
            ? `the user did not answer within ${this.settings.confirmTimeout} s (--confirmTimeout), so the mutation was declined`
            : 'the client could not put the question to its user, so the mutation was declined',
        ),
      };
    }
    return decisionOf(answer.action);
  }

  /** 2026-07-28 era: ask with an input_required result; the retried call brings the answer and our state. */
  async #askOnRetry(ctx: ServerContext, mutation: PendingMutation): Promise<Decision> {
    const { randomUUID } = await cryptoModule();
    const codec = await codecOf(this.settings);
    const binding = await bindingOf(ctx, mutation);
    const state = ctx.mcpReq.requestState<string>();
    if (typeof state !== 'string') {
      // The store's epoch is signed into the state: an answer minted before the store lost its marks (a
      // restart without persistence, another process) is refused. No store, no question: it could not be used.
      let epoch: string;
      try {
        epoch = await this.store.epoch();
      } catch {
        return { kind: 'refuse', outcome: 'refused', error: unavailable() };
      }
      const requestState = await codec.mint({ b: binding, n: randomUUID(), e: epoch });
      return {
        kind: 'ask',
        outcome: 'asked',
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
          outcome: 'timed-out',
          error: declined(
            `the answer came after ${this.settings.confirmTimeout} s (--confirmTimeout), so the mutation was declined`,
          ),
        };
      }
      return {
        kind: 'refuse',
        outcome: 'refused',
        error: mismatch('its state was altered or not minted by this server'),
      };
    }
    if (payload.b !== binding) {
      return { kind: 'refuse', outcome: 'refused', error: mismatch('it was given for another call') };
    }
    const claim = await claimOnce(this.store, `state:${payload.n}`, this.settings, payload.e);
    if (claim !== undefined) return claim;
    const answer = inputResponse(ctx.mcpReq.inputResponses, KEY);
    if (answer.kind !== 'elicit') {
      return { kind: 'refuse', outcome: 'declined', error: declined('the user gave no answer') };
    }
    return decisionOf(answer.action);
  }

  /** One JSON line of remote mode's request log per mutation decided: who, which API and fields, what became of it. */
  #audit(ctx: ServerContext, entry: MutationAudit): void {
    if (this.#log === undefined) return;
    const user = userOf(ctx);
    this.#log(
      JSON.stringify({
        time: new Date().toISOString(),
        audit: 'mutation',
        ...(user !== undefined && { user }),
        ...entry,
      }),
    );
  }
}

/**
 * Whether capabilities a client declared include form-mode elicitation, or why not (`missing`: none declared).
 * The one rule for every era and transport (remote mode's session ids hold its answer too).
 */
export function askabilityOf(capabilities: unknown, missing: string): Askability {
  const offered = (capabilities as { elicitation?: unknown } | null | undefined)?.elicitation as
    { form?: unknown; url?: unknown } | null | undefined;
  if (typeof offered !== 'object' || offered === null) return { canAsk: false, why: missing };
  // An empty object is form mode (the 2025-06-18 shape); a client that offers only URL mode cannot show a form.
  if (offered.form === undefined && offered.url !== undefined) {
    return {
      canAsk: false,
      why: 'this client offers only URL-mode elicitation, which cannot show the question',
    };
  }
  return { canAsk: true };
}

/** The user of a call for the audit line: the OAuth subject (or client), never a token. */
function userOf(ctx: ServerContext): string | undefined {
  const auth = ctx.http?.authInfo;
  const subject = auth?.extra?.subject;
  if (typeof subject === 'string' && subject !== '') return subject.slice(0, 100);
  if (auth?.clientId) return `client:${auth.clientId.slice(0, 100)}`;
  return undefined;
}

function decisionOf(action: 'accept' | 'decline' | 'cancel'): Decision {
  if (action === 'accept') return { kind: 'run', outcome: 'accepted' };
  return action === 'decline'
    ? { kind: 'refuse', outcome: 'declined', error: declined('the user declined this mutation') }
    : {
        kind: 'refuse',
        outcome: 'dismissed',
        error: declined('the user dismissed the question without an answer'),
      };
}

export function mismatch(why: string): ToolError {
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
  /** The store's epoch when it was minted (Store.epoch). */
  readonly e: string;
}

/**
 * Marks a confirmation used, once across every replica sharing the store: undefined the first time; else the
 * refusal (used already, minted before the store lost its marks, or the store cannot say). The mark outlives
 * what it marks (valid to the whole second, on replicas whose clocks may differ a little).
 */
export async function claimOnce(
  store: Store,
  key: string,
  settings: ServerConfig,
  epoch: unknown,
): Promise<Decision | undefined> {
  const refuse = (error: ToolError): Decision => ({ kind: 'refuse', outcome: 'refused', error });
  let claim;
  try {
    claim = await store.claimOnce(key, settings.confirmTimeout + CLAIM_MARGIN_S, String(epoch));
  } catch {
    return refuse(unavailable());
  }
  if (claim === 'first') return undefined;
  return refuse(
    mismatch(
      claim === 'used'
        ? 'it was used already'
        : 'it was given before this server, or the store its replicas share, restarted: whether it was used cannot be known',
    ),
  );
}

/** A digest of the call and of who makes it (principal.ts: the OAuth issuer and subject, in remote mode). */
export async function bindingOf(ctx: ServerContext, mutation: PendingMutation): Promise<string> {
  const { createHash } = await cryptoModule();
  return createHash('sha256')
    .update(JSON.stringify([...mutation.call, principalOf(ctx.http?.authInfo) ?? null]))
    .digest('base64url');
}

/** How much longer a single-use mark is kept than the state it marks can be valid, in seconds. */
const CLAIM_MARGIN_S = 60;

/** node:crypto, loaded when a question or a confirmation is first signed: start-up does not pay for it. */
export const cryptoModule = lazily(() => import('node:crypto'));

const codecs = new Map<string, RequestStateCodec<StatePayload>>();

async function codecOf(settings: ServerConfig): Promise<RequestStateCodec<StatePayload>> {
  const id = `${settings.http.stateKey ?? ''}\n${settings.confirmTimeout}`;
  let codec = codecs.get(id);
  if (codec === undefined) {
    codec = createRequestStateCodec<StatePayload>({
      key: await stateKeyOf(settings),
      ttlSeconds: settings.confirmTimeout,
    });
    codecs.set(id, codec);
  }
  return codec;
}
let processKey: Buffer | undefined;

/** The key that signs what round-trips through the client: --stateKey, else this process's own. */
export async function stateKeyOf(settings: ServerConfig): Promise<string | Buffer> {
  // Without --stateKey, a key of this process: what one replica signs cannot be read at another.
  return settings.http.stateKey ?? (processKey ??= (await cryptoModule()).randomBytes(32));
}
