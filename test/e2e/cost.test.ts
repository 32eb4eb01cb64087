// A query's cost before it is sent (--maxCost): the list items it can return, estimated from its slicing
// arguments, the schema and @listSize, refused over the limit with nothing sent, allowed at it, and shown where
// decisions are made (the result near the limit, the person's question, the schema answers). The demo library
// API records every request it receives: its log proves what was sent.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildSchema, printSchema } from 'graphql';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { CLIENT_VIEWS, modelSees, structuredNotes } from '../fixtures/client-views.ts';
import { CLI, startMcp, texts, useSession, type CallToolResult } from '../fixtures/mcp.ts';

const library = createLibraryApi();
let api: RunningGraphQLServer;
let prisma: RunningGraphQLServer;
let ibm: RunningGraphQLServer;
let work: string;

// An API that slices as Prisma does: a negative `take` returns the last n items, no `take` all of them; 50 items
// at every level.
interface Item {
  readonly id: string;
  children(args: { take?: number | null }): Item[];
}
const taken = (prefix: string, { take }: { take?: number | null }): Item[] => {
  const all = Array.from({ length: 50 }, (_, i) => item(`${prefix}${i}`));
  return take == null ? all : take >= 0 ? all.slice(0, take) : all.slice(take);
};
const item = (id: string): Item => ({ id, children: (args) => taken(`${id}.`, args) });
const prismaSchema = buildSchema(`
  type Query { items(take: Int): [Item!]! }
  type Item { id: ID! children(take: Int): [Item!]! }
`);

// The IBM cost specification's examples, served: users(max:) returns that many users.
const IBM_SDL = fileURLToPath(new URL('../fixtures/cost/ibm-cost-spec.graphql', import.meta.url));
const ibmUsers = ({ max }: { max?: number | null }) =>
  Array.from({ length: max ?? 3 }, (_, i) => ({ name: `user ${i}`, age: 20 + i }));

before(async () => {
  api = await serveGraphQL(library.schema, library.rootValue);
  prisma = await serveGraphQL(prismaSchema, { items: (args: { take?: number | null }) => taken('', args) });
  ibm = await serveGraphQL(buildSchema(readFileSync(IBM_SDL, 'utf8')), { users: ibmUsers });
  work = mkdtempSync(join(tmpdir(), 'graphql-mcp-cost-'));
});
after(async () => {
  await Promise.all([api.close(), prisma.close(), ibm.close()]);
  rmSync(work, { recursive: true, force: true });
});

const text = (result: CallToolResult) => texts(result).join('\n');
/** The documents the API received that select `field` (introspection requests left out). */
const sent = (field: string) =>
  api.requests.filter((request) => request.body.includes(field) && !request.body.includes('__schema')).length;

// With the schema known, books(first: 5) is 5 books, and each book's reviews (a list without slicing
// arguments) counts 10: 5 + 5 × 10 = 55.
const FIVE_BOOKS = '{ books(first: 5) { title reviews { text } } }';
const SIX_BOOKS = '{ books(first: 6) { title reviews { text } } }';

