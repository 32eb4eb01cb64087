import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mutationQuestion, visible } from '../../src/graphql/mutation-question.ts';
import { analyseDocument, selectOperation } from '../../src/graphql/operation.ts';

function question(query: string, variables?: Record<string, unknown>, operationName?: string): string {
  const document = analyseDocument(query);
  const operation = selectOperation(document, operationName);
  return mutationQuestion({ endpoint: 'https://api.example.com/graphql', document, operation, variables });
}

describe('the question put to a person before a mutation', () => {
  test('names the endpoint, the operation, and each field with its arguments, variables filled in', () => {
    const text = question(
      'mutation Rename($id: ID!, $name: String = "x") { renameRepo(id: $id, name: $name) { id } b: star(ids: [$id, "r2"], input: {note: $id}) }',
      { id: 'r1' },
    );
    assert.match(text, /changes data at https:\/\/api\.example\.com\/graphql/);
    assert.match(text, /Operation: Rename/);
    assert.match(text, /renameRepo\(id: "r1", name: "x"\)/);
    assert.match(text, /b: star\(ids: \["r1", "r2"\], input: \{note: "r1"\}\)/);
  });

  test('shows the document as it is sent (printed on one line) and the variables', () => {
    const document = analyseDocument('mutation   M { a(x: 1) # comment\n { id } }');
    const text = question('mutation   M { a(x: 1) # comment\n { id } }', { y: 2 });
    assert.ok(text.includes(`Document as sent: ${document.text}`));
    assert.match(text, /Variables: \{"y":2\}/);
  });

  test('lists the fields of fragments and inline fragments on the mutation type', () => {
    const text = question('mutation { ...F ... on Mutation { c } } fragment F on Mutation { a b(x: 1) }');
    assert.ok(text.includes('  a\n  b(x: 1)\n  c'), text);
  });

  test('MUST show a document of thousands of fields in a bounded question, counting what is left out', () => {
    const fields = Array.from({ length: 3_000 }, (_, i) => `f${i}: touch`).join(' ');
    const text = question(`mutation { ${fields} }`);
    assert.ok(text.length < 3_000, `${text.length} characters`);
    assert.match(text, /… and 2,988 more fields/);
    assert.match(text, /more characters not shown\)/);
  });

  test('MUST make bidirectional overrides, zero-width and line-separator characters visible', () => {
    const text = question('mutation($t: String) { post(text: $t, title: "a\u2028b") }', {
      t: 'pay \u202Eevil\u202C me\u200B now\u2066',
    });
    assert.match(text, /<U\+202E>evil<U\+202C>/);
    assert.match(text, /<U\+200B>/);
    assert.match(text, /<U\+2066>/);
    assert.match(text, /a<U\+2028>b/);
    assert.ok(!/[\u202A-\u202E\u2066-\u2069\u200B\u2028]/.test(text), 'no hidden character left');
  });

  test('says which operation runs when the document holds a mutation but runs a query', () => {
    const text = question('query Q { a } mutation M { b }', undefined, 'Q');
    assert.match(
      text,
      /Operation: Q, a query; the document also holds the mutation M, which is not the one to run/,
    );
  });
});

describe('visible', () => {
  test('keeps ordinary text, accents and emoji as they are', () => {
    assert.equal(visible('Ça va? 👍 日本'), 'Ça va? 👍 日本');
  });

  test('shows controls, tags and lone surrogates by code point', () => {
    assert.equal(visible('a\u0000b\u{E0041}c\uD800'), 'a<U+0000>b<U+E0041>c<U+D800>');
  });
});
