// The model's second chance: results that fit its context, mistakes caught before they are sent, failures that
// say what to do. Against a real GraphQL server on 127.0.0.1 that, like Apollo's hideSchemaDetailsFromClientErrors
// or GitHub's API, never suggests names in its error messages.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { buildSchema, graphql, GraphQLError } from 'graphql';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { texts, type CallToolResult, useSession } from '../fixtures/mcp.ts';
import { seeded } from '../fixtures/seeded.ts';

const SDL = /* GraphQL */ `
  enum ItemOrder {
    ID_ASC
    ID_DESC
    NAME_ASC
  }
  input ItemFilter {
    name: String
    minPrice: Int
  }
  type Item {
    id: ID!
    name: String!
    description: String!
  }
  type ItemEdge {
    cursor: String!
    node: Item!
  }
  type PageInfo {
    endCursor: String
    hasNextPage: Boolean!
  }
  type ItemConnection {
    edges: [ItemEdge!]!
    pageInfo: PageInfo!
  }
  type Query {
    bigList(count: Int!): [Item!]!
    denseList(kind: String!, count: Int!): [Item!]!
    items(first: Int, after: String, filter: ItemFilter, order: ItemOrder): ItemConnection!
    blob(chars: Int!): String!
    failing: String
    legacy(order: String): String!
  }
`;

const item = (i: number) => ({
  id: `item-${i}`,
  name: `Item number ${i}`,
  description:
    `A description of item ${i}, long enough to make a list of thousands weigh about a megabyte.`.repeat(1),
});

/** Text far denser in tokens than English: 40,000 characters of it are 30,000 to 75,000 tokens. */
const DENSE: Record<string, (random: () => number) => string> = {
  chinese: () => '北京是中华人民共和国的首都，也是全国的政治、文化和国际交往中心。这座城市有三千多年的历史。',
  emoji: (random) =>
    Array.from({ length: 30 }, () => String.fromCodePoint(0x1f600 + Math.floor(random() * 80))).join(''),
  ascii: (random) =>
    Array.from({ length: 80 }, () => String.fromCharCode(33 + Math.floor(random() * 94))).join(''),
  symbols: (random) =>
    Array.from({ length: 40 }, () => String.fromCharCode(0x2190 + Math.floor(random() * 0x600))).join(''),
};

const rootValue = {
  bigList: ({ count }: { count: number }) => Array.from({ length: count }, (_, i) => item(i)),
  denseList: ({ kind, count }: { kind: string; count: number }) => {
    const random = seeded(count);
    return Array.from({ length: count }, (_, i) => ({
      id: `item-${i}`,
      name: DENSE[kind]!(random),
      description: DENSE[kind]!(random),
    }));
  },
  items: ({ first }: { first?: number }) => {
    const nodes = Array.from({ length: first ?? 10 }, (_, i) => item(i));
    return {
      edges: nodes.map((node) => ({ cursor: `c${node.id}`, node })),
      pageInfo: { endCursor: `c${nodes.at(-1)?.id}`, hasNextPage: true },
    };
  },
  blob: ({ chars }: { chars: number }) => 'x'.repeat(chars),
  failing: () => {
    throw new Error('this field always fails');
  },
  // Like PostGraphile, an error naming an enum without its values.
  legacy: ({ order }: { order?: string }) => {
    throw new Error(`Value "${order}" does not exist in "ItemOrder" enum.`);
  },
};

interface Api {
  readonly origin: string;
  readonly url: string;
  /** The documents received at /graphql, in order. */
  readonly queries: string[];
  close(): Promise<void>;
}

let api: Api;

before(async () => {
  const schema = buildSchema(SDL);
  const queries: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '').split('?')[0];
    const reply = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    if (path === '/not-here') return reply(404, 'text/plain', 'no such route');
    if (path === '/get-only') return reply(405, 'text/plain', 'method not allowed', { allow: 'GET, HEAD' });
    if (path === '/login-page') return reply(401, 'text/html', '<html>please log in</html>');
    if (path === '/unauthenticated') {
      return reply(
        401,
        'application/json',
        JSON.stringify({
          errors: [{ message: 'Not authenticated', extensions: { code: 'UNAUTHENTICATED' } }],
        }),
      );
    }
    const { query, variables } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      query: string;
      variables?: Record<string, unknown>;
    };
    queries.push(query);
    const result = await graphql({ schema, source: query, rootValue, variableValues: variables });
    // Suggestions hidden, as production servers do.
    const errors = result.errors?.map(
      (error: GraphQLError) =>
        new GraphQLError(error.message.replace(/ Did you mean .*\?$/, ''), { path: error.path ?? undefined }),
    );
    reply(
      result.data === undefined ? 400 : 200,
      'application/json',
      JSON.stringify({ ...result, ...(errors ? { errors } : {}) }),
    );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  api = {
    origin,
    url: `${origin}/graphql`,
    queries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
});

