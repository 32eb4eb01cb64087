import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { buildClientSchema, buildSchema, introspectionFromSchema, type GraphQLSchema } from 'graphql';
import { costAdvice, estimated, formatCost } from '../../src/graphql/cost-advice.ts';
import { ASSUMED_LIST_SIZE, ASSUMED_PAGE_SIZE } from '../../src/graphql/cost-list-size.ts';
import { estimateCost, type CostEstimate } from '../../src/graphql/cost.ts';
import { analyseDocument, selectOperation } from '../../src/graphql/operation.ts';
import { describeListSize } from '../../src/schema/answers/list-sizes.ts';
import { loadGitHubSchema } from '../fixtures/github-schema.ts';

const github = loadGitHubSchema().schema;
const ibm = buildSchema(
  readFileSync(new URL('../fixtures/cost/ibm-cost-spec.graphql', import.meta.url), 'utf8'),
);

interface Options {
  schema?: GraphQLSchema;
  variables?: Record<string, unknown>;
  limit?: number;
  operationName?: string;
}

function estimate(query: string, options: Options = {}): CostEstimate {
  const analysed = analyseDocument(query);
  return estimateCost(analysed, selectOperation(analysed, options.operationName), options);
}

/** The exact estimate: one that did not stop early. */
function total(query: string, options: Options = {}): number {
  const result = estimate(query, options);
  assert.equal(result.atLeast, false);
  return result.total;
}

/** Each contributor as `path=items`, largest first. */
function breakdown(query: string, options: Options = {}): string[] {
  return estimate(query, options).contributors.map((c) => `${c.path}=${c.items}`);
}

// GitHub's "Rate limits and node limits for the GraphQL API" (docs.github.com/en/graphql/overview/
// rate-limits-and-query-limits-for-the-graphql-api, section "Calculating nodes in a call"): its two examples,
// verbatim, with the totals it gives.
const GITHUB_SIMPLE = `query {
  viewer {
    repositories(first: 50) {
      edges {
        repository:node {
          name

          issues(first: 10) {
            totalCount
            edges {
              node {
                title
                bodyHTML
              }
            }
          }
        }
      }
    }
  }
}`;

const GITHUB_COMPLEX = `query {
  viewer {
    repositories(first: 50) {
      edges {
        repository:node {
          name

          pullRequests(first: 20) {
            edges {
              pullRequest:node {
                title

                comments(first: 10) {
                  edges {
                    comment:node {
                      bodyHTML
                    }
                  }
                }
              }
            }
          }

          issues(first: 20) {
            totalCount
            edges {
              issue:node {
                title
                bodyHTML

                comments(first: 10) {
                  edges {
                    comment:node {
                      bodyHTML
                    }
                  }
                }
              }
            }
          }
        }
      }
    }

    followers(first: 10) {
      edges {
        follower:node {
          login
        }
      }
    }
  }
}`;

describe("estimateCost equals GitHub's published node count", () => {
  test('the simple query counts 550 nodes, as GitHub calculates (50 repositories + 50 x 10 issues)', () => {
    assert.equal(total(GITHUB_SIMPLE, { schema: github }), 550);
  });

  test("the simple query's contributors are GitHub's two lines of calculation", () => {
    assert.deepEqual(breakdown(GITHUB_SIMPLE, { schema: github }), [
      'viewer.repositories.issues=500',
      'viewer.repositories=50',
    ]);
  });

  test('the complex query counts 22,060 nodes, as GitHub calculates', () => {
    assert.equal(total(GITHUB_COMPLEX, { schema: github }), 22_060);
  });

  test("the complex query's contributors are GitHub's six lines of calculation", () => {
    // 50 repositories + 50 x 20 pullRequests + 50 x 20 x 10 pullRequest comments + 50 x 20 issues
    // + 50 x 20 x 10 issue comments + 10 followers
    assert.deepEqual(breakdown(GITHUB_COMPLEX, { schema: github }), [
      'viewer.repositories.issues.comments=10000',
      'viewer.repositories.pullRequests.comments=10000',
      'viewer.repositories.issues=1000',
      'viewer.repositories.pullRequests=1000',
      'viewer.repositories=50',
      'viewer.followers=10',
    ]);
  });

  test("both examples count the same without GitHub's schema", () => {
    assert.equal(total(GITHUB_SIMPLE), 550);
    assert.equal(total(GITHUB_COMPLEX), 22_060);
  });
});

