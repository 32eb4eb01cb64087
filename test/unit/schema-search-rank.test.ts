// The ranking rules of the schema search, each on a small schema made for it: what counts more, and what the
// schema implies (interfaces, a mutation's subjects, the names a type goes by, GraphQL's conventions).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildSchema, introspectionFromSchema } from 'graphql';
import { searchIndexOf, searchSchema } from '../../src/schema/search.ts';
import { IntrospectedSchema } from '../../src/schema/view.ts';

const SDL = /* GraphQL */ `
  scalar DateTime
  type PageInfo {
    hasNextPage: Boolean!
  }
  "Things that can be locked."
  interface Lockable {
    locked: Boolean!
  }
  "An issue."
  type Issue implements Lockable {
    title: String!
    locked: Boolean!
    author: User
    createdAt: DateTime!
  }
  "A pull request."
  type PullRequest implements Lockable {
    title: String!
    locked: Boolean!
  }
  "A Git reference."
  type Ref {
    name: String!
  }
  "A label."
  type Label {
    name: String!
  }
  "A person."
  type User {
    login: String!
    email: String!
    repositories: RepositoryConnection!
  }
  type UserConnection {
    nodes: [User!]!
    pageInfo: PageInfo!
    totalCount: Int!
  }
  type RepositoryConnection {
    nodes: [Repository!]!
    pageInfo: PageInfo!
    totalCount: Int!
  }
  "A topic."
  type Topic {
    star: Int
    startDate: DateTime
  }
  "A repository."
  type Repository {
    name: String!
    defaultBranchRef: Ref
    stargazers: UserConnection!
    stargazerCount: Int!
    issues: [Issue!]!
    labels: [Label!]!
  }
  union UserOrRepository = User | Repository
  type Query {
    viewer: User!
    repository(name: String!): Repository
    topic(name: String!): Topic
  }
  input LockLockableInput {
    lockableId: ID!
  }
  type LockLockablePayload {
    lockedRecord: Lockable
  }
  input DeleteRefInput {
    refId: ID!
  }
  type DeleteRefPayload {
    clientMutationId: String
  }
  input DeleteLabelInput {
    labelId: ID!
  }
  type DeleteLabelPayload {
    clientMutationId: String
  }
  type Mutation {
    "Lock a lockable object."
    lockLockable(input: LockLockableInput!): LockLockablePayload
    "Delete a Git Ref."
    deleteRef(input: DeleteRefInput!): DeleteRefPayload
    "Delete a label."
    deleteLabel(input: DeleteLabelInput!): DeleteLabelPayload
  }
`;

/** The entries of a search on `sdl`, best first. */
async function entries(search: string, sdl = SDL): Promise<string[]> {
  const view = await new IntrospectedSchema(introspectionFromSchema(buildSchema(sdl))).view(false);
  return searchSchema(await searchIndexOf(view), search, 1_000).hits.map((hit) => hit.coordinate);
}

describe('ranking', () => {
  test('ranks a whole word of a name above a name that only starts with it', async () => {
    const found = await entries('star');
    assert.ok(found.indexOf('Topic.star') < found.indexOf('Topic.startDate'), found.join(', '));
  });

  test('ranks a type named exactly as the search first, stopwords and all', async () => {
    assert.equal((await entries('user or repository'))[0], 'UserOrRepository');
  });

  test('ranks a name that holds every word above one that holds some of them', async () => {
    const found = await entries('stargazer count');
    assert.equal(found[0], 'Repository.stargazerCount');
  });

  test('counts the words of a phrase that say where ("of a repository") in the type the member is on', async () => {
    const found = await entries('the labels of a repository');
    assert.equal(found[0], 'Repository.labels');
  });

  test('ranks the same words alike however the search is worded: stopwords count for nothing', async () => {
    assert.equal((await entries('the email address of a user'))[0], (await entries('user email'))[0]);
  });

  test('shows the same member on several types as one entry', async () => {
    const view = await new IntrospectedSchema(introspectionFromSchema(buildSchema(SDL))).view(false);
    const { hits } = searchSchema(await searchIndexOf(view), 'locked', 1_000);
    const locked = hits.filter((hit) => hit.coordinate.endsWith('.locked'));
    assert.equal(locked.length, 1);
    const types = locked[0]!.alsoOn.map((type) => `${type}.locked`);
    assert.deepEqual([locked[0]!.coordinate, ...types].sort(), [
      'Issue.locked',
      'Lockable.locked',
      'PullRequest.locked',
    ]);
  });
});

describe('what the schema implies', () => {
  test('finds a mutation through the interface its input names: "lock issue" finds lockLockable', async () => {
    const found = await entries('lock issue');
    assert.ok(found.slice(0, 3).includes('Mutation.lockLockable'), found.join(', '));
    // Issue implementing Lockable is what ties lockLockable to issues.
    assert.ok((await entries('issue')).includes('Mutation.lockLockable'));
    const unrelated = SDL.replace('type Issue implements Lockable', 'type Issue');
    assert.ok(!(await entries('issue', unrelated)).includes('Mutation.lockLockable'));
  });

  test('names what a mutation acts on by the names its type goes by: "delete branch" finds deleteRef', async () => {
    const found = await entries('delete branch');
    assert.equal(found[0], 'Mutation.deleteRef', found.join(', '));
    assert.ok(found.indexOf('Mutation.deleteLabel') > 0);
  });

  test('reads "how many" as a count', async () => {
    assert.equal((await entries('how many stargazers'))[0], 'Repository.stargazerCount');
    assert.equal((await entries('stargazers'))[0], 'Repository.stargazers');
  });

  test('reads "my" as the viewer', async () => {
    const found = await entries('my repositories');
    assert.equal(found[0], 'User.repositories');
    assert.ok(found.includes('Query.viewer'));
    assert.ok(!(await entries('repositories')).includes('Query.viewer'));
  });

  test('reads "who" as a person: a field whose values are of the viewer\'s type', async () => {
    assert.equal((await entries('who starred a repository'))[0], 'Repository.stargazers');
  });

  test('reads "when" as a time', async () => {
    assert.equal((await entries('when was an issue created'))[0], 'Issue.createdAt');
  });

  test('takes a synonym from the schema: mutations named delete and described as "Remove"', async () => {
    const sdl = /* GraphQL */ `
      type Tag {
        name: String!
      }
      type Note {
        text: String!
      }
      type Query {
        tags: [Tag!]!
      }
      type Mutation {
        "Remove a tag."
        tagDelete(id: ID!): Tag
        "Removes a label."
        labelDelete(id: ID!): Tag
        "Deletes a note."
        noteDelete(id: ID!): Note
        "Creates a note."
        noteCreate(text: String!): Note
        "Creates a tag."
        tagCreate(name: String!): Tag
        "Creates a label."
        labelCreate(name: String!): Tag
      }
    `;
    assert.equal((await entries('remove a note', sdl))[0], 'Mutation.noteDelete');
  });
});
