// The JSON Schemas tools/list advertises for the built-in tools' inputs, made from their zod schemas ahead of time
// and shipped as src/tools/input-schemas.json: converting them at every start (zod's toJSONSchema, compiled afresh
// by each process) took about 5 ms of start-up. `npm run generate:input-schemas` writes the file, and
// test/unit/input-schemas.test.ts fails while it and the zod schemas disagree.
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toJSONSchema, type ZodObject } from 'zod';
import { inputSchema as confirmInput } from '../src/tools/confirm-mutation.ts';
import { inputSchema as introspectInput } from '../src/tools/introspect.ts';
import { inputSchema as queryInput } from '../src/tools/query.ts';
import type { BuiltInInputs } from '../src/tools/input.ts';

export const INPUT_SCHEMAS_FILE = fileURLToPath(new URL('../src/tools/input-schemas.json', import.meta.url));

/**
 * What a model is not shown of a schema, or what a model API refuses; the tool still enforces all of it, in its
 * own words. Every token of tools/list is paid for in the model's context, on every turn: length bounds a model
 * never comes near are left out. Gemini's function-calling schema has no `additionalProperties` or
 * `propertyNames` (a client that forwards them breaks every call of its session;
 * test/fixtures/model-schema-rules.ts): unknown inputs and header names are the tools' to refuse.
 */
const LEFT_OUT = new Set([
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'additionalProperties',
  'propertyNames',
]);

function lean(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lean);
  if (typeof schema !== 'object' || schema === null) return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!LEFT_OUT.has(key)) kept[key] = lean(value);
  }
  return kept;
}

/** A tool's zod schema as tools/list advertises it. */
export function advertisedJsonOf(precise: ZodObject): Record<string, unknown> {
  const { $schema: _, ...jsonSchema } = toJSONSchema(precise, { target: 'draft-2020-12', io: 'input' });
  return lean(jsonSchema) as Record<string, unknown>;
}

/** The file's content: each built-in tool's inputs, for a server of one API. */
export function inputSchemas(): BuiltInInputs {
  return {
    graphql_query: advertisedJsonOf(queryInput),
    graphql_introspect: advertisedJsonOf(introspectInput),
    graphql_confirm_mutation: advertisedJsonOf(confirmInput),
  } as unknown as BuiltInInputs;
}

export const inputSchemasText = () => `${JSON.stringify(inputSchemas(), null, 2)}\n`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(INPUT_SCHEMAS_FILE, inputSchemasText());
}
