import { getHeapSpaceStatistics } from 'node:v8';

/** Old-space growth since the last collection, in bytes, past which garbage is collected. */
const GROWTH_BYTES = 2 * 1024 * 1024;
const CHECK_MS = 200;

/**
 * Keeps a long-lived server's heap near its live size (about 12 MB). V8 sizes its heap for the machine: on
 * a large one the young generation grows to 32 MB and old garbage piles up for hundreds of MB before a full
 * collection, which for a server holding little live data only becomes resident memory (about 95 MB after
 * a few thousand calls, against under 70 MB with this). So five times a second, if the old space has grown
 * by 2 MB since the last collection, the heap is collected; the collection that the inspector's
 * collectGarbage asks for also gives the young generation back. A full collection of a heap this small
 * takes a few milliseconds, and an idle server's heap does not grow. Large objects (a 10 MB argument, a 1 MB
 * response) are not counted: they are freed with their call, and collecting right after one would stall
 * the event loop for nothing. (Capping the young generation as well, with --semi-space-growth-factor=1,
 * cost a third of the throughput for a few MB: measured, not kept.) Node.js offers no gc() without a flag
 * the bin cannot pass; the inspector's collectGarbage is that call. Code
 * runs unoptimised for a while after such a collection, which is why the parser's nesting limit is fixed
 * (graphql/operation.ts MAX_DEPTH) rather than wherever the stack happens to run out.
 */
export function keepHeapCompact(): void {
  let inspector: typeof import('node:inspector');
  try {
    // Required here: a Node.js built without the inspector has no such module, and then no policy.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    inspector = require('node:inspector') as typeof import('node:inspector');
  } catch {
    return;
  }
  let session: import('node:inspector').Session | undefined;
  let baseline = oldSpaceUsed();
  setInterval(() => {
    if (oldSpaceUsed() - baseline < GROWTH_BYTES) return;
    if (session === undefined) {
      session = new inspector.Session();
      session.connect();
    }
    session.post('HeapProfiler.collectGarbage', () => {
      baseline = oldSpaceUsed();
    });
  }, CHECK_MS).unref();
}

/** Bytes in use in V8's old space: the small objects that outlived a young-generation collection. */
function oldSpaceUsed(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0;
}
