// The bin (dist/cli.cjs): runs the start-up code (dist/start.cjs, bundled from cli.ts) through V8's code cache
// (dist/start.cache, made by the build). Without the cache every process compiles, function by function as
// it first calls them, the ~26 KB that start-up runs: about 1 ms of the 3 ms our code takes from Node.js's
// start to the tools/list answer. Kept to Node's own modules and two small ones of ours.
import { readFileSync } from 'node:fs';
import { compileCached } from './code-cache.js';
import { log } from './log.js';

const file = `${__dirname}/start.cjs`;
const cacheFile = `${__dirname}/start.cache`;
let cachedData: Buffer | undefined;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined; // no cache beside the bin: compiled from source
}
const text = readFileSync(file, 'utf8');
const { run } = compileCached({ file, text, cacheFile, cachedData, name: 'the start-up code' }, log);
run(exports, require, module, file, __dirname);
