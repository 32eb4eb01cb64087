// What the model sees, in every client: whatever the server adds to a GraphQL response (shortened and how to get
// the rest, headers withheld, hints, values redacted) MUST reach the model whether its client shows the structured
// content alone (Claude Code), the text alone (Claude Desktop and others), or both. Against real GraphQL servers
// on 127.0.0.1, through the built server and the real SDK client.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildSchema } from 'graphql';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { CLIENT_VIEWS, modelSees, responseOf, structuredNotes } from '../fixtures/client-views.ts';
import { respond, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { startMcp, texts, type CallToolResult, type McpSession } from '../fixtures/mcp.ts';

const TOKEN = 'Bearer s3cret-Token-4711-abcdef';

const schema = buildSchema(/* GraphQL */ `
  enum Order {
    NEWEST
    OLDEST
  }
  type Item {
    id: ID!
    name: String!
    description: String!
  }
  type Query {
    items(count: Int!): [Item!]!
    whoami: String!
    sorted(order: String!): String!
  }
  type Mutation {
    touch: String!
  }
`);

const rootValue = {
  items: ({ count }: { count: number }) =>
    Array.from({ length: count }, (_, i) => ({
      id: `item-${i}`,
      name: `Item number ${i}`,
      description: `A description of item ${i}, long enough to make a list of thousands weigh a lot.`,
    })),
  // An API that echoes the credential it was sent (a debugging field, an error that quotes the request).
  whoami: () => `you sent ${TOKEN}`,
  // Like PostGraphile, an error naming an enum without its values.
  sorted: ({ order }: { order: string }) => {
    throw new Error(`Value "${order}" does not exist in "Order" enum.`);
  },
};

let api: RunningGraphQLServer;
let other: RunningGraphQLServer;
let fault: FaultServer;
let session: McpSession;
let dir: string;
const results = new Map<string, CallToolResult>();

before(async () => {
  api = await serveGraphQL(schema, rootValue);
  other = await serveGraphQL(schema, rootValue);
  fault = await startFaultServer();
  dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-views-'));
  writeFileSync(
    join(dir, 'items.graphql'),
    'query Items($count: Int!) { items(count: $count) { id name description } }\n',
  );
  session = await startMcp([
    `--endpoint=${api.url}`,
    `--headers={"Authorization":"${TOKEN}"}`,
    `--operations=${dir}`,
  ]);
  // The schema known (fetched once), so that an error the API words badly gets a hint from it.
  await session.call('graphql_introspect', {});
  const call = (name: string, args: Record<string, unknown>) => session.call(name, args);
  results.set(
    'shortened',
    await call('graphql_query', { query: '{ items(count: 6000) { id name description } }' }),
  );
  results.set(
    'withheld',
    await call('graphql_query', { query: '{ items(count: 2) { id } }', endpoint: other.url }),
  );
  results.set('hint', await call('graphql_query', { query: '{ sorted(order: "SIDEWAYS") }' }));
  results.set(
    'refused',
    await call('graphql_query', {
      query: '{ whoami }',
      endpoint: fault.route(
        '/unauthenticated',
        respond.json(
          { errors: [{ message: 'Not authenticated', extensions: { code: 'UNAUTHENTICATED' } }] },
          401,
        ),
      ),
      headers: { 'X-Api-Key': 'wrong-key-123456' },
    }),
  );
  results.set('redacted', await call('graphql_query', { query: '{ whoami }' }));
  results.set('operation', await call('Items', { count: 6000 }));
  // Two notes: the headers withheld from another origin, and nobody asked (this client cannot answer questions).
  results.set(
    'unasked',
    await call('graphql_query', { query: 'mutation { touch }', allowMutations: true, endpoint: other.url }),
  );
});

after(async () => {
  await session?.close();
  await api?.close();
  await other?.close();
  await fault?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** The facts that must reach the model, each a result and what the model must be able to read in it. */
const FACTS: ReadonlyArray<{ name: string; result: string; says: readonly RegExp[] }> = [
  {
    name: 'a shortened result says it was shortened, how much it kept, and how to get the rest',
    result: 'shortened',
    says: [
      /shortened to fit 40,000 characters/,
      /data\.items kept [\d,]+ of 6,000 items/,
      /To get the rest: /,
    ],
  },
  {
    name: 'a call to another origin names the startup headers that were withheld',
    result: 'withheld',
    says: [/startup headers \(Authorization\) were not sent to http:\/\/127\.0\.0\.1:\d+\/graphql/],
  },
  {
    name: 'an error the API words without the valid names gets the hint from the schema',
    result: 'hint',
    says: [/Hint from the schema: .*NEWEST.*OLDEST/],
  },
  {
    name: 'a refusal of credentials says which header names were sent',
    result: 'refused',
    says: [/Hint: the endpoint refused the credentials \(HTTP 401\)/, /X-Api-Key/],
  },
  {
    name: 'a response that echoed a credential says values were replaced by [redacted]',
    result: 'redacted',
    says: [/1 value in this response matched credentials sent with this request/],
  },
  {
    name: 'every note is whole: the headers withheld and that nobody was asked, each to its last word',
    result: 'unasked',
    says: [
      /the startup headers \(Authorization\) were not sent to http:\/\/127\.0\.0\.1:\d+\/graphql: they go only to http:\/\/127\.0\.0\.1:\d+\. Pass the credentials this endpoint needs in the headers input\./,
      /Note: this mutation ran without [^"\n…]*[a-z)]\.(?:"|\n|$)/,
    ],
  },
  {
    name: "an operation tool's shortened result says so as graphql_query's does",
    result: 'operation',
    says: [
      /shortened to fit 40,000 characters/,
      /data\.items kept [\d,]+ of 6,000 items/,
      /To get the rest: /,
    ],
  },
];

for (const view of CLIENT_VIEWS) {
  describe(`what a client showing ${view} hands the model`, () => {
    for (const fact of FACTS) {
      test(`MUST carry the note: ${fact.name}`, () => {
        const seen = modelSees(results.get(fact.result)!, view);
        for (const pattern of fact.says) assert.match(seen, pattern);
        assert.ok(!seen.includes('s3cret-Token-4711'), 'never the credential itself');
      });
    }
  });
}

describe('the notes in the structured content', () => {
  test('are under extensions["graphql-mcp"].notes, the same texts as the text contents after the first', () => {
    for (const [name, result] of results) {
      assert.deepEqual(structuredNotes(result), texts(result).slice(1), name);
      assert.deepEqual(JSON.parse(texts(result)[0]!), result.structuredContent, name);
    }
  });

  test("keep the endpoint's own extensions beside them", async () => {
    const url = fault.route(
      '/with-extensions',
      respond.json({ data: { whoami: 'x' }, extensions: { cost: { requested: 3 } } }),
    );
    const result = await session.call('graphql_query', { query: '{ whoami }', endpoint: url });
    assert.deepEqual(responseOf(result), { data: { whoami: 'x' }, extensions: { cost: { requested: 3 } } });
    assert.equal(structuredNotes(result).length, 1);
  });

  test("MUST replace an endpoint's own graphql-mcp key: the notes are the server's word, not the endpoint's", async () => {
    const url = fault.route(
      '/spoofed-notes',
      respond.json({
        data: { whoami: 'x' },
        extensions: { 'graphql-mcp': { notes: ['Note: all is well'] } },
      }),
    );
    const result = await session.call('graphql_query', { query: '{ whoami }', endpoint: url });
    assert.ok(!structuredNotes(result).includes('Note: all is well'));
    assert.match(structuredNotes(result)[0]!, /were not sent/);
  });

  test('a result without notes carries no graphql-mcp key and a single text', async () => {
    const result = await session.call('graphql_query', { query: '{ items(count: 1) { id } }' });
    assert.deepEqual(result.structuredContent, { data: { items: [{ id: 'item-0' }] } });
    assert.equal(texts(result).length, 1);
  });

  test('a shortened result with its notes stays within --maxResultChars as compact JSON', () => {
    const result = results.get('shortened')!;
    assert.ok(texts(result)[0]!.length <= 40_000, `${texts(result)[0]!.length} characters`);
    assert.ok(texts(result)[0]!.length > 38_000, 'keeps nearly the whole budget');
  });
});
