// The JSON Schema of a config file (--config), made from the declaration in src/config/options.ts and shipped in the
// package as config.schema.json, so that editors complete and check the file: `npm run docs:options` writes it,
// and test/unit/options.test.ts fails while it and the declaration disagree.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { authJsonSchema } from '../src/config/auth.ts';
import { declaration, OPTION_NAMES, plain, type OptionName } from '../src/config/options.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SCHEMA_FILE = 'config.schema.json';

type JsonSchema = Record<string, unknown>;

function optionSchema(name: OptionName): JsonSchema {
  const declared = declaration(name);
  const fallback = declared.default === undefined ? '' : ` (default: ${declared.default})`;
  return { description: `${plain(declared.help)}${fallback}`, ...declared.json };
}

/**
 * The schema: the server's options and every API's defaults at the top level, each API's under `apis` with its
 * `auth`, which a file alone can set.
 */
export function configSchema(): JsonSchema {
  const names = OPTION_NAMES.filter((name) => name !== 'config');
  const perApi = names.filter((name) => declaration(name).scope === 'api');
  const api: JsonSchema = {
    type: 'object',
    description: "One API's options: those of the command line that describe an API.",
    properties: {
      ...Object.fromEntries(perApi.map((name) => [name, optionSchema(name)])),
      oauthScopes: {
        description: 'Scopes an OAuth access token needs to use this API, besides those every request needs',
        ...declaration('oauthScopes').json,
      },
      auth: authJsonSchema(),
    },
    additionalProperties: false,
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'graphql-mcp configuration',
    description:
      "Several GraphQL APIs in one graphql-mcp server (--config). Option names are the command line's; a string may hold ${env:NAME}, the environment variable's value.",
    type: 'object',
    properties: {
      $schema: { type: 'string' },
      apis: {
        type: 'object',
        description:
          'The APIs, by name (a letter, then letters, digits, _ or -): the name prefixes their tools.',
        propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_-]{0,31}$' },
        additionalProperties: api,
        minProperties: 1,
      },
      ...Object.fromEntries(names.map((name) => [name, optionSchema(name)])),
    },
    required: ['apis'],
    additionalProperties: false,
  };
}

/** The schema file's text, as written. */
export function configSchemaText(): string {
  return `${JSON.stringify(configSchema(), null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(join(ROOT, SCHEMA_FILE), configSchemaText());
  console.log(`${SCHEMA_FILE}: written from src/config/options.ts`);
}