describe("estimateCost on GitHub's schema", () => {
  test('a singular object such as viewer adds nothing', () => {
    assert.equal(total('{ viewer { login name company } }', { schema: github }), 0);
  });

  test('__typename adds nothing', () => {
    assert.equal(total('{ __typename viewer { __typename } }', { schema: github }), 0);
  });

  test('a connection asked only for totalCount adds nothing', () => {
    assert.equal(total('{ viewer { repositories(first: 100) { totalCount } } }', { schema: github }), 0);
  });

  test('nodes counts each item once', () => {
    assert.equal(total('{ viewer { repositories(first: 10) { nodes { name } } } }', { schema: github }), 10);
  });

  test('edges with node counts each item once, not twice', () => {
    assert.equal(
      total('{ viewer { repositories(first: 10) { edges { cursor node { name } } } } }', { schema: github }),
      10,
    );
  });

  test('edges and nodes selected together count each item once for each', () => {
    const query = '{ viewer { repositories(first: 10) { edges { node { name } } nodes { name } } } }';
    assert.equal(total(query, { schema: github }), 20);
    assert.deepEqual(breakdown(query, { schema: github }), ['viewer.repositories=20']);
  });

  test('last slices like first', () => {
    assert.equal(total('{ viewer { repositories(last: 7) { nodes { name } } } }', { schema: github }), 7);
  });

  test('a connection given neither first nor last is counted at the assumed page size', () => {
    const [contributor] = estimate('{ viewer { repositories { nodes { name } } } }', {
      schema: github,
    }).contributors;
    assert.deepEqual(
      { ...contributor },
      {
        path: 'viewer.repositories',
        field: 'repositories',
        items: ASSUMED_PAGE_SIZE,
        share: 1,
        size: ASSUMED_PAGE_SIZE,
        sizeFrom: 'assumed',
        slicingArguments: ['first', 'last'],
        slicedBy: undefined,
        requiredSlicing: undefined,
      },
    );
  });

  test("a list's slicing argument left out takes its default from the schema", () => {
    // Topic.relatedTopics(first: Int = 3): [Topic!]!
    const result = estimate('{ topic(name: "graphql") { relatedTopics { name } } }', { schema: github });
    assert.equal(result.total, 3);
    assert.equal(result.contributors[0]?.sizeFrom, 'default');
  });

  test("a list's slicing argument given replaces the schema's default", () => {
    assert.equal(
      total('{ topic(name: "graphql") { relatedTopics(first: 8) { name } } }', { schema: github }),
      8,
    );
  });

  test('a list of objects without slicing arguments is counted at the assumed list size', () => {
    const result = estimate('{ repository(owner: "a", name: "b") { fundingLinks { url } } }', {
      schema: github,
    });
    assert.equal(result.total, ASSUMED_LIST_SIZE);
    assert.equal(result.contributors[0]?.sizeFrom, 'assumed');
  });

  test('a list of enums adds nothing', () => {
    assert.equal(
      total('{ repository(owner: "a", name: "b") { issue(number: 1) { viewerCannotUpdateReasons } } }', {
        schema: github,
      }),
      0,
    );
  });

  test('an Int argument of a scalar field is not a slicing argument', () => {
    // User.avatarUrl(size: Int), Repository.shortDescriptionHTML(limit: Int = 200)
    assert.equal(
      total(
        '{ viewer { avatarUrl(size: 400) } repository(owner: "a", name: "b") { shortDescriptionHTML(limit: 200) } }',
        { schema: github },
      ),
      0,
    );
  });

  test("a union's items are counted through the inline fragments of its types", () => {
    const query =
      '{ search(first: 10, type: ISSUE, query: "bug") { nodes { ... on Issue { comments(first: 5) { nodes { body } } } } } }';
    assert.equal(total(query, { schema: github }), 10 + 10 * 5);
  });

  test('a field the schema does not know is counted as without a schema', () => {
    assert.equal(total('{ viewer { misspelt(first: 4) { nodes { id } } } }', { schema: github }), 4);
  });
});

describe('estimateCost reads variables', () => {
  const query = 'query Q($n: Int) { viewer { repositories(first: $n) { nodes { name } } } }';

  test('a slicing argument may come from a variable', () => {
    assert.equal(total(query, { schema: github, variables: { n: 30 } }), 30);
  });

  test('a variable left out takes its default in the operation', () => {
    assert.equal(
      total('query Q($n: Int = 7) { viewer { repositories(first: $n) { nodes { name } } } }', {
        schema: github,
      }),
      7,
    );
  });

  test("a variable given replaces the operation's default", () => {
    assert.equal(
      total('query Q($n: Int = 7) { viewer { repositories(first: $n) { nodes { name } } } }', {
        schema: github,
        variables: { n: 2 },
      }),
      2,
    );
  });

  test('a variable neither given nor defaulted leaves the argument out', () => {
    const result = estimate(query, { schema: github });
    assert.equal(result.total, ASSUMED_PAGE_SIZE);
    assert.equal(result.contributors[0]?.sizeFrom, 'assumed');
  });

  test('a variable that is not a number leaves the argument out', () => {
    assert.equal(total(query, { schema: github, variables: { n: 'ten' } }), ASSUMED_PAGE_SIZE);
  });

  test('a field under @skip(if: true) adds nothing', () => {
    assert.equal(
      total('{ viewer { repositories(first: 10) @skip(if: true) { nodes { name } } } }', { schema: github }),
      0,
    );
  });

  test('a field under @include(if: false) adds nothing', () => {
    assert.equal(
      total('{ viewer { repositories(first: 10) @include(if: false) { nodes { name } } } }', {
        schema: github,
      }),
      0,
    );
  });

  test('@include with a variable set to true counts the field', () => {
    const skipped =
      'query Q($on: Boolean!) { viewer { repositories(first: 10) @include(if: $on) { nodes { name } } } }';
    assert.equal(total(skipped, { schema: github, variables: { on: true } }), 10);
    assert.equal(total(skipped, { schema: github, variables: { on: false } }), 0);
  });

  test('an inline fragment or a spread under @skip(if: true) adds nothing', () => {
    const query =
      '{ viewer { ... @skip(if: true) { a: repositories(first: 10) { nodes { name } } } ...F @skip(if: true) } } fragment F on User { followers(first: 5) { nodes { login } } }';
    assert.equal(total(query, { schema: github }), 0);
  });
});

