// Preparing a schema of thousands of types takes a few hundred milliseconds of CPU. Done in one go it would
// stall every other call and the protocol's own messages (pings, cancellations) for that long; done in
// slices, the event loop gets a turn every few milliseconds.

/** One turn of the event loop (the global setImmediate: the bin uses this module too, and loads nothing). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How long a slice may run before it lets the event loop take a turn. */
const SLICE_MS = 3;

/** A function to call between units of work: it yields to the event loop once the slice is used up. */
export function createYielder(sliceMs = SLICE_MS): () => Promise<void> | undefined {
  let start = performance.now();
  return () => {
    if (performance.now() - start < sliceMs) return undefined;
    return nextTurn().then(() => {
      start = performance.now();
    });
  };
}

/** Maps `items` in slices, yielding to the event loop between them. */
export async function mapSliced<T, U>(
  items: Iterable<T>,
  map: (item: T) => U,
  sliceMs = SLICE_MS,
): Promise<U[]> {
  const yieldNow = createYielder(sliceMs);
  const out: U[] = [];
  for (const item of items) {
    out.push(map(item));
    const pause = yieldNow();
    if (pause !== undefined) await pause;
  }
  return out;
}

/**
 * Lets the event loop read what has arrived (a ping, a cancellation) before going on. A turn taken from an
 * I/O callback comes before the loop polls again, so it takes two.
 */
export async function letInputIn(): Promise<void> {
  await nextTurn();
  await nextTurn();
}
