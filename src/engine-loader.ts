/* eslint-disable @typescript-eslint/no-require-imports -- required when the engine loads, not at start-up */
// Loads the engine (dist/engine.cjs: the MCP SDK, graphql-js and the tools) when it is first needed,
// through V8's code cache (dist/engine.cache, made by the build): compiling a megabyte of JavaScript
// would otherwise take longer than running it. A cache made by another Node.js version is rejected by V8,
// and the source is simply compiled. Runs in the bundled bin only (dist/cli.cjs, CommonJS), where
// `require` and `__dirname` exist; the modules it needs are required here, not at start-up.
import type * as Engine from './engine.js';
import { letInputIn } from './graphql/time-slice.js';
import type { StartupRecord } from './startup.js';

let engine: typeof Engine | undefined;

/** Loads the engine at once (remote mode, before it serves anything). */
export function loadEngine(): typeof Engine {
  return (engine ??= runEngine(compileEngine()));
}

/**
 * Loads the engine in turns of the event loop: reading and compiling it, then running its modules, each
 * some tens of milliseconds, so that messages that arrive meanwhile (a ping) are not kept waiting for both.
 */
export async function loadEngineInTurns(): Promise<typeof Engine> {
  if (engine !== undefined) return engine;
  const compiled = compileEngine();
  await letInputIn();
  return (engine ??= runEngine(compiled));
}

interface CompiledEngine {
  readonly run: (...args: unknown[]) => void;
  readonly file: string;
  /** Whether this process writes the code cache for the build. */
  readonly writingCache: boolean;
}

function compileEngine(): CompiledEngine {
  const { readFileSync, writeFileSync } = require('node:fs') as typeof import('node:fs');
  const { join } = require('node:path') as typeof import('node:path');
  const { Script } = require('node:vm') as typeof import('node:vm');
  const file = join(__dirname, 'engine.cjs');
  const cacheFile = join(__dirname, 'engine.cache');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // CommonJS's module wrapper, as Module.wrap writes it.
  const source = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, 'utf8')}\n});`;
  const script = new Script(source, { filename: file, cachedData });
  // The build runs one session with this set, so the cache holds the functions that a session compiles.
  const writingCache = process.env['GRAPHQL_MCP_WRITE_CODE_CACHE'] === cacheFile;
  if (writingCache) process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
  return { run: script.runInThisContext() as CompiledEngine['run'], file, writingCache };
}

function runEngine({ run, file, writingCache }: CompiledEngine): typeof Engine {
  const { createRequire } = require('node:module') as typeof import('node:module');
  const module = { exports: {} };
  run.call(module.exports, module.exports, createRequire(file), module, file, __dirname);
  // V8 rejects a cache made under other flags: the session that makes it keeps the flags a start has.
  if (!writingCache) keepHeapSmall();
  return module.exports as typeof Engine;
}

/**
 * V8 sizes its heap for throughput: under a steady load of calls the young generation doubles until it
 * reaches 32 MB, and the old one fills with garbage up to a generous limit, to 100 MB and more of RSS in
 * all. From here on neither grows more than a server this size needs. The young generation stays at the
 * size loading the engine gave it (8 MB): the objects of calls in flight die young in it, where a smaller
 * one would promote them, and old-generation collections would then cost throughput. The old generation
 * is collected once it grows 5% past what was alive after the last collection (V8 still allows a few
 * megabytes of growth at least). Both flags are read at each collection, so setting them now works.
 * Measured in one bench run (npm run bench): RSS after 6,264 calls 104 MB → 78 MB, with the same
 * throughput and latency. Not `--optimize-for-size` as well: its collections shrink the young generation
 * to 2 MB and keep the old one 2 MB past what is alive (RSS 66–69 MB), but after a long session a 10 MB
 * message then kept the event loop busy for up to 121 ms, where the hostile-input suite allows 100.
 */
function keepHeapSmall(): void {
  const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=5');
}

/** The SDK's start-up answers, recorded by the build (see startup.ts) and written into the bin. */
declare const __STARTUP_RECORD__: StartupRecord;
export const startupRecord = (): StartupRecord => __STARTUP_RECORD__;