describe('estimateCost expands fragments and counts aliases', () => {
  test('a fragment spread three times counts three times', () => {
    const query =
      '{ a: viewer { ...R } b: viewer { ...R } c: viewer { ...R } } fragment R on User { repositories(first: 10) { nodes { name } } }';
    assert.equal(total(query, { schema: github }), 30);
  });

  test('aliases of the same field count separately, each under its own path', () => {
    const query =
      '{ viewer { mine: repositories(first: 10) { nodes { name } } more: repositories(first: 20) { nodes { name } } } }';
    assert.equal(total(query, { schema: github }), 30);
    assert.deepEqual(breakdown(query, { schema: github }), ['viewer.more=20', 'viewer.mine=10']);
  });

  test('a fragment spread inside a list is multiplied by its size', () => {
    const query =
      '{ viewer { repositories(first: 10) { nodes { ...Issues } } } } fragment Issues on Repository { issues(first: 5) { nodes { title } } }';
    assert.equal(total(query, { schema: github }), 10 + 10 * 5);
    assert.deepEqual(breakdown(query, { schema: github }), [
      'viewer.repositories.issues=50',
      'viewer.repositories=10',
    ]);
  });

  test("a fragment on a connection counts the connection's items where it is spread", () => {
    const query =
      '{ viewer { repositories(first: 10) { ...Page } } } fragment Page on RepositoryConnection { totalCount nodes { name issues(first: 5) { nodes { title } } } }';
    assert.equal(total(query, { schema: github }), 10 + 10 * 5);
    assert.deepEqual(breakdown(query, { schema: github }), [
      'viewer.repositories.issues=50',
      'viewer.repositories=10',
    ]);
  });

  test("a fragment spread in a connection fragment's items is multiplied by the connection's size", () => {
    const query =
      '{ viewer { repositories(first: 10) { ...Page } } } fragment Page on RepositoryConnection { nodes { ...Issues } } fragment Issues on Repository { issues(first: 5) { nodes { title } } }';
    assert.deepEqual(breakdown(query, { schema: github }), [
      'viewer.repositories.issues=50',
      'viewer.repositories=10',
    ]);
  });

  test('a connection fragment spread inside another at the connection level counts where the outer is spread', () => {
    const query =
      '{ viewer { repositories(first: 10) { ...Outer } } } fragment Outer on RepositoryConnection { totalCount ...Inner } fragment Inner on RepositoryConnection { nodes { issues(first: 2) { nodes { id } } } }';
    assert.deepEqual(breakdown(query, { schema: github }), [
      'viewer.repositories.issues=20',
      'viewer.repositories=10',
    ]);
  });

  test('a fragment on an edge leaves its node out of the path', () => {
    const query =
      '{ viewer { repositories(first: 10) { edges { ...Edge } } } } fragment Edge on RepositoryEdge { node { issues(first: 3) { nodes { title } } } }';
    assert.deepEqual(breakdown(query, { schema: github }), [
      'viewer.repositories.issues=30',
      'viewer.repositories=10',
    ]);
  });

  test('a fragment spread at the level of two connections of different sizes counts each its own size', () => {
    const query =
      '{ a(first: 10) { ...Page } b(first: 20) { ...Page } } fragment Page on C { nodes { x(first: 3) { y } } }';
    assert.equal(total(query), 10 + 10 * 3 + 20 + 20 * 3);
  });

  test('a field inside a fragment spread in several places is one contributor, named where it adds most', () => {
    const query =
      '{ a(first: 10) { ...Page } b(first: 20) { ...Page } } fragment Page on C { nodes { x(first: 3) { y } } }';
    assert.deepEqual(breakdown(query), ['b.x=90', 'b=20', 'a=10']);
  });

  test('inline fragments and nested spreads combine', () => {
    const query =
      '{ node(id: "1") { ... on User { ...Repos ... on User { followers(first: 2) { nodes { login } } } } } } fragment Repos on User { repositories(first: 4) { nodes { name } } }';
    assert.equal(total(query, { schema: github }), 4 + 2);
  });

  test('a fragment used only by an operation that is not run costs nothing', () => {
    const query =
      'query A { viewer { login } } query B { viewer { ...R } } fragment R on User { repositories(first: 10) { nodes { name } } }';
    assert.equal(total(query, { schema: github, operationName: 'A' }), 0);
    assert.equal(total(query, { schema: github, operationName: 'B' }), 10);
  });
});

