import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildSchema, introspectionFromSchema } from 'graphql';
import { renderSearch } from '../../src/schema/answers/search.ts';
import { searchIndexOf, searchSchema, searchTerms, splitWords } from '../../src/schema/search.ts';
import { alikeStems } from '../../src/schema/search-thesaurus.ts';
import { parseSearch, singular, stem } from '../../src/schema/search-words.ts';
import { IntrospectedSchema, type SchemaView } from '../../src/schema/view.ts';
import { loadGitHubSchema } from '../fixtures/github-schema.ts';

/** GitHub's schema, loaded once for the tests that need a large real schema. */
let github: Promise<SchemaView> | undefined;
const githubView = () =>
  (github ??= new IntrospectedSchema(introspectionFromSchema(loadGitHubSchema().schema)).view(false));

const SDL = /* GraphQL */ `
  "A repository pull request."
  type PullRequest {
    id: ID!
    title: String!
    reviews: [PullRequestReview!]!
  }
  "A review of a pull request."
  type PullRequestReview {
    body: String!
  }
  "A repository contains the content for a project."
  type Repository {
    "A list of issues that have been opened in the repository."
    issues(states: [IssueState!]): [Issue!]!
    "Returns a single issue from the current repository by number."
    issue(number: Int!): Issue
    "A list of pull requests that have been opened in the repository."
    pullRequests(first: Int): [PullRequest!]!
    "Returns a single pull request from the current repository by number."
    pullRequest(number: Int!): PullRequest
    stargazerCount: Int!
    oldName: String @deprecated(reason: "Use name.")
  }
  "An Issue is a place to discuss ideas."
  type Issue {
    title: String!
    "Identifies the body of the issue."
    body: String!
  }
  "The possible states of an issue."
  enum IssueState {
    OPEN
    CLOSED
  }
  input CreateIssueInput {
    repositoryId: ID!
    title: String!
  }
  type OAuthApplication {
    name: String!
  }
  type Query {
    repository(owner: String!, name: String!): Repository
    oauthApp: OAuthApplication
  }
  type Mutation {
    createIssue(input: CreateIssueInput!): Issue
  }
`;

async function viewOf(includeDeprecated = false): Promise<SchemaView> {
  return new IntrospectedSchema(introspectionFromSchema(buildSchema(SDL))).view(includeDeprecated);
}

async function search(words: string, includeDeprecated = false) {
  const view = await viewOf(includeDeprecated);
  return searchSchema(await searchIndexOf(view), words, 1_000);
}

async function coordinates(words: string): Promise<string[]> {
  return (await search(words)).hits.map((hit) => hit.coordinate);
}

describe('search words', () => {
  test('splitWords splits camelCase, PascalCase, acronyms and digits', () => {
    assert.deepEqual(splitWords('pullRequests'), ['pull', 'requests']);
    assert.deepEqual(splitWords('PullRequestReview'), ['pull', 'request', 'review']);
    assert.deepEqual(splitWords('HTMLUrl'), ['html', 'url']);
    assert.deepEqual(splitWords('ProjectV2Item'), ['project', 'v', '2', 'item']);
    assert.deepEqual(splitWords('SCREAMING_CASE'), ['screaming', 'case']);
  });

  test('singular takes off plural endings', () => {
    assert.equal(singular('issues'), 'issue');
    assert.equal(singular('repositories'), 'repository');
    assert.equal(singular('branches'), 'branch');
    assert.equal(singular('address'), 'address');
    assert.equal(singular('status'), 'status');
  });

  test('stem folds -ed, -ing, -able and -er forms onto one stem', () => {
    assert.equal(stem('starred'), stem('stars'));
    assert.equal(stem('lockable'), stem('lock'));
    assert.equal(stem('locked'), stem('lock'));
    assert.equal(stem('followers'), stem('follow'));
    assert.equal(stem('merging'), stem('merge'));
    assert.notEqual(stem('string'), stem('str'));
    assert.equal(stem('user'), 'user');
  });

  test('parseSearch reads a word after "of", "in", "on" or before "\'s" as where, not what', () => {
    assert.deepEqual(parseSearch('the issues of a repository'), [
      { word: 'issues', role: 'target' },
      { word: 'repository', role: 'context' },
    ]);
    assert.deepEqual(parseSearch("a repository's issues"), [
      { word: 'repository', role: 'context' },
      { word: 'issues', role: 'target' },
    ]);
  });

  test('parseSearch reads a word after "so" or "because" as why', () => {
    assert.deepEqual(
      parseSearch('lock an issue so nobody can comment').map(({ word, role }) => `${word}/${role}`),
      ['lock/target', 'issue/target', 'nobody/purpose', 'comment/purpose'],
    );
  });

  test('searchTerms reads "how many" and "number of" as count, and first-person words as me', () => {
    assert.deepEqual(searchTerms('how many stars'), ['count', 'stars']);
    assert.deepEqual(searchTerms('the number of stars of my repositories'), [
      'count',
      'stars',
      'me',
      'repositories',
    ]);
  });

  test('searchTerms lowercases, splits and drops stopwords', () => {
    assert.deepEqual(searchTerms("The issues of a Repository's pullRequests"), [
      'issues',
      'repository',
      'pull',
      'requests',
    ]);
  });

  test('searchTerms keeps stopwords when there is nothing else', () => {
    assert.deepEqual(searchTerms('the'), ['the']);
  });

  test('searchTerms of punctuation alone is empty', () => {
    assert.deepEqual(searchTerms('!!! ...'), []);
  });
});

