// Custom scalars typed (src/operations/scalars.ts): the defaults and the operator's map stay within what every
// model API accepts, the tools' inputs are checked against them before anything is sent, and a JSON value
// reaches the API as the model gave it (an object stays an object), proved against a real server.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test, type TestContext } from 'node:test';
import { buildSchema, parse, type OperationDefinitionNode } from 'graphql';
import { ToolError } from '../../src/common/errors.ts';
import { HeaderSet } from '../../src/http/headers.ts';
import { postGraphQL } from '../../src/http/post-graphql.ts';
import { variablesSchema } from '../../src/operations/input-schema.ts';
import { loadOperations, type OperationSet } from '../../src/operations/load.ts';
import { DEFAULT_SCALARS, scalarTypes, ScalarsError, type Scalars } from '../../src/operations/scalars.ts';
import { modelSchemaViolations } from '../fixtures/model-schema-rules.ts';
import { startMethodServer, trustedSchema } from '../fixtures/trusted-servers.ts';

const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-scalars-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const schema = buildSchema(/* GraphQL */ `
  scalar JSON
  scalar JSONObject
  scalar DateTime
  scalar Date
  scalar Time
  scalar UUID
  scalar URL
  scalar URI
  scalar EmailAddress
  scalar BigInt
  scalar Long
  scalar Money
  scalar Upload

  input Filter {
    since: DateTime
    tags: [UUID!]
    meta: JSON
  }

  type Query {
    f(
      json: JSON
      object: JSONObject
      at: DateTime
      day: Date
      time: Time
      id: UUID
      url: URL
      uri: URI
      email: EmailAddress
      big: BigInt
      long: Long
      money: Money
      file: Upload
      filter: Filter
      filters: [Filter!]
      jsons: [JSON]
    ): Int
  }
`);

const DEFAULTS = [
  'JSON',
  'JSONObject',
  'DateTime',
  'Date',
  'Time',
  'UUID',
  'URL',
  'URI',
  'EmailAddress',
  'BigInt',
  'Long',
];

let files = 0;
/** The operation set of one operation of `schema`, with these scalars. */
function operationOf(definition: string, scalars?: Scalars): OperationSet {
  const file = join(dir, `ops-${++files}.graphql`);
  writeFileSync(file, definition);
  return loadOperations([file], {
    schema,
    maxComplexity: 100,
    readOnly: false,
    endpointName: 'x',
    ...(scalars ? { scalars } : {}),
  });
}

/** The INVALID_INPUT message a tool's arguments get, or undefined when they pass. */
function check(set: OperationSet, args: Record<string, unknown>): string | undefined {
  try {
    set.variablesOf(set.tools[0]!, args);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof ToolError, String(error));
    assert.equal(error.code, 'INVALID_INPUT');
    return error.message;
  }
}