describe('estimateCost without a schema', () => {
  test('a field without a slicing argument is not known to be a list', () => {
    assert.equal(total('{ users { friends { name } } }'), 0);
  });

  test('a field given a slicing argument is a list of that size', () => {
    assert.equal(total('{ users(limit: 5) { name } }'), 5);
  });

  test('every conventional slicing argument is read', () => {
    for (const argument of ['first', 'last', 'limit', 'take', 'top', 'count', 'pageSize', 'perPage']) {
      assert.equal(total(`{ items(${argument}: 6) { id } }`), 6, argument);
    }
  });

  test('nested lists multiply', () => {
    assert.equal(total('{ a(first: 10) { b(take: 10) { c(limit: 10) { id } } } }'), 10 + 100 + 1000);
  });

  test('a sliced field without a selection set adds nothing (a list of scalars)', () => {
    assert.equal(total('{ tags(first: 100) }'), 0);
  });

  test('a sliced field that selects only totalCount still counts its size', () => {
    // Without the schema nothing says it is a connection rather than a list of objects.
    assert.equal(total('{ issues(first: 10) { totalCount } }'), 10);
  });

  test('a sliced field that selects edges or nodes is a connection counted once per item', () => {
    assert.equal(total('{ issues(first: 10) { totalCount edges { node { id } } } }'), 10);
  });

  test('the largest of several slicing arguments is counted', () => {
    assert.equal(total('{ items(first: 5, last: 9) { id } }'), 9);
  });

  test('a slicing argument of 0 adds nothing and empties what is under it', () => {
    assert.equal(total('{ a(first: 0) { b(first: 100) { id } } }'), 0);
  });

  test('a negative slicing argument counts the larger of its magnitude and the assumed page size', () => {
    assert.equal(total('{ a(first: -5) { id } }'), ASSUMED_PAGE_SIZE);
    assert.equal(total('{ a(first: -500) { id } }'), 500);
  });

  test("Prisma's negative take, the last n items, is no way past the limit", () => {
    // Estimated at 10 when a negative value counted 0; an API that reads take: -40 as "the last 40" returns
    // 40 + 40 × 40 + 40 × 40 × 40 = 65,640 items.
    const query = '{ items(take: -40) { children(take: -40) { children(take: -40) { id } } } }';
    assert.equal(total(query), 100 + 100 * 100 + 100 * 100 * 100);
    assert.ok(estimate(query, { limit: 200 }).total > 200);
  });

  test('a fractional slicing argument is rounded up', () => {
    assert.equal(total('{ a(first: 2.5) { id } }'), 3);
    assert.equal(total('{ a(first: 0.1) { b(first: 1.01) { id } } }'), 1 + 2);
    assert.equal(total('{ a(first: -0.5) { id } }'), ASSUMED_PAGE_SIZE);
  });

  test('a field given a slicing argument of null is a list of the assumed page size', () => {
    assert.equal(total('{ a(first: null) { b(take: null) { id } } }'), 100 + 100 * 100);
  });

  test('a field given a slicing variable that is null or left out is a list of the assumed page size', () => {
    const query = 'query Q($n: Int) { a(first: $n) { id } }';
    assert.equal(total(query), ASSUMED_PAGE_SIZE);
    assert.equal(total(query, { variables: { n: null } }), ASSUMED_PAGE_SIZE);
    assert.equal(total('query Q($n: Int = null) { a(first: $n) { id } }'), ASSUMED_PAGE_SIZE);
    assert.equal(total(query, { variables: { n: -3 } }), ASSUMED_PAGE_SIZE);
  });

  test('a field given a slicing argument that is not a number is a list of the assumed page size', () => {
    assert.equal(total('{ a(first: "ten") { id } }'), ASSUMED_PAGE_SIZE);
  });

  test('the advice for a null or negative slicing argument asks for a positive one', () => {
    assert.equal(
      costAdvice(estimate('{ items(take: -40) { id } }'), { limit: 50 }),
      'items: 100 (100%), ask for take: 50 on items',
    );
  });
});

