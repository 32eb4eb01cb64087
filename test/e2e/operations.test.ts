// Curated operations as tools (--operations), the built-in tools chosen (--tools), and a schema from a file
// (--schema), against a real GraphQL server on 127.0.0.1 whose introspection is turned off, as production
// servers have it.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  buildSchema,
  execute,
  introspectionFromSchema,
  NoSchemaIntrospectionCustomRule,
  parse,
  printSchema,
  specifiedRules,
  validate,
} from 'graphql';
import { runUntilExitOrServing } from '../fixtures/http-mcp.ts';
import { graphqlHandler, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { runCli, startMcp, texts, type McpSession, useSession } from '../fixtures/mcp.ts';

const SDL = /* GraphQL */ `
  "A product category."
  enum Category {
    BOOKS
    GAMES
    TOYS
    OLD @deprecated(reason: "Gone.")
  }

  "Which products to find."
  input ProductFilter {
    "Lowest price, in cents."
    minPrice: Int
    nameContains: String!
    tags: [String!] = []
  }

  "An instant, ISO 8601."
  scalar DateTime

  type Product {
    id: ID!
    name: String!
    category: Category!
    price: Int!
  }

  type Query {
    "Products of a category that match a filter."
    products(category: Category!, filter: ProductFilter, ids: [ID!]): [Product!]!
    "One product by id."
    product(id: ID!): Product
    changedSince(at: DateTime!): [Product!]!
  }

  type Mutation {
    "Renames a product."
    renameProduct(id: ID!, name: String!): Product!
  }
`;

const QUERIES = /* GraphQL */ `
  # Finds products of one category.
  # Filter and ids narrow the search.
  query SearchProducts($category: Category!, $filter: ProductFilter, $ids: [ID!]) {
    products(category: $category, filter: $filter, ids: $ids) {
      ...ProductCard
    }
  }

  query GetProduct($id: ID!) {
    product(id: $id) {
      ...ProductCard
    }
  }
`;

const FRAGMENTS = /* GraphQL */ `
  fragment ProductCard on Product {
    id
    name
    category
    price
  }
`;

const MUTATIONS = /* GraphQL */ `
  mutation RenameProduct($id: ID!, $name: String!) {
    renameProduct(id: $id, name: $name) {
      id
      name
    }
  }
`;

const schema = buildSchema(SDL);
const products = [
  { id: 'p1', name: 'Dune', category: 'BOOKS', price: 1200 },
  { id: 'p2', name: 'Chess', category: 'GAMES', price: 2500 },
];
const rootValue = {
  products: ({
    category,
    filter,
    ids,
  }: {
    category: string;
    filter?: { nameContains: string };
    ids?: string[];
  }) =>
    products.filter(
      (p) =>
        p.category === category &&
        (filter === undefined || p.name.includes(filter.nameContains)) &&
        (ids === undefined || ids.includes(p.id)),
    ),
  product: ({ id }: { id: string }) => products.find((p) => p.id === id) ?? null,
  renameProduct: ({ id, name }: { id: string; name: string }) => ({
    ...products.find((p) => p.id === id)!,
    name,
  }),
};

let api: FaultServer;
let endpoint: string;
let work: string;
/** The operations folder most tests use: two queries, a mutation and a fragment, in three files. */
let folder: string;

/** Bodies of the GraphQL requests the API received. */
const received = () =>
  api.requestsTo('/graphql').map((request) => JSON.parse(request.body) as Record<string, unknown>);

before(async () => {
  api = await startFaultServer();
  // Introspection turned off, as Apollo Server has it in production.
  endpoint = api.route('/graphql', async ({ res, request }) => {
    const { query, variables } = JSON.parse(request.body) as {
      query: string;
      variables?: Record<string, unknown>;
    };
    const document = parse(query);
    const errors = validate(schema, document, [...specifiedRules, NoSchemaIntrospectionCustomRule]);
    const result =
      errors.length > 0
        ? { errors }
        : await execute({ schema, document, rootValue, variableValues: variables });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(result));
  });
  work = mkdtempSync(join(tmpdir(), 'graphql-mcp-operations-'));
  folder = join(work, 'operations');
  writeFiles(folder, {
    'queries.graphql': QUERIES,
    'fragments.gql': FRAGMENTS,
    'mutations.graphql': MUTATIONS,
  });
  writeFileSync(join(work, 'schema.graphql'), SDL);
  writeFileSync(join(work, 'schema.json'), JSON.stringify({ data: introspectionFromSchema(schema) }));
});

