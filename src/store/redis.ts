import { randomBytes } from 'node:crypto';
import { ClientClosedError, ClientOfflineError, createClient, ErrorReply } from '@redis/client';
import {
  StoreUnavailable,
  type Answer,
  type AnswerOutcome,
  type Claim,
  type HeldQuestion,
  type Store,
} from './store.js';
import { ANSWER, CLAIM, EPOCH, type Script } from './redis-scripts.js';

// The store of replicas that share a Redis 7 (or Valkey), through the official client, @redis/client. A bundle of
// its own (scripts/build.mjs), loaded only with --store, so it imports nothing of src/ but the contract.
//
// Fail closed and fast: nothing is queued while the connection is down (the command is refused at once), every
// command has a deadline of its own (a frozen or unreachable Redis refuses within it too), and every failure is a
// StoreUnavailable, which refuses what needed the store while queries go on. The client reconnects in the
// background, with backoff, for as long as the store is open; a PING now and then keeps status() true to it.
//
// Answers find their call through pub/sub: every replica subscribes (on a connection of its own, as Redis
// requires of a subscriber) to a channel named after its random id, and a question is held in Redis with the
// asker's digest and the id of the replica whose call waits. One Lua script (ANSWER_SCRIPT) takes the question
// and publishes the answer to that replica, atomically.

/** Options of the Redis store. */
export interface RedisStoreOptions {
  /**
   * How long one command may take (its answer included) before the store counts as unreachable and the command
   * is refused. It bounds how long a mutation waits for a store that is down or frozen.
   * @default 1000
   */
  readonly commandTimeoutMs?: number;
  /**
   * How often the store is PINGed, so that status() (and /health) follows it while nothing else is asked of it.
   * @default 2000
   */
  readonly checkIntervalMs?: number;
  /** Told when the store becomes unreachable or reachable again, for a log line (no credential in it). */
  readonly onStatusChange?: (status: { readonly reachable: boolean; readonly description: string }) => void;
}

/** Every key and channel of graphql-mcp starts with it, so that a Redis shared with other uses is left alone. */
const PREFIX = 'graphql-mcp:';
/** A connection attempt that has not succeeded within it is given up, and tried again. */
const CONNECT_TIMEOUT_MS = 2_000;
/** The longest wait between two attempts to reconnect (the first ones are shorter: 50 ms, doubling). */
const MAX_RECONNECT_DELAY_MS = 1_000;
/** Commands waiting for a frozen Redis are bounded: beyond it, refused at once. */
const MAX_QUEUED_COMMANDS = 10_000;

/**
 * Opens the store of the Redis at `url` (`redis://[user:password@]host:port/db`, or `rediss://` for TLS). Waits
 * for it at most `commandTimeoutMs`: a replica started beside a healthy Redis uses it from its first request,
 * and one started while Redis is down starts all the same (refusing what needs the store until it is back).
 */
export async function openRedisStore(url: string, options: RedisStoreOptions = {}): Promise<Store> {
  const store = new RedisStore(url, options);
  await store.ready();
  return store;
}

type Client = ReturnType<typeof createClient>;

class RedisStore implements Store {
  readonly #replica = randomBytes(12).toString('base64url');
  readonly #description: string;
  /** The URL's password (as written, and decoded), kept out of every message. */
  readonly #secrets: readonly string[];
  readonly #timeoutMs: number;
  readonly #onStatusChange: RedisStoreOptions['onStatusChange'];
  readonly #client: Client;
  readonly #subscriber: Client;
  readonly #commands: Client;
  readonly #check: NodeJS.Timeout;
  /** The questions this process holds, with until when. */
  readonly #held = new Map<string, { readonly question: HeldQuestion; readonly until: number }>();
  #subscribed = false;
  #subscribing = false;
  /** False after a command found the store unreachable, until one succeeds. */
  #answering = true;
  #checking = false;
  #reported = false;
  #closed = false;
  /** Why the last connection attempt failed, to say with every refusal while offline. */
  #connectionError = 'not connected yet';

