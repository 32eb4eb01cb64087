// Tool input schemas every model API accepts (test/fixtures/model-schema-rules.ts), as tools/list gives them:
// the built binary over stdio, the demo's tools and an operation for every shape a GraphQL input can take
// (test/fixtures/input-shapes/), in each configuration and protocol era. Where the rules make a schema say
// less than GraphQL, the server still refuses a bad value by name; a nullable variable can be sent as null.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { buildSchema } from 'graphql';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { CLI, startMcp, texts, useSession, type McpSession } from '../fixtures/mcp.ts';
import { modelSchemaViolations } from '../fixtures/model-schema-rules.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DEMO_OPERATIONS = join(here, '../../demo/operations');
const SHAPES = join(here, '../fixtures/input-shapes');
const SHAPES_SCHEMA = join(SHAPES, 'schema.graphql');
const SHAPES_OPERATIONS = join(SHAPES, 'operations');
const SHAPE_TOOLS = ['Filters', 'Lists', 'NoInputs', 'SaveFilter', 'Scalars'];
const MODERN = '2026-07-28';

let library: RunningGraphQLServer;
/** Serves the input-shapes schema: every field answers with the arguments it was given, as JSON. */
let shapes: RunningGraphQLServer;

before(async () => {
  const api = createLibraryApi();
  const echo = (args: unknown) => JSON.stringify(args);
  [library, shapes] = await Promise.all([
    serveGraphQL(api.schema, api.rootValue),
    serveGraphQL(buildSchema(readFileSync(SHAPES_SCHEMA, 'utf8')), {
      scalars: echo,
      lists: echo,
      filters: echo,
      saveFilter: echo,
    }),
  ]);
});
after(async () => {
  await Promise.all([library?.close(), shapes?.close()]);
});

interface ListedTool {
  name: string;
  inputSchema: unknown;
}

/** Every rule a listed tool's input schema breaks, as `tool/pointer: rule` lines (none is what passes). */
function violations(tools: readonly ListedTool[]): string[] {
  return tools.flatMap((tool) =>
    modelSchemaViolations(tool.inputSchema).map((v) => `${tool.name}${v.pointer}: ${v.rule} (${v.message})`),
  );
}

const names = (tools: readonly ListedTool[]) => tools.map((tool) => tool.name).sort();
const demoArgs = () => [`--endpoint=${library.url}`, `--operations=${DEMO_OPERATIONS}`];
const shapeArgs = () => [
  `--endpoint=${shapes.url}`,
  `--schema=${SHAPES_SCHEMA}`,
  `--operations=${SHAPES_OPERATIONS}`,
];

describe('every input schema in tools/list keeps the rules every model API accepts', () => {
  const configurations: Array<{ name: string; args: () => string[]; tools: string[] }> = [
    {
      name: "the demo's (default options, --operations=demo/operations)",
      args: demoArgs,
      tools: ['AddReview', 'BooksByGenre', 'GetBook', 'graphql_introspect', 'graphql_query'],
    },
    {
      name: "the demo's with --readOnly",
      args: () => [...demoArgs(), '--readOnly'],
      tools: ['BooksByGenre', 'GetBook', 'graphql_introspect', 'graphql_query'],
    },
    {
      name: '--tools=graphql_query',
      args: () => [`--endpoint=${library.url}`, '--tools=graphql_query'],
      tools: ['graphql_query'],
    },
    {
      name: '--tools=graphql_introspect --readOnly',
      args: () => [`--endpoint=${library.url}`, '--tools=graphql_introspect', '--readOnly'],
      tools: ['graphql_introspect'],
    },
    {
      name: 'an operation for every GraphQL input shape, with --tools=none',
      args: () => [...shapeArgs(), '--tools=none'],
      tools: SHAPE_TOOLS,
    },
  ];
  for (const configuration of configurations) {
    describe(configuration.name, () => {
      const session = useSession(configuration.args);
      test('MUST NOT list a schema any model API refuses', async () => {
        const { tools } = await session().client.listTools();
        assert.deepEqual(names(tools), configuration.tools);
        assert.deepEqual(violations(tools), []);
      });
    });
  }

  describe(`a ${MODERN} session (SDK v2 client, server/discover)`, () => {
    let client: ClientV2;
    before(async () => {
      client = new ClientV2(
        { name: 'era-2026', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: MODERN } } },
      );
      await client.connect(
        new StdioTransportV2({
          command: process.execPath,
          args: [CLI, ...shapeArgs()],
          env: { PATH: process.env.PATH ?? '' },
          stderr: 'ignore',
        }),
      );
    });
    after(() => client?.close());

    test('MUST NOT list a schema any model API refuses', async () => {
      assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
      const { tools } = await client.listTools();
      assert.deepEqual(names(tools), [...SHAPE_TOOLS, 'graphql_introspect', 'graphql_query'].sort());
      assert.deepEqual(violations(tools), []);
    });
  });
});

