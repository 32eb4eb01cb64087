// The schema and the curated operations as MCP resources, in detail, over stdio: reads go through
// graphql_introspect's cache, headers, redaction and character budget (a --schema file included), the type
// template's completion on a large real schema, the operation resources under --readOnly and as the files
// change, and which capabilities are declared for which tools. Every era and transport: resources-eras.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildSchema, printSchema } from 'graphql';
import { createLibraryApi } from '../../demo/library-api.ts';
import { loadGitHubSchema } from '../fixtures/github-schema.ts';
import { graphqlHandler, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { startMcp, texts, type McpSession, useSession } from '../fixtures/mcp.ts';

const SCHEMA = 'graphql://default/schema';
const TYPES = 'graphql://default/types/{name}';
const TOKEN = 's3cret-token-4f9a7c21';

const library = createLibraryApi();
const QUERIES = /* GraphQL */ `
  # Books of one genre.
  query BooksByGenre($genre: Genre!) {
    books(genre: $genre) {
      id
      title
    }
  }
`;
const MUTATIONS = /* GraphQL */ `
  mutation AddReview($bookId: ID!, $rating: Int!) {
    addReview(bookId: $bookId, rating: $rating) {
      id
    }
  }
`;

let api: FaultServer;
let endpoint: string;
let refusing: string;
let echoing: string;
let work: string;
let operations: string;

/** Introspection requests a path received. */
const introspections = (path: string) =>
  api.requestsTo(path).filter((request) => request.body.includes('__schema')).length;

before(async () => {
  api = await startFaultServer();
  endpoint = api.route('/graphql', graphqlHandler(library.schema, library.rootValue));
  refusing = api.route('/refuse', ({ res }) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"errors":[{"message":"introspection is disabled"}]}');
  });
  // A schema whose description quotes the token it was fetched with, as an echoing API might.
  const echo = buildSchema(`"Fetched with Bearer ${TOKEN}."\ntype Query { ping: String }`);
  echoing = api.route('/echo', graphqlHandler(echo, { ping: () => 'pong' }));
  work = mkdtempSync(join(tmpdir(), 'graphql-mcp-resources-'));
  operations = join(work, 'operations');
  mkdirSync(operations);
  writeFileSync(join(operations, 'queries.graphql'), QUERIES);
  writeFileSync(join(operations, 'mutations.graphql'), MUTATIONS);
  writeFileSync(join(work, 'library.graphql'), printSchema(library.schema));
});

after(async () => {
  await api.close();
  rmSync(work, { recursive: true, force: true });
});

async function read(session: McpSession, uri: string): Promise<string> {
  const { contents } = await session.client.readResource({ uri });
  assert.equal(contents.length, 1);
  return (contents[0] as { text: string }).text;
}

async function uris(session: McpSession): Promise<string[]> {
  return (await session.client.listResources()).resources.map((resource) => resource.uri).sort();
}