describe('estimateCost reads null, negative and fractional slicing values with a schema', () => {
  const sdl = buildSchema(`
    directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!],
      requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION
    type Query {
      sized(take: Int): [Item] @listSize(assumedSize: 20, slicingArguments: ["take"])
      unlimited(limit: Int = -1): [Item]
      paged(first: Float = 2.5): [Item]
    }
    type Item { id: ID }
  `);

  test('a negative first counts the larger of its magnitude and the assumed page size', () => {
    const [small] = estimate('{ viewer { repositories(first: -5) { nodes { name } } } }', {
      schema: github,
    }).contributors;
    assert.deepEqual(
      { size: small?.size, sizeFrom: small?.sizeFrom, slicedBy: small?.slicedBy },
      { size: ASSUMED_PAGE_SIZE, sizeFrom: 'assumed', slicedBy: 'first' },
    );
    const [large] = estimate('{ viewer { repositories(first: -150) { nodes { name } } } }', {
      schema: github,
    }).contributors;
    assert.deepEqual(
      { size: large?.size, sizeFrom: large?.sizeFrom, slicedBy: large?.slicedBy },
      { size: 150, sizeFrom: 'argument', slicedBy: 'first' },
    );
  });

  test("first: null counts the assumed page size, not the schema's default (GraphQL passes the null)", () => {
    const query = (argument: string) => `{ topic(name: "graphql") { relatedTopics${argument} { name } } }`;
    assert.equal(total(query(''), { schema: github }), 3);
    assert.equal(total(query('(first: null)'), { schema: github }), ASSUMED_PAGE_SIZE);
  });

  test("a slicing variable left out takes the schema's default, as GraphQL does", () => {
    const query = 'query Q($n: Int) { topic(name: "graphql") { relatedTopics(first: $n) { name } } }';
    assert.equal(total(query, { schema: github }), 3);
    assert.equal(total(query, { schema: github, variables: { n: null } }), ASSUMED_PAGE_SIZE);
  });

  test("a null or negative value counts at least @listSize's assumed size", () => {
    assert.equal(total('{ sized(take: -5) { id } }', { schema: sdl }), 20);
    assert.equal(total('{ sized(take: null) { id } }', { schema: sdl }), 20);
    assert.equal(total('{ sized(take: -50) { id } }', { schema: sdl }), 50);
    assert.equal(
      estimate('{ sized(take: -5) { id } }', { schema: sdl }).contributors[0]?.sizeFrom,
      'listSize',
    );
  });

  test('a negative default in the schema counts as a negative value given, a fractional one rounded up', () => {
    assert.equal(total('{ unlimited { id } }', { schema: sdl }), ASSUMED_PAGE_SIZE);
    assert.equal(total('{ paged { id } }', { schema: sdl }), 3);
    assert.equal(
      describeListSize(sdl, 'Query', 'unlimited'),
      'list: slice with limit (default -1, counted as 100)',
    );
    assert.equal(
      describeListSize(sdl, 'Query', 'paged'),
      'list: slice with first (default 2.5, counted as 3)',
    );
  });
});