after(() => api.close());

const tokens = (result: CallToolResult) => encode(texts(result).join('\n')).length;

describe('results within a budget (--maxResultChars, default 40,000)', () => {
  const session = useSession(() => [`--endpoint=${api.url}`]);

  test('MUST shorten a response of about 1 MB to valid JSON within 40,000 characters, saying what was cut', async () => {
    const result = await session().call('graphql_query', {
      query: '{ bigList(count: 6000) { id name description } }',
    });
    const [text, note] = texts(result);
    assert.ok(text!.length <= 40_000, `${text!.length} characters`);
    const parsed = JSON.parse(text!) as { data: { bigList: unknown[] } };
    assert.deepEqual(
      parsed,
      result.structuredContent,
      'the text and structuredContent are the same response',
    );
    const kept = parsed.data.bigList.length;
    assert.ok(kept > 100 && kept < 6000, `${kept} items kept`);
    assert.deepEqual(parsed.data.bigList[0], item(0), 'the first items are kept whole');
    assert.match(note!, new RegExp(`data\\.bigList kept ${kept.toLocaleString('en-US')} of 6,000 items`));
    assert.match(note!, /it had 9\d\d,\d{3} characters/);
    assert.match(note!, /first: /);
    assert.ok(tokens(result) <= 20_000, `${tokens(result)} tokens`);
  });

  for (const kind of Object.keys(DENSE)) {
    test(`MUST keep a response of dense text (${kind}) within about 20,000 tokens, with fewer characters`, async (t) => {
      const result = await session().call('graphql_query', {
        query: `{ denseList(kind: "${kind}", count: 3000) { id name description } }`,
      });
      const [text, note] = texts(result);
      t.diagnostic(`${text!.length} characters, ${tokens(result)} tokens (o200k)`);
      assert.ok(tokens(result) <= 20_000, `${tokens(result)} tokens`);
      assert.ok(text!.length < 40_000, `${text!.length} characters`);
      assert.deepEqual(JSON.parse(text!), result.structuredContent);
      assert.match(
        note!,
        /\(--maxResultChars is 40,000, and about 20,000 tokens: fewer characters for text this dense\)/,
      );
      assert.match(note!, /data\.denseList kept [\d,]+ of 3,000 items/);
    });
  }

  test('MUST NOT take characters from a response of ordinary English JSON for its tokens', async () => {
    const result = await session().call('graphql_query', {
      query: '{ bigList(count: 6000) { id name description } }',
    });
    const [text, note] = texts(result);
    assert.ok(text!.length > 39_000, `${text!.length} characters`);
    assert.match(note!, /shortened to fit 40,000 characters \(--maxResultChars\); it had/);
  });

  test('MUST cut a very long string with a marker and say how much it kept', async () => {
    const result = await session().call('graphql_query', { query: '{ blob(chars: 200000) }' });
    const [text, note] = texts(result);
    assert.ok(text!.length <= 40_000);
    const blob = (JSON.parse(text!) as { data: { blob: string } }).data.blob;
    assert.ok(blob.endsWith('…[cut]'));
    assert.match(
      note!,
      new RegExp(`data\\.blob kept ${(blob.length - 6).toLocaleString('en-US')} of 200,000 characters`),
    );
  });

  test('MUST NOT cut away errors: a partial result keeps every error', async () => {
    const result = await session().call('graphql_query', {
      query: '{ bigList(count: 6000) { id name description } failing }',
    });
    const parsed = JSON.parse(texts(result)[0]!) as { errors: Array<{ message: string }> };
    assert.equal(parsed.errors.length, 1);
    assert.equal(parsed.errors[0]!.message, 'this field always fails');
    assert.equal(result.isError, undefined, 'partial data is a result');
  });

  test('points to the cursor fields of a connection to read the next page', async () => {
    const result = await session().call('graphql_query', {
      query:
        '{ items(first: 4000) { edges { cursor node { id name description } } pageInfo { endCursor hasNextPage } } }',
    });
    const note = texts(result)[1]!;
    assert.match(note, /data\.items\.edges kept [\d,]+ of 4,000 items/);
    assert.match(note, /data\.items\.pageInfo: pass endCursor as after:/);
    const parsed = JSON.parse(texts(result)[0]!) as { data: { items: { pageInfo: unknown } } };
    assert.deepEqual(parsed.data.items.pageInfo, { endCursor: 'citem-3999', hasNextPage: true });
  });

  test('leaves a response that fits as it is, with no note', async () => {
    const result = await session().call('graphql_query', { query: '{ bigList(count: 3) { id } }' });
    assert.equal(texts(result).length, 1);
  });
});