describe('searchSchema', () => {
  test('"pull request" finds pullRequests: case-insensitive, camelCase split, plural', async () => {
    assert.ok((await coordinates('pull request')).includes('Repository.pullRequests'));
  });

  test('ranks the exact name match first', async () => {
    const found = await coordinates('pull request');
    assert.equal(found[0], 'PullRequest');
    assert.equal(found[1], 'Repository.pullRequest');
    assert.ok(found.indexOf('Repository.pullRequests') < found.indexOf('PullRequestReview'));
  });

  test('finds a field by its type and field words together', async () => {
    assert.equal((await coordinates('repository issues'))[0], 'Repository.issues');
  });

  test('gives each hit a path from a root field', async () => {
    const { hits } = await search('repository issues');
    assert.equal(
      hits[0]?.path?.map((step) => `${step.type}.${'field' in step ? step.field : ''}`).join(' → '),
      'Query.repository → Repository.issues',
    );
  });

  test('finds words in descriptions when they are not in the name', async () => {
    assert.ok((await coordinates('opened')).includes('Repository.issues'));
  });

  test('ranks name matches above description matches', async () => {
    const found = await coordinates('issue');
    assert.ok(found.indexOf('Issue') < found.indexOf('Repository.issues'));
    assert.ok(found.indexOf('Repository.issues') < found.indexOf('Issue.body'));
  });

  test('finds enum values, input fields and enum types', async () => {
    assert.ok((await coordinates('closed')).includes('IssueState.CLOSED'));
    assert.ok((await coordinates('repository id')).includes('CreateIssueInput.repositoryId'));
  });

  test('a word matches the whole name too: "oauth" finds OAuthApplication', async () => {
    assert.ok((await coordinates('oauth')).includes('OAuthApplication'));
  });

  test('finds nothing for words no name or description has', async () => {
    const found = await search('zebra');
    assert.equal(found.total, 0);
  });

  test('still ranks what the schema has when a word matches nothing, and names that word', async () => {
    const found = await search('stargazer zebra');
    assert.deepEqual(found.unmatched, ['zebra']);
    assert.equal(found.hits[0]?.coordinate, 'Repository.stargazerCount');
  });

  test('leaves out deprecated fields unless includeDeprecated', async () => {
    assert.ok(!(await coordinates('old name')).includes('Repository.oldName'));
    const found = await search('old name', true);
    assert.equal(found.hits[0]?.coordinate, 'Repository.oldName');
  });
});