describe("estimateCost on the IBM cost specification's examples", () => {
  test('Example № 2: five users and their age of weight 2.0 count 15', () => {
    // The specification's field cost is 11: 1.0 for the Query.users resolver and 5 × 2.0 for User.age.
    // This count has the five users as items in place of the resolver call: 5 + 5 × 2.0.
    assert.equal(total('query Example { users(max: 5) { age } }', { schema: ibm }), 15);
    assert.deepEqual(breakdown('query Example { users(max: 5) { age } }', { schema: ibm }), [
      'users.age=10',
      'users=5',
    ]);
  });

  test('Example № 10: topProducts counts its weight 5.0, its ten strings nothing', () => {
    assert.equal(total('{ topProducts }', { schema: ibm }), 5);
  });

  test("Example № 10: topProducts with a filter counts 20.0, the filter argument's 15.0 added", () => {
    assert.equal(total('{ topProducts(filter: {}) }', { schema: ibm }), 20);
  });

  test("Example № 11: mostPopularProduct counts 5.0, and 2.0 with the approx argument's -3.0", () => {
    assert.equal(total('{ mostPopularProduct { name } }', { schema: ibm }), 5);
    assert.equal(total('{ mostPopularProduct(approx: { tolerance: 0.1 }) { name } }', { schema: ibm }), 2);
  });

  test("Example № 12: an approximate filter counts 8.0, the input field's -12.0 added", () => {
    assert.equal(total('{ topProducts(filter: { approx: { tolerance: 0.1 } }) }', { schema: ibm }), 8);
  });

  test('Example № 12: input field weights are read from variables too', () => {
    const query = 'query Q($f: Filter) { topProducts(filter: $f) }';
    assert.equal(total(query, { schema: ibm, variables: { f: { approx: { tolerance: 1 } } } }), 8);
  });

  test('Examples № 16 and 17: lists of strings, sized or sliced, add nothing', () => {
    assert.equal(total('{ topProductNames userNames(max: 50) }', { schema: ibm }), 0);
  });

  test('Example № 18: films counts the size of its sized field edges', () => {
    assert.equal(total('{ films(first: 10) { edges { cursor node { title } } } }', { schema: ibm }), 10);
  });

  test('Example № 18: films asked only for pageInfo adds nothing', () => {
    assert.equal(total('{ films(last: 10) { pageInfo { hasNextPage } } }', { schema: ibm }), 0);
  });

  test('requireOneSlicingArgument: films given no slicing argument is assumed a page and flagged missing', () => {
    const [contributor] = estimate('{ films { edges { node { title } } } }', { schema: ibm }).contributors;
    assert.equal(contributor?.items, ASSUMED_PAGE_SIZE);
    assert.equal(contributor?.sizeFrom, 'assumed');
    assert.equal(contributor?.requiredSlicing, 'missing');
  });

  test('requireOneSlicingArgument: films given first and last counts the larger and is flagged several', () => {
    const [contributor] = estimate('{ films(first: 2, last: 6) { edges { node { title } } } }', {
      schema: ibm,
    }).contributors;
    assert.equal(contributor?.items, 6);
    assert.equal(contributor?.slicedBy, 'last');
    assert.equal(contributor?.requiredSlicing, 'several');
  });

  test('requireOneSlicingArgument: films given one slicing argument is not flagged', () => {
    const [contributor] = estimate('{ films(first: 2) { edges { node { title } } } }', {
      schema: ibm,
    }).contributors;
    assert.equal(contributor?.requiredSlicing, undefined);
  });

  test('requireOneSlicingArgument false: media left unsliced takes the default of limit, unflagged', () => {
    const [contributor] = estimate('{ media { ... on Film { title } } }', { schema: ibm }).contributors;
    assert.equal(contributor?.items, 20 * 2.5);
    assert.equal(contributor?.sizeFrom, 'default');
    assert.equal(contributor?.requiredSlicing, undefined);
  });

  test('a slicing argument may come from a variable or its default', () => {
    const query = 'query Q($n: Int = 3) { users(max: $n) { name } }';
    assert.equal(total(query, { schema: ibm }), 3);
    assert.equal(total(query, { schema: ibm, variables: { n: 8 } }), 8);
  });

  test('fragments on the connection and on its items count where they are spread', () => {
    const query =
      '{ films(first: 5) { ...Page } } fragment Page on FilmConnection { edges { node { ...Cast } } } fragment Cast on Film { characters { name } }';
    assert.equal(total(query, { schema: ibm }), 5 + 5 * ASSUMED_LIST_SIZE * 2.5);
  });

  test('aliases of users count separately', () => {
    assert.equal(
      total('{ young: users(max: 2) { age } old: users(max: 3) { age } }', { schema: ibm }),
      2 + 4 + 3 + 6,
    );
  });

  test('an unsized list of objects is counted at the assumed list size, each item its weight', () => {
    const query = '{ featuredFilms { characters { name } } }';
    assert.equal(total(query, { schema: ibm }), 3 + 3 * ASSUMED_LIST_SIZE * 2.5);
    assert.deepEqual(breakdown(query, { schema: ibm }), ['featuredFilms.characters=75', 'featuredFilms=3']);
  });

  test("a union's item counts the largest weight of its types", () => {
    assert.equal(total('{ media(limit: 4) { __typename } }', { schema: ibm }), 4 * 2.5);
  });

  test("an interface's field counts the largest weight of its implementations' fields", () => {
    // Product.price weighs 4.0 and Service.price 1.5: two items, each with a price of at most 4.0.
    assert.equal(total('{ priced { price } }', { schema: ibm }), 2 + 2 * 4);
  });

  test('a schema from introspection has lost @listSize and @cost', () => {
    const introspected = buildClientSchema(introspectionFromSchema(ibm));
    // users is still a list, but max is no conventional slicing argument, and age has lost its weight.
    assert.equal(total('{ users(max: 5) { age } }', { schema: introspected }), ASSUMED_LIST_SIZE);
    assert.equal(total('{ topProducts }', { schema: introspected }), 0);
  });
});

