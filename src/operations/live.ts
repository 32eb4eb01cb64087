import type { OperationSet } from './load.js';

/**
 * The operation tools of this process: the set read at start-up, replaced when the files change (stdio mode
 * watches them). Servers show the current set and, when they subscribe, every new one.
 */
export class LiveOperations {
  #current: OperationSet;
  readonly #listeners = new Set<(set: OperationSet) => void>();

  /** `watched`: whether the files are watched, so that the tool list may change (and clients are told). */
  constructor(
    set: OperationSet,
    readonly watched: boolean,
  ) {
    this.#current = set;
  }

  get current(): OperationSet {
    return this.#current;
  }

  replace(set: OperationSet): void {
    this.#current = set;
    for (const listener of this.#listeners) listener(set);
  }

  /** Calls `listener` with each new set until the returned function is called. */
  subscribe(listener: (set: OperationSet) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