  constructor(url: string, options: RedisStoreOptions) {
    const parsed = new URL(url);
    const db = parsed.pathname.replace(/^\//, '') || '0';
    this.#description = `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}/${db}`;
    this.#secrets = parsed.password === '' ? [] : [parsed.password, decoded(parsed.password)];
    this.#timeoutMs = options.commandTimeoutMs ?? 1_000;
    this.#onStatusChange = options.onStatusChange;
    this.#client = createClient({
      url,
      disableOfflineQueue: true,
      commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
      // For Redis Enterprise only: its handshake would cost a round trip at every connection.
      maintNotifications: 'disabled',
      socket: {
        connectTimeout: CONNECT_TIMEOUT_MS,
        // Never gives up while the store is open (the client's default gives up after a socket timeout).
        reconnectStrategy: (retries: number) =>
          Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS) + Math.floor(Math.random() * 100),
      },
    });
    this.#subscriber = this.#client.duplicate();
    // The client's own deadline drops a command not yet written (the socket busy); ours (#run) bounds the answer.
    this.#commands = this.#client.withCommandOptions({ timeout: this.#timeoutMs });
    for (const client of [this.#client, this.#subscriber]) {
      // A connection error is the store being unreachable, which every command says meanwhile: never a crash.
      client.on('error', (error: unknown) => {
        this.#connectionError = this.#clean(error instanceof Error ? error.message : String(error));
        this.#report();
      });
      client.on('end', () => this.#report());
    }
    this.#subscriber.on('error', () => this.#answersLost());
    this.#subscriber.on('end', () => this.#answersLost());
    this.#client.on('ready', () => void this.#ping());
    this.#subscriber.on('ready', () => {
      this.#subscribe();
      this.#report();
    });
    // Both retry until they connect or the store is closed.
    void this.#client.connect().catch(() => undefined);
    void this.#subscriber.connect().catch(() => undefined);
    this.#check = setInterval(() => void this.#ping(), options.checkIntervalMs ?? 2_000);
    this.#check.unref();
  }

  /** Resolves once the store is reachable, or after the command timeout. */
  async ready(): Promise<void> {
    const deadline = Date.now() + this.#timeoutMs;
    while (!this.status().reachable && Date.now() < deadline) await sleep(20);
    if (!this.status().reachable) this.#onStatusChange?.(this.status());
  }

  async epoch(): Promise<string> {
    const fresh = randomBytes(12).toString('base64url');
    return String(await this.#eval(EPOCH, [`${PREFIX}epoch`], [fresh]));
  }

  async claimOnce(key: string, ttlSeconds: number, epoch: string): Promise<Claim> {
    const keys = [`${PREFIX}epoch`, `${PREFIX}used:${key}`];
    return String(await this.#eval(CLAIM, keys, [epoch, String(ttlSeconds)])) as Claim;
  }

  async hold(question: HeldQuestion): Promise<void> {
    // An answer published to a replica that is not listening would be lost: refuse to ask instead.
    if (!this.#subscribed || !this.#subscriber.isReady) throw this.#unavailable('not listening for answers');
    const now = Date.now();
    for (const [id, held] of this.#held) if (held.until <= now) this.#held.delete(id);
    this.#held.set(question.id, { question, until: now + question.ttlSeconds * 1000 });
    try {
      await this.#run(() =>
        this.#commands.set(`${PREFIX}q:${question.id}`, `${this.#replica} ${question.asker}`, {
          expiration: { type: 'EX', value: question.ttlSeconds },
        }),
      );
    } catch (error) {
      this.#held.delete(question.id);
      throw error;
    }
  }

  async release(id: string): Promise<void> {
    this.#held.delete(id);
    await this.#run(() => this.#commands.del(`${PREFIX}q:${id}`)).catch(() => undefined);
  }

  async answer(id: string, asker: string, answer: Answer): Promise<AnswerOutcome> {
    // Only the action (or the client's error) travels: never a document, variables or a credential.
    const message = JSON.stringify({ id, answer: answerOf(answer) });
    const script = {
      keys: [`${PREFIX}q:${id}`, `${PREFIX}a:${id}`],
      arguments: [asker, this.#replica, `${PREFIX}replica:`, message],
    };
    // Taken here, it is delivered here; taken late (Redis answered after the deadline), it is delivered then,
    // as the refusal said it might be.
    const local = (outcome: unknown) => outcome === 'local' && this.#deliver(id, answer);
    const outcome = await this.#eval(ANSWER, script.keys, script.arguments, (late) => void local(late));
    if (outcome !== 'local') return String(outcome) as AnswerOutcome;
    if (local(outcome)) return 'delivered';
    // Its call ended between the script and now: nothing will be sent, and a later answer says so.
    await this.#run(() =>
      this.#commands.set(`${PREFIX}a:${id}`, 'gone', { condition: 'XX', expiration: 'KEEPTTL' }),
    ).catch(() => undefined);
    return 'asker-gone';
  }

  status(): { readonly reachable: boolean; readonly description: string } {
    const reachable =
      !this.#closed &&
      this.#answering &&
      this.#client.isReady &&
      this.#subscriber.isReady &&
      this.#subscribed;
    return { reachable, description: this.#description };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#check);
    this.#held.clear();
    await Promise.all([this.#client, this.#subscriber].map((client) => closeClient(client, this.#timeoutMs)));
  }

  /** Runs a script by its SHA-1, sending it whole where Redis does not hold it yet (first use, or a restart). */
  async #eval(
    script: Script,
    keys: string[],
    args: string[],
    lateAnswer?: (value: unknown) => void,
  ): Promise<unknown> {
    const options = { keys, arguments: args };
    try {
      return await this.#run(() => this.#commands.evalSha(script.sha, options), lateAnswer);
    } catch (error) {
      if (!(error instanceof StoreUnavailable && error.cause instanceof ErrorReply)) throw error;
      if (!error.cause.message.startsWith('NOSCRIPT')) throw error;
      return this.#run(() => this.#commands.eval(script.text, options), lateAnswer);
    }
  }

  /**
   * The answers' connection dropped (Redis stopped, or the network): an answer published meanwhile is lost, so
   * every question held here ends now, as its call's refusal (CONFIRMATION_UNAVAILABLE), rather than waiting
   * for an answer that cannot come.
   */
  #answersLost(): void {
    if (this.#held.size === 0) return;
    const held = [...this.#held.values()];
    this.#held.clear();
    const lost = `the shared store ${this.#description} went away while the question waited (${this.#connectionError})`;
    for (const { question } of held) question.deliver({ lost });
  }

  /** Listens on this replica's channel, once its connection is up (the client subscribes again after a reconnect). */
  #subscribe(): void {
    if (this.#subscribed || this.#subscribing || this.#closed) return;
    this.#subscribing = true;
    this.#subscriber
      .subscribe(`${PREFIX}replica:${this.#replica}`, (message) => this.#published(message))
      .then(
        () => (this.#subscribed = true),
        () => undefined,
      )
      .finally(() => {
        this.#subscribing = false;
        this.#report();
      });
  }

  /** An answer another replica published to this one. */
  #published(message: string): void {
    let parsed: { id?: unknown; answer?: unknown };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch {
      return;
    }
    const answer = parsed.answer as Answer | undefined;
    if (typeof parsed.id !== 'string' || typeof answer !== 'object' || answer === null) return;
    this.#deliver(parsed.id, answerOf(answer));
  }

  /** Hands an answer to the call that waits for it, once; false when no call here waits for it. */
  #deliver(id: string, answer: Answer): boolean {
    const held = this.#held.get(id);
    if (held === undefined) return false;
    this.#held.delete(id);
    held.question.deliver(answer);
    return true;
  }

  /** Checks the store between commands; the result is the status. */
  async #ping(): Promise<void> {
    if (this.#checking || this.#closed) return;
    this.#checking = true;
    try {
      await this.#run(() => this.#commands.ping());
    } catch {
      // Said by status().
    } finally {
      this.#checking = false;
    }
  }

  /** Runs a command within the deadline; any failure is a StoreUnavailable that names the store, not its URL. */
  async #run<T>(command: () => Promise<T>, lateAnswer?: (value: T) => void): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Deadline()), this.#timeoutMs);
      timer.unref();
    });
    const pending = command();
    try {
      const value = await Promise.race([pending, late]);
      this.#answering = true;
      return value;
    } catch (error) {
      // Redis answered, with an error: reachable, but what was asked is refused all the same.
      if (error instanceof ErrorReply) {
        this.#answering = true;
        throw new StoreUnavailable(
          `the shared store ${this.#description} refused a command: ${this.#clean(error.message)}`,
          { cause: error },
        );
      }
      this.#answering = false;
      // A command that went out and got no answer in time may still be done, once the store answers again:
      // whoever sent it may act on that answer then (`lateAnswer`).
      if (error instanceof Deadline && lateAnswer !== undefined) pending.then(lateAnswer, () => undefined);
      throw this.#unavailable(this.#why(error), error, error instanceof Deadline);
    } finally {
      clearTimeout(timer);
      this.#report();
    }
  }

  /** Why a command failed, in words an operator can act on. */
  #why(error: unknown): string {
    if (error instanceof Deadline) return `no answer within ${this.#timeoutMs} ms`;
    if (error instanceof ClientOfflineError) return `not connected: ${this.#connectionError}`;
    if (error instanceof ClientClosedError) return 'the store was closed';
    return this.#clean(error instanceof Error ? error.message : String(error));
  }

  #unavailable(why: string, cause?: unknown, uncertain = false): StoreUnavailable {
    return new StoreUnavailable(
      `the shared store ${this.#description} cannot be reached (${why}); it is tried again in the background`,
      { cause, uncertain },
    );
  }

  /** A message of the client or of Redis, bounded, without the URL's credentials. */
  #clean(message: string): string {
    let clean = message.slice(0, 200);
    for (const secret of this.#secrets) clean = clean.split(secret).join('***');
    return clean;
  }

  /** Tells onStatusChange when reachability changed. */
  #report(): void {
    const status = this.status();
    if (status.reachable === this.#reported || this.#closed) return;
    this.#reported = status.reachable;
    this.#onStatusChange?.(status);
  }
}

/** A command that missed its deadline. */
class Deadline extends Error {}

/** The answer as it may travel: the action, or the client's error, and nothing else. */
function answerOf(answer: Answer): Answer {
  if ('action' in answer && ['accept', 'decline', 'cancel'].includes(answer.action)) {
    return { action: answer.action };
  }
  if ('lost' in answer) return { error: 'no action' };
  const error = 'error' in answer && typeof answer.error === 'string' ? answer.error : 'no action';
  return { error: error.slice(0, 200) };
}

/** Closes a connection, letting its pending commands finish within `ms`, then cuts it. */
async function closeClient(client: Client, ms: number): Promise<void> {
  if (!client.isOpen) return client.destroy();
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    client.close().then(
      () => true,
      () => false,
    ),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
  if (!closed) client.destroy();
}

/** A URL component decoded, or as it is when it cannot be. */
function decoded(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return component;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
