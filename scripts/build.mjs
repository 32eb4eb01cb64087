// Bundles the server into one file, dist/server.cjs, run by the bin dist/cli.js: start-up reads one module
// instead of hundreds, and the published package needs no dependencies installed. Bundled packages'
// licences go beside it.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Swaps the SDK's Ajv validator, used only for elicitation, for a stub (see scripts/stubs). */
const withoutAjv = {
  name: 'without-ajv',
  setup(build) {
    build.onResolve({ filter: /validation\/ajv-provider\.js$/ }, () => ({
      path: join(root, 'scripts/stubs/ajv-provider.js'),
    }));
  },
};

// The server, as CommonJS so that the launcher can run it through V8's code cache.
const result = await build({
  entryPoints: [join(root, 'src/cli.ts')],
  outfile: join(root, 'dist/server.cjs'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  legalComments: 'none',
  metafile: true,
  define: { __VERSION__: JSON.stringify(pkg.version) },
  plugins: [withoutAjv],
  // vm.Script (the launcher) has no loader for import(): lazy imports become require() calls.
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
});

// The bin: a small launcher that loads the server with the code cache.
await build({
  entryPoints: [join(root, 'src/launcher.ts')],
  outfile: join(root, 'dist/cli.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  minify: true,
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
chmodSync(join(root, 'dist/cli.js'), 0o755);

// The code cache: one short session (start-up, tools/list, a query that fails to parse) compiles what
// a real start-up compiles; the launcher writes V8's cache of it when the process exits.
const cacheFile = join(root, 'dist/server.cache');
rmSync(cacheFile, { force: true });
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
const warmUp = spawnSync(process.execPath, [join(root, 'dist/cli.js')], {
  input: session.map((message) => JSON.stringify(message)).join('\n') + '\n',
  env: { ...process.env, GRAPHQL_MCP_WRITE_CODE_CACHE: cacheFile },
  encoding: 'utf8',
  timeout: 30_000,
});
if (warmUp.status !== 0 || !existsSync(cacheFile)) {
  process.stderr.write(`build: the warm-up session failed (exit ${warmUp.status}): ${warmUp.stderr}\n`);
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
  `# Third-party notices\n\ndist/server.cjs bundles the following packages.\n\n${notices.join('\n')}`,
);
