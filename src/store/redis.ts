import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { StoreUnavailable, type Answer, type AnswerOutcome, type HeldQuestion, type Store } from './store.js';

// The store of replicas that share a Redis (or Valkey), through the official client (@redis/client). A bundle of
// its own (scripts/build.mjs), loaded only with --store. Fail closed and fast: commands are not queued while the
// connection is down, each has a deadline of its own, and every failure is a StoreUnavailable, which refuses what
// needed the store (a mutation's question or single-use mark) while queries go on. The client reconnects in the
// background. Every replica subscribes to a channel of its own: an answer received anywhere is published to the
// replica that holds the question, and PUBLISH's count of receivers tells when that replica is gone.

/** The deadline of one command: a store that does not answer within it counts as unreachable. */
const COMMAND_TIMEOUT_MS = 1_000;
/** The longest wait between two attempts to reconnect. */
const MAX_RECONNECT_DELAY_MS = 2_000;
const PREFIX = 'graphql-mcp:';

/**
 * Answers a question atomically: KEYS[1] the question (its asker and holding replica), KEYS[2] its answered-mark;
 * ARGV the answering asker and the mark's ttl. 'unknown', 'answered', 'not-yours' (nothing changed), or the
 * holding replica's id (the question taken, the mark set).
 */
const ANSWER_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if not held then
  if redis.call('EXISTS', KEYS[2]) == 1 then return 'answered' end
  return 'unknown'
end
local space = string.find(held, ' ', 1, true)
if string.sub(held, 1, space - 1) ~= ARGV[1] then return 'not-yours' end
if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[2]) then return 'answered' end
redis.call('DEL', KEYS[1])
return 'replica:' .. string.sub(held, space + 1)
`;

/** Connects to the Redis at `url` (redis:// or rediss://, credentials in it) without waiting for it to answer. */
export async function openRedisStore(url: string): Promise<Store> {
  return new RedisStore(url);
}

class RedisStore implements Store {
  readonly #replica = randomBytes(12).toString('base64url');
  readonly #description: string;
  readonly #client;
  readonly #subscriber;
  readonly #commands;
  /** The questions this process holds, by id. */
  readonly #held = new Map<string, HeldQuestion>();

  constructor(url: string) {
    const { protocol, hostname, port, pathname } = new URL(url);
    this.#description = `${protocol}//${hostname}:${port || '6379'}${pathname === '' ? '/0' : pathname}`;
    this.#client = createClient({
      url,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: COMMAND_TIMEOUT_MS,
        reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, MAX_RECONNECT_DELAY_MS),
      },
    });
    this.#subscriber = this.#client.duplicate();
    // A connection error is the store being unreachable, said by every command meanwhile: never a crash.
    this.#client.on('error', () => undefined);
    this.#subscriber.on('error', () => undefined);
    this.#commands = this.#client.withCommandOptions({ timeout: COMMAND_TIMEOUT_MS });
    void this.#client.connect().catch(() => undefined);
    void this.#subscriber
      .connect()
      .then(() =>
        this.#subscriber.subscribe(this.#channel(this.#replica), (message) => this.#deliver(message)),
      )
      .catch(() => undefined);
  }

  async claimOnce(key: string, ttlSeconds: number): Promise<boolean> {
    const set = await this.#run(() =>
      this.#commands.set(`${PREFIX}used:${key}`, '1', { NX: true, EX: ttlSeconds }),
    );
    return set === 'OK';
  }

  async hold(question: HeldQuestion): Promise<void> {
    if (!this.#subscriber.isReady) throw this.#unavailable('not subscribed');
    await this.#run(() =>
      this.#commands.set(`${PREFIX}q:${question.id}`, `${question.asker} ${this.#replica}`, {
        EX: question.ttlSeconds,
      }),
    );
    this.#held.set(question.id, question);
  }

  async release(id: string): Promise<void> {
    this.#held.delete(id);
    await this.#run(() => this.#commands.del(`${PREFIX}q:${id}`)).catch(() => undefined);
  }

  async answer(id: string, asker: string, answer: Answer): Promise<AnswerOutcome> {
    const ttl = String(24 * 60 * 60);
    const taken = String(
      await this.#run(() =>
        this.#commands.eval(ANSWER_SCRIPT, {
          keys: [`${PREFIX}q:${id}`, `${PREFIX}a:${id}`],
          arguments: [asker, ttl],
        }),
      ),
    );
    if (!taken.startsWith('replica:')) return taken as AnswerOutcome;
    const replica = taken.slice('replica:'.length);
    if (replica === this.#replica) return this.#deliverHere(id, answer) ? 'delivered' : 'asker-gone';
    // Only the action (or the client's error) travels: no document, variables or credential.
    const receivers = await this.#run(() =>
      this.#commands.publish(this.#channel(replica), JSON.stringify({ id, answer })),
    );
    return Number(receivers) > 0 ? 'delivered' : 'asker-gone';
  }

  status(): { readonly reachable: boolean; readonly description: string } {
    return { reachable: this.#client.isReady && this.#subscriber.isReady, description: this.#description };
  }

  async close(): Promise<void> {
    this.#held.clear();
    await Promise.allSettled([this.#subscriber.close(), this.#client.close()]);
  }

  #channel(replica: string): string {
    return `${PREFIX}replica:${replica}`;
  }

  /** An answer published to this replica. */
  #deliver(message: string): void {
    try {
      const { id, answer } = JSON.parse(message) as { id: string; answer: Answer };
      this.#deliverHere(id, answer);
    } catch {
      // Not one of ours: nothing to deliver.
    }
  }

  #deliverHere(id: string, answer: Answer): boolean {
    const question = this.#held.get(id);
    if (question === undefined) return false;
    this.#held.delete(id);
    question.deliver(answer);
    return true;
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw this.#unavailable(error instanceof Error ? error.message.slice(0, 120) : String(error));
    }
  }

  #unavailable(why: string): StoreUnavailable {
    return new StoreUnavailable(`the shared store (${this.#description}) cannot be reached: ${why}`);
  }
}
