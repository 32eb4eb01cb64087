import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildSchema } from 'graphql';
import { findRootPaths, formatPath } from '../../src/schema/paths.ts';

function pathsOf(sdl: string): Map<string, string> {
  const paths = findRootPaths(buildSchema(sdl));
  return new Map([...paths].map(([name, path]) => [name, formatPath(path)]));
}

const SDL = /* GraphQL */ `
  interface Node {
    id: ID!
  }
  interface Comment {
    body: String!
  }
  type Repository implements Node {
    id: ID!
    issue(number: Int!): Issue
    issues(states: [IssueState!]): [Issue!]!
  }
  type Issue implements Node & Comment {
    id: ID!
    body: String!
    labels: [Label!]!
  }
  type Label {
    name: String!
  }
  enum IssueState {
    OPEN
    CLOSED
  }
  input NewIssue {
    title: String!
    priority: Priority
  }
  enum Priority {
    LOW
    HIGH
  }
  type Orphan {
    x: Int
  }
  type Query {
    node(id: ID!): Node
    repository(name: String!): Repository
  }
  type Mutation {
    createIssue(input: NewIssue!): Issue
    createLabel(name: String!): Label
  }
`;

describe('findRootPaths', () => {
  const paths = pathsOf(SDL);

  test('gives root types an empty path', () => {
    assert.equal(paths.get('Query'), '');
    assert.equal(paths.get('Mutation'), '');
  });

  test('reaches a type through the return type of a root field', () => {
    assert.equal(paths.get('Repository'), 'Query.repository');
  });

  test('reaches a type through a chain of fields', () => {
    assert.equal(paths.get('Label'), 'Query.repository → Repository.issue → Issue.labels');
  });

  test('prefers a path of fields to one through a type condition of the same length', () => {
    assert.equal(paths.get('Issue'), 'Query.repository → Repository.issue');
  });

  test('prefers a path from Query to one from Mutation', () => {
    assert.ok(paths.get('Issue')?.startsWith('Query.'));
  });

  test('reaches an enum through an argument', () => {
    assert.equal(paths.get('IssueState'), 'Query.repository → Repository.issues(states:)');
  });

  test('reaches input types through arguments and input fields', () => {
    assert.equal(paths.get('NewIssue'), 'Mutation.createIssue(input:)');
    assert.equal(paths.get('Priority'), 'Mutation.createIssue(input:) → NewIssue.priority');
  });

  test('reaches an interface through a type that implements it', () => {
    assert.equal(paths.get('Comment'), 'Query.repository → Repository.issue → … on Comment');
  });

  test('leaves out types that no root field leads to', () => {
    assert.equal(paths.has('Orphan'), false);
  });
});
