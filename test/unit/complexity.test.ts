import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { measureComplexity, type Complexity } from '../../src/graphql/complexity.ts';
import { analyseDocument, selectOperation } from '../../src/graphql/operation.ts';

/** The complexity of a document's operation (the only one, or the one named) under a limit. */
function measure(query: string, limit = 1_000, operationName?: string): Complexity {
  const analysed = analyseDocument(query);
  return measureComplexity(analysed, selectOperation(analysed, operationName), limit);
}

/** The exact complexity: measured under a limit it cannot reach. */
function count(query: string, operationName?: string): number {
  const complexity = measure(query, 1_000_000, operationName);
  assert.equal(complexity.atLeast, false);
  return complexity.value;
}

/** `levels` fragments, each spreading the one below it twice; F0 selects two fields. */
function exponentialFragments(levels: number): string {
  const parts = [`{ ...F${levels} }`, 'fragment F0 on Q { a b }'];
  for (let i = 1; i <= levels; i++) parts.push(`fragment F${i} on Q { ...F${i - 1} ...F${i - 1} }`);
  return parts.join('\n');
}

describe('measureComplexity counts', () => {
  test('one field costs 1', () => {
    assert.equal(count('{ a }'), 1);
  });

  test('sibling fields each cost 1', () => {
    assert.equal(count('{ a b c }'), 3);
  });

  test('a nested field costs 1 besides its own selections', () => {
    assert.equal(count('{ user { id name } }'), 3);
  });

  test('deeply nested fields each cost 1', () => {
    assert.equal(count('{ a { b { c { d { e } } } } }'), 5);
  });

  test('arguments, variables and directives cost nothing', () => {
    assert.equal(
      count('query Q($id: ID!) { user(id: $id, first: 10) @include(if: true) { name @skip(if: false) } }'),
      2,
    );
  });

  test('aliases of the same field count separately', () => {
    assert.equal(count('{ first: user(id: 1) { id } second: user(id: 2) { id } }'), 4);
  });

  test('an alias costs the same as the field', () => {
    assert.equal(count('{ me: viewer { login } }'), 2);
  });

  test('__typename costs 0', () => {
    assert.equal(count('{ __typename }'), 0);
  });

  test('__typename inside a selection costs 0', () => {
    assert.equal(count('{ node { __typename id } }'), 2);
  });

  test('an aliased __typename costs 0', () => {
    assert.equal(count('{ kind: __typename a }'), 1);
  });

  test("a fragment spread costs its fragment's fields", () => {
    assert.equal(count('{ user { ...Fields } } fragment Fields on User { id name }'), 3);
  });

  test('a fragment spread three times counts three times', () => {
    assert.equal(count('{ a { ...F } b { ...F } c { ...F } } fragment F on T { x y }'), 3 + 3 * 2);
  });

  test('a fragment spread twice in the same selection counts twice', () => {
    assert.equal(count('{ ...F ...F } fragment F on Q { a }'), 2);
  });

  test('a fragment spreading another counts both', () => {
    assert.equal(
      count(
        '{ user { ...Outer } } fragment Outer on User { id ...Inner } fragment Inner on User { name email }',
      ),
      1 + 1 + 2,
    );
  });

  test('fields nested inside a fragment count', () => {
    assert.equal(count('{ ...F } fragment F on Q { user { friends { id } } }'), 3);
  });

  test('an inline fragment costs its fields', () => {
    assert.equal(count('{ node { ... on User { name } ... on Repo { title stars } } }'), 4);
  });

  test('an inline fragment without a type condition costs its fields', () => {
    assert.equal(count('{ ... @include(if: true) { a b } }'), 2);
  });

  test('nested inline fragments and spreads combine', () => {
    assert.equal(
      count('{ node { ... on User { ...F ... on Admin { level } } } } fragment F on User { id name }'),
      1 + 2 + 1,
    );
  });

  test('an unused fragment costs nothing', () => {
    assert.equal(count('{ a } fragment Unused on Q { b c d e f }'), 1);
  });

  test('an operation that is not run costs nothing', () => {
    assert.equal(count('query Small { a } query Big { b c d e f g h }', 'Small'), 1);
  });

  test('only the selected operation counts', () => {
    assert.equal(count('query Small { a } query Big { b c d e f g h }', 'Big'), 7);
  });

  test('a fragment used only by an operation that is not run costs nothing', () => {
    assert.equal(count('query A { a } query B { ...F } fragment F on Q { x y z }', 'A'), 1);
  });

  test('a mutation is counted like a query', () => {
    assert.equal(count('mutation { createUser(name: "x") { id name } }'), 3);
  });

  test('a complexity equal to the limit is exact', () => {
    assert.deepEqual(measure('{ a b c }', 3), { value: 3, atLeast: false });
  });

  test('a complexity one over the limit is exact', () => {
    assert.deepEqual(measure('{ a b c }', 2), { value: 3, atLeast: false });
  });
});

describe('measureComplexity stops early', () => {
  test('counting stops past the limit and says the value is a lower bound', () => {
    const complexity = measure(`{ ${'f '.repeat(500)}}`, 10);
    assert.equal(complexity.atLeast, true);
    assert.ok(complexity.value > 10, `value ${complexity.value}`);
    assert.ok(complexity.value < 500, `value ${complexity.value}`);
  });

  test('counting stops past the limit inside nested selections', () => {
    const complexity = measure(`{ a { b { ${'f '.repeat(100)}} } }`, 5);
    assert.equal(complexity.atLeast, true);
    assert.ok(complexity.value > 5);
  });

  test('counting stops past the limit inside fragments', () => {
    const complexity = measure(`{ x { ...F } y { ...F } } fragment F on T { ${'f '.repeat(100)}}`, 5);
    assert.equal(complexity.atLeast, true);
    assert.ok(complexity.value > 5);
  });

  test('a lower bound is never reported for a document within the limit', () => {
    const complexity = measure('{ a { ...F } b { ...F } } fragment F on T { x y z }', 8);
    assert.deepEqual(complexity, { value: 8, atLeast: false });
  });

  test('a limit of 0 reports any field as over it', () => {
    const complexity = measure('{ a b c }', 0);
    assert.ok(complexity.value > 0);
  });

  test('an exponential fragment document of 40 levels finishes under a small limit', () => {
    const complexity = measure(exponentialFragments(40), 100);
    assert.equal(complexity.atLeast, true);
    assert.ok(complexity.value > 100);
  });

  test('an exponential fragment document of 40 levels is counted exactly under a huge limit', () => {
    const complexity = measure(exponentialFragments(40), Number.MAX_SAFE_INTEGER - 1);
    assert.deepEqual(complexity, { value: 2 ** 41, atLeast: false });
  });

  test('an exponential fragment document spread inside fields finishes under a small limit', () => {
    const parts = ['{ root { ...F30 } }', 'fragment F0 on T { leaf }'];
    for (let i = 1; i <= 30; i++) parts.push(`fragment F${i} on T { a { ...F${i - 1} } b { ...F${i - 1} } }`);
    const complexity = measure(parts.join('\n'), 1_000);
    assert.equal(complexity.atLeast, true);
    assert.ok(complexity.value > 1_000);
  });
});
