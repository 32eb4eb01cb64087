// graphql_introspect on a large real schema (GitHub's public schema, served by graphql-js on 127.0.0.1) and
// on the small demo API, through the built server and the SDK client: the character budget, the overview,
// typeNames, search, and the schema cache.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  isIntrospectionType,
  isSpecifiedScalarType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import { serveGraphQL, type RunningGraphQLServer } from '../../demo/graphql-server.ts';
import { createLibraryApi } from '../../demo/library-api.ts';
import { INTROSPECTION_QUERY } from '../../src/schema/introspection.ts';
import { printIntrospection } from '../fixtures/print-introspection.ts';
import { introspectionRequests, loadGitHubSchema, serveGitHubSchema } from '../fixtures/github-schema.ts';
import { startHttpMcp } from '../fixtures/http-mcp.ts';
import { startMcp, texts, type McpSession, type CallToolResult, useSession } from '../fixtures/mcp.ts';

const DEFAULT_BUDGET = 40_000;

let github: RunningGraphQLServer;
let library: RunningGraphQLServer;
let githubSchema: GraphQLSchema;
/** Every type name a typeNames call can be asked for, as printSchema would print them. */
let githubTypeNames: string[];

before(async () => {
  githubSchema = loadGitHubSchema().schema;
  githubTypeNames = Object.values(githubSchema.getTypeMap())
    .filter((type) => !isIntrospectionType(type) && !isSpecifiedScalarType(type))
    .map((type) => type.name);
  github = await serveGitHubSchema(githubSchema);
  const api = createLibraryApi();
  library = await serveGraphQL(api.schema, api.rootValue);
});

after(async () => {
  await Promise.all([github?.close(), library?.close()]);
});

/** Starts one session for a describe block and closes it after. */

/** Characters of a whole result, as the budget counts them: every text, and two between texts. */
function resultChars(result: CallToolResult): number {
  const all = texts(result);
  return all.reduce((sum, text) => sum + text.length, 0) + 2 * (all.length - 1);
}

function firstText(result: CallToolResult): string {
  return texts(result)[0] ?? '';
}

/** Calls graphql_introspect and checks the result is within `budget`. */
async function introspect(
  session: McpSession,
  args: Record<string, unknown>,
  budget = DEFAULT_BUDGET,
): Promise<CallToolResult> {
  const result = await session.call('graphql_introspect', args);
  assert.ok(
    resultChars(result) <= budget,
    `${resultChars(result)} characters > ${budget} for ${JSON.stringify(args)}`,
  );
  return result;
}

/** The names of the types whose definitions a typeNames answer holds. */
function definedTypes(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/^(?:type|interface|union|enum|input|scalar) (\w+)/gm))
    names.add(match[1]!);
  return names;
}

