import { createHmac, randomBytes } from 'node:crypto';

// Introspecting a large API costs a request of megabytes and a few hundred milliseconds of work, and a model
// reading a schema in parts (overview, search, definitions) calls again and again. So fetched schemas are
// kept for a while, per endpoint and per credentials: another token may see another schema (GitHub shows
// each token the fields its scopes allow), so a schema fetched with one set of headers never answers a call
// that sends another.

/** Entries kept by default: a schema of GitHub's size takes 20 to 50 MB once prepared. */
const DEFAULT_MAX_ENTRIES = 4;

export interface SchemaCacheOptions {
  /** How long a loaded value is reused, in ms; 0 keeps nothing once loaded (concurrent calls still share). */
  readonly ttlMs: number;
  /** Most values kept; the least recently used is dropped first. @default 4 */
  readonly maxEntries?: number;
  /** The clock, in ms; tests move it. @default performance.now */
  readonly now?: () => number;
}

interface Entry<T> {
  readonly value: T;
  readonly expires: number;
}

interface Flight<T> {
  readonly promise: Promise<T>;
  readonly controller: AbortController;
  waiters: number;
  settled: boolean;
}

/**
 * A TTL and LRU cache whose loads are shared: concurrent calls for the same key wait for one load, a caller
 * that gives up stops waiting at once, and the load is aborted only when every caller has given up.
 * Failed loads are not kept.
 */
export class SchemaCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #flights = new Map<string, Flight<T>>();
  // Keys are hashes under a secret of this process: what they are made of (header values) cannot be read
  // back from them, nor guessed offline from a memory dump.
  readonly #secret = randomBytes(32);
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: SchemaCacheOptions) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_ENTRIES);
    this.#now = options.now ?? (() => performance.now());
  }

  /** The key of an endpoint called with these headers (all of them, as sent): an opaque hash. */
  keyOf(endpoint: URL, headers: Iterable<readonly [string, string]>): string {
    const url = new URL(endpoint);
    url.hash = '';
    const sent = [...headers]
      .map(([name, value]) => [name.toLowerCase(), value] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return createHmac('sha256', this.#secret)
      .update(JSON.stringify([url.href, sent]))
      .digest('base64url');
  }

  /**
   * The value for `key`: a fresh cached one, the one being loaded, or a new load. `signal` ends this caller's
   * wait (rejecting with its reason); `load` gets a signal that aborts when no caller waits any more.
   */
  get(key: string, load: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      if (entry.expires > this.#now()) {
        // Most recently used goes last: eviction takes the first.
        this.#entries.delete(key);
        this.#entries.set(key, entry);
        return Promise.resolve(entry.value);
      }
      this.#entries.delete(key);
    }
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const flight = this.#flights.get(key) ?? this.#start(key, load);
    return this.#wait(key, flight, signal);
  }

  /** The fresh value kept for `key`, if any; never loads. */
  peek(key: string): T | undefined {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.expires > this.#now() ? entry.value : undefined;
  }

  /** Forgets a key's value, e.g. when it turned out to be unusable. */
  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** Values kept now (expired ones included until they are next looked at). */
  get size(): number {
    return this.#entries.size;
  }

  /** Loads in flight now. */
  get loading(): number {
    return this.#flights.size;
  }

  #start(key: string, load: (signal: AbortSignal) => Promise<T>): Flight<T> {
    const controller = new AbortController();
    const flight: Flight<T> = {
      promise: Promise.resolve().then(() => load(controller.signal)),
      controller,
      waiters: 0,
      settled: false,
    };
    this.#flights.set(key, flight);
    flight.promise.then(
      (value) => {
        flight.settled = true;
        if (this.#flights.get(key) === flight) this.#flights.delete(key);
        // An aborted load that still finished has no caller left; keeping it would still be right.
        if (this.#ttlMs > 0) this.#store(key, value);
      },
      () => {
        flight.settled = true;
        if (this.#flights.get(key) === flight) this.#flights.delete(key);
      },
    );
    return flight;
  }

  #wait(key: string, flight: Flight<T>, signal: AbortSignal | undefined): Promise<T> {
    flight.waiters++;
    return new Promise<T>((resolve, reject) => {
      let waiting = true;
      const leave = () => {
        waiting = false;
        flight.waiters--;
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        if (!waiting) return;
        leave();
        reject(abortReason(signal!));
        if (flight.waiters === 0 && !flight.settled) {
          // Nobody wants this schema any more: stop its request, and let the next call start afresh.
          if (this.#flights.get(key) === flight) this.#flights.delete(key);
          flight.controller.abort(abortReason(signal!));
        }
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (value) => {
          if (!waiting) return;
          leave();
          resolve(value);
        },
        (error: unknown) => {
          if (!waiting) return;
          leave();
          reject(error);
        },
      );
    });
  }

  #store(key: string, value: T): void {
    const now = this.#now();
    for (const [other, entry] of this.#entries) if (entry.expires <= now) this.#entries.delete(other);
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires: now + this.#ttlMs });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}
