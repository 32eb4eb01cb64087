// Schema files as real APIs publish them (src/schema/file.ts, src/schema/duplicates.ts): a name defined twice is
// a warning and the first definition is used, as GitHub's own schema.graphql needs; any other SDL that cannot be
// used names the JSON alternative.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { buildASTSchema, parse, printType, type GraphQLObjectType } from 'graphql';
import { firstDefinitions } from '../../src/schema/duplicates.ts';
import { readSchemaFile, SchemaFileError } from '../../src/schema/file.ts';
import { GITHUB_SDL_FILE } from '../fixtures/github-schema.ts';

const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-schema-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function sdlFile(text: string): string {
  const file = join(dir, `schema-${++files}.graphql`);
  writeFileSync(file, text);
  return file;
}

describe('firstDefinitions', () => {
  test('keeps the first definition of a field defined twice and names the later one with both lines', () => {
    const { document, dropped } = firstDefinitions(
      parse('type Query {\n  "the first"\n  a: Int\n  b: String\n  "the second"\n  a: String\n}'),
    );
    assert.deepEqual(dropped, ['Query.a (line 6; first at line 3)']);
    const query = buildASTSchema(document).getQueryType() as GraphQLObjectType;
    assert.equal(printType(query), 'type Query {\n  """the first"""\n  a: Int\n  b: String\n}');
  });

  test('keeps the first of two types of one name, and of two directives', () => {
    const { document, dropped } = firstDefinitions(
      parse(
        'type Query { a: A }\ntype A { x: Int }\ntype A { y: Int }\ndirective @d on FIELD\ndirective @d on QUERY',
      ),
    );
    assert.deepEqual(dropped, ['A (line 3; first at line 2)', '@d (line 5; first at line 4)']);
    const schema = buildASTSchema(document);
    assert.deepEqual(Object.keys((schema.getType('A') as GraphQLObjectType).getFields()), ['x']);
    assert.deepEqual(schema.getDirective('d')?.locations, ['FIELD']);
  });

  test('counts a type’s extensions with it, and arguments, input fields and enum values too', () => {
    const { document, dropped } = firstDefinitions(
      parse(
        [
          'type Query { a(x: Int, x: String): Int }',
          'extend type Query { a: Int, b: Int }',
          'input I { f: Int, f: Int }',
          'enum E { V V }',
        ].join('\n'),
      ),
    );
    assert.deepEqual(dropped, [
      'Query.a(x:) (line 1; first at line 1)',
      'Query.a (line 2; first at line 1)',
      'I.f (line 3; first at line 3)',
      'E.V (line 4; first at line 4)',
    ]);
    assert.doesNotThrow(() => buildASTSchema(document));
  });

  test('gives back the very document when no name repeats', () => {
    const document = parse('type Query { a: Int }');
    assert.equal(firstDefinitions(document).document, document);
  });
});

describe('readSchemaFile', () => {
  test("reads GitHub's published schema.graphql, with a warning naming the two fields it defines twice", () => {
    const { schema, warning } = readSchemaFile(GITHUB_SDL_FILE);
    assert.match(
      warning ?? '',
      /schema\.graphql: 2 definitions repeat a name defined earlier in the file and are left out \(the first definition of each name is the one used\): EnterpriseOwnerInfo\.repositoryDeployKeySetting \(line \d+; first at line \d+\), EnterpriseOwnerInfo\.repositoryDeployKeySettingOrganizations/,
    );
    const built = schema.validationSchema();
    assert.ok(built.getType('Repository'));
    const owner = built.getType('EnterpriseOwnerInfo') as GraphQLObjectType;
    assert.match(owner.getFields().repositoryDeployKeySetting!.description ?? '', /deploy keys/);
  });

  test('reads a file without repeats with no warning', () => {
    assert.equal(readSchemaFile(sdlFile('type Query { a: Int }')).warning, undefined);
  });

  test('MUST refuse other SDL it cannot use, naming the place and the JSON alternative', () => {
    for (const text of [
      'type Query {\n  a: Strin\n}\n',
      'type Query {\n  a: String\n',
      'type Query { a: I }\ninput I { b: Int }',
    ]) {
      assert.throws(
        () => readSchemaFile(sdlFile(text)),
        (error) => {
          assert.ok(error instanceof SchemaFileError);
          assert.match(
            error.message,
            /schema-\d+\.graphql(:\d+:\d+)?: .+; an introspection result as JSON \(--schema=schema\.json/,
          );
          return true;
        },
        text,
      );
    }
  });
});