describe('--maxResultChars=0 turns shaping off', () => {
  const session = useSession(() => [`--endpoint=${api.url}`, '--maxResultChars=0']);

  test('returns the whole response', async () => {
    const result = await session().call('graphql_query', { query: '{ bigList(count: 2000) { id name } }' });
    assert.equal(
      (JSON.parse(texts(result)[0]!) as { data: { bigList: unknown[] } }).data.bigList.length,
      2000,
    );
    assert.equal(texts(result).length, 1);
  });
});

describe('validation before sending, once the schema is known', () => {
  const session = useSession(() => [`--endpoint=${api.url}`]);
  before(async () => {
    const introspected = await session().call('graphql_introspect', {});
    assert.equal(introspected.isError, undefined);
  });

  const refused = async (query: string, variables?: Record<string, unknown>) => {
    const before = api.queries.length;
    const result = await session().call('graphql_query', { query, ...(variables ? { variables } : {}) });
    assert.equal(result.isError, true);
    assert.equal(api.queries.length, before, 'MUST NOT send a document that fails validation');
    const text = texts(result)[0]!;
    assert.match(
      text,
      /^VALIDATION_FAILED: the document does not match the schema of http:\/\/127\.0\.0\.1:\d+\/graphql, so it was not sent: 1\) /,
    );
    return text;
  };

  test('refuses a misspelt field with the suggestion and the fields of its type', async () => {
    const text = await refused('{ bigList(count: 2) { id nme } }');
    assert.match(
      text,
      /Cannot query field "nme" on type "Item"\. Did you mean "name"\? \(line 1, column 26\)/,
    );
    assert.match(text, /Fields of Item: id, name, description\./);
  });

  test('refuses a misspelt argument with the arguments of the field', async () => {
    const text = await refused('{ bigList(cont: 2) { id } }');
    assert.match(text, /Unknown argument "cont" on field "Query\.bigList"/);
    assert.match(text, /Arguments of Query\.bigList: count: Int!\./);
  });

  test('refuses a misspelt enum value with the values of the enum', async () => {
    const text = await refused('{ items(order: ID_AS) { pageInfo { hasNextPage } } }');
    assert.match(text, /Values of ItemOrder: ID_ASC, ID_DESC, NAME_ASC\./);
  });

  test('refuses a misspelt input field with the fields of the input type', async () => {
    const text = await refused('{ items(filter: { nam: "x" }) { pageInfo { hasNextPage } } }');
    assert.match(text, /Fields of ItemFilter: name: String, minPrice: Int\./);
  });

  test('refuses a variable holding a wrong enum value, naming the valid ones', async () => {
    const text = await refused('query($o: ItemOrder) { items(order: $o) { pageInfo { hasNextPage } } }', {
      o: 'NAME',
    });
    assert.match(text, /Variable "\$o" got invalid value "NAME"/);
    assert.match(text, /Values of ItemOrder: ID_ASC, ID_DESC, NAME_ASC\./);
  });

  test('sends a valid document', async () => {
    const result = await session().call('graphql_query', { query: '{ bigList(count: 1) { name } }' });
    assert.deepEqual(result.structuredContent, { data: { bigList: [{ name: 'Item number 0' }] } });
  });

  test("adds the valid names an endpoint's error leaves out, as a second text", async () => {
    const result = await session().call('graphql_query', { query: '{ legacy(order: "NAME") }' });
    assert.equal(result.isError, true);
    assert.deepEqual(texts(result).slice(1), [
      'Hint from the schema: Values of ItemOrder: ID_ASC, ID_DESC, NAME_ASC.',
    ]);
  });
});

