// Bundles the server into the start-up code, dist/start.cjs, which starts a session, and the engine,
// dist/engine.cjs, which it loads when needed; each runs through a V8 code cache made here, the start-up
// code from the bin, dist/cli.cjs. Start-up reads a few small files instead of hundreds of modules, and the
// published package needs no dependencies installed. Bundled packages' licences go beside them.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withoutUnused } from './stubs/plugin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// Every bundle: CommonJS for Node 20, minified.
const bundle = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};

// The engine (engine.ts: the MCP SDK, graphql-js, the tools), as a CommonJS library that the start-up code
// loads through V8's code cache (engine-loader.ts).
const result = await build({
  ...bundle,
  entryPoints: [join(root, 'src/engine.ts')],
  outfile: join(root, 'dist/engine.cjs'),
  define: { __VERSION__: JSON.stringify(pkg.version) },
  plugins: [withoutUnused],
  // vm.Script (the loader) has no loader for import(): lazy imports become require() calls.
  supported: { 'dynamic-import': false },
});

// The SDK's answers to initialize and tools/list, which the bin gives at start-up (src/startup.ts).
const engine = createRequire(import.meta.url)(join(root, 'dist/engine.cjs'));
const startupRecord = await engine.recordStartup();

// The start-up code (cli.ts): configuration and the start of a stdio session, without packages.
const startup = await build({
  ...bundle,
  entryPoints: [join(root, 'src/cli.ts')],
  outfile: join(root, 'dist/start.cjs'),
  define: { __VERSION__: JSON.stringify(pkg.version), __STARTUP_RECORD__: JSON.stringify(startupRecord) },
});
const heavy = Object.keys(startup.metafile.inputs).filter((input) => input.includes('node_modules/'));
if (heavy.length > 0) {
  process.stderr.write(`build: start-up must not bundle packages, but it holds ${heavy.join(', ')}\n`);
  process.exit(1);
}

// The bin, which runs the start-up code through its cache (bin.ts). CommonJS, and named .cjs so that Node
// reads no package.json to know it: an ES module starts a few milliseconds later.
await build({
  ...bundle,
  entryPoints: [join(root, 'src/bin.ts')],
  outfile: join(root, 'dist/cli.cjs'),
  banner: { js: '#!/usr/bin/env node' },
});
chmodSync(join(root, 'dist/cli.cjs'), 0o755);

// The code caches: one short session (start-up, tools/list, a query that fails to parse) compiles what a
// real session compiles; the bin and the engine's loader write V8's caches of it when the process exits.
const dist = join(root, 'dist');
const cached = [
  { file: join(dist, 'start.cjs'), cache: join(dist, 'start.cache') },
  { file: join(dist, 'engine.cjs'), cache: join(dist, 'engine.cache') },
];
for (const { cache } of cached) rmSync(cache, { force: true });
const session = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'build', version: '0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  {
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 'graphql_query', arguments: { query: '{ a' } },
  },
];
// Runs the session in a fresh process: with `env`, the loaders write their caches as it exits.
const runSession = (env) =>
  spawnSync(process.execPath, [join(dist, 'cli.cjs')], {
    input: session.map((message) => JSON.stringify(message)).join('\n') + '\n',
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
const warmUp = runSession({ GRAPHQL_MCP_WRITE_CODE_CACHE: dist });
if (warmUp.status !== 0 || !cached.every(({ cache }) => existsSync(cache))) {
  process.stderr.write(`build: the warm-up session failed (exit ${warmUp.status}): ${warmUp.stderr}\n`);
  process.exit(1);
}
// V8 silently compiles from source when it rejects a cache (another Node.js, other V8 flags), and start-up
// then takes longer: the same session again, as any process runs it, must load both caches without the
// loaders' line saying V8 rejected one (code-cache.ts).
const check = runSession({ GRAPHQL_MCP_WRITE_CODE_CACHE: '' });
if (check.status !== 0 || check.stderr.includes('V8 rejected')) {
  process.stderr.write(
    `build: a fresh process does not take the code caches (exit ${check.status}): ${check.stderr}\n`,
  );
  process.exit(1);
}

// Licences of every package in the bundle, as their MIT/ISC/BSD terms ask.
const packages = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match) packages.add(match[1]);
}
const notices = [...packages].sort().map((dir) => {
  const meta = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  const licenceFile = readdirSync(join(root, dir)).find((name) => /^licen[cs]e/i.test(name));
  const text = licenceFile
    ? readFileSync(join(root, dir, licenceFile), 'utf8').trim()
    : `License: ${meta.license}`;
  return `## ${meta.name}@${meta.version}\n\n${text}\n`;
});
writeFileSync(
  join(root, 'dist/THIRD_PARTY_NOTICES.md'),
  `# Third-party notices\n\ndist/engine.cjs bundles the following packages.\n\n${notices.join('\n')}`,
);
