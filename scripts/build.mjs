// Bundles the server into ES modules under dist/, behind a bin of four lines, dist/cli.cjs: npx then installs
// nothing but this package. The entry, dist/server.mjs, and the chunks it imports hold what start-up runs; what a
// session needs only when a tool is called (graphql-js, the HTTP client, the schema views) is imported lazily by
// the tools, and esbuild's code splitting puts it in chunks of its own that are read and compiled on the first
// call only. (One CommonJS file would wrap every module an import() reaches, the SDK's and zod's included, in a
// function compiled at start-up outside Node's compile cache; split ES modules keep their bodies top-level.)
// Bundled packages' licences go beside it.
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
rmSync(join(root, 'dist'), { recursive: true, force: true });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// Parts only some deployments use, each a bundle of its own beside the server's, which the server requires only
// when an option turns the part on: start-up then neither reads nor compiles them. The source imports them with
// import() as any module; the build points that import at the part's bundle.
const SEPARATE = {
  'src/store/redis.ts': 'store-redis.cjs',
  'src/telemetry/otel.ts': 'telemetry.cjs',
};
const separately = {
  name: 'separate-bundles',
  setup(build) {
    build.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const source = relative(root, join(args.resolveDir, args.path)).replace(/\.js$/, '.ts');
      const out = SEPARATE[source];
      return out === undefined ? undefined : { path: `./${out}`, external: true };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Named .cjs/.mjs so that Node reads no package.json to know a file's kind.
  format: 'cjs',
  minify: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  define: { __VERSION__: JSON.stringify(pkg.version) },
};
/**
 * An MCP Apps view (src/apps/view/): its script bundled with the ext-apps SDK's App class and its style, inline in
 * one HTML file under dist/views/, which the server reads when a client asks for it. Its Content-Security-Policy
 * allows that script and that style (by their hashes) and nothing else: no fetch, no outside resource, no frame.
 */
async function buildView(entry, style, out) {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  // Inline, a script may not hold its own end tag.
  const script = result.outputFiles[0].text.trim().replace(/<\/(script)/gi, '<\\/$1');
  const css = (
    await transform(readFileSync(join(root, style), 'utf8'), { loader: 'css', minify: true })
  ).code.trim();
  const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  const policy = [
    "default-src 'none'",
    `script-src ${hash(script)}`,
    `style-src ${hash(css)}`,
    'img-src data:',
    "connect-src 'none'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  mkdirSync(join(root, 'dist/views'), { recursive: true });
  writeFileSync(
    join(root, 'dist/views', out),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${policy}"><meta name="viewport" content="width=device-width, initial-scale=1"><title>graphql-mcp</title><style>${css}</style></head><body><main id="view"></main><script>${script}</script></body></html>\n`,
  );
  return result;
}

const results = await Promise.all([
  build({
    ...common,
    entryPoints: { server: join(root, 'src/cli.ts') },
    outdir: join(root, 'dist'),
    format: 'esm',
    splitting: true,
    outExtension: { '.js': '.mjs' },
    // Beside the entry, so that a relative path (a separate part, dist/views/) means the same from every chunk.
    chunkNames: '[name]-[hash]',
    plugins: [separately],
  }),
  ...Object.entries(SEPARATE)
    .filter(([source]) => existsSync(join(root, source)))
    .map(([source, out]) =>
      build({ ...common, entryPoints: [join(root, source)], outfile: join(root, 'dist', out) }),
    ),
  buildView('src/apps/view/query-view.ts', 'src/apps/view/view.css', 'query.html'),
]);
// The bin turns on Node's compile cache (Node 22.1 and later; NODE_COMPILE_CACHE chooses its directory) before it
// loads the bundle, so that a start after the first reads V8's compiled code rather than compiling the bundle
// again. It must come first: the cache applies to what is loaded after it is turned on.
writeFileSync(
  join(root, 'dist/cli.cjs'),
  "#!/usr/bin/env node\n'use strict';\nrequire('node:module').enableCompileCache?.();\nimport('./server.mjs');\n",
);
chmodSync(join(root, 'dist/cli.cjs'), 0o755);

// Licences of every package in the bundle, as their MIT/ISC/BSD/Apache terms ask.
const packages = new Set();
for (const input of results.flatMap((result) => Object.keys(result.metafile.inputs))) {
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
  `# Third-party notices\n\nThe bundles of dist/ hold the following packages.\n\n${notices.join('\n')}`,
);
