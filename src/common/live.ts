/**
 * A value of the process that may change while it serves (operation files, a config file, watched in stdio mode):
 * servers show the current one and, when they subscribe, every new one.
 */
export class Live<T> {
  #current: T;
  readonly #listeners = new Set<(value: T) => void>();

  /** `watched`: whether it may change, so that lists built from it may change too (and clients are told). */
  constructor(
    value: T,
    readonly watched: boolean,
  ) {
    this.#current = value;
  }

  get current(): T {
    return this.#current;
  }

  replace(value: T): void {
    this.#current = value;
    for (const listener of this.#listeners) listener(value);
  }

  /** Calls `listener` with each new value until the returned function is called. */
  subscribe(listener: (value: T) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
