// The esbuild plugin that swaps modules the engine never runs for the stubs beside this file: the SDK's Ajv
// validator (used for elicitation only), Zod 3 (for tools written with it) and zod's translations of its
// messages. Used by the build and by the bench's profiling bundle, so that both bundle the same code.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** @type {import('esbuild').Plugin} */
export const withoutUnused = {
  name: 'without-unused',
  setup(build) {
    build.onResolve({ filter: /validation\/ajv-provider\.js$/ }, () => ({
      path: join(here, 'ajv-provider.js'),
    }));
    build.onResolve({ filter: /^(zod\/v3|zod-to-json-schema)$/ }, ({ importer }) =>
      importer.includes('/@modelcontextprotocol/sdk/') ? { path: join(here, 'zod-v3.js') } : undefined,
    );
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, ({ importer }) =>
      importer.includes('/node_modules/zod/') ? { path: join(here, 'zod-locales.js') } : undefined,
    );
  },
};