describe('validation modes', () => {
  describe('cached (the default), with no schema known yet', () => {
    const session = useSession(() => [`--endpoint=${api.url}`]);
    test('sends the document, and the endpoint judges it', async () => {
      const before = api.queries.length;
      const result = await session().call('graphql_query', { query: '{ bigList(count: 2) { nme } }' });
      assert.equal(api.queries.length, before + 1);
      assert.equal(result.isError, true);
      assert.match(texts(result)[0]!, /Cannot query field \\"nme\\" on type \\"Item\\"\./);
    });
  });

  describe('always', () => {
    const session = useSession(() => [`--endpoint=${api.url}`, '--validate=always']);
    test('introspects first, then refuses without sending the document', async () => {
      const before = api.queries.length;
      const result = await session().call('graphql_query', { query: '{ bigList(count: 2) { nme } }' });
      assert.match(texts(result)[0]!, /^VALIDATION_FAILED: .*Did you mean "name"/);
      const sent = api.queries.slice(before);
      assert.equal(sent.length, 1);
      assert.match(sent[0]!, /__schema/, 'only the introspection query reached the endpoint');
    });
  });

  describe('off', () => {
    const session = useSession(() => [`--endpoint=${api.url}`, '--validate=off']);
    test('sends the document even when the schema is known', async () => {
      await session().call('graphql_introspect', {});
      const before = api.queries.length;
      await session().call('graphql_query', { query: '{ bigList(count: 2) { nme } }' });
      assert.equal(api.queries.length, before + 1);
    });
  });
});

describe('HTTP failures with advice', () => {
  const session = useSession(() => [`--endpoint=${api.url}`]);

  test('a 404 says to check the path', async () => {
    const result = await session().call('graphql_query', {
      query: '{ failing }',
      endpoint: `${api.origin}/not-here`,
    });
    assert.match(texts(result)[0]!, /^HTTP_ERROR: HTTP 404 .*check the endpoint URL/);
  });

  test("a 405 to POST and then to GET gives the endpoint's Allow header and says that nothing there takes GraphQL", async () => {
    const result = await session().call('graphql_query', {
      query: '{ failing }',
      endpoint: `${api.origin}/get-only`,
    });
    assert.match(
      texts(result)[0]!,
      /^HTTP_ERROR: HTTP 405 .*refused POST and then GET although it lists GET, HEAD as allowed: .*check the endpoint URL/,
    );
  });

  test('a 401 without a GraphQL body says that no credentials were sent and how to configure them', async () => {
    const result = await session().call('graphql_query', {
      query: '{ failing }',
      endpoint: `${api.origin}/login-page`,
    });
    assert.match(
      texts(result)[0]!,
      /^HTTP_ERROR: HTTP 401 .*No credentials were sent: configure them .*--headers/,
    );
  });

  test('a 401 GraphQL response names the headers sent, never their values', async () => {
    const result = await session().call('graphql_query', {
      query: '{ failing }',
      endpoint: `${api.origin}/unauthenticated`,
      headers: { 'X-Api-Key': 'key-that-is-not-valid-0123456789' },
    });
    assert.equal(result.isError, true);
    const all = texts(result).join('\n');
    assert.match(
      all,
      /Hint: the endpoint refused the credentials \(HTTP 401\)\. Sent to .*: the headers X-Api-Key\./,
    );
    assert.ok(!all.includes('key-that-is-not-valid'));
  });
});

describe('the tool list', () => {
  for (const args of [[], ['--readOnly']]) {
    describe(`with ${args.length === 0 ? 'default options' : args.join(' ')}`, () => {
      const session = useSession(() => [`--endpoint=${api.url}`, ...args]);
      test('costs at most 700 tokens (o200k)', async (t) => {
        const { tools } = await session().client.listTools();
        const count = encode(JSON.stringify({ tools })).length;
        t.diagnostic(`${count} tokens`);
        assert.ok(count <= 700, `${count} tokens`);
      });
    });
  }
});
