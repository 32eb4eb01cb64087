import type { Answer, AnswerOutcome, Claim, HeldQuestion, Store } from './store.js';

// The store of one process (stdio, or remote mode without --store): what replicas keep in Redis (redis.ts), kept
// in maps with the same expiries and the same outcomes. Answers are routed in-process, so 'asker-gone' never
// happens: a question whose call ended was released, and its answer is 'unknown'. Expired entries are dropped as
// the store is used, so that memory stays bounded however many calls come and go.

/** How often, at most, every map is swept for expired entries. */
const SWEEP_INTERVAL_MS = 1_000;

/** Options of a MemoryStore. */
export interface MemoryStoreOptions {
  /**
   * The clock, in milliseconds (tests move it).
   * @default Date.now
   */
  readonly now?: () => number;
}

/** A Store for one process. */
export class MemoryStore implements Store {
  /**
   * The marks live as long as this process: what another process (or this one before a restart) minted is stale.
   * Made when first asked for: start-up does not load node:crypto.
   */
  #epoch: string | undefined;
  readonly #now: () => number;
  /** Single-use marks, until when they hold. */
  readonly #used = new Map<string, number>();
  /** Open questions, with until when they stay open. */
  readonly #questions = new Map<string, { readonly question: HeldQuestion; readonly until: number }>();
  /** Questions answered, until when their question would have stayed open: later answers are 'answered'. */
  readonly #answered = new Map<string, number>();
  #nextSweep = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  async epoch(): Promise<string> {
    return (this.#epoch ??= (await import('node:crypto')).randomUUID());
  }

  async claimOnce(key: string, ttlSeconds: number, epoch: string): Promise<Claim> {
    if (epoch !== this.#epoch) return 'stale';
    const now = this.#sweep();
    if ((this.#used.get(key) ?? 0) > now) return 'used';
    this.#used.set(key, now + ttlSeconds * 1000);
    return 'first';
  }

  async hold(question: HeldQuestion): Promise<void> {
    const now = this.#sweep();
    this.#questions.set(question.id, { question, until: now + question.ttlSeconds * 1000 });
  }

  async release(id: string): Promise<void> {
    this.#questions.delete(id);
  }

  async answer(id: string, asker: string, answer: Answer): Promise<AnswerOutcome> {
    const now = this.#sweep();
    const held = this.#questions.get(id);
    if (held === undefined || held.until <= now) {
      return (this.#answered.get(id) ?? 0) > now ? 'answered' : 'unknown';
    }
    if (held.question.asker !== asker) return 'not-yours';
    // Taken before it is delivered: an answer that arrives while `deliver` runs finds it answered.
    this.#questions.delete(id);
    this.#answered.set(id, held.until);
    // As between replicas, only the action (or the client's error) reaches the call.
    held.question.deliver('action' in answer ? { action: answer.action } : { error: errorOf(answer) });
    return 'delivered';
  }

  status(): { readonly reachable: boolean; readonly description: string } {
    return { reachable: true, description: 'memory' };
  }

  async close(): Promise<void> {
    this.#used.clear();
    this.#questions.clear();
    this.#answered.clear();
  }

  /** Marks, questions and answered-marks held now, expired or not yet swept (for tests). */
  get size(): number {
    return this.#used.size + this.#questions.size + this.#answered.size;
  }

  /** Drops what expired, at most once a second (each entry is looked at once per sweep); returns the time. */
  #sweep(): number {
    const now = this.#now();
    if (now < this.#nextSweep) return now;
    this.#nextSweep = now + SWEEP_INTERVAL_MS;
    for (const [key, until] of this.#used) if (until <= now) this.#used.delete(key);
    for (const [id, held] of this.#questions) if (held.until <= now) this.#questions.delete(id);
    for (const [id, until] of this.#answered) if (until <= now) this.#answered.delete(id);
    return now;
  }
}

/** The client's error of an answer that is no action, as it may travel. */
function errorOf(answer: Answer): string {
  return 'error' in answer ? answer.error : 'no action';
}
