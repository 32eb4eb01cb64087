// The bin. It runs the bundled server (server.cjs) through V8's code cache (server.cache, made by the
// build): compiling a megabyte of JavaScript would otherwise be most of the start-up time.
// A cache made by another Node.js version is rejected by V8, and the source is simply compiled.
import { readFileSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
const serverFile = join(here, 'server.cjs');
const cacheFile = join(here, 'server.cache');

let cachedData: Buffer | undefined;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
const script = new Script(Module.wrap(readFileSync(serverFile, 'utf8')), {
  filename: serverFile,
  cachedData,
});

// The build runs one session with this set, so the cache holds the functions that start-up compiles.
if (process.env.GRAPHQL_MCP_WRITE_CODE_CACHE === cacheFile) {
  process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
}

const module = { exports: {} };
const run = script.runInThisContext() as (...args: unknown[]) => void;
run.call(module.exports, module.exports, createRequire(serverFile), module, serverFile, here);