describe("GitHub's schema at the default budget", () => {
  const session = useSession(() => [`--endpoint=${github.url}`]);

  test('MUST answer with an overview within 40,000 characters, not the whole schema', async () => {
    const result = await introspect(session(), {});
    assert.equal(result.isError, undefined, firstText(result));
    const overview = firstText(result);
    assert.match(
      overview,
      /^# Overview: the whole schema \([\d,]+ types, about [\d,]+ characters of SDL\) is over the 40,000-character limit/,
    );
    assert.match(overview, /^type Query \{$/m);
    assert.match(overview, /^ {2}repository\(.*\bname: String!.*\): Repository/m);
    assert.match(overview, /^type Mutation \{$/m);
  });

  test('the overview says how to read more', async () => {
    const overview = firstText(await introspect(session(), {}));
    assert.match(overview, /typeNames: \["\w+"\] gives full definitions/);
    assert.match(overview, /search: "some words" finds types and fields/);
  });

  test('search finds the field that lists the issues of a repository, with a path from Query', async () => {
    const text = firstText(await introspect(session(), { search: 'repository issues' }));
    assert.match(text, /^# Repository\.issues — path: Query\.repository → Repository\.issues\n/m);
    assert.match(text, /^issues\(.*\): IssueConnection!$/m);
  });

  test('search "pull request" ranks the exact name first and finds pullRequests', async () => {
    const text = firstText(await introspect(session(), { search: 'pull request' }));
    const first = /\n\n# (\S+)/.exec(text)?.[1];
    assert.equal(first, 'PullRequest');
    assert.match(text, /^# Repository\.pullRequests — path: Query\.repository → Repository\.pullRequests$/m);
  });

  /** The coordinates of a search answer's entries, in order. */
  function entriesOf(text: string): string[] {
    return [...text.matchAll(/^# (\S+)(?: \(\w+\))? — /gm)].map((match) => match[1]!);
  }

  test('search ranks the member a phrase asks for first, though the schema does not use all its words', async () => {
    const text = firstText(await introspect(session(), { search: 'number of stars of a repository' }));
    assert.match(
      text,
      /^# search "number of stars of a repository" \(searched as: count, stars, repository\): /,
    );
    assert.equal(entriesOf(text)[0], 'Repository.stargazerCount');
  });

  test('search finds a mutation by what it acts on: "delete branch" finds deleteRef, "lock issue" lockLockable', async () => {
    const deleteBranch = entriesOf(firstText(await introspect(session(), { search: 'delete branch' })));
    assert.ok(deleteBranch.slice(0, 5).includes('Mutation.deleteRef'), deleteBranch.slice(0, 5).join(', '));
    const lockIssue = entriesOf(firstText(await introspect(session(), { search: 'lock issue' })));
    assert.ok(lockIssue.slice(0, 5).includes('Mutation.lockLockable'), lockIssue.slice(0, 5).join(', '));
  });

  test('search names the words no name or description has, and ranks by the others', async () => {
    const text = firstText(await introspect(session(), { search: 'stargazer xylophone' }));
    assert.match(
      text,
      /^# search "stargazer xylophone": [\d,]+ matches.* No name or description has xylophone: not counted\./,
    );
    assert.match(text, /Ranked by shared words: /);
    assert.match(entriesOf(text)[0] ?? '', /\.stargazer/);
  });

  test('search says plainly when nothing matches', async () => {
    const text = firstText(await introspect(session(), { search: 'xylophone' }));
    assert.match(text, /^# search "xylophone": no type or field has this word/);
  });

  test('typeNames gives the full definition of a type', async () => {
    const text = firstText(await introspect(session(), { typeNames: ['Repository'] }));
    assert.match(text, /^# Repository — path: Query\.repository\n/);
    assert.ok(text.includes((githubSchema.getType('Repository')!.description ?? '').trim()));
    assert.match(text, /^type Repository implements .*\{$/m);
    assert.match(text, /^ {2}issues\($/m, 'arguments with their descriptions');
  });

  test('typeNames gives one field in full for "Type.field"', async () => {
    const text = firstText(await introspect(session(), { typeNames: ['Repository.issues'] }));
    assert.match(
      text,
      /^type Repository \{\n {2}"""A list of issues that have been opened in the repository\."""\n {2}issues\(/m,
    );
  });

  test('unknown typeNames give INVALID_INPUT with the closest names', async () => {
    const result = await introspect(session(), { typeNames: ['Repo', 'PullRequests', 'Repository.isues'] });
    assert.equal(result.isError, true);
    const text = firstText(result);
    assert.match(text, /^INVALID_INPUT: typeNames: /);
    assert.match(text, /no type "Repo" \(did you mean Repository\b/);
    assert.match(text, /no type "PullRequests" \(did you mean PullRequest\b/);
    assert.match(text, /Repository has no member "isues" \(did you mean issues\b/);
  });

  test('MUST make every type of the schema readable through typeNames, each answer within the budget', async () => {
    const missing = new Set(githubTypeNames);
    let calls = 0;
    // Ask for many at a time; what an answer leaves out is asked for again, first in the next batch.
    let queue = [...githubTypeNames];
    while (queue.length > 0) {
      const batch = queue.slice(0, 250);
      const result = await introspect(session(), { typeNames: batch });
      calls++;
      assert.equal(result.isError, undefined, firstText(result));
      const shown = definedTypes(firstText(result));
      assert.ok(shown.size > 0, `the answer to ${batch[0]}… shows a type`);
      for (const name of shown) missing.delete(name);
      queue = [...batch.filter((name) => !shown.has(name)), ...queue.slice(250)];
      assert.ok(calls < 200, 'no endless loop');
    }
    assert.deepEqual([...missing], []);
  });

  test('a type larger than the budget is shortened, and says so', async () => {
    const text = firstText(await introspect(session(), { typeNames: ['Mutation'] }));
    assert.match(
      text,
      /^# Mutation is shortened to fit the 40,000-character limit \(--maxSchemaChars\): argument descriptions left out\./,
    );
    assert.match(text, /^type Mutation \{$/m);
  });

  test('typeNames and search together give both, within the budget', async () => {
    const text = firstText(await introspect(session(), { typeNames: ['Issue'], search: 'issue state' }));
    assert.match(text, /^# Issue — path: /);
    assert.match(text, /\n\n# search "issue state": /);
  });

  test('the budget holds with includeDeprecated for the overview, search and typeNames', async () => {
    const overview = firstText(await introspect(session(), { includeDeprecated: true }));
    assert.match(overview, /^# Overview: /);
    await introspect(session(), { includeDeprecated: true, search: 'pull request' });
    const mutation = firstText(
      await introspect(session(), { includeDeprecated: true, typeNames: ['Mutation', 'User'] }),
    );
    assert.match(mutation, /^# Mutation is shortened/);
  });

  test('the tool declares typeNames and search with descriptions', async () => {
    const { tools } = await session().client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'graphql_introspect');
    const properties = tool?.inputSchema.properties as Record<string, { description?: string }>;
    assert.match(properties.typeNames?.description ?? '', /full/);
    assert.match(properties.search?.description ?? '', /pull request/);
  });
});

describe('the schema cache', () => {
  test('overview, search and typeNames on one endpoint cost one introspection request', async () => {
    const session = await startMcp([`--endpoint=${github.url}`]);
    try {
      const before = introspectionRequests(github);
      await introspect(session, {});
      await introspect(session, { search: 'pull request' });
      await introspect(session, { typeNames: ['PullRequest'] });
      await introspect(session, { includeDeprecated: true, typeNames: ['PullRequest'] });
      assert.equal(introspectionRequests(github) - before, 1);
    } finally {
      await session.close();
    }
  });

  test('concurrent calls share one introspection request', async () => {
    const session = await startMcp([`--endpoint=${github.url}`]);
    try {
      const before = introspectionRequests(github);
      const results = await Promise.all([
        session.call('graphql_introspect', {}),
        session.call('graphql_introspect', { search: 'issue' }),
        session.call('graphql_introspect', { typeNames: ['Issue'], includeDeprecated: true }),
      ]);
      for (const result of results) assert.equal(result.isError, undefined, firstText(result));
      assert.equal(introspectionRequests(github) - before, 1);
    } finally {
      await session.close();
    }
  });

  test('other credentials are another cache entry', async () => {
    const session = await startMcp([`--endpoint=${library.url}`]);
    try {
      const before = library.requests.length;
      await session.call('graphql_introspect', { headers: { Authorization: 'Bearer one' } });
      await session.call('graphql_introspect', { headers: { Authorization: 'Bearer two' } });
      await session.call('graphql_introspect', { headers: { Authorization: 'Bearer one' } });
      assert.equal(library.requests.length - before, 2);
    } finally {
      await session.close();
    }
  });

  test('in remote mode, where each HTTP request gets its own server, calls still share the schema', async () => {
    const server = await startHttpMcp([`--endpoint=${github.url}`]);
    try {
      const before = introspectionRequests(github);
      for (const args of [{}, { search: 'pull request' }, { typeNames: ['PullRequest'] }]) {
        const client = await server.connect();
        try {
          const result = await client.call('graphql_introspect', args);
          assert.equal(result.isError, undefined, firstText(result));
          assert.ok(resultChars(result) <= DEFAULT_BUDGET);
        } finally {
          await client.close();
        }
      }
      assert.equal(introspectionRequests(github) - before, 1);
    } finally {
      await server.stop();
    }
  });

  test('--schemaTtl=0 fetches the schema on every call', async () => {
    const session = await startMcp([`--endpoint=${library.url}`, '--schemaTtl=0']);
    try {
      const before = library.requests.length;
      await session.call('graphql_introspect', {});
      await session.call('graphql_introspect', {});
      assert.equal(library.requests.length - before, 2);
    } finally {
      await session.close();
    }
  });

  test('a failed introspection is not kept: the next call tries again', async () => {
    const session = await startMcp([`--endpoint=${library.url}`]);
    const endpoint = `${github.url.replace('/graphql', '')}/missing`;
    try {
      const start = github.requests.length;
      const first = await session.call('graphql_introspect', { endpoint });
      assert.equal(first.isError, true);
      const firstRequests = github.requests.length - start;
      assert.ok(firstRequests > 0);
      await session.call('graphql_introspect', { endpoint });
      assert.equal(github.requests.length - start, 2 * firstRequests);
    } finally {
      await session.close();
    }
  });
});

describe("GitHub's schema at a small budget (--maxSchemaChars=2000)", () => {
  const BUDGET = 2_000;
  const session = useSession(() => [`--endpoint=${github.url}`, `--maxSchemaChars=${BUDGET}`]);

  test('MUST keep the overview within the budget, shortened and saying so', async () => {
    for (const includeDeprecated of [false, true]) {
      const text = firstText(await introspect(session(), { includeDeprecated }, BUDGET));
      assert.match(text, /^# Overview: /);
      assert.match(text, /^# Shortened to fit: .*lists cut/m);
      assert.match(text, /^# Query \(\d+ fields\): /m);
    }
  });

  test('MUST keep search within the budget, and say it was cut', async () => {
    for (const includeDeprecated of [false, true]) {
      const text = firstText(
        await introspect(session(), { search: 'pull request', includeDeprecated }, BUDGET),
      );
      assert.match(text, /cut to fit the 2,000-character limit/);
    }
  });

  test('MUST keep typeNames within the budget, shortening and naming what is left out', async () => {
    for (const includeDeprecated of [false, true]) {
      const text = firstText(
        await introspect(
          session(),
          { typeNames: ['Repository', 'Issue', 'Repository.issues'], includeDeprecated },
          BUDGET,
        ),
      );
      assert.match(text, /^# Repository is shortened to fit the 2,000-character limit/);
      assert.match(text, /Ask for the others in another call: typeNames: \["Issue", "Repository\.issues"\]/);
    }
  });

  test('a field asked for alone fits', async () => {
    const text = firstText(await introspect(session(), { typeNames: ['Repository.issues'] }, BUDGET));
    assert.match(text, /issues\(/);
  });

  test('MUST count the note about withheld startup headers in the budget', async () => {
    const withHeaders = await startMcp([
      `--endpoint=${library.url}`,
      `--maxSchemaChars=${BUDGET}`,
      '--headers={"Authorization":"Bearer startup-secret","X-Tenant":"t1"}',
    ]);
    try {
      const result = await introspect(withHeaders, { endpoint: github.url }, BUDGET);
      assert.equal(texts(result).length, 2);
      assert.match(texts(result)[1]!, /were not sent/);
    } finally {
      await withHeaders.close();
    }
  });
});

describe('a small schema (the demo API)', () => {
  const session = useSession(() => [`--endpoint=${library.url}`]);

  test('comes back whole: printSchema of the introspected schema, after a line counting what it leaves out', async () => {
    const introspection = await fullIntrospection(library.url);
    const deprecated = JSON.stringify(introspection).match(/"isDeprecated":true/g)!.length;
    assert.equal(
      firstText(await introspect(session(), {})),
      `# Deprecated members left out: ${deprecated} (fields, arguments, input fields, enum values); ` +
        `includeDeprecated: true shows them.\n${printIntrospection(introspection, false)}`,
    );
    assert.equal(
      firstText(await introspect(session(), { includeDeprecated: true })),
      printIntrospection(introspection, true),
    );
  });

  test('typeNames works on it too', async () => {
    const text = firstText(await introspect(session(), { typeNames: ['Book', 'Genre'] }));
    assert.match(
      text,
      /^# Book — path: Query\.book\n# Cost: list without slicing arguments \(counted as 10\): reviews\n"""A book in the library\."""\ntype Book \{/,
    );
    assert.match(text, /^enum Genre \{/m);
  });

  test('search works on it too', async () => {
    const text = firstText(await introspect(session(), { search: 'review' }));
    assert.match(text, /^# Review \(object\) — path: /m);
    assert.match(text, /^# Mutation\.addReview — path: Mutation\.addReview$/m);
  });

  test('unknown typeNames suggest close names', async () => {
    const result = await introspect(session(), { typeNames: ['Books', 'author'] });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /no type "Books" \(did you mean Book\b/);
    assert.match(firstText(result), /no type "author" \(did you mean Author\b/);
  });

  test('search without a word is INVALID_INPUT', async () => {
    const result = await introspect(session(), { search: '  ?! ' });
    assert.match(firstText(result), /^INVALID_INPUT: search /);
  });

  test('typeNames that is not an array of strings is INVALID_INPUT', async () => {
    const result = await introspect(session(), { typeNames: 'Book' });
    assert.match(firstText(result), /^INVALID_INPUT: typeNames /);
  });
});

/** The full introspection of an endpoint, as graphql_introspect asks for it. */
async function fullIntrospection(url: string): Promise<IntrospectionQuery> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: INTROSPECTION_QUERY }),
  });
  return ((await response.json()) as { data: IntrospectionQuery }).data;
}
