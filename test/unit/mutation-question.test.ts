import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mutationQuestion, UnconfirmableMutation, visible } from '../../src/graphql/mutation-question.ts';
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

  test('MUST refuse a mutation of thousands of fields rather than list only some of them', () => {
    const fields = Array.from({ length: 3_000 }, (_, i) => `f${i}: touch`).join(' ');
    assert.throws(() => question(`mutation { ${fields} }`), UnconfirmableMutation);
  });

  for (const [where, index] of [
    ['first', 0],
    ['in the middle', 6],
    ['last', 12],
  ] as const) {
    test(`MUST name every root field of a long mutation, the hidden one ${where} included`, () => {
      const adds = Array.from(
        { length: 12 },
        (_, i) =>
          `a${i}: addBook(title: "${'A long and winding title '.repeat(5)}${i}", genre: FICTION) { id }`,
      );
      adds.splice(index, 0, 'deleteBook(id: "3") { id }');
      const text = question(`mutation { ${adds.join(' ')} }`);
      assert.match(text, /^ {2}deleteBook\(id: "3"\)$/m);
      for (let i = 0; i < 12; i++) assert.match(text, new RegExp(`^  a${i}: addBook\\(`, 'm'));
      assert.ok(text.length < 10_000, `${text.length} characters`);
    });
  }

  test('shows the start of a long document, saying every field is listed above', () => {
    const long = 'x'.repeat(10_000);
    const text = question(`mutation { post(text: "${long}") { id } }`);
    assert.match(text, /more characters not shown; every field it calls is listed above\)/);
  });

  test('MUST NOT let a secret mask a name: a field named like an operator secret is refused', () => {
    const document = analyseDocument('mutation { deleteBook(id: "3") { id } }');
    assert.throws(
      () =>
        mutationQuestion({
          endpoint: 'https://api.example.com/graphql',
          document,
          operation: selectOperation(document, undefined),
          variables: undefined,
          hide: (text) => text.replaceAll('deleteBook', '[redacted]'),
        }),
      UnconfirmableMutation,
    );
  });

  test('masks an operator secret in a value, and says what [redacted] stands for', () => {
    const document = analyseDocument('mutation { setKey(key: "sk-live-123456") }');
    const text = mutationQuestion({
      endpoint: 'https://api.example.com/graphql',
      document,
      operation: selectOperation(document, undefined),
      variables: undefined,
      hide: (text) => text.replaceAll('sk-live-123456', '[redacted]'),
    });
    assert.ok(!text.includes('sk-live-123456'), text);
    assert.match(text, /setKey\(key: "\[redacted\]"\)/);
    assert.match(text, /\[redacted\] stands for a value of the server's own configured credentials/);
  });

  test('names the API and the headers the call adds, never their values', () => {
    const document = analyseDocument('mutation { a }');
    const text = mutationQuestion({
      endpoint: 'https://api.example.com/graphql',
      api: 'beta',
      document,
      operation: selectOperation(document, undefined),
      variables: undefined,
      callHeaders: ['X-Trace', 'Authorization'],
    });
    assert.match(text, /^API: beta$/m);
    assert.match(text, /^Headers this call adds: X-Trace, Authorization \(values not shown\)$/m);
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

  test('shows every character that renders as no glyph of its own by code point', () => {
    for (const code of [
      0x2800, 0x13430, 0x1bca1, 0x0600, 0x1d173, 0xe000, 0x00a0, 0x3000, 0x180e, 0xfe0f, 0x0378,
    ]) {
      const char = String.fromCodePoint(code);
      const hex = code.toString(16).toUpperCase().padStart(4, '0');
      assert.equal(visible(`a${char}b`), `a<U+${hex}>b`);
    }
  });
});
