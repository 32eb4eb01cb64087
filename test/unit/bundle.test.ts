// What the bundle holds: Node parses all of dist/cli.cjs at every start, so what is in it costs start-up time and
// memory whether it runs or not. Bundled here as scripts/build.mjs bundles it, and read from esbuild's metafile.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

test('the bundle holds only the parts of zod the tools use', async () => {
  const result = await build({
    entryPoints: [join(root, 'src/cli.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    metafile: true,
    logLevel: 'silent',
    define: { __VERSION__: '"test"' },
  });
  // The modules the output holds code of (the metafile's inputs also list those tree-shaken away).
  const [output] = Object.values(result.metafile.outputs);
  const bundled = Object.entries(output!.inputs).filter(([, input]) => input.bytesInOutput > 0);
  const zod = bundled.map(([path]) => path).filter((path) => path.includes('node_modules/zod/'));
  assert.ok(zod.length > 0, 'zod is bundled');
  // `import { z } from 'zod'` brings every locale and zod's JSON Schema reader along (see src/tools/zod.ts).
  const locales = zod.filter((path) => /\/locales\/(?!en\.js|index\.js)/.test(path));
  assert.deepEqual(locales, [], 'no zod locale but English');
  assert.ok(!zod.some((path) => path.endsWith('/from-json-schema.js')), "no zod's JSON Schema reader");
});