describe('estimateCost stops at the limit and stays finite', () => {
  test('an estimate equal to the limit is exact', () => {
    const result = estimate(GITHUB_COMPLEX, { schema: github, limit: 22_060 });
    assert.deepEqual({ total: result.total, atLeast: result.atLeast }, { total: 22_060, atLeast: false });
  });

  test('counting stops once past the limit and says the total is a lower bound', () => {
    const result = estimate(GITHUB_COMPLEX, { schema: github, limit: 1_000 });
    assert.equal(result.atLeast, true);
    assert.ok(result.total > 1_000 && result.total < 22_060, `total ${result.total}`);
    assert.match(formatCost(result), /^at least \d{1,3}(,\d{3})*$/);
  });

  test('ten nested lists of 100 give a finite lower bound, not Infinity', () => {
    let query = '{ id }';
    for (let i = 0; i < 10; i++) query = `{ l${i}(first: 100) ${query} }`;
    const result = estimate(query, { limit: 500_000 });
    assert.equal(result.atLeast, true);
    assert.ok(Number.isFinite(result.total));
    assert.equal(formatCost(result), 'at least 9,007,199,254,740,991');
  });

  test('a huge slicing argument gives a finite lower bound', () => {
    const result = estimate('{ a(first: 1e300) { b(first: 1e300) { id } } }');
    assert.equal(result.total, Number.MAX_SAFE_INTEGER);
    assert.equal(result.atLeast, true);
    assert.ok(result.contributors.every((c) => Number.isFinite(c.items) && Number.isFinite(c.share)));
  });

  test('a list of size 0 around a huge one counts 0, exactly', () => {
    const result = estimate('{ a(first: 0) { b(first: 1e300) { id } } }', { limit: 10 });
    assert.deepEqual({ total: result.total, atLeast: result.atLeast }, { total: 0, atLeast: false });
  });

  test('forty levels of fragments, each spreading the one below in two lists, finish under a small limit', () => {
    const parts = ['{ root(first: 2) { ...F40 } }', 'fragment F0 on T { leaf(first: 3) { id } }'];
    for (let i = 1; i <= 40; i++) {
      parts.push(`fragment F${i} on T { a(first: 2) { ...F${i - 1} } b(first: 2) { ...F${i - 1} } }`);
    }
    const result = estimate(parts.join('\n'), { limit: 500_000 });
    assert.equal(result.atLeast, true);
    assert.ok(result.total > 500_000 && Number.isFinite(result.total));
    assert.ok(result.contributors.length > 0 && result.contributors.length < 200);
  });

  test('forty levels of fragments are counted to the ceiling without a limit', () => {
    const parts = ['{ root(first: 2) { ...F40 } }', 'fragment F0 on T { leaf(first: 3) { id } }'];
    for (let i = 1; i <= 40; i++) {
      parts.push(`fragment F${i} on T { a(first: 2) { ...F${i - 1} } b(first: 2) { ...F${i - 1} } }`);
    }
    const result = estimate(parts.join('\n'));
    assert.deepEqual(
      { total: result.total, atLeast: result.atLeast },
      { total: Number.MAX_SAFE_INTEGER, atLeast: true },
    );
  });

  test('thirty levels of fragments spread twice at connection level are counted exactly', () => {
    // Page_i spreads Page_(i-1) twice inside c(first: 1), at the level of c's nodes: 2^k items at depth k.
    const parts = ['{ top(first: 1) { ...Page30 } }', 'fragment Page0 on C { nodes { id } }'];
    for (let i = 1; i <= 30; i++) {
      parts.push(`fragment Page${i} on C { nodes { c(first: 1) { ...Page${i - 1} ...Page${i - 1} } } }`);
    }
    const result = estimate(parts.join('\n'));
    // top has 1 node; under each node at depth k, one c whose nodes are selected twice: 2^k nodes at depth k.
    assert.deepEqual(
      { total: result.total, atLeast: result.atLeast },
      { total: 2 ** 31 - 1, atLeast: false },
    );
  });
});