describe('renderSearch', () => {
  async function render(words: string, maxChars: number): Promise<string> {
    const view = await viewOf();
    const terms = searchTerms(words);
    return renderSearch(words, terms, searchSchema(await searchIndexOf(view), words), maxChars);
  }

  test('shows each hit with its path, description and SDL line', async () => {
    const text = await render('repository issues', 10_000);
    assert.match(
      text,
      /# Repository\.issues — path: Query\.repository → Repository\.issues\n"A list of issues that have been opened in the repository\."\nissues\(states: \[IssueState!\]\): \[Issue!\]!/,
    );
  });

  test('shows a type with its first line', async () => {
    assert.match(
      await render('pull request', 10_000),
      /# PullRequest \(object\) — path: Query\.repository → Repository\.pullRequests?\n"A repository pull request\."\ntype PullRequest \{ … 3 fields \}/,
    );
  });

  test('says plainly that nothing matched', async () => {
    assert.match(
      await render('zebra', 10_000),
      /^# search "zebra": no type or field has this word in its name or description/,
    );
  });

  test('says how many matched and names what to read next', async () => {
    assert.match(
      await render('pull request', 10_000),
      /^# search "pull request": \d+ matches, best first\. .* Full definitions: typeNames: \["PullRequest", "Repository\.pullRequest"\]\./,
    );
  });

  test('says that entries are ranked, and which words rank best', async () => {
    assert.match(
      await render('pull request', 10_000),
      /Ranked by shared words: whole words of names first, .*; the schema's own words \(as in the names below\) rank best\./,
    );
    assert.doesNotMatch(await render('pull request', 10_000), /narrow/);
  });

  test('names the words no name or description has, says they were not counted, and asks for others', async () => {
    assert.match(
      await render('stargazer zebra', 10_000),
      /No name or description has zebra: not counted\. Add other words for it that the API may use\./,
    );
    assert.match(
      await render('stargazer zebra okapi', 10_000),
      /Add other words for them that the API may use\./,
    );
  });

  test('says what it searched for when it read the words differently', async () => {
    assert.match(
      await render('how many stargazers', 10_000),
      /^# search "how many stargazers" \(searched as: count, stargazers\): /,
    );
    assert.doesNotMatch(await render('pull request', 10_000), /searched as/);
  });

  test('MUST stay within the budget, and say when it was cut', async () => {
    const whole = await render('issue', 100_000);
    for (let max = 300; max < whole.length; max += 37) {
      const text = await render('issue', max);
      assert.ok(text.length <= max, `${text.length} > ${max}`);
      assert.match(text, /cut to fit the [\d,]+-character limit/);
    }
  });

  test('MUST stay within the budget with the longest first line: a phrase read differently, with unknown words', async () => {
    const search = 'how many issues of my repositories are about zebras and xylophones';
    for (let max = 50; max < 3_000; max += 23) {
      const text = await render(search, max);
      assert.ok(text.length <= max, `${text.length} > ${max}`);
    }
    assert.match(await render(search, 100_000), /No name or description has .*zebras.*: not counted\./);
  });
});

describe('the search index', () => {
  test('is built once per view: every search of the view shares it', async () => {
    const view = await viewOf();
    const first = searchIndexOf(view);
    assert.equal(searchIndexOf(view), first);
    assert.equal(await searchIndexOf(view), await first);
    assert.notEqual(await searchIndexOf(await viewOf(true)), await first);
  });

  test("MUST let other work run while it is built (GitHub's schema, in slices)", async () => {
    const view = await githubView();
    void view.paths;
    let turns = 0;
    let building = true;
    const tick = () => {
      turns++;
      if (building) setImmediate(tick);
    };
    setImmediate(tick);
    await searchIndexOf(view);
    building = false;
    assert.ok(turns > 50, `the event loop turned ${turns} times while the index was built`);
  });

  test("ranks, never filters: a word the API uses, added to words it does not, brings its member first (GitHub's schema)", async () => {
    const index = await searchIndexOf(await githubView());
    const firstFive = (search: string) => searchSchema(index, search, 5).hits.map((hit) => hit.coordinate);
    assert.ok(
      !firstFive('user profile picture').includes('User.avatarUrl'),
      'GitHub says avatar, not picture',
    );
    assert.equal(firstFive('user profile picture avatar')[0], 'User.avatarUrl');
  });

  test("matches the words APIs in general use for the same thing, where the schema has them (GitHub's schema)", async () => {
    const index = await searchIndexOf(await githubView());
    const first = (search: string) => searchSchema(index, search, 1).hits[0]?.coordinate;
    // GitHub never says picture or move.
    assert.equal(first('user picture'), 'User.avatarUrl');
    assert.equal(first('move issue to another repository'), 'Mutation.transferIssue');
    assert.deepEqual(searchSchema(index, 'user picture').unmatched, []);
  });

  test("names the schema's words a search word was read as, when it has none of its own (GitHub's schema)", async () => {
    const index = await searchIndexOf(await githubView());
    const found = searchSchema(index, 'user picture');
    assert.ok(found.readAs.get('picture')?.includes('avatar'), JSON.stringify([...found.readAs]));
    const answer = renderSearch('user picture', searchTerms('user picture'), found, 40_000);
    assert.match(answer.split('\n')[0]!, /Read picture as [a-z, ]*avatar[a-z, ]* \(words APIs use alike\)\./);
    // GitHub has move (moveProjectCard): a word with forms of its own is not read as another.
    assert.equal(searchSchema(index, 'move issue').readAs.size, 0);
  });
});

describe('the words APIs use alike', () => {
  test('a word is alike the others of its groups, by stem, both ways', () => {
    assert.ok(alikeStems(stem('picture')).has(stem('avatar')));
    assert.ok(alikeStems(stem('avatars')).has(stem('picture')));
    assert.ok(alikeStems(stem('removed')).has(stem('delete')));
  });

  test('keeps apart words that are related but do not mean the same', () => {
    assert.ok(!alikeStems(stem('edit')).has(stem('delete')));
    assert.ok(!alikeStems(stem('follow')).has(stem('unfollow')));
    assert.equal(alikeStems('zebra').size, 0);
  });
});
