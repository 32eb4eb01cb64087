// An operation tool's input schema, from its variables' GraphQL types: every shape, in the form every model
// API accepts (test/fixtures/model-schema-rules.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { variablesSchema } from '../../src/operations/input-schema.ts';
import {
  DEFAULT_SCALARS,
  JSON_ARRAY_DEPTH,
  scalarTypes,
  type Scalars,
} from '../../src/operations/scalars.ts';
import { modelSchemaViolations } from '../fixtures/model-schema-rules.ts';

const schema = buildSchema(/* GraphQL */ `
  "An instant, ISO 8601."
  scalar DateTime
  scalar JSON

  "How results are ordered."
  enum Order {
    ASC
    DESC
    RANDOM @deprecated(reason: "Use ASC.")
  }

  enum Legacy {
    OLD @deprecated(reason: "Gone.")
  }

  "A filter that may hold others."
  input Filter {
    "Words to look for."
    text: String
    order: Order = DESC
    limit: Int! = 10
    at: DateTime!
    not: Filter
  }

  type Query {
    f(
      i: Int
      n: Float
      s: String
      b: Boolean
      id: ID
      at: DateTime
      data: JSON
      order: Order
      legacy: Legacy
      filter: Filter
      filters: [Filter]
      tags: [String]
      matrix: [[Int!]!]
    ): Int
  }
`);

/** The input schema of an operation's variables, written as GraphQL variable definitions. */
function inputsOf(variables: string, scalars?: Scalars): Record<string, unknown> {
  const used = [...variables.matchAll(/\$(\w+)/g)].map((match) => `${match[1]}: $${match[1]}`);
  const document = parse(
    `query Q${variables ? `(${variables})` : ''} { f${used.length > 0 ? `(${used.join(', ')})` : ''} }`,
  );
  const operation = document.definitions[0] as OperationDefinitionNode;
  const inputs = variablesSchema(schema, operation.variableDefinitions ?? [], scalars);
  assert.deepEqual(modelSchemaViolations(inputs), [], JSON.stringify(inputs));
  return inputs;
}

/** The schema of the one variable of `definition`. */
const variable = (definition: string, scalars?: Scalars) =>
  (inputsOf(definition, scalars).properties as Record<string, unknown>)[/\$(\w+)/.exec(definition)![1]!];

const nullable = (schema: Record<string, unknown>, said: Record<string, unknown> = {}) => ({
  anyOf: [schema, { type: 'null' }],
  ...said,
});

