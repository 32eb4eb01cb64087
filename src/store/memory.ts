import type { Answer, AnswerOutcome, HeldQuestion, Store } from './store.js';

// The store of one process: what remote replicas keep in Redis, kept in maps here. Single-use marks and open
// questions expire as they would there, so that memory stays bounded however many calls come and go.

/** A Store for one process (stdio, or remote mode without --store). */
export class MemoryStore implements Store {
  /** Single-use marks, until when they hold (in insertion order, so oldest first). */
  readonly #claimed = new Map<string, number>();
  readonly #questions = new Map<string, { readonly question: HeldQuestion; readonly until: number }>();

  async claimOnce(key: string, ttlSeconds: number): Promise<boolean> {
    const now = Date.now();
    for (const [known, until] of this.#claimed) {
      if (until > now) break;
      this.#claimed.delete(known);
    }
    if (this.#claimed.has(key)) return false;
    this.#claimed.set(key, now + ttlSeconds * 1000);
    return true;
  }

  async hold(question: HeldQuestion): Promise<void> {
    const now = Date.now();
    for (const [id, held] of this.#questions) if (held.until <= now) this.#questions.delete(id);
    this.#questions.set(question.id, { question, until: now + question.ttlSeconds * 1000 });
  }

  async release(id: string): Promise<void> {
    this.#questions.delete(id);
  }

  async answer(id: string, asker: string, answer: Answer): Promise<AnswerOutcome> {
    const held = this.#questions.get(id);
    if (held === undefined || held.until <= Date.now()) {
      return (this.#claimed.get(`answered:${id}`) ?? 0) > Date.now() ? 'answered' : 'unknown';
    }
    if (held.question.asker !== asker) return 'not-yours';
    this.#questions.delete(id);
    this.#claimed.set(`answered:${id}`, held.until);
    held.question.deliver(answer);
    return 'delivered';
  }

  status(): { readonly reachable: boolean; readonly description: string } {
    return { reachable: true, description: 'memory' };
  }

  async close(): Promise<void> {
    this.#questions.clear();
    this.#claimed.clear();
  }
}