describe('--maxCost with the schema known (--validate=always)', () => {
  const session = useSession(() => [`--endpoint=${api.url}`, '--validate=always', '--maxCost=55']);

  test('MUST send a query whose estimate equals the limit, and say it came near', async () => {
    const before = sent('books(first: 5)');
    const result = await session().call('graphql_query', { query: FIVE_BOOKS });
    assert.equal(result.isError, undefined, text(result));
    assert.equal(sent('books(first: 5)'), before + 1);
    const note = texts(result).find((line) => line.startsWith('Cost: '));
    assert.match(
      note ?? '',
      /^Cost: this query can return 55 list items by its estimate, near the limit of 55/,
    );
    assert.match(note!, /books\.reviews: 50 \(91%\)/);
    // Whatever part of the result a client hands its model, the note is in it, whole.
    for (const view of CLIENT_VIEWS) assert.ok(modelSees(result, view).includes(note!), view);
    assert.deepEqual(structuredNotes(result), [note]);
  });

  test('MUST refuse a query over the limit before anything is sent, with the estimate, the largest parts and how to lower them', async () => {
    const before = sent('books(first: 6)');
    const result = await session().call('graphql_query', { query: SIX_BOOKS });
    assert.equal(result.isError, true);
    assert.equal(
      text(result),
      'COST_LIMIT: the query can return 66 list items by its estimate, more than the limit of 55; nothing was ' +
        'sent. Largest: books.reviews: 60 (91%), leave out reviews or select less under it; books: 6 (9%), ' +
        'ask for first: 5 on books',
    );
    assert.equal(sent('books(first: 6)'), before, 'nothing reached the API');
  });

  test('counts a slicing argument given through a variable, or its default', async () => {
    const query = 'query Books($n: Int = 6) { books(first: $n) { title reviews { text } } }';
    const over = await session().call('graphql_query', { query });
    assert.match(text(over), /^COST_LIMIT: the query can return 66 list items/);
    const at = await session().call('graphql_query', { query, variables: { n: 5 } });
    assert.equal(at.isError, undefined, text(at));
  });

  test('a cheap query carries no note', async () => {
    const result = await session().call('graphql_query', { query: '{ books(first: 1) { title } }' });
    assert.equal(result.isError, undefined, text(result));
    assert.ok(!texts(result).some((line) => line.startsWith('Cost: ')), text(result));
  });

  test('the tool says the limit', async () => {
    const { tools } = await session().client.listTools();
    const query = tools.find((tool) => tool.name === 'graphql_query')!;
    assert.match(query.description ?? '', /may return at most 55 list items, estimated from first\/limit/);
  });
});

describe('--maxCost without a schema, and turned off', () => {
  test('without a schema only a field given a slicing argument counts: books(first: 6) is 6', async () => {
    const session = await startMcp([`--endpoint=${api.url}`, '--validate=off', '--maxCost=6']);
    try {
      const at = await session.call('graphql_query', { query: SIX_BOOKS });
      assert.equal(at.isError, undefined, text(at));
      const over = await session.call('graphql_query', {
        query: '{ books(first: 7) { title reviews { text } } }',
      });
      assert.match(
        text(over),
        /^COST_LIMIT: the query can return 7 list items by its estimate, more than the limit of 6/,
      );
    } finally {
      await session.close();
    }
  });

  test('--maxCost=0 sends whatever the estimate', async () => {
    const session = await startMcp([`--endpoint=${api.url}`, '--validate=always', '--maxCost=0']);
    try {
      const before = sent('books(first: 1000)');
      const result = await session.call('graphql_query', {
        query: '{ books(first: 1000) { reviews { book { reviews { text } } } } }',
      });
      assert.equal(result.isError, undefined, text(result));
      assert.equal(sent('books(first: 1000)'), before + 1);
      assert.ok(!texts(result).some((line) => line.startsWith('Cost: ')));
    } finally {
      await session.close();
    }
  });
});

describe("an operation tool's cost counts the variables of each call", () => {
  const session = useSession(() => {
    writeFileSync(
      join(work, 'books.graphql'),
      'query Books($n: Int!) { books(first: $n) { title reviews { text } } }',
    );
    return [
      `--endpoint=${api.url}`,
      '--validate=always',
      '--maxCost=55',
      `--operations=${join(work, 'books.graphql')}`,
    ];
  });

  test('refused over the limit, sent at it', async () => {
    const over = await session().call('Books', { n: 6 });
    assert.match(text(over), /^COST_LIMIT: the query can return 66 list items/);
    const at = await session().call('Books', { n: 5 });
    assert.equal(at.isError, undefined, text(at));
  });
});

