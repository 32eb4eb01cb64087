import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildSchema, introspectionFromSchema, printSchema } from 'graphql';
import { answerSchemaQuestion } from '../../src/schema/answers/answer.ts';
import { renderOverview } from '../../src/schema/answers/overview.ts';
import { IntrospectedSchema, type SchemaView } from '../../src/schema/view.ts';

// A schema with enough root fields and types that an overview has something to shorten.
function largeSdl(): string {
  const objects = Array.from(
    { length: 30 },
    (_, i) =>
      `"Thing ${i}. More about it."\ntype Thing${i} { id: ID! name: String next: Thing${(i + 1) % 30} }`,
  );
  const inputs = Array.from({ length: 25 }, (_, i) => `input Change${i}Input { id: ID! value: String }`);
  const payloads = Array.from({ length: 25 }, (_, i) => `type Change${i}Payload { thing: Thing${i} }`);
  const mutations = Array.from(
    { length: 25 },
    (_, i) =>
      `"Changes thing ${i}. Returns the new state."\n  change${i}(input: Change${i}Input!): Change${i}Payload`,
  );
  const queries = Array.from(
    { length: 12 },
    (_, i) =>
      `"Looks up thing ${i} by id. Null when absent."\n  thing${i}(id: ID!, version: Int = 1): Thing${i}`,
  );
  return [
    ...objects,
    ...inputs,
    ...payloads,
    'enum Color { RED GREEN }',
    'interface Named { name: String }',
    'union Anything = Thing0 | Thing1',
    '"Not reachable from any root field."\ntype Orphan { color: Color }',
    `"The query root."\ntype Query {\n  ${queries.join('\n  ')}\n}`,
    `type Mutation {\n  ${mutations.join('\n  ')}\n}`,
  ].join('\n\n');
}

const SDL = largeSdl();

async function viewOf(sdl = SDL): Promise<{ schema: IntrospectedSchema; view: SchemaView }> {
  const schema = new IntrospectedSchema(introspectionFromSchema(buildSchema(sdl)));
  return { schema, view: await schema.view(false) };
}

function stepsOf(overview: string): string {
  return /^# Shortened to fit: (.*)\.$/m.exec(overview)?.[1] ?? '';
}