describe('contributors and advice', () => {
  test('shares of the contributors add up to the whole', () => {
    const shares = estimate(GITHUB_COMPLEX, { schema: github }).contributors.map((c) => c.share);
    assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 1) < 1e-9);
  });

  test('the advice names the three largest and a smaller size for each', () => {
    const result = estimate(GITHUB_COMPLEX, { schema: github });
    assert.equal(
      costAdvice(result, { limit: 10_000 }),
      'viewer.repositories.issues.comments: 10,000 (45%), ask for first: 4 on comments; ' +
        'viewer.repositories.pullRequests.comments: 10,000 (45%), ask for first: 4 on comments; ' +
        'viewer.repositories.issues: 1,000 (5%), ask for first: 9 on issues',
    );
  });

  test('each size the advice asks for brings the query within the limit by itself, where one list can', () => {
    const query = (repositories: number, issues: number, comments: number) =>
      `{ viewer { repositories(first: ${repositories}) { nodes { issues(first: ${issues}) { nodes { ` +
      `comments(first: ${comments}) { nodes { body } } } } } } } }`;
    const result = estimate(query(100, 100, 100), { schema: github, limit: 50_000 });
    assert.ok(result.total > 50_000);
    const advice = costAdvice(result, { limit: 50_000 });
    assert.equal(
      advice,
      'viewer.repositories.issues.comments: 1,000,000 (99%), ask for first: 3 on comments; ' +
        'viewer.repositories.issues: 10,000 (1%), ask for first: 4 on issues; ' +
        'viewer.repositories: 100 (<1%), ask for first: 4 on repositories',
    );
    for (const lowered of [query(100, 100, 3), query(100, 4, 100), query(4, 100, 100)]) {
      assert.ok(total(lowered, { schema: github }) <= 50_000, lowered);
    }
  });

  test('without a limit the advice asks for 10 where the size is larger', () => {
    const result = estimate('{ viewer { repositories(first: 100) { nodes { name } } } }', { schema: github });
    assert.equal(costAdvice(result), 'viewer.repositories: 100 (100%), ask for first: 10 on repositories');
  });

  test('the advice asks for first on a connection given no slicing argument', () => {
    const result = estimate('{ viewer { repositories { nodes { name } } } }', { schema: github });
    assert.equal(
      costAdvice(result, { count: 1 }),
      'viewer.repositories: 100 (100%), ask for first: 10 on repositories',
    );
  });

  test('the advice names an aliased field by its alias and its name', () => {
    const result = estimate('{ viewer { mine: repositories(first: 50) { nodes { name } } } }', {
      schema: github,
    });
    assert.equal(costAdvice(result), 'viewer.mine: 50 (100%), ask for first: 10 on mine: repositories');
  });

  test('the advice for a list that cannot be sliced is to leave it out', () => {
    const result = estimate('{ repository(owner: "a", name: "b") { fundingLinks { url } } }', {
      schema: github,
    });
    assert.equal(
      costAdvice(result),
      'repository.fundingLinks: 10 (100%), leave out fundingLinks or select less under it',
    );
  });

  test('the advice for a field counted by its weight is to leave it out', () => {
    assert.equal(
      costAdvice(estimate('{ mostPopularProduct { name } }', { schema: ibm })),
      'mostPopularProduct: 5 (100%), leave out mostPopularProduct',
    );
  });

  test('the advice for several slicing arguments where one is required is to give one', () => {
    assert.equal(
      costAdvice(estimate('{ films(first: 2, last: 6) { edges { node { title } } } }', { schema: ibm })),
      'films: 6 (100%), give only one of first/last on films',
    );
  });

  test('an estimate with no list has no contributors and no advice', () => {
    const result = estimate('{ viewer { login } }', { schema: github });
    assert.deepEqual(result.contributors, []);
    assert.equal(costAdvice(result), '');
  });

  test('an estimate without @cost weights is in list items', () => {
    const result = estimate(GITHUB_SIMPLE, { schema: github });
    assert.equal(result.weighted, false);
    assert.equal(estimated(result), 'can return 550 list items by its estimate');
    assert.equal(estimate('{ users(max: 5) { name } }', { schema: ibm }).weighted, false);
  });

  test("IBM's Example № 2 is in cost units, named as such and not as items or the specification's cost", () => {
    // 5 users and 5 ages of weight 2.0: neither the 5 items nor the specification's field cost of 11.
    const result = estimate('query Example { users(max: 5) { age } }', { schema: ibm });
    assert.equal(result.weighted, true);
    assert.equal(
      estimated(result),
      "is estimated at 15 cost units (list items, each weighted by @cost; not comparable with a gateway's cost budget)",
    );
  });

  test('an item weighted by its type, or a field weighted alone, makes the estimate one of cost units', () => {
    assert.equal(estimate('{ featuredFilms { characters { name } } }', { schema: ibm }).weighted, true);
    assert.equal(estimate('{ mostPopularProduct { name } }', { schema: ibm }).weighted, true);
    assert.equal(estimate('{ featuredFilms { title } }', { schema: ibm }).weighted, false);
  });

  test('formatCost writes the number as a person reads it', () => {
    assert.equal(formatCost({ total: 22_060, atLeast: false }), '22,060');
    assert.equal(formatCost({ total: 500_001, atLeast: true }), 'at least 500,001');
    assert.equal(formatCost({ total: 12.5, atLeast: false }), '12.5');
  });
});

describe('describeListSize', () => {
  test("names a GitHub connection's slicing arguments and the size assumed without one", () => {
    assert.equal(
      describeListSize(github, 'User', 'repositories'),
      'list: slice with first/last (none given: counted as 100)',
    );
  });

  test("names a slicing argument's default", () => {
    assert.equal(describeListSize(github, 'Topic', 'relatedTopics'), 'list: slice with first (default 3)');
  });

  test('says a list without slicing arguments is counted at the assumed size', () => {
    assert.equal(
      describeListSize(github, 'Repository', 'fundingLinks'),
      'list without slicing arguments (counted as 10)',
    );
  });

  test('says nothing of a singular object, a scalar or a list of enums', () => {
    assert.equal(describeListSize(github, 'Query', 'viewer'), undefined);
    assert.equal(describeListSize(github, 'User', 'avatarUrl'), undefined);
    assert.equal(describeListSize(github, 'Issue', 'viewerCannotUpdateReasons'), undefined);
  });

  test('says when @listSize requires one slicing argument', () => {
    assert.equal(
      describeListSize(ibm, 'Query', 'films'),
      'list: slice with first/last (none given: counted as 100), one of them required',
    );
  });

  test("gives @listSize's assumed size and the weight of each item", () => {
    assert.equal(describeListSize(ibm, 'Query', 'featuredFilms'), 'list of at most 3 (@listSize)');
    assert.equal(
      describeListSize(ibm, 'Film', 'characters'),
      'list without slicing arguments (counted as 10); each item costs 2.5',
    );
  });

  test("gives a field's own @cost weight", () => {
    assert.equal(describeListSize(ibm, 'Query', 'topProducts'), 'cost 5 per call');
  });
});
