// Loaded into the server under test (NODE_OPTIONS="--expose-gc --import <this file>") by the load tests, to
// measure what it holds rather than what the runtime has reserved: on SIGUSR2 it collects garbage fully and
// writes the V8 heap in use to the file GRAPHQL_MCP_HEAP_PROBE names. The server's own code is not changed.
import { writeFileSync } from 'node:fs';

process.on('SIGUSR2', () => {
  // Twice: objects with finalizers or weak references are freed by the second collection.
  globalThis.gc();
  globalThis.gc();
  writeFileSync(process.env.GRAPHQL_MCP_HEAP_PROBE, String(process.memoryUsage().heapUsed));
});