describe('reading the schema through graphql_introspect', () => {
  const session = useSession(() => [`--endpoint=${endpoint}`, '--maxSchemaChars=1000']);

  test('keeps the schema to --maxSchemaChars: a schema larger than that is read as its overview', async () => {
    const text = await read(session(), SCHEMA);
    assert.ok(text.length <= 1000, `${text.length} characters`);
    assert.doesNotMatch(text, /^type Book \{$/m, 'not the whole SDL');
    assert.match(text, /Book/);
    assert.equal(text, texts(await session().call('graphql_introspect', {})).join('\n\n'));
  });

  test('keeps one type to --maxSchemaChars', async () => {
    const text = await read(session(), 'graphql://default/types/Book');
    assert.ok(text.length <= 1000, `${text.length} characters`);
    assert.match(text, /^type Book \{$/m);
  });

  test('reads one member of a type, as typeNames does with "Type.field"', async () => {
    const text = await read(session(), 'graphql://default/types/Book.author');
    assert.match(text, /author: Author!/);
    assert.doesNotMatch(text, /isbn13/);
  });

  // The first server of this file to ask /graphql: every request there so far is this session's.
  test('shares one introspection request with graphql_introspect (the same cache)', async () => {
    await read(session(), SCHEMA);
    await read(session(), 'graphql://default/types/Review');
    await session().call('graphql_introspect', { typeNames: ['Author'] });
    assert.equal(introspections('/graphql'), 1);
  });
});

describe('the startup headers', () => {
  const session = useSession(() => [
    `--endpoint=${echoing}`,
    `--headers={"Authorization":"Bearer ${TOKEN}"}`,
  ]);

  test('go with the introspection request of a read', async () => {
    await read(session(), SCHEMA);
    const sent = api.requestsTo('/echo').find((request) => request.body.includes('__schema'));
    assert.equal(sent?.headers.authorization, `Bearer ${TOKEN}`);
  });

  test('MUST NOT appear in a resource when the schema echoes one: it reads [redacted], with a note', async () => {
    const text = await read(session(), SCHEMA);
    assert.doesNotMatch(text, new RegExp(TOKEN));
    assert.match(text, /Fetched with \[redacted\]\./);
    assert.match(text, /Note: 1 value in this schema matched credentials sent with this request/);
  });
});

describe('completions', () => {
  // A schema with a type named like the startup header's value: an API may name a type after anything.
  const secret = 'Tk9f8e7d6c5b4aSecret';
  let typed: string;
  before(() => {
    const schema = buildSchema(
      `type ${secret} { a: Int }\ntype Tk9Plain { a: Int }\ntype Query { x: ${secret} y: Tk9Plain }`,
    );
    typed = api.route('/secret-types', graphqlHandler(schema, {}));
  });
  const session = useSession(() => [`--endpoint=${typed}`, `--headers={"X-Api-Key":"${secret}"}`]);

  test('MUST NOT complete a type name that is a startup secret', async () => {
    const { completion } = await session().client.complete({
      ref: { type: 'ref/resource', uri: TYPES },
      argument: { name: 'name', value: 'tk9' },
    });
    assert.deepEqual(completion.values, ['Tk9Plain']);
  });
});

describe('--schema', () => {
  const session = useSession(() => [`--endpoint=${refusing}`, `--schema=${join(work, 'library.graphql')}`]);

  test('serves the resources from the file, with no introspection request', async () => {
    assert.match(await read(session(), SCHEMA), /type Query \{/);
    assert.match(await read(session(), 'graphql://default/types/Genre'), /^enum Genre \{$/m);
    const { completion } = await session().client.complete({
      ref: { type: 'ref/resource', uri: TYPES },
      argument: { name: 'name', value: 'gen' },
    });
    assert.deepEqual(completion.values, ['Genre']);
    assert.equal(introspections('/refuse'), 0);
  });
});

describe('the type template on a large schema (GitHub, some 1,600 types)', () => {
  let dir: string;
  let session: McpSession;
  before(async () => {
    dir = mkdtempSync(join(work, 'github-'));
    writeFileSync(join(dir, 'github.graphql'), printSchema(loadGitHubSchema().schema));
    session = await startMcp([`--endpoint=${refusing}`, `--schema=${join(dir, 'github.graphql')}`]);
  });
  after(() => session.close());

  const complete = async (value: string) =>
    (
      await session.client.complete({
        ref: { type: 'ref/resource', uri: TYPES },
        argument: { name: 'name', value },
      })
    ).completion;

  test('completes a name case-insensitively, those that start with it before those that contain it', async () => {
    const { values } = await complete('pullrequestreviewc');
    assert.deepEqual(values.slice(0, 3), [
      'PullRequestReviewComment',
      'PullRequestReviewCommentConnection',
      'PullRequestReviewCommentEdge',
    ]);
    assert.ok(values.every((name) => /pullrequestreviewc/i.test(name)));
    const containing = await complete('reviewcomment');
    const first = containing.values.findIndex((name) => !name.toLowerCase().startsWith('reviewcomment'));
    assert.ok(
      containing.values.slice(first).every((name) => !name.toLowerCase().startsWith('reviewcomment')),
    );
  });

  test('offers at most 100 names, and says how many there are', async () => {
    const { values, total, hasMore } = await complete('');
    assert.equal(values.length, 100);
    assert.ok(total! > 1000, `total ${total}`);
    assert.equal(hasMore, true);
    assert.ok(!values.some((name) => name.startsWith('__') || name === 'String'), 'no built-in types');
  });

  test('reads the overview and one large type within the default --maxSchemaChars (40,000)', async () => {
    const overview = await read(session, SCHEMA);
    assert.ok(overview.length <= 40_000, `${overview.length} characters`);
    assert.match(overview, /Repository/);
    const repository = await read(session, 'graphql://default/types/Repository');
    assert.ok(repository.length <= 40_000, `${repository.length} characters`);
    assert.match(repository, /^type Repository implements/m);
  });
});

describe('curated operations as resources', () => {
  test('--readOnly leaves out the resources of mutations, as it leaves out their tools', async () => {
    const session = await startMcp([`--endpoint=${endpoint}`, `--operations=${operations}`, '--readOnly']);
    try {
      assert.deepEqual(await uris(session), ['graphql://default/operations/BooksByGenre', SCHEMA]);
    } finally {
      await session.close();
    }
  });

  test('an unknown operation is a resource not found', async () => {
    const session = await startMcp([`--endpoint=${endpoint}`, `--operations=${operations}`]);
    try {
      await assert.rejects(session.client.readResource({ uri: 'graphql://default/operations/Nope' }), {
        code: -32602,
      });
    } finally {
      await session.close();
    }
  });
});

describe('live changes in stdio mode', () => {
  let dir: string;
  let session: McpSession;
  let changes = 0;
  before(async () => {
    dir = mkdtempSync(join(work, 'live-'));
    writeFileSync(join(dir, 'queries.graphql'), QUERIES);
    session = await startMcp([`--endpoint=${endpoint}`, `--operations=${dir}`]);
    session.client.setNotificationHandler('notifications/resources/list_changed', () => void changes++);
  });
  after(() => session.close());

  const waitFor = async (what: () => boolean | Promise<boolean>, ms = 5_000) => {
    const until = Date.now() + ms;
    while (!(await what())) {
      if (Date.now() > until) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  test('an edited operation file changes the resources, and the client is told', async () => {
    const before = changes;
    writeFileSync(join(dir, 'queries.graphql'), '# All the books.\nquery AllBooks { books { id title } }\n');
    await waitFor(() => changes > before);
    await waitFor(async () => (await uris(session)).includes('graphql://default/operations/AllBooks'));
    assert.deepEqual(await uris(session), ['graphql://default/operations/AllBooks', SCHEMA]);
    assert.match(await read(session, 'graphql://default/operations/AllBooks'), /^# All the books\./);
    await assert.rejects(session.client.readResource({ uri: 'graphql://default/operations/BooksByGenre' }), {
      code: -32602,
    });
  });
});

describe('capabilities follow the tools the resources and prompts stand for', () => {
  const capabilitiesOf = async (args: string[]) => {
    const session = await startMcp([`--endpoint=${endpoint}`, ...args]);
    try {
      const capabilities = session.client.getServerCapabilities()!;
      const resources = capabilities.resources ? await uris(session) : undefined;
      return {
        resources: capabilities.resources,
        completions: capabilities.completions,
        prompts: capabilities.prompts,
        listed: resources,
      };
    } finally {
      await session.close();
    }
  };

  test("--tools=graphql_query: no completions or prompts, and resources only for graphql_query's MCP Apps view (none listed to a client that declares no MCP Apps)", async () => {
    const session = await startMcp([`--endpoint=${endpoint}`, '--tools=graphql_query']);
    try {
      const capabilities = session.client.getServerCapabilities()!;
      assert.deepEqual(
        [capabilities.resources, capabilities.completions, capabilities.prompts],
        [{ listChanged: false }, undefined, undefined],
      );
      assert.deepEqual((await session.client.listResources()).resources, []);
      await assert.rejects(session.client.request({ method: 'prompts/list' }), { code: -32601 });
    } finally {
      await session.close();
    }
  });

  test('--tools=graphql_introspect: the schema resources and their completion, no prompts (they need both tools)', async () => {
    assert.deepEqual(await capabilitiesOf(['--tools=graphql_introspect']), {
      resources: { listChanged: false },
      completions: {},
      prompts: undefined,
      listed: [SCHEMA],
    });
  });

  test('--tools=none --operations: the operation resources alone, no completions or prompts', async () => {
    assert.deepEqual(await capabilitiesOf(['--tools=none', `--operations=${operations}`]), {
      resources: { listChanged: true },
      completions: undefined,
      prompts: undefined,
      listed: ['graphql://default/operations/AddReview', 'graphql://default/operations/BooksByGenre'],
    });
  });
});
