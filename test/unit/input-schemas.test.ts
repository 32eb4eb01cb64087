// The built-in tools' inputs as tools/list advertises them come from src/tools/input-schemas.json, made from the
// tools' zod schemas ahead of time: the file must be what the zod schemas make, and each variant a server
// advertises (several APIs, read-only) what converting the variant's zod schema would give.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { Api } from '../../src/api/api.ts';
import { inputSchema as confirmInput } from '../../src/tools/confirm-mutation.ts';
import { advertisedInputs, withApiInput, type AdvertisedSchema } from '../../src/tools/input.ts';
import { inputSchema as introspectInput } from '../../src/tools/introspect.ts';
import { inputSchema as queryInput } from '../../src/tools/query.ts';
import { advertisedJsonOf, INPUT_SCHEMAS_FILE, inputSchemasText } from '../../scripts/input-schemas.ts';

const apisNamed = (...names: string[]) => names.map((name) => ({ config: { name } }) as unknown as Api);
const shown = (schema: AdvertisedSchema) =>
  (schema['~standard'].jsonSchema.input as () => Record<string, unknown>)();

test('src/tools/input-schemas.json is what the zod schemas make (when this fails: npm run generate:input-schemas)', () => {
  assert.equal(readFileSync(INPUT_SCHEMAS_FILE, 'utf8'), inputSchemasText());
});

test('each variant a server advertises is its zod schema converted', () => {
  for (const apis of [apisNamed('main'), apisNamed('github', 'shop', 'internal')]) {
    const several = `${apis.length} API(s)`;
    assert.deepEqual(
      shown(advertisedInputs('graphql_query', apis)),
      advertisedJsonOf(withApiInput(queryInput, apis)),
      `graphql_query, ${several}`,
    );
    assert.deepEqual(
      shown(advertisedInputs('graphql_query', apis, ['allowMutations'])),
      advertisedJsonOf(withApiInput(queryInput, apis).omit({ allowMutations: true })),
      `graphql_query, read-only, ${several}`,
    );
    assert.deepEqual(
      shown(advertisedInputs('graphql_introspect', apis)),
      advertisedJsonOf(withApiInput(introspectInput, apis)),
      `graphql_introspect, ${several}`,
    );
  }
  assert.deepEqual(shown(advertisedInputs('graphql_confirm_mutation', [])), advertisedJsonOf(confirmInput));
  const threeApis = shown(advertisedInputs('graphql_query', apisNamed('a', 'b', 'c'))) as {
    properties: Record<string, unknown>;
  };
  assert.deepEqual(threeApis.properties.api, {
    type: 'string',
    enum: ['a', 'b', 'c'],
    description: 'Which API; default: a',
  });
});
