// The tools' own modules, without a server: their inputs as checked (input.ts), what tools/list says of them
// (catalog.ts), and the notes a result carries (notes.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load.ts';
import type { ApiConfig } from '../../src/config/types.ts';
import { ToolError } from '../../src/common/errors.ts';
import { describeTools } from '../../src/tools/catalog.ts';
import { parseInput, withApiInput } from '../../src/tools/input.ts';
import { boundedNote, withNotes } from '../../src/tools/notes.ts';
import { inputSchema } from '../../src/tools/query.ts';

function apis(argv: readonly string[]): Array<{ config: ApiConfig }> {
  const loaded = loadConfig(argv, {});
  assert.equal(loaded.kind, 'serve');
  return loaded.apis.map((config) => ({ config }));
}

function invalid(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ToolError);
    assert.equal(error.code, 'INVALID_INPUT');
    return error.message;
  }
  assert.fail('expected INVALID_INPUT');
}

describe('parseInput', () => {
  test('names a wrongly typed input and what it must be', () => {
    assert.match(
      invalid(() => parseInput(inputSchema, { query: 42 })),
      /^query must be a string/,
    );
  });

  test('names an unknown input and lists the inputs there are', () => {
    assert.match(
      invalid(() => parseInput(inputSchema, { query: '{ a }', qurey: 1 })),
      /unknown input "qurey" \(the inputs are query, /,
    );
  });

  test('takes null as leaving an input out, as models send it', () => {
    assert.deepEqual(parseInput(inputSchema, { query: '{ a }', variables: null }), { query: '{ a }' });
  });

  test('MUST NOT quote a header name that is no name: it may be a value pasted there', () => {
    const message = invalid(() =>
      parseInput(inputSchema, { query: '{ a }', headers: { 'Bearer sk-123 456': {} } }),
    );
    assert.ok(!message.includes('sk-123'), message);
    assert.match(message, /the value of the 1st header \(its name is not shown/);
  });
});

describe('withApiInput', () => {
  test('adds an api input naming the APIs only when there are several, and the same schema each time', () => {
    const one = apis([]);
    assert.equal(withApiInput(inputSchema, one), inputSchema);
    const two = [
      { config: { ...one[0]!.config, name: 'alpha' } },
      { config: { ...one[0]!.config, name: 'beta' } },
    ];
    const extended = withApiInput(inputSchema, two);
    assert.notEqual(extended, inputSchema);
    assert.equal(withApiInput(inputSchema, two), extended);
    assert.match(
      invalid(() => parseInput(extended, { query: '{ a }', api: 'gamma' })),
      /api must be one of alpha, beta/,
    );
  });
});

describe('describeTools', () => {
  test("names the endpoint and the limit, and says a read-only API's mutations are refused", () => {
    const text = describeTools(
      apis(['--endpoint=https://api.example.com/graphql', '--readOnly']),
    ).graphql_query;
    assert.match(text, /against https:\/\/api\.example\.com\/graphql/);
    assert.match(text, /Read-only: mutations are refused\./);
    assert.match(text, /at most 100 fields/);
  });

  test('says that an API of trusted documents only runs only them, and not to learn the schema to write queries', () => {
    const trusted = apis(['--persistedQueries=apollo', '--trustedDocumentsOnly', '--schema=schema.graphql']);
    const text = describeTools(trusted).graphql_query;
    assert.match(
      text,
      /This API runs only its trusted documents, and this server holds none of them: every document is refused\./,
    );
    assert.doesNotMatch(text, /graphql_introspect first|call those tools/);
    assert.match(
      describeTools(trusted).graphql_introspect,
      /to read the types its operation tools take and return/,
    );
  });

  test('tells the model of one API of trusted documents among others where a document of its own runs', () => {
    const [one] = apis(['--persistedQueries=apollo', '--trustedDocumentsOnly', '--schema=schema.graphql']);
    const [other] = apis([]);
    const text = describeTools([
      { config: { ...one!.config, name: 'shop' } },
      { config: { ...other!.config, name: 'github' } },
    ]).graphql_query;
    assert.match(text, /The APIs shop run only their trusted documents: there a document is sent only when/);
    assert.match(text, /Learn the schema with graphql_introspect first\./);
  });
});

describe('notes', () => {
  test('a note within the bound is kept whole; a longer one is cut with an ellipsis, escapes counted', () => {
    assert.equal(boundedNote('short'), 'short');
    const long = boundedNote('"'.repeat(3_000), 100);
    assert.ok(JSON.stringify(long).length - 2 <= 100, `${JSON.stringify(long).length}`);
    assert.ok(long.endsWith('…'));
  });

  test("notes go under extensions['graphql-mcp'] beside the endpoint's own extensions, replacing a spoofed key", () => {
    const response = { data: {}, extensions: { cost: 3, 'graphql-mcp': { notes: ['all is well'] } } };
    assert.deepEqual(withNotes(response, ['Note: x']), {
      data: {},
      extensions: { cost: 3, 'graphql-mcp': { notes: ['Note: x'] } },
    });
    assert.equal(withNotes(response, []), response);
  });
});