describe('variablesSchema', () => {
  test('gives each built-in scalar its JSON type, required when it is non-null without a default', () => {
    assert.deepEqual(inputsOf('$i: Int!, $n: Float!, $s: String!, $b: Boolean!, $id: ID!'), {
      type: 'object',
      properties: {
        i: { type: 'integer' },
        n: { type: 'number' },
        s: { type: 'string' },
        b: { type: 'boolean' },
        id: { type: 'string' },
      },
      required: ['i', 'n', 's', 'b', 'id'],
    });
  });

  test('lets a nullable variable be null: anyOf of its type and null, not required', () => {
    assert.deepEqual(inputsOf('$s: String'), {
      type: 'object',
      properties: { s: nullable({ type: 'string' }) },
    });
  });

  test('gives a default, and does not require a non-null variable that has one', () => {
    assert.deepEqual(inputsOf('$i: Int! = 3, $order: Order = ASC'), {
      type: 'object',
      properties: {
        i: { type: 'integer', default: 3 },
        order: nullable(
          { type: 'string', enum: ['ASC', 'DESC'] },
          { description: 'How results are ordered.', default: 'ASC' },
        ),
      },
    });
  });

  test('offers the enum values that are not deprecated, or all of them when every one is', () => {
    assert.deepEqual(variable('$order: Order!'), {
      type: 'string',
      enum: ['ASC', 'DESC'],
      description: 'How results are ordered.',
    });
    assert.deepEqual(variable('$legacy: Legacy!'), { type: 'string', enum: ['OLD'] });
  });

  test('writes a custom scalar as a string, with its description or its name', () => {
    assert.deepEqual(variable('$at: DateTime!'), { type: 'string', description: 'An instant, ISO 8601.' });
    assert.deepEqual(variable('$data: JSON!'), { type: 'string', description: 'A JSON' });
  });

  test('gives lists of lists typed items, and a list of nullable items items of one type', () => {
    assert.deepEqual(variable('$matrix: [[Int!]!]!'), {
      type: 'array',
      items: { type: 'array', items: { type: 'integer' } },
    });
    assert.deepEqual(variable('$tags: [String]!'), { type: 'array', items: { type: 'string' } });
    assert.deepEqual(variable('$tags: [String]'), nullable({ type: 'array', items: { type: 'string' } }));
  });

  test('expands an input object: its fields, nullable ones nullable, defaults, descriptions, required fields', () => {
    const filter = {
      type: 'object',
      properties: {
        text: nullable({ type: 'string' }, { description: 'Words to look for.' }),
        order: nullable(
          { type: 'string', enum: ['ASC', 'DESC'] },
          { description: 'How results are ordered.', default: 'DESC' },
        ),
        limit: { type: 'integer', default: 10 },
        at: { type: 'string', description: 'An instant, ISO 8601.' },
        not: nullable(
          { type: 'object' },
          { description: 'A Filter (as above): A filter that may hold others.' },
        ),
      },
      required: ['at'],
    };
    assert.deepEqual(variable('$filter: Filter!'), {
      ...filter,
      description: 'A filter that may hold others.',
    });
    assert.deepEqual(
      variable('$filters: [Filter]'),
      nullable({
        type: 'array',
        items: { ...filter, description: 'A filter that may hold others.' },
      }),
    );
  });

  test('describes an operation without variables as an object alone', () => {
    assert.deepEqual(inputsOf(''), { type: 'object' });
  });

  test('types a custom scalar from the scalar map, described in the API’s words, else in the map’s', () => {
    assert.deepEqual(variable('$at: DateTime!', DEFAULT_SCALARS), {
      type: 'string',
      description: 'An instant, ISO 8601.',
    });
    const scalars = scalarTypes({ JSON: { type: 'object', description: 'Settings' } });
    assert.deepEqual(variable('$data: JSON!', scalars), { type: 'object', description: 'Settings' });
  });

  test('writes JSON as typed branches, not as an untyped schema, and a nullable one with null as one more branch', () => {
    const scalar = (levels: number): Array<Record<string, unknown>> => [
      { type: 'object' },
      ...(levels === 0
        ? []
        : [{ type: 'array', items: { anyOf: [...scalar(levels - 1), { type: 'null' }] } }]),
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
    ];
    const branches = scalar(JSON_ARRAY_DEPTH);
    const description = `Any JSON value: an object, an array (of any of these, nested up to ${JSON_ARRAY_DEPTH} deep), a string, a number or a boolean`;
    assert.deepEqual(variable('$data: JSON!', DEFAULT_SCALARS), { anyOf: branches, description });
    assert.deepEqual(variable('$data: JSON', DEFAULT_SCALARS), {
      anyOf: [...branches, { type: 'null' }],
      description,
    });
  });

  test('types JSON arrays three deep, each level of items every branch and null, the innermost no array', () => {
    let node = variable('$data: JSON!', DEFAULT_SCALARS) as { anyOf: Array<Record<string, unknown>> };
    for (let level = 1; level <= JSON_ARRAY_DEPTH; level++) {
      const array = node.anyOf.find((branch) => branch.type === 'array') as { items: typeof node };
      node = array.items;
      assert.deepEqual(
        node.anyOf.map((branch) => branch.type),
        level < JSON_ARRAY_DEPTH
          ? ['object', 'array', 'string', 'number', 'boolean', 'null']
          : ['object', 'string', 'number', 'boolean', 'null'],
      );
    }
  });

  test('gives a list of a union scalar its typed branches as items', () => {
    const json = variable('$data: JSON!', DEFAULT_SCALARS) as { anyOf: unknown[] };
    assert.deepEqual(variable('$data: [JSON!]!', DEFAULT_SCALARS), {
      type: 'array',
      items: json,
    });
    const scalars = scalarTypes({ Maybe: { anyOf: [{ type: 'null' }, { type: 'string' }] } });
    const withMaybe = buildSchema('scalar Maybe type Query { f(m: [Maybe]): Int }');
    const operation = parse('query Q($m: [Maybe]!) { f(m: $m) }').definitions[0] as OperationDefinitionNode;
    const inputs = variablesSchema(withMaybe, operation.variableDefinitions!, scalars);
    assert.deepEqual(modelSchemaViolations(inputs), []);
    assert.deepEqual((inputs.properties as Record<string, unknown>).m, {
      type: 'array',
      items: { anyOf: [{ type: 'null' }, { type: 'string' }], description: 'A Maybe' },
    });
  });

  test('takes a scalar that already allows null as it is when the variable is nullable', () => {
    const scalars = scalarTypes({ JSON: { anyOf: [{ type: 'object' }, { type: 'null' }] } });
    assert.deepEqual(variable('$data: JSON', scalars), {
      anyOf: [{ type: 'object' }, { type: 'null' }],
      description: 'A JSON',
    });
  });

  test('publishes no format, which not every model API takes', () => {
    assert.equal(
      JSON.stringify(inputsOf('$at: DateTime!, $filter: Filter', DEFAULT_SCALARS)).includes('format'),
      false,
    );
  });
});