describe('the person asked to confirm a mutation sees the lists it may touch', () => {
  test('the question names each list with the size counted', async () => {
    const questions: string[] = [];
    const client = new ClientV1(
      { name: 'cost-question', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(request.params.message);
      return { action: 'decline' };
    });
    await client.connect(
      new StdioTransportV1({
        command: process.execPath,
        args: [CLI, `--endpoint=${api.url}`, '--validate=always'],
        env: { PATH: process.env.PATH ?? '' },
        stderr: 'ignore',
      }),
    );
    try {
      const result = (await client.callTool({
        name: 'graphql_query',
        arguments: {
          query: 'mutation { addReview(bookId: "b1", rating: 4) { book { reviews { text } } } }',
          allowMutations: true,
        },
      })) as CallToolResult;
      assert.match(text(result), /^MUTATION_DECLINED: /);
      assert.equal(questions.length, 1);
      assert.match(
        questions[0]!,
        /^Lists it may touch \(estimated items\): addReview\.book\.reviews up to 10 \(no size given, counted as 10\)$/m,
      );
    } finally {
      await client.close();
    }
  });
});

describe('graphql_introspect says what lists count', () => {
  const session = useSession(() => [`--endpoint=${api.url}`]);

  test('a type answer names its list fields by how they are sized', async () => {
    const answer = text(await session().call('graphql_introspect', { typeNames: ['Query', 'Book.reviews'] }));
    assert.match(answer, /^# Cost: list: slice with first \(default 10\): books$/m);
    assert.match(answer, /^# Cost: list without slicing arguments \(counted as 10\): authors, search$/m);
    assert.match(answer, /# Book\.reviews — .*\n# Cost: list without slicing arguments \(counted as 10\)\n/);
  });

  test('a search hit on a list field says how it is sized', async () => {
    const answer = text(await session().call('graphql_introspect', { search: 'books' }));
    assert.match(
      answer,
      /# Query\.books — .*\n.*\nbooks\(.*\n# Cost: list: slice with first \(default 10\)\n/,
    );
  });
});

describe('@listSize in an SDL schema file (--schema)', () => {
  const session = useSession(() => {
    const sdl =
      'directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], ' +
      'requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION\n\n' +
      printSchema(library.schema).replace(
        /^( {2}authors: \[Author!\]!)$/m,
        // A deprecated list beside it, which answers without includeDeprecated leave out.
        '$1 @listSize(assumedSize: 3)\n  formerAuthors: [Author!]! @deprecated(reason: "Use authors.")',
      );
    assert.match(sdl, /@listSize\(assumedSize: 3\)/);
    writeFileSync(join(work, 'library.graphql'), sdl);
    return [`--endpoint=${api.url}`, `--schema=${join(work, 'library.graphql')}`, '--maxCost=32'];
  });

  test('counts the assumed size, and refuses over the limit', async () => {
    // authors: 3, each author's books (no slicing arguments): 10 → 3 + 30 = 33.
    const before = sent('authors');
    const result = await session().call('graphql_query', { query: '{ authors { name books { title } } }' });
    assert.match(
      text(result),
      /^COST_LIMIT: the query can return 33 list items by its estimate, more than the limit of 32; nothing was sent\. Largest: authors\.books: 30 \(91%\)/,
    );
    assert.equal(sent('authors'), before);
    const cheap = await session().call('graphql_query', { query: '{ authors { name } }' });
    assert.equal(cheap.isError, undefined, text(cheap));
  });

  test('the schema answer shows it', async () => {
    const answer = text(await session().call('graphql_introspect', { typeNames: ['Query'] }));
    assert.match(answer, /^# Cost: list of at most 3 \(@listSize\): authors$/m);
    assert.doesNotMatch(answer, /formerAuthors/);
    const all = text(
      await session().call('graphql_introspect', { typeNames: ['Query'], includeDeprecated: true }),
    );
    assert.match(all, /^# Cost: list without slicing arguments \(counted as 10\): .*formerAuthors/m);
  });
});

describe('a negative, null or missing slicing value is no way past --maxCost', () => {
  const PRISMA = '{ items(take: -40) { children(take: -40) { children(take: -40) { id } } } }';
  /** Documents the Prisma-style API received, the introspection that validation sends left out. */
  const prismaSent = () => prisma.requests.filter((request) => !request.body.includes('__schema')).length;

  test('the API reads a negative take as the last n items', async () => {
    const response = await fetch(prisma.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ items(take: -2) { id children(take: -1) { id } } }' }),
    });
    assert.deepEqual(await response.json(), {
      data: {
        items: [
          { id: '48', children: [{ id: '48.49' }] },
          { id: '49', children: [{ id: '49.49' }] },
        ],
      },
    });
  });

  describe('without a schema', () => {
    const session = useSession(() => [`--endpoint=${prisma.url}`, '--validate=off', '--maxCost=200']);

    test("MUST NOT send Prisma's take: -40 three levels deep at --maxCost=200 (65,640 items)", async () => {
      const before = prismaSent();
      const result = await session().call('graphql_query', { query: PRISMA });
      assert.equal(result.isError, true);
      assert.equal(
        text(result),
        'COST_LIMIT: the query can return 1,010,100 list items by its estimate, more than the limit of 200; ' +
          'nothing was sent. Largest: items.children.children: 1,000,000 (99%), ask for take: 1 on children; ' +
          'items.children: 10,000 (1%), ask for take: 1 on children; items: 100 (<1%), ask for take: 1 on items',
      );
      assert.equal(prismaSent(), before, 'nothing reached the API');
    });

    test('MUST NOT send lists sliced by null, or by a variable that is null or left out', async () => {
      const before = prismaSent();
      const byNull = await session().call('graphql_query', {
        query: '{ items(take: null) { children(take: null) { id } } }',
      });
      assert.match(text(byNull), /^COST_LIMIT: the query can return 10,100 list items/);
      const query = 'query Items($n: Int) { items(take: $n) { children(take: $n) { id } } }';
      const leftOut = await session().call('graphql_query', { query });
      assert.match(text(leftOut), /^COST_LIMIT: the query can return 10,100 list items/);
      const nulled = await session().call('graphql_query', { query, variables: { n: null } });
      assert.match(text(nulled), /^COST_LIMIT: the query can return 10,100 list items/);
      assert.equal(prismaSent(), before, 'nothing reached the API');
      // The same query with a size is sent: 2 items and 2 children each.
      const sized = await session().call('graphql_query', { query, variables: { n: 2 } });
      assert.equal(sized.isError, undefined, text(sized));
      assert.equal(prismaSent(), before + 1);
    });
  });

  describe('with the schema known', () => {
    const session = useSession(() => [`--endpoint=${prisma.url}`, '--validate=always', '--maxCost=200']);

    test("MUST NOT send Prisma's take: -40 three levels deep at --maxCost=200", async () => {
      const before = prismaSent();
      const result = await session().call('graphql_query', { query: PRISMA });
      assert.match(text(result), /^COST_LIMIT: the query can return 1,010,100 list items by its estimate/);
      assert.equal(prismaSent(), before, 'nothing reached the API');
    });
  });
});

describe('with @cost weights the refusal and the note name their unit', () => {
  const session = useSession(() => [`--endpoint=${ibm.url}`, `--schema=${IBM_SDL}`, '--maxCost=14']);
  const UNIT = "cost units (list items, each weighted by @cost; not comparable with a gateway's cost budget)";
  const sentUsers = () => ibm.requests.filter((request) => request.body.includes('users')).length;

  test("MUST refuse the IBM specification's Example № 2 in cost units, neither its 5 items nor its cost of 11", async () => {
    const before = sentUsers();
    const result = await session().call('graphql_query', {
      query: 'query Example { users(max: 5) { age } }',
    });
    assert.equal(
      text(result),
      `COST_LIMIT: the query is estimated at 15 ${UNIT}, more than the limit of 14; nothing was sent. ` +
        'Largest: users.age: 10 (67%), leave out age; users: 5 (33%), ask for max: 4 on users',
    );
    assert.equal(sentUsers(), before, 'nothing reached the API');
  });

  test('the note near the limit says the same unit', async () => {
    const result = await session().call('graphql_query', { query: '{ users(max: 3) { age } }' });
    assert.equal(result.isError, undefined, text(result));
    const note = texts(result).find((line) => line.startsWith('Cost: '));
    assert.equal(
      note,
      `Cost: this query is estimated at 9 ${UNIT}, near the limit of 14 (a larger page or one more nested list ` +
        'may be refused). Largest: users.age: 6 (67%), leave out age; users: 3 (33%), ask for max: 1 on users',
    );
  });
});