describe('the default scalars', () => {
  test('publish schemas every model API accepts: required, nullable, in lists and in input objects', () => {
    for (const name of DEFAULTS) {
      const variables = `$a: ${name}!, $b: ${name}, $c: [${name}!], $d: [${name}]!`;
      const document = parse(`query Q(${variables}) { __typename }`);
      const definitions = (document.definitions[0] as OperationDefinitionNode).variableDefinitions!;
      const inputs = variablesSchema(schema, definitions, DEFAULT_SCALARS);
      assert.deepEqual(modelSchemaViolations(inputs), [], `${name}: ${JSON.stringify(inputs)}`);
    }
    const filter = parse('query Q($f: Filter, $g: [Filter!]!) { __typename }');
    const inputs = variablesSchema(
      schema,
      (filter.definitions[0] as OperationDefinitionNode).variableDefinitions!,
      DEFAULT_SCALARS,
    );
    assert.deepEqual(modelSchemaViolations(inputs), []);
  });

  test('leave a scalar they do not know a string, and so Upload (a file goes in a multipart request, which is not sent)', () => {
    const set = operationOf('query Q($m: Money, $u: Upload) { f(money: $m, file: $u) }');
    const properties = set.tools[0]!.inputSchema.properties as Record<string, { anyOf: unknown[] }>;
    assert.deepEqual(properties.m!.anyOf[0], { type: 'string' });
    assert.deepEqual(properties.u!.anyOf[0], { type: 'string' });
    assert.equal(check(set, { m: 12, u: 'x' }), undefined, 'unknown scalars are the API’s to judge');
  });

  test('JSON takes any JSON value: an object, an array of anything, a string, a number, a boolean, null', () => {
    const set = operationOf('query Q($j: JSON) { f(json: $j) }');
    for (const value of [{ a: [1, { b: null }] }, [1, 'two', [3]], 'text', 4.5, false, null]) {
      assert.equal(check(set, { j: value }), undefined, JSON.stringify(value));
    }
  });

  test('JSONObject takes an object and names what it got otherwise', () => {
    const set = operationOf('query Q($o: JSONObject!) { f(object: $o) }');
    assert.equal(check(set, { o: { a: 1 } }), undefined);
    assert.equal(check(set, { o: [1] }), 'input "o" must be an object (a JSONObject), not an array.');
    assert.equal(
      check(set, { o: '{"a":1}' }),
      'input "o" must be an object (a JSONObject), not "{\\"a\\":1}".',
    );
  });

  test('DateTime, Date and Time take RFC 3339 strings (and ISO 8601’s extended forms), and say what they expected', () => {
    const set = operationOf('query Q($at: DateTime, $d: Date, $t: Time) { f(at: $at, day: $d, time: $t) }');
    assert.equal(
      check(set, { at: '2024-05-01T12:30:00.250+02:00', d: '2024-05-01', t: '12:30:00Z' }),
      undefined,
    );
    assert.equal(
      check(set, { at: 'yesterday' }),
      'input "at" must be a date-time string such as 2024-05-01T12:30:00Z (a DateTime), not "yesterday".',
    );
    assert.match(check(set, { at: '2024-13-01T00:00:00Z' }) ?? '', /must be a date-time string/);
    // ISO 8601's other extended forms, which APIs that say "ISO 8601" take: no seconds, no offset.
    assert.equal(check(set, { at: '2024-05-01T12:30' }), undefined);
    assert.match(check(set, { at: '2024-05-01' }) ?? '', /must be a date-time string/);
    assert.match(
      check(set, { d: '2024-05-01T00:00:00Z' }) ?? '',
      /input "d" must be a date string such as 2024-05-01 \(a Date\)/,
    );
    assert.match(check(set, { t: '25:00:00' }) ?? '', /input "t" must be a time string/);
  });

  test('UUID, URL, URI and EmailAddress take their forms', () => {
    const set = operationOf(
      'query Q($id: UUID, $url: URL, $uri: URI, $e: EmailAddress) { f(id: $id, url: $url, uri: $uri, email: $e) }',
    );
    const good = {
      id: '123E4567-e89b-12d3-a456-426614174000',
      url: 'https://a.example/x',
      uri: 'urn:isbn:0451450523',
      e: 'ada@example.com',
    };
    assert.equal(check(set, good), undefined);
    assert.match(check(set, { id: '1234' }) ?? '', /input "id" must be a UUID string/);
    assert.match(check(set, { url: '/relative' }) ?? '', /input "url" must be an absolute URL/);
    assert.match(check(set, { e: 'ada' }) ?? '', /input "e" must be an email address/);
  });

  test('BigInt and Long take a string of digits, which keeps every digit, or an integer', () => {
    const set = operationOf('query Q($b: BigInt, $l: Long) { f(big: $b, long: $l) }');
    assert.equal(check(set, { b: '9007199254740993', l: 42 }), undefined);
    assert.equal(
      check(set, { b: '12a' }),
      'input "b" must be a string of digits such as "9007199254740993" or an integer (a BigInt), not "12a".',
    );
    assert.match(check(set, { l: 1.5 }) ?? '', /input "l" must be .* \(a Long\), not 1\.5/);
  });

  test('are checked inside input objects and lists, naming the path', () => {
    const set = operationOf('query Q($f: [Filter!]) { f(filters: $f) }');
    assert.equal(
      check(set, { f: [{ since: '2024-05-01T00:00:00Z', tags: ['123e4567-e89b-12d3-a456-426614174000'] }] }),
      undefined,
    );
    assert.equal(
      check(set, { f: [{}, { tags: ['123e4567-e89b-12d3-a456-426614174000', 'nope'] }] }),
      'input "f[1].tags[1]" must be a UUID string such as 123e4567-e89b-12d3-a456-426614174000 (a UUID), not "nope".',
    );
  });

  test('GraphQL’s own checks come first: a missing required input is said in graphql-js’s words', () => {
    const set = operationOf('query Q($at: DateTime!) { f(at: $at) }');
    assert.match(check(set, {}) ?? '', /input "at" of required type "DateTime!" was not provided/);
  });
});