after(async () => {
  await api.close();
  rmSync(work, { recursive: true, force: true });
});

function writeFiles(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

describe('--operations with --schema: a folder of operations becomes tools', () => {
  const session = useSession(() => [
    `--endpoint=${endpoint}`,
    `--schema=${join(work, 'schema.graphql')}`,
    `--operations=${folder}`,
  ]);

  test('lists the two queries and the mutation beside the built-in tools', async () => {
    const { tools } = await session().client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [
      'GetProduct',
      'RenameProduct',
      'SearchProducts',
      'graphql_introspect',
      'graphql_query',
    ]);
  });

  test('gives each tool the exact input schema of its variables', async () => {
    const { tools } = await session().client.listTools();
    const search = tools.find((tool) => tool.name === 'SearchProducts')!;
    const orNull = (schema: Record<string, unknown>) => [schema, { type: 'null' }];
    assert.deepEqual(search.inputSchema, {
      type: 'object',
      properties: {
        category: { type: 'string', enum: ['BOOKS', 'GAMES', 'TOYS'], description: 'A product category.' },
        filter: {
          anyOf: orNull({
            type: 'object',
            properties: {
              minPrice: { anyOf: orNull({ type: 'integer' }), description: 'Lowest price, in cents.' },
              nameContains: { type: 'string' },
              tags: { anyOf: orNull({ type: 'array', items: { type: 'string' } }), default: [] },
            },
            required: ['nameContains'],
          }),
          description: 'Which products to find.',
        },
        ids: { anyOf: orNull({ type: 'array', items: { type: 'string' } }) },
      },
      required: ['category'],
    });
    const rename = tools.find((tool) => tool.name === 'RenameProduct')!;
    assert.deepEqual(rename.inputSchema, {
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' } },
      required: ['id', 'name'],
    });
  });

  test('describes a tool by the comments above it, else by the schema', async () => {
    const { tools } = await session().client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.equal(
      byName.get('SearchProducts')!.description,
      'Finds products of one category. Filter and ids narrow the search.',
    );
    assert.match(
      byName.get('GetProduct')!.description!,
      /^One product by id\. Runs the GraphQL query GetProduct against http:\/\/127\.0\.0\.1:\d+\/graphql\.$/,
    );
  });

  test('annotates queries read-only and idempotent, the mutation destructive, all open-world', async () => {
    const { tools } = await session().client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.deepEqual(byName.get('GetProduct')!.annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    assert.deepEqual(byName.get('RenameProduct')!.annotations, {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  test('runs a query with the variables given, enum, input object and list included', async () => {
    const before = received().length;
    const result = await session().call('SearchProducts', {
      category: 'BOOKS',
      filter: { nameContains: 'Du' },
      ids: ['p1', 'p2'],
    });
    assert.deepEqual(result.structuredContent, {
      data: { products: [{ id: 'p1', name: 'Dune', category: 'BOOKS', price: 1200 }] },
    });
    const [sent] = received().slice(before);
    assert.equal(sent!.operationName, 'SearchProducts');
    assert.deepEqual(sent!.variables, {
      category: 'BOOKS',
      filter: { nameContains: 'Du' },
      ids: ['p1', 'p2'],
    });
    assert.match(String(sent!.query), /fragment ProductCard on Product/);
  });

  test('runs the mutation without allowMutations: its author allowed it', async () => {
    const result = await session().call('RenameProduct', { id: 'p2', name: 'Go' });
    assert.deepEqual(result.structuredContent?.data, { renameProduct: { id: 'p2', name: 'Go' } });
    // This test client cannot ask its user (no elicitation): the result says the mutation ran unconfirmed.
    assert.match(
      texts(result).join('\n'),
      /ran without asking the user: this client did not declare elicitation/,
    );
  });

  test('MUST refuse a wrong enum value with INVALID_INPUT naming the variable and the values, sending nothing', async () => {
    const before = received().length;
    const result = await session().call('SearchProducts', { category: 'TOYZ' });
    assert.equal(result.isError, true);
    assert.match(texts(result)[0]!, /^INVALID_INPUT: input "category" got invalid value "TOYZ"/);
    assert.match(texts(result)[0]!, /Values of Category: BOOKS, GAMES, TOYS\./);
    assert.equal(received().length, before);
  });

  test('MUST refuse a missing required variable and a missing required input field with INVALID_INPUT naming them', async () => {
    const missing = await session().call('GetProduct', {});
    assert.match(texts(missing)[0]!, /^INVALID_INPUT: input "id" of required type "ID!" was not provided\./);
    const field = await session().call('SearchProducts', { category: 'BOOKS', filter: { minPrice: 3 } });
    assert.match(
      texts(field)[0]!,
      /^INVALID_INPUT: input "filter" got invalid value .*Field "nameContains" of required type "String!" was not provided/,
    );
  });

  test('MUST refuse an unknown input with INVALID_INPUT naming the inputs', async () => {
    const result = await session().call('GetProduct', { id: 'p1', limit: 3 });
    assert.equal(texts(result)[0], 'INVALID_INPUT: unknown input "limit" (the inputs are id)');
  });
});

describe('--readOnly with --operations', () => {
  const session = useSession(() => [
    `--endpoint=${endpoint}`,
    `--schema=${join(work, 'schema.graphql')}`,
    `--operations=${folder}`,
    '--readOnly',
  ]);
  test('leaves the mutation out, with one stderr line saying so', async () => {
    const { tools } = await session().client.listTools();
    assert.ok(!tools.some((tool) => tool.name === 'RenameProduct'));
    assert.ok(tools.some((tool) => tool.name === 'SearchProducts'));
    assert.match(
      session().stderr(),
      /RenameProduct \(.*mutations\.graphql:2\) is a mutation: left out under --readOnly/,
    );
  });
});

describe('--tools', () => {
  const none = useSession(() => [
    `--endpoint=${endpoint}`,
    `--schema=${join(work, 'schema.graphql')}`,
    `--operations=${folder}`,
    '--tools=none',
  ]);
  test('none offers only the operation tools', async () => {
    const { tools } = await none().client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [
      'GetProduct',
      'RenameProduct',
      'SearchProducts',
    ]);
  });

  const one = useSession(() => [`--endpoint=${endpoint}`, '--tools=graphql_query']);
  test('graphql_query alone offers only it', async () => {
    const { tools } = await one().client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['graphql_query'],
    );
  });

  test('MUST exit 2 on --tools=none without operations, and on an unknown tool name', () => {
    const without = runCli([`--endpoint=${endpoint}`, '--tools=none']);
    assert.equal(without.status, 2);
    assert.match(without.stderr, /--tools=none leaves no tool to offer: give --operations too/);
    const unknown = runCli([`--endpoint=${endpoint}`, '--tools=graphql_mutate']);
    assert.equal(unknown.status, 2);
    assert.match(
      unknown.stderr,
      /--tools must be none or a comma-separated list of graphql_query, graphql_introspect \(graphql_mutate is not one\)/,
    );
  });
});

describe('operation files that do not check out stop the start with exit 2 and one line', () => {
  const cases: Array<{ name: string; files: Record<string, string>; expected: RegExp }> = [
    {
      name: 'a syntax error',
      files: { 'bad.graphql': 'query Broken { products(category: BOOKS) { id }' },
      expected: /bad\.graphql:1:\d+: Syntax Error: Expected Name, found <EOF>\./,
    },
    {
      name: 'an unknown field',
      files: { 'bad.graphql': 'query Wrong {\n  product(id: "1") { nme }\n}' },
      expected:
        /bad\.graphql:2:22: Wrong: Cannot query field "nme" on type "Product"\. Did you mean "name"\?/,
    },
    {
      name: 'a duplicate operation name',
      files: {
        'a.graphql': 'query Same { product(id: "1") { id } }',
        'b.graphql': 'query Same { product(id: "2") { id } }',
      },
      expected: /b\.graphql:1: the operation name Same is used twice \(also at .*a\.graphql:1\)/,
    },
    {
      name: 'a name a built-in tool has',
      files: { 'a.graphql': 'query graphql_query { product(id: "1") { id } }' },
      expected: /a\.graphql:1: graphql_query is the name of a built-in tool/,
    },
    {
      name: 'an operation without a name',
      files: { 'a.graphql': '{ product(id: "1") { id } }' },
      expected: /a\.graphql:1: an operation without a name; name it/,
    },
    {
      name: 'an operation over --maxComplexity',
      files: { 'a.graphql': 'query Big { product(id: "1") { id name category price } }' },
      expected: /a\.graphql:1: Big selects at least 4 fields, more than --maxComplexity \(3\)/,
    },
  ];
  for (const { name, files, expected } of cases) {
    test(`MUST refuse ${name}`, () => {
      const dir = mkdtempSync(join(work, 'bad-'));
      writeFiles(dir, files);
      const run = runCli([
        `--endpoint=${endpoint}`,
        `--schema=${join(work, 'schema.graphql')}`,
        `--operations=${dir}`,
        ...(name.includes('maxComplexity') ? ['--maxComplexity=3'] : []),
      ]);
      assert.equal(run.status, 2, run.stderr);
      const lines = run.stderr.trim().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0]!, /^graphql-mcp: --operations /);
      assert.match(lines[0]!, expected);
      assert.equal(run.stdout, '');
    });
  }

  test('MUST refuse operations whose schema cannot be had (introspection off, no --schema), suggesting --schema', async () => {
    // Not runCli: its spawnSync would block this process, whose server the start-up asks.
    const run = await runUntilExitOrServing([`--endpoint=${endpoint}`, `--operations=${folder}`]);
    assert.equal(run.status, 2);
    assert.match(
      run.stderr,
      /--operations: cannot check the operations against the schema of .*INTROSPECTION_FAILED: .*introspection turned off.*give the schema with --schema/,
    );
  });
});

describe('--operations without --schema, against an endpoint that can be introspected', () => {
  let open: FaultServer;
  let url: string;
  let session: McpSession;
  before(async () => {
    open = await startFaultServer();
    url = open.route('/graphql', graphqlHandler(schema, rootValue));
    session = await startMcp([`--endpoint=${url}`, `--operations=${folder}`]);
  });
  after(async () => {
    await session.close();
    await open.close();
  });

  test('checks them against the introspected schema, which graphql_introspect then reuses', async () => {
    const result = await session.call('GetProduct', { id: 'p1' });
    assert.deepEqual(result.structuredContent, {
      data: { product: { id: 'p1', name: 'Dune', category: 'BOOKS', price: 1200 } },
    });
    await session.call('graphql_introspect', {});
    const introspections = open.requestsTo('/graphql').filter((request) => request.body.includes('__schema'));
    assert.equal(introspections.length, 1, 'one introspection, at start-up');
  });
});

describe('live changes in stdio mode', () => {
  let dir: string;
  let session: McpSession;
  const changes: number[] = [];
  before(async () => {
    dir = mkdtempSync(join(work, 'live-'));
    writeFiles(dir, { 'queries.graphql': QUERIES, 'fragments.gql': FRAGMENTS });
    session = await startMcp([
      `--endpoint=${endpoint}`,
      `--schema=${join(work, 'schema.graphql')}`,
      `--operations=${dir}`,
    ]);
    session.client.setNotificationHandler(
      'notifications/tools/list_changed',
      () => void changes.push(Date.now()),
    );
  });
  after(() => session.close());

  const waitFor = async (what: () => boolean, ms = 5_000) => {
    const until = Date.now() + ms;
    while (!what()) {
      if (Date.now() > until) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  test('says listChanged in its capabilities', () => {
    assert.equal(session.client.getServerCapabilities()?.tools?.listChanged, true);
  });

  test('an edited file changes the tool list, and the client is told', async () => {
    const before = changes.length;
    writeFileSync(
      join(dir, 'queries.graphql'),
      `${QUERIES}\nquery ChangedSince($at: DateTime!) { changedSince(at: $at) { id } }\n`,
    );
    await waitFor(() => changes.length > before);
    await waitFor(() => /reloaded/.test(session.stderr()));
    const { tools } = await session.client.listTools();
    const added = tools.find((tool) => tool.name === 'ChangedSince');
    assert.ok(added, 'the new operation is a tool');
    assert.deepEqual(added.inputSchema, {
      type: 'object',
      properties: { at: { type: 'string', description: 'An instant, ISO 8601.' } },
      required: ['at'],
    });
  });

  test('a file that no longer checks out keeps the previous tools and says why on stderr', async () => {
    writeFileSync(join(dir, 'queries.graphql'), 'query Broken { nothing }');
    await waitFor(() => /the previous tools stay/.test(session.stderr()));
    assert.match(
      session.stderr(),
      /--operations changed but .*queries\.graphql:1:16: Broken: Cannot query field "nothing" on type "Query"\.; the previous tools stay/,
    );
    const { tools } = await session.client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'ChangedSince'));
    const result = await session.call('GetProduct', { id: 'p1' });
    assert.equal(result.isError, undefined);
  });
});

describe('--schema serves graphql_introspect and validation with no introspection request', () => {
  for (const file of ['schema.graphql', 'schema.json']) {
    describe(file, () => {
      const session = useSession(() => [`--endpoint=${endpoint}`, `--schema=${join(work, file)}`]);

      test('graphql_introspect answers from the file, whole, and sends nothing', async () => {
        const before = api.requestsTo('/graphql').length;
        const result = await session().call('graphql_introspect', {});
        assert.equal(result.isError, undefined, texts(result)[0]);
        const text = texts(result)[0]!;
        assert.ok(text.includes('type Product {'), text);
        assert.ok(text.startsWith('# Deprecated members left out: 1 '));
        assert.ok(
          text.endsWith(
            printSchema(buildSchema(SDL.replace(/\n\s*OLD @deprecated\(reason: "Gone."\)/, ''))).slice(-200),
          ),
        );
        const search = await session().call('graphql_introspect', { search: 'rename' });
        assert.match(texts(search)[0]!, /renameProduct/);
        assert.equal(api.requestsTo('/graphql').length, before);
      });

      test('graphql_query is validated against it before anything is sent', async () => {
        const before = api.requestsTo('/graphql').length;
        const result = await session().call('graphql_query', { query: '{ product(id: "p1") { nmae } }' });
        assert.match(texts(result)[0]!, /^VALIDATION_FAILED: .*Did you mean "name"\?/);
        assert.equal(api.requestsTo('/graphql').length, before);
      });
    });
  }

  test('MUST exit 2 naming the file, line and column of a bad SDL file, and a JSON file that is no introspection', () => {
    const sdl = join(work, 'bad.graphql');
    writeFileSync(sdl, 'type Query {\n  a: Strin\n}\n');
    const bad = runCli([`--endpoint=${endpoint}`, `--schema=${sdl}`]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^graphql-mcp: --schema .*bad\.graphql(:\d+:\d+)?: Unknown type "Strin"/);
    const broken = join(work, 'broken.graphql');
    writeFileSync(broken, 'type Query {\n  a: String\n');
    const syntax = runCli([`--endpoint=${endpoint}`, `--schema=${broken}`]);
    assert.match(syntax.stderr, /broken\.graphql:3:1: Syntax Error: Expected Name, found <EOF>\./);
    const json = join(work, 'other.json');
    writeFileSync(json, '{"hello": 1}');
    const other = runCli([`--endpoint=${endpoint}`, `--schema=${json}`]);
    assert.equal(other.status, 2);
    assert.match(other.stderr, /other\.json: not an introspection result/);
    const missing = runCli([`--endpoint=${endpoint}`, `--schema=${join(work, 'nowhere.graphql')}`]);
    assert.match(missing.stderr, /nowhere\.graphql: cannot be read \(ENOENT\)/);
  });
});