describe('what the looser schemas leave to the server', () => {
  const session = useSession(shapeArgs);
  /** The variables of the last request the API received. */
  const sent = () => JSON.parse(shapes.requests.at(-1)!.body).variables as Record<string, unknown>;
  /** What the API's field saw, as it echoed it. */
  const echoed = (result: Awaited<ReturnType<McpSession['call']>>, field: string) =>
    JSON.parse((result.structuredContent as { data: Record<string, string> }).data[field]!);

  test('an optional nullable variable sent as null reaches the API as null', async () => {
    const result = await session().call('Scalars', { id: 'a', note: null, count: null });
    assert.notEqual(result.isError, true, texts(result).join('\n'));
    assert.deepEqual(sent(), { id: 'a', note: null, count: null });
    assert.deepEqual(echoed(result, 'scalars'), {
      id: 'a',
      count: null,
      flag: false,
      note: null,
      order: 'ASC',
    });
  });

  test('a null inside an input object reaches the API as null', async () => {
    const result = await session().call('SaveFilter', { filter: { text: null, window: null } });
    assert.notEqual(result.isError, true, texts(result).join('\n'));
    assert.deepEqual(sent(), { filter: { text: null, window: null } });
    assert.deepEqual(echoed(result, 'saveFilter'), {
      filter: { text: null, window: null, order: 'DESC', limit: 10 },
    });
  });

  test('a null for a variable that cannot be null counts as left out: its default applies', async () => {
    const result = await session().call('Scalars', { id: 'b', flag: null });
    assert.notEqual(result.isError, true, texts(result).join('\n'));
    assert.deepEqual(sent(), { id: 'b' });
    assert.equal(echoed(result, 'scalars').flag, false);
  });

  test('null items of a list are sent, though the schema gives the items one type', async () => {
    const result = await session().call('Lists', { tags: ['x'], names: [null, 'n'], grid: [[1.5, null]] });
    assert.notEqual(result.isError, true, texts(result).join('\n'));
    assert.deepEqual(sent(), { tags: ['x'], names: [null, 'n'], grid: [[1.5, null]] });
  });

  test('MUST refuse a bad value in a list of lists with INVALID_INPUT naming the input, the place and its type, sending nothing', async () => {
    const before = shapes.requests.length;
    const result = await session().call('Lists', { tags: ['x'], matrix: [[1, 'two']] });
    assert.equal(result.isError, true);
    assert.equal(
      texts(result)[0],
      'INVALID_INPUT: input "matrix" got invalid value "two" at "matrix[0][1]"; Int cannot represent non-integer value: "two" (input "matrix" is of type [[Int!]!])',
    );
    assert.equal(shapes.requests.length, before);
  });

  test('MUST refuse a value that is no input object with INVALID_INPUT naming the input and its fields', async () => {
    const result = await session().call('Filters', { filter: 'recent' });
    assert.equal(result.isError, true);
    assert.equal(
      texts(result)[0],
      'INVALID_INPUT: input "filter" got invalid value "recent"; Expected type "Filter" to be an object. ' +
        'Fields of Filter: text: String, order: Order, limit: Int!, window: Window, all: [Filter!], not: Filter.',
    );
  });

  test('MUST refuse a bad field deep inside a recursive input object, which the schema leaves open, naming where', async () => {
    const result = await session().call('Filters', { filter: { all: [{ not: { window: { to: 'x' } } }] } });
    assert.equal(result.isError, true);
    assert.match(
      texts(result)[0]!,
      /^INVALID_INPUT: input "filter" got invalid value \{ to: "x" \} at "filter\.all\[0\]\.not\.window"; Field "from" of required type "DateTime!" was not provided\./,
    );
  });

  test('MUST refuse null for a required variable with INVALID_INPUT naming it and its type', async () => {
    const result = await session().call('Lists', { tags: null });
    assert.equal(
      texts(result)[0],
      'INVALID_INPUT: input "tags" of required type "[String!]!" was not provided.',
    );
  });
});

describe('the built-in tools validate as before, whatever their schema leaves out', () => {
  let session: McpSession;
  before(async () => (session = await startMcp([`--endpoint=${library.url}`])));
  after(() => session?.close());

  test('headers still take numbers and booleans, sent as strings', async () => {
    const result = await session.call('graphql_query', {
      query: '{ authors { name } }',
      headers: { 'X-Count': 7, 'X-Debug': true },
    });
    assert.notEqual(result.isError, true, texts(result).join('\n'));
    const { headers } = library.requests.at(-1)!;
    assert.equal(headers['x-count'], '7');
    assert.equal(headers['x-debug'], 'true');
  });

  test('MUST still refuse an unknown input and a header value that is an object, by name', async () => {
    const unknown = await session.call('graphql_query', { query: '{ authors { name } }', limit: 3 });
    assert.match(texts(unknown)[0]!, /^INVALID_INPUT: unknown input "limit" \(the inputs are query, /);
    const object = await session.call('graphql_introspect', { headers: { 'X-A': { b: 1 } } });
    assert.match(
      texts(object)[0]!,
      /^INVALID_INPUT: headers\.X-A must be a string \(or a number or boolean\)/,
    );
  });
});
