// The bin (dist/cli.cjs): runs the start-up code (dist/start.cjs, bundled from cli.ts) through V8's code cache
// (dist/start.cache, made by the build). Without the cache every process compiles, function by function as
// it first calls them, the ~26 KB that start-up runs: about 1 ms of the 3 ms our code takes from Node.js's
// start to the tools/list answer. A cache made by another Node.js version, or under other V8 flags, is
// rejected by V8, and the source is simply compiled; that is said on stderr, as the engine's loader says it
// of its own cache. Kept to this one file and Node's own modules.
import { readFileSync, writeFileSync, writeSync } from 'node:fs';
import { Script } from 'node:vm';

const file = `${__dirname}/start.cjs`;
const cacheFile = `${__dirname}/start.cache`;
let cachedData: Buffer | undefined;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined; // no cache beside the bin: compiled from source
}
// CommonJS's module wrapper, as Module.wrap writes it.
const source = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, 'utf8')}\n});`;
const script = new Script(source, { filename: file, cachedData });
if (script.cachedDataRejected === true) {
  try {
    writeSync(
      2,
      `graphql-mcp: V8 rejected the start-up code's cache (${cacheFile}; made by another Node.js?): compiling it from source instead\n`,
    );
  } catch {
    // stderr closed or full: the message is not worth more than start-up
  }
}
// The build's warm-up session (scripts/build.mjs): the cache then holds every function a session compiled.
if (process.env['GRAPHQL_MCP_WRITE_CODE_CACHE'] === __dirname)
  process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
(script.runInThisContext() as (...args: unknown[]) => void)(exports, require, module, file, __dirname);
