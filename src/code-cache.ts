// Compiling a CommonJS bundle through V8's code cache, as the bin does for the start-up code (bin.ts) and the
// start-up code for the engine (engine-loader.ts).
import { writeFileSync } from 'node:fs';
import { Script } from 'node:vm';

/** A bundle to compile: its path and source, and its code cache (none when the file is missing). */
export interface CachedBundle {
  readonly file: string;
  readonly text: string;
  readonly cacheFile: string;
  readonly cachedData: Buffer | undefined;
  /** How stderr names it: "the engine". */
  readonly name: string;
}

/**
 * Compiles a bundle as CommonJS's module wrapper, with its cache. V8 rejects a cache made by another Node.js
 * version or under other V8 flags, and compiles the source: `log` says so, as loading then takes longer and
 * nothing else would show why. The build's warm-up session sets GRAPHQL_MCP_WRITE_CODE_CACHE to dist/
 * (`writingCache`): the cache is written as that process exits, holding every function the session compiled.
 */
export function compileCached(
  { file, text, cacheFile, cachedData, name }: CachedBundle,
  log: (line: string) => void,
): { run: (...args: unknown[]) => void; writingCache: boolean } {
  // CommonJS's module wrapper, as Module.wrap writes it.
  const source = `(function (exports, require, module, __filename, __dirname) { ${text}\n});`;
  const script = new Script(source, { filename: file, cachedData });
  if (script.cachedDataRejected === true)
    log(
      `graphql-mcp: V8 rejected ${name}'s code cache (${cacheFile}; made by another Node.js?): compiling ${name} from source instead`,
    );
  const writingCache = process.env['GRAPHQL_MCP_WRITE_CODE_CACHE'] === __dirname;
  if (writingCache) process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
  return { run: script.runInThisContext() as (...args: unknown[]) => void, writingCache };
}