describe('the operator’s scalar map', () => {
  test('types a scalar of its own and replaces a default', () => {
    const scalars = scalarTypes({
      Money: { type: 'number', minimum: 0, description: 'An amount in euros' },
      DateTime: { type: 'integer', description: 'Milliseconds since 1970' },
    });
    const set = operationOf('query Q($m: Money!, $at: DateTime!) { f(money: $m, at: $at) }', scalars);
    const properties = set.tools[0]!.inputSchema.properties as Record<string, unknown>;
    assert.deepEqual(properties.m, { type: 'number', minimum: 0, description: 'An amount in euros' });
    assert.deepEqual(properties.at, { type: 'integer', description: 'Milliseconds since 1970' });
    assert.equal(check(set, { m: 12.5, at: 1714560000000 }), undefined);
    assert.equal(check(set, { m: -1, at: 1 }), 'input "m" must be a number of at least 0 (a Money), not -1.');
    // The defaults it does not name stay.
    assert.equal(scalarTypes({ Money: { type: 'number' } }).get('UUID'), DEFAULT_SCALARS.get('UUID'));
  });

  test('checks a format without publishing it', () => {
    const scalars = scalarTypes({ Day: { type: 'string', format: 'date', description: 'A day' } });
    assert.deepEqual(
      variablesSchema(
        buildSchema('scalar Day type Query { f(d: Day): Int }'),
        (parse('query Q($d: Day!) { f(d: $d) }').definitions[0] as OperationDefinitionNode)
          .variableDefinitions!,
        scalars,
      ).properties,
      { d: { type: 'string', description: 'A day' } },
    );
  });

  const refused: Array<[string, unknown, RegExp]> = [
    ['a list of types', { type: ['string', 'null'] }, /^Money: "type" must be one of/],
    [
      'additionalProperties',
      { type: 'object', additionalProperties: { type: 'string' } },
      /^Money: "additionalProperties" is not a keyword every model API accepts/,
    ],
    ['a $ref', { $ref: '#/$defs/money' }, /^Money: "\$ref" is not a keyword/],
    [
      'an untyped branch in items',
      { type: 'array', items: { anyOf: [{ type: 'string' }, { description: 'anything' }] } },
      /^Money: at \/items\/anyOf\/1, a schema needs a "type"/,
    ],
    [
      'an anyOf in an anyOf',
      { anyOf: [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'null' }] },
      /^Money: at \/anyOf\/0, an "anyOf" may not sit/,
    ],
    ['null alone', { type: 'null' }, /^Money: \{"type": "null"\} may only be a branch/],
    [
      'a union of nulls',
      { anyOf: [{ type: 'null' }, { type: 'null' }] },
      /^Money: "anyOf" needs a branch other than null/,
    ],
    ['an array without items', { type: 'array' }, /^Money: an array needs "items"/],
    ['no type', { description: 'money' }, /^Money: a schema needs a "type"/],
    [
      'a format the server does not check',
      { type: 'string', format: 'currency' },
      /^Money: "format" belongs to strings and must be one the server checks/,
    ],
    ['an enum of numbers', { type: 'integer', enum: [1, 2] }, /^Money: "enum" belongs to strings/],
    ['no object', 'number', /^Money: a schema must be a JSON object/],
  ];
  for (const [what, money, message] of refused) {
    test(`MUST refuse a schema outside the portable subset, naming the scalar: ${what}`, () => {
      assert.throws(
        () => scalarTypes({ Money: money }),
        (error) => {
          assert.ok(error instanceof ScalarsError);
          assert.match(error.message, message);
          return true;
        },
      );
    });
  }

  test('MUST refuse a schema for a built-in scalar or a name GraphQL cannot have', () => {
    assert.throws(() => scalarTypes({ Int: { type: 'string' } }), /Int is a built-in scalar/);
    assert.throws(
      () => scalarTypes({ 'my-scalar': { type: 'string' } }),
      /"my-scalar" is not a GraphQL name/,
    );
  });

  test('accepts an anyOf of typed branches as an array’s items', () => {
    const scalars = scalarTypes({
      Money: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] } },
    });
    const set = operationOf('query Q($m: Money!) { f(money: $m) }', scalars);
    assert.deepEqual(modelSchemaViolations(set.tools[0]!.inputSchema), []);
    assert.equal(check(set, { m: ['a', 1, null] }), undefined);
    assert.match(check(set, { m: [true] }) ?? '', /^input "m\[0\]" must be a string or a number or null/);
  });

  test('MUST refuse a schema nested thousands deep by name, without a stack overflow', () => {
    let deep: unknown = { type: 'string' };
    for (let i = 0; i < 5_000; i++) deep = { type: 'array', items: deep };
    assert.throws(
      () => scalarTypes({ Deep: deep }),
      (error) => {
        assert.ok(error instanceof ScalarsError);
        assert.match(error.message, /^Deep: its schema nests more than 32 levels of objects and arrays/);
        return true;
      },
    );
  });

  test('MUST refuse a schema too large to publish in every tool that takes the scalar', () => {
    const huge = { type: 'string', enum: Array.from({ length: 100_000 }, (_, i) => `value${i}`) };
    assert.throws(
      () => scalarTypes({ Huge: huge }),
      /: Huge: its schema is longer than 16,384 characters as JSON/,
    );
  });

  test('accepts every schema of the defaults, as an operator may write them', () => {
    for (const [name, type] of DEFAULT_SCALARS) {
      assert.doesNotThrow(() => scalarTypes({ [name]: type.schema }), name);
    }
  });
});

