// The rules every tool input schema must keep (test/fixtures/model-schema-rules.ts): the walker itself, shown
// to find each construct a model API refuses and to name the node that holds it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { modelSchemaViolations, type Rule } from '../fixtures/model-schema-rules.ts';

/** The violations of a schema whose root is an object with these properties, as `pointer rule` lines. */
function found(properties: Record<string, unknown>, extra: Record<string, unknown> = {}): string[] {
  return modelSchemaViolations({ type: 'object', properties, ...extra }).map(
    (violation) => `${violation.pointer} ${violation.rule}`,
  );
}

const at = (pointer: string, rule: Rule) => `${pointer} ${rule}`;

describe('modelSchemaViolations', () => {
  test('finds nothing in a schema every API accepts: scalars, enums, arrays, objects, a nullable property', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'The id' },
        count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
        order: { type: 'string', enum: ['ASC', 'DESC'] },
        matrix: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
        filter: {
          type: 'object',
          properties: { text: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
          required: ['text'],
        },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'May be null' },
        free: { type: 'object' },
      },
      required: ['id'],
    };
    assert.deepEqual(modelSchemaViolations(schema), []);
    assert.deepEqual(modelSchemaViolations({ type: 'object' }), []);
  });

  test('MUST name a type array, at the node that holds it', () => {
    assert.deepEqual(found({ value: { type: ['string', 'number', 'boolean'] } }), [
      at('/properties/value', 'one-type'),
    ]);
  });

  test('MUST name the headers of the old graphql_query schema: a type array inside additionalProperties', () => {
    const headers = {
      type: 'object',
      additionalProperties: { type: ['string', 'number', 'boolean'] },
      description: 'HTTP headers',
    };
    assert.deepEqual(found({ headers }, { additionalProperties: false }), [
      at('/additionalProperties', 'known-keyword'),
      at('/properties/headers/additionalProperties', 'known-keyword'),
      at('/properties/headers/additionalProperties', 'one-type'),
    ]);
  });

  test('finds nothing in an anyOf of typed branches inside items, nested in an array branch of another', () => {
    const cells = { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] };
    const rows = { type: 'array', items: { anyOf: [{ type: 'array', items: cells }, { type: 'string' }] } };
    assert.deepEqual(found({ rows }), []);
  });

  test('MUST name an untyped node or a type array inside items', () => {
    const untyped = { type: 'array', items: { anyOf: [{ type: 'string' }, {}] } };
    assert.deepEqual(found({ untyped }), [at('/properties/untyped/items/anyOf/1', 'typed')]);
    const listed = { type: 'array', items: { type: ['object', 'null'] } };
    assert.deepEqual(found({ listed }), [at('/properties/listed/items', 'one-type')]);
  });

  test('MUST name an array without items, and one whose items is a list of schemas', () => {
    assert.deepEqual(found({ tags: { type: 'array' } }), [at('/properties/tags', 'array-items')]);
    assert.deepEqual(found({ pair: { type: 'array', items: [{ type: 'string' }] } }), [
      at('/properties/pair', 'array-items'),
    ]);
  });

  test('MUST name properties or required on a node that is no object', () => {
    const data = { type: 'string', properties: { id: { type: 'string' } }, required: ['id'] };
    assert.deepEqual(found({ data }), [at('/properties/data', 'properties-on-objects')]);
  });

  test('MUST name an enum that holds anything but strings, or that sits on no string', () => {
    assert.deepEqual(found({ size: { type: 'string', enum: ['S', 2, true] } }), [
      at('/properties/size', 'enum-strings'),
    ]);
    assert.deepEqual(found({ size: { type: 'integer', enum: ['1', '2'] } }), [
      at('/properties/size', 'enum-strings'),
    ]);
  });

  test('MUST name a union at the root, in a union, or with a type beside it', () => {
    assert.deepEqual(
      modelSchemaViolations({ anyOf: [{ type: 'object' }, { type: 'object' }] }).map((v) => v.rule),
      ['root-object', 'anyof-on-properties-or-items'],
    );
    const nested = { anyOf: [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }] };
    assert.deepEqual(found({ nested }), [at('/properties/nested/anyOf/0', 'anyof-on-properties-or-items')]);
    const both = { type: 'string', anyOf: [{ type: 'string' }, { type: 'null' }] };
    assert.deepEqual(found({ both }), [at('/properties/both', 'anyof-without-type')]);
    assert.deepEqual(found({ single: { anyOf: [{ type: 'string' }] } }), [
      at('/properties/single', 'anyof-branches'),
    ]);
  });

  test('MUST name a null type outside a union, and a node without a type', () => {
    assert.deepEqual(found({ nothing: { type: 'null' } }), [at('/properties/nothing', 'null-in-anyof-only')]);
    assert.deepEqual(found({ anything: { description: 'Any value' } }), [
      at('/properties/anything', 'typed'),
    ]);
    assert.deepEqual(found({ yes: true }), [at('/properties/yes', 'schema-object')]);
  });

  test('MUST name $ref and $defs, const, and a required name that properties does not define', () => {
    assert.deepEqual(
      found(
        { node: { $ref: '#/$defs/Node' }, kind: { type: 'string', const: 'a' } },
        { $defs: { Node: { type: 'object' } }, required: ['missing'] },
      ),
      [
        at('/$defs', 'known-keyword'),
        at('/properties/node/$ref', 'known-keyword'),
        at('/properties/node', 'typed'),
        at('/properties/kind/const', 'known-keyword'),
        at('', 'required-listed'),
      ],
    );
  });

  test('MUST name an empty properties, and bounds on a node that is no number', () => {
    assert.deepEqual(found({ empty: { type: 'object', properties: {} } }), [
      at('/properties/empty', 'properties-non-empty'),
    ]);
    assert.deepEqual(found({ name: { type: 'string', minimum: 1 } }), [
      at('/properties/name', 'bounds-on-numbers'),
    ]);
  });

  test('escapes "/" and "~" in a property name in the pointer', () => {
    assert.deepEqual(found({ 'a/b~c': { type: ['string'] } }), [at('/properties/a~1b~0c', 'one-type')]);
  });
});