describe('the overview', () => {
  test('lists each root field with its arguments, return type and the first sentence of its description', async () => {
    const { view } = await viewOf();
    const overview = await renderOverview(view, 100_000);
    assert.match(overview, /^type Query \{$/m);
    assert.match(
      overview,
      /^ {2}thing3\(id: ID!, version: Int = 1\): Thing3 {2}# Looks up thing 3 by id\.$/m,
    );
    assert.match(overview, /^ {2}change7\(input: Change7Input!\): Change7Payload {2}# Changes thing 7\.$/m);
  });

  test('lists the other types by kind', async () => {
    const { view } = await viewOf();
    const overview = await renderOverview(view, 100_000);
    assert.match(overview, /^# objects \(56\): Change0Payload, /m);
    assert.match(overview, /^# interfaces \(1\): Named$/m);
    assert.match(overview, /^# unions \(1\): Anything$/m);
    assert.match(overview, /^# enums \(1\): Color$/m);
    assert.match(overview, /^# input objects \(25\): /m);
  });

  test('says it is an overview, and how to read more with typeNames and search', async () => {
    const { view } = await viewOf();
    const overview = await renderOverview(view, 100_000);
    assert.match(
      overview,
      /^# Overview: the whole schema \(\d+ types, [\d,]+ characters of SDL\) is over the 100,000-character limit/,
    );
    assert.match(overview, /typeNames: \["Thing\d+"\] gives full definitions/);
    assert.match(overview, /search: "some words" finds types and fields/);
  });

  test('shortens in the documented order as the budget shrinks', async () => {
    const { view } = await viewOf();
    const seen: string[] = [''];
    for (let max = 20_000; max >= 1_000; max -= 100) {
      const steps = stepsOf(await renderOverview(view, max));
      if (steps !== seen.at(-1)) seen.push(steps);
    }
    const order = [
      'types reachable from the root fields not listed',
      'mutation and subscription field descriptions left out',
      'query field descriptions left out',
      'arguments left out, (…) marks fields that take some',
      'root fields by name only',
      'lists cut (… N more)',
    ];
    assert.deepEqual(seen, order.map((_, i) => order.slice(0, i).join('; ')).concat(order.join('; ')));
  });

  test('without the reachable types, still lists the types no root field leads to', async () => {
    const { view } = await viewOf();
    const whole = await renderOverview(view, 100_000);
    const overview = await renderOverview(view, whole.length - 20);
    assert.match(overview, /^# Other types: 80 reachable from the root fields, not listed here/m);
    assert.match(overview, /^# objects \(1\): Orphan$/m);
  });

  test('marks fields that take arguments with (…) once argument lists are left out', async () => {
    const { view } = await viewOf();
    let found = false;
    for (let max = 6_000; max >= 1_000 && !found; max -= 100) {
      const overview = await renderOverview(view, max);
      found = /^ {2}thing0\(…\): Thing0$/m.test(overview);
    }
    assert.ok(found);
  });

  test('MUST NOT exceed the budget, at any budget', async () => {
    const { view } = await viewOf();
    for (let max = 1_000; max <= 20_000; max += 113) {
      const overview = await renderOverview(view, max);
      assert.ok(overview.length <= max, `${overview.length} > ${max}`);
    }
  });

  test('cuts its lists with "… N more" at the smallest budgets', async () => {
    const { view } = await viewOf();
    const overview = await renderOverview(view, 1_000);
    assert.match(overview, /^# Mutation \(25 fields\): .*… \d+ more$/m);
  });

  test('names the roots in a schema definition when they are not called Query and Mutation', async () => {
    const { view } = await viewOf(
      SDL.replace(/\bQuery\b/g, 'Root') + '\nschema { query: Root mutation: Mutation }',
    );
    const overview = await renderOverview(view, 5_000);
    assert.match(overview, /^schema \{ query: Root mutation: Mutation \}$/m);
  });
});

describe('answerSchemaQuestion', () => {
  const SMALL = /* GraphQL */ `
    "A book."
    type Book {
      title: String!
      isbn: String @deprecated(reason: "Use isbn13.")
    }
    type Query {
      "Books, newest first."
      books: [Book!]!
    }
  `;

  test('gives a schema that fits whole, as printSchema prints it, after a line counting the deprecated left out', async () => {
    const { schema, view } = await viewOf(SMALL);
    const answer = await answerSchemaQuestion(schema, view, {}, 40_000);
    assert.equal(
      answer,
      '# Deprecated members left out: 1 (fields, arguments, input fields, enum values); includeDeprecated: true shows them.\n' +
        printSchema(view.schema),
    );
  });

  test('gives the overview for a schema that does not fit', async () => {
    const { schema, view } = await viewOf();
    const answer = await answerSchemaQuestion(schema, view, {}, 5_000);
    assert.match(answer, /^# Overview: /);
    assert.ok(answer.length <= 5_000);
  });

  test('gives the definitions, then the search, when both are asked', async () => {
    const { schema, view } = await viewOf(SMALL);
    const answer = await answerSchemaQuestion(schema, view, { typeNames: ['Book'], search: 'books' }, 40_000);
    assert.match(answer, /^# Book — path: Query\.books\n/);
    assert.match(answer, /\n\n# search "books": /);
  });

  test('says the search was not shown when the definitions used the budget', async () => {
    const { schema, view } = await viewOf();
    const names = Array.from({ length: 30 }, (_, i) => `Thing${i}`);
    const answer = await answerSchemaQuestion(schema, view, { typeNames: names, search: 'thing' }, 1_500);
    assert.ok(answer.length <= 1_500);
    assert.match(answer, /# search "thing": not shown, the definitions above used the character limit/);
  });

  test('gives the same answer to the same question', async () => {
    const { schema, view } = await viewOf();
    const first = await answerSchemaQuestion(schema, view, { search: 'thing' }, 3_000);
    assert.equal(await answerSchemaQuestion(schema, view, { search: 'thing' }, 3_000), first);
  });
});