describe('a JSON variable, end to end', () => {
  async function sent(t: TestContext, data: unknown): Promise<{ echoed: unknown; received: unknown }> {
    const api = await startMethodServer();
    t.after(() => api.close());
    const file = join(dir, `echo-${++files}.graphql`);
    writeFileSync(file, 'query Echo($data: JSON) { echo(data: $data) }');
    const set = loadOperations([file], {
      schema: trustedSchema(),
      maxComplexity: 100,
      readOnly: false,
      endpointName: 'x',
    });
    const tool = set.tools[0]!;
    // What the tool advertises lets a model send an object...
    const property = (tool.inputSchema.properties as Record<string, { anyOf: Array<{ type: string }> }>)
      .data!;
    assert.deepEqual(
      property.anyOf.map((branch) => branch.type),
      ['object', 'array', 'string', 'number', 'boolean', 'null'],
    );
    // ...the tool's input becomes the variables, and the variables the request body, as the query tool sends them.
    const variables = set.variablesOf(tool, { data });
    const response = await postGraphQL({
      endpoint: api.url,
      headers: new HeaderSet(),
      operation: {
        query: tool.document.text,
        operationName: 'Echo',
        variables: JSON.stringify(variables),
        kind: 'query',
      },
      timeoutMs: 5_000,
      maxBytes: 1_048_576,
    });
    return {
      echoed: (response.result.data as { echo: string }).echo,
      received: (api.requests[0]!.params.variables as { data: unknown }).data,
    };
  }

  test('an object the model sends reaches the API as an object', async (t) => {
    const { echoed, received } = await sent(t, { a: 1, list: [true, null] });
    assert.deepEqual(received, { a: 1, list: [true, null] });
    assert.equal(echoed, 'object:{"a":1,"list":[true,null]}');
  });

  test('an array reaches it as an array, and a string as a string', async (t) => {
    assert.equal((await sent(t, [1, 'two'])).echoed, 'array:[1,"two"]');
    assert.equal((await sent(t, '{"a":1}')).echoed, 'string:"{\\"a\\":1}"');
  });
});
