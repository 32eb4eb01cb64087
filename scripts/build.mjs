// Bundles the server into one file, dist/cli.js: start-up then reads one module instead of hundreds,
// and the published package needs no dependencies installed. Bundled packages' licences go beside it.
import { build } from 'esbuild';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const result = await build({
  entryPoints: [join(root, 'src/cli.ts')],
  outfile: join(root, 'dist/cli.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  minify: true,
  legalComments: 'none',
  metafile: true,
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // Some bundled CommonJS code calls require(); give the ESM bundle one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});

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
  `# Third-party notices\n\ndist/cli.js bundles the following packages.\n\n${notices.join('\n')}`,
);
chmodSync(join(root, 'dist/cli.js'), 0o755);
