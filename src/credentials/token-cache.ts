// Tokens kept in this process's memory (never in the store, on disk or in a log), per key: a user's token of one
// API (the key names the user and their own token, so that a new sign-in is a new key), or the API's one
// client-credentials token. A token is used until its lifetime minus a margin and never past the cap it was
// obtained under (the user's own token's expiry); concurrent requests for a key wait for one request to the
// provider; a token in the last quarter of its life is replaced in the background while it is still used.

/** A token as the authorization server gave it. */
export interface Obtained {
  readonly token: string;
  /** Its lifetime in ms from when it was asked for; undefined: unknown, so it serves the calls waiting for it only. */
  readonly lifetime: number | undefined;
}

/** Most of a lifetime held back from its end: a token is not sent in its last moments, which a slow call would outlive. */
const MARGIN_MS = 30_000;
/** How long a failed background refresh waits before the next one (the token in hand still serves). */
const REFRESH_RETRY_MS = 5_000;

interface Entry {
  token: string | undefined;
  /** When the token stops being used (ms since the epoch). */
  usableUntil: number;
  /** From when it is replaced in the background. */
  refreshFrom: number;
  /** The request to the provider under way for this entry, which every caller of the key waits for. */
  pending: Promise<string> | undefined;
}

/** Tokens per key, at most `max` keys (the least recently used forgotten first). */
export class TokenCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly max: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The token of `key`: kept, or obtained by `obtain` (once for every caller waiting on the key), used no later
   * than `cap` (ms since the epoch). A failure reaches every caller waiting and keeps nothing.
   */
  get(key: string, obtain: () => Promise<Obtained>, cap = Infinity): Promise<string> {
    const now = this.now();
    let entry = this.#entries.get(key);
    if (entry !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      if (entry.token !== undefined && now < entry.usableUntil) {
        if (now >= entry.refreshFrom && entry.pending === undefined) {
          this.#start(key, entry, obtain, cap).catch(() => {
            entry!.refreshFrom = this.now() + REFRESH_RETRY_MS;
          });
        }
        return Promise.resolve(entry.token);
      }
      if (entry.pending !== undefined) return entry.pending;
    } else {
      entry = { token: undefined, usableUntil: 0, refreshFrom: 0, pending: undefined };
      this.#entries.set(key, entry);
      this.#bound();
    }
    return this.#start(key, entry, obtain, cap);
  }

  /** How many keys hold a token or a request under way. */
  get size(): number {
    return this.#entries.size;
  }

  #start(key: string, entry: Entry, obtain: () => Promise<Obtained>, cap: number): Promise<string> {
    const askedAt = this.now();
    const pending = obtain().then(
      (obtained) => {
        entry.pending = undefined;
        this.#keep(entry, obtained, askedAt, cap);
        if (entry.token === undefined && this.#entries.get(key) === entry) this.#entries.delete(key);
        return obtained.token;
      },
      (error: unknown) => {
        entry.pending = undefined;
        // A token still in hand serves until its end; without one, nothing of the failure is kept.
        if (entry.token === undefined && this.#entries.get(key) === entry) this.#entries.delete(key);
        throw error;
      },
    );
    entry.pending = pending;
    return pending;
  }

  #keep(entry: Entry, obtained: Obtained, askedAt: number, cap: number): void {
    if (obtained.lifetime === undefined || obtained.lifetime <= 0) {
      entry.token = undefined;
      return;
    }
    const margin = Math.min(MARGIN_MS, obtained.lifetime / 10);
    const ownEnd = askedAt + obtained.lifetime - margin;
    entry.token = obtained.token;
    entry.usableUntil = Math.min(ownEnd, cap);
    // Replaced ahead only when its own lifetime ends it: a new token would not outlive the cap either.
    entry.refreshFrom = ownEnd <= cap ? ownEnd - (ownEnd - askedAt) / 4 : entry.usableUntil;
  }

  /** Forgets the least recently used keys beyond `max`. */
  #bound(): void {
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.max) return;
      this.#entries.delete(key);
    }
  }
}
