// What the replicas of one remote deployment share, so that a person is asked once and a mutation runs once
// whichever replica a request reaches: single-use marks (a question's answer, a 2026 requestState's nonce) and
// the routing of an answer to the replica whose call waits for it. One process keeps them in memory
// (memory.ts); replicas keep them in Redis (redis.ts, a bundle of its own, loaded only with --store). The store
// holds ids, digests and decisions: never a document, variables, a header or a token.

/**
 * The JSON-RPC error code of a question's answer the store lost (it went away while the person thought): the
 * call that asked refuses its mutation as CONFIRMATION_UNAVAILABLE.
 */
export const ANSWER_LOST_CODE = -32051;

/** The person's answer to a question, as the client sent it (only its action is kept). */
export type Answer =
  | { readonly action: 'accept' | 'decline' | 'cancel' }
  /** The client answered the question with a JSON-RPC error (it could not show it, say). */
  | { readonly error: string }
  /** The store went away while the question waited: no answer can reach it any more. */
  | { readonly lost: string };

/** What a claim found: the first use, a use already made, or a mark minted before the store lost its data. */
export type Claim = 'first' | 'used' | 'stale';

/** A question this process asked and whose call is waiting for the answer. */
export interface HeldQuestion {
  /** Unguessable id, the JSON-RPC id of the question as the client saw it. */
  readonly id: string;
  /** A digest of who may answer: the principal (and session) of the call that asked. */
  readonly asker: string;
  /** How long the question stays open (--confirmTimeout). */
  readonly ttlSeconds: number;
  /** Called at most once, with the first answer accepted for this question, on this process. */
  deliver(answer: Answer): void;
}

/** What became of an answer handed to `Store.answer`. */
export type AnswerOutcome =
  /** It reached the call that asked, which now decides on it. */
  | 'delivered'
  /** No open question has this id: it never existed here, or it expired. */
  | 'unknown'
  /** The question belongs to another principal: the answer is refused and changes nothing. */
  | 'not-yours'
  /** The question was answered already (on any replica): the first answer decided. */
  | 'answered'
  /** The process that asked is gone (stopped or crashed): its call sent nothing. */
  | 'asker-gone';

/** The store cannot be reached: whatever needed it is refused (fail closed), and says so. */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';

  constructor(
    message: string,
    options: {
      readonly cause?: unknown;
      /** The command went out and no answer came: the store may have done it (a frozen Redis, say). */
      readonly uncertain?: boolean;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.uncertain = options.uncertain ?? false;
  }

  /** Whether the command may have been done all the same (said, never denied, in what the person is told). */
  readonly uncertain: boolean;

  /**
   * The Redis store is a bundle of its own, with its own copy of this class: an error of it is one of these
   * too, known by its name.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Error && value.name === 'StoreUnavailable';
  }
}

export interface Store {
  /**
   * The store's epoch: an id written at its first use and kept as long as the marks it holds. What a replica
   * signs for single use carries it; a store that lost its marks (Redis restarted without persistence, or the
   * process of a memory store) has another, so that nothing minted before can be used again after. Rejects
   * with StoreUnavailable: nothing is minted that could not be claimed.
   */
  epoch(): Promise<string>;
  /**
   * Marks `key` used, if `epoch` is still the store's: `first` the first time on any replica sharing the store
   * within `ttlSeconds`, `used` after, `stale` when the store has another epoch (its marks may be lost).
   * Rejects with StoreUnavailable when the store cannot be reached.
   */
  claimOnce(key: string, ttlSeconds: number, epoch: string): Promise<Claim>;
  /** Holds a question of this process until `release` or its ttl; rejects with StoreUnavailable. */
  hold(question: HeldQuestion): Promise<void>;
  /** Forgets a question (answered, timed out or its call cancelled); never rejects. */
  release(id: string): Promise<void>;
  /**
   * Routes an answer that reached this process, from `asker`, to the process holding the question. Only the
   * first answer from the right asker is delivered. Rejects with StoreUnavailable.
   */
  answer(id: string, asker: string, answer: Answer): Promise<AnswerOutcome>;
  /** Whether the store answered its last check (for /health), and what it is, without credentials. */
  status(): { readonly reachable: boolean; readonly description: string };
  /** Stops using the store (shutdown). */
  close(): Promise<void>;
}
