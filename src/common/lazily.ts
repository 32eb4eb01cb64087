/**
 * A module loaded with import() on first use, then kept: start-up does not pay for it, and a call after the first
 * does not pay for import() either (each import() is a trip through Node's module loader, a few µs).
 */
export function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
