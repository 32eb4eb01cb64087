/* eslint-disable @typescript-eslint/no-require-imports -- required when the engine loads, not at start-up */
// Loads the engine (dist/engine.cjs: the MCP SDK, graphql-js and the tools) when it is first needed,
// through V8's code cache (dist/engine.cache, made by the build): compiling 0.6 MB of JavaScript
// would otherwise take longer than running it. A cache made by another Node.js version is rejected by V8,
// and the source is simply compiled (code-cache.ts). Runs in the bundled start-up code only (dist/start.cjs,
// CommonJS), where `require` and `__dirname` exist; the modules it needs are required here, not at start-up
// (node:vm, which code-cache.ts takes, the bin has loaded already).
import { compileCached } from './code-cache.js';
import type * as Engine from './engine.js';
import { letInputIn } from './graphql/time-slice.js';
import type { StartupRecord } from './startup.js';

let engine: typeof Engine | undefined;

/** Loads the engine at once (remote mode, before it serves anything); `log` takes a line for stderr. */
export function loadEngine(log: (line: string) => void): typeof Engine {
  return (engine ??= runEngine(compileEngine(log)));
}

/**
 * Loads the engine in turns of the event loop: reading and compiling it, then running its modules, each
 * some tens of milliseconds, so that messages that arrive meanwhile (a ping) are not kept waiting for both.
 */
export async function loadEngineInTurns(log: (line: string) => void): Promise<typeof Engine> {
  if (engine !== undefined) return engine;
  const compiled = compileEngine(log);
  await letInputIn();
  return (engine ??= runEngine(compiled));
}

interface CompiledEngine {
  readonly run: (...args: unknown[]) => void;
  readonly file: string;
}

function compileEngine(log: (line: string) => void): CompiledEngine {
  const { join } = require('node:path') as typeof import('node:path');
  const file = join(__dirname, 'engine.cjs');
  const cacheFile = join(__dirname, 'engine.cache');
  const { cachedData, text } = readEngineFiles(cacheFile, file);
  const { run, writingCache } = compileCached({ file, text, cacheFile, cachedData, name: 'the engine' }, log);
  // V8 rejects a cache made under other flags, the engine's and the start-up code's (bin.ts): the session
  // that makes them keeps the flags a start has, and the others set theirs only now, once V8 has checked
  // both caches and before the engine allocates or runs.
  if (!writingCache) setServerFlags();
  return { run, file };
}

/**
 * Reads the code cache and the engine's source into one buffer of 33 MiB rather than each into a buffer of
 * its own size. glibc's malloc takes a large buffer from mmap, and when it frees one of 128 KiB to 32 MiB
 * it raises its trim threshold to twice that size for the rest of the process: each thread's arena then
 * keeps that much freed memory rather than return it, and the optimizing compiler's four worker threads
 * have one each. Freeing the 850 kB cache left them holding some 1.5 MB apiece. A buffer over 32 MiB is
 * exempt from the rule, and only the pages the files fill are touched. (The compiler's own largest zones,
 * some 600 kB, raise the threshold nearly as far; so does a response or message larger than that, later in
 * a session.) Measured in npm run bench: RSS after 6,264 calls 3–3.5 MB lower.
 */
function readEngineFiles(cacheFile: string, sourceFile: string): { cachedData?: Buffer; text: string } {
  const fs = require('node:fs') as typeof import('node:fs');
  let room: Buffer | undefined;
  try {
    room = Buffer.allocUnsafeSlow(33 * 1024 * 1024);
  } catch {
    room = undefined; // address space refused (a strict overcommit policy): buffers of their own size
  }
  let used = 0;
  const readIn = (file: string): Buffer => {
    const fd = fs.openSync(file, 'r');
    try {
      const start = used;
      const end = start + fs.fstatSync(fd).size;
      if (room === undefined || end > room.length) return fs.readFileSync(fd);
      for (let read = 1; used < end && read > 0; used += read)
        read = fs.readSync(fd, room, used, end - used, null);
      return room.subarray(start, used);
    } finally {
      fs.closeSync(fd);
    }
  };
  let cachedData: Buffer | undefined;
  try {
    // First: V8 copies a cache that does not start on a word boundary.
    cachedData = readIn(cacheFile);
  } catch {
    cachedData = undefined;
  }
  return { cachedData, text: readIn(sourceFile).toString('utf8') };
}

function runEngine({ run, file }: CompiledEngine): typeof Engine {
  const { createRequire } = require('node:module') as typeof import('node:module');
  const module = { exports: {} };
  run.call(module.exports, module.exports, createRequire(file), module, file, __dirname);
  return module.exports as typeof Engine;
}

/**
 * The server's V8 flags: a heap sized for a server this size, and optimization sooner (INTERRUPT_BUDGET).
 *
 * V8 sizes its heap for throughput: under a steady load of calls the young generation doubles until it
 * reaches 32 MB, and the old one fills with garbage up to a generous limit, to 100 MB and more of RSS in
 * all. The young generation stays at the 2 MB it starts with (two 1 MB halves): the engine is loaded after
 * this, so its objects no longer grow it to 8 MB on the way. A call allocates some 70 kB, most of it dead
 * by the next scavenge; what 32 calls in flight still hold is promoted, which costs some throughput (about
 * 10%) and no latency. The old generation is collected once it grows 5% past what was alive after the last
 * collection (V8 still allows 8 MB of growth at least). Both flags are read at each collection.
 * Measured with npm run bench, against the flags set after loading (which left the young generation at
 * 8 MB): RSS after 6,264 calls 77 MB → 70–71 MB, p50 unchanged, throughput 1.33–1.44× → 1.25–1.30×
 * direct POST. Not `--optimize-for-size` as well, which keeps the old generation 2 MB past what is alive:
 * RSS 65–69 MB, but p50 went from 1.45× to 1.60× direct POST, past the 1.5× target, and after a long
 * session a 10 MB message kept the event loop busy for up to 121 ms, where the hostile-input suite allows
 * 100. Not `--no-opt` (no optimizing compiler) either: RSS 58–63 MB, p50 1.6–1.7×.
 */
function setServerFlags(): void {
  const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=5');
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
}

/**
 * V8 optimizes a function once it has run through some bytecode budget three times; by default that took a
 * call several thousand repetitions to reach its optimized speed here, and a session of an assistant makes
 * tens or hundreds of calls. A quarter of the default budget gets there sooner, with no more
 * deoptimisations (22–24 in a 12,000-call session, either way). What it costs: code that runs once on a
 * large input, such as the first introspection of a large schema, is optimized while it runs, for nothing.
 * Measured with npm run bench, builds with the default, a half, a quarter and an eighth side by side, two
 * runs: p50 1.31–1.32×, 1.19–1.22×, 1.15× and 1.10–1.12× a direct POST (2,000 calls after 200 warm-up
 * calls); the GitHub schema's first introspection 439–461, 490–494, 501–536 and 516–544 ms; throughput and
 * RSS unchanged. Read when a function's budget is next reset, so setting it at run time works.
 */
const INTERRUPT_BUDGET = 67_584 / 4; // V8 11.3 (Node 20): 67,584

/** The SDK's start-up answers, recorded by the build (see startup.ts) and written into the bin. */
declare const __STARTUP_RECORD__: StartupRecord;
export const startupRecord = (): StartupRecord => __STARTUP_RECORD__;
