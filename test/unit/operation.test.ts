import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ToolError, type ErrorCode } from '../../src/common/errors.ts';
import {
  analyseDocument,
  containsMutation,
  MAX_DEPTH,
  MAX_TOKENS,
  selectOperation,
} from '../../src/graphql/operation.ts';

/** The ToolError that `run` throws, after checking its code. */
function toolError(run: () => unknown, code: ErrorCode): ToolError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ToolError, `expected a ToolError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  return caught;
}

function select(query: string, operationName?: string) {
  return selectOperation(analyseDocument(query), operationName);
}

/** `fragment F0 on Q { ...F1 }` … a chain of `length` fragments; the last selects `a`, or spreads `cycleTo`. */
function fragmentChain(length: number, cycleTo?: number): string {
  const parts = ['{ ...F0 }'];
  for (let i = 0; i < length - 1; i++) parts.push(`fragment F${i} on Q { ...F${i + 1} }`);
  parts.push(`fragment F${length - 1} on Q { ${cycleTo === undefined ? 'a' : `...F${cycleTo}`} }`);
  return parts.join('\n');
}

describe('analyseDocument syntax', () => {
  test('a document that parses gives its operations and fragments', () => {
    const analysed = analyseDocument('query A { a { ...F } } query B { b } fragment F on T { x }');
    assert.deepEqual(
      analysed.operations.map((op) => op.name?.value),
      ['A', 'B'],
    );
    assert.deepEqual([...analysed.fragments.keys()], ['F']);
    assert.equal(analysed.document.definitions.length, 3);
  });

  test('a document that does not parse is a SYNTAX_ERROR with line and column', () => {
    const error = toolError(() => analyseDocument('query {\n  user(\n}'), 'SYNTAX_ERROR');
    assert.match(error.message, /line 3, column 1/);
    assert.match(error.message, /Expected Name/);
  });

  test('the SYNTAX_ERROR message drops the parser\'s "Syntax Error:" prefix', () => {
    const error = toolError(() => analyseDocument('{ a '), 'SYNTAX_ERROR');
    assert.doesNotMatch(error.message, /^Syntax Error/);
  });

  test('an unterminated string is a SYNTAX_ERROR with line and column', () => {
    const error = toolError(() => analyseDocument('{\n  a(text: "open)\n}'), 'SYNTAX_ERROR');
    assert.match(error.message, /line 2, column \d+/);
  });

  test('an empty document is a SYNTAX_ERROR', () => {
    toolError(() => analyseDocument(''), 'SYNTAX_ERROR');
  });

  test('a document of only a comment is a SYNTAX_ERROR', () => {
    toolError(() => analyseDocument('# just a comment'), 'SYNTAX_ERROR');
  });

  test('a document of exactly the token limit parses', () => {
    // `{`, `}` and MAX_TOKENS - 2 field names.
    const query = `{ ${'a '.repeat(MAX_TOKENS - 2)}}`;
    assert.equal(analyseDocument(query).operations.length, 1);
  });

  test('a document over the token limit is a SYNTAX_ERROR naming the limit', () => {
    const query = `{ ${'a '.repeat(MAX_TOKENS)}}`;
    const error = toolError(() => analyseDocument(query), 'SYNTAX_ERROR');
    assert.match(error.message, new RegExp(`${MAX_TOKENS} tokens`));
  });

  test('100,000 opening braces are a SYNTAX_ERROR, not a crash', () => {
    toolError(() => analyseDocument('{'.repeat(100_000) + '}'.repeat(100_000)), 'SYNTAX_ERROR');
  });

  test('fields nested 100,000 levels deep are a SYNTAX_ERROR, not a crash', () => {
    toolError(() => analyseDocument('{a'.repeat(100_000) + '}'.repeat(100_000)), 'SYNTAX_ERROR');
  });

  test('fields nested 3,000 levels deep, under the token limit, are a SYNTAX_ERROR, not a crash', () => {
    toolError(() => analyseDocument('{a'.repeat(3_000) + '}'.repeat(3_000)), 'SYNTAX_ERROR');
  });

  test('fields nested 500 levels deep parse', () => {
    assert.equal(analyseDocument('{a'.repeat(500) + '}'.repeat(500)).operations.length, 1);
  });

  test(`nesting up to ${MAX_DEPTH} levels parses, in a fresh process or not; one more is refused by name`, () => {
    const nested = (levels: number) => '{a'.repeat(levels) + '}'.repeat(levels);
    assert.equal(analyseDocument(nested(MAX_DEPTH)).operations.length, 1);
    const error = toolError(() => analyseDocument(nested(MAX_DEPTH + 1)), 'SYNTAX_ERROR');
    assert.match(error.message, new RegExp(`nested more than ${MAX_DEPTH} levels`));
    // Parentheses and brackets count too: a list value nested past the limit.
    const list = `{ a(x: ${'['.repeat(MAX_DEPTH)}1${']'.repeat(MAX_DEPTH)}) }`;
    assert.match(toolError(() => analyseDocument(list), 'SYNTAX_ERROR').message, /nested more than/);
  });

  test('braces inside strings, block strings and comments do not count as nesting', () => {
    const braces = '{'.repeat(MAX_DEPTH + 10);
    const document = `# ${braces}\n{ a(s: "${braces}", t: """${braces}""") }`;
    assert.equal(analyseDocument(document).operations.length, 1);
  });
});

describe('analyseDocument fragments', () => {
  test('a spread of an undefined fragment in the operation is INVALID_DOCUMENT naming it', () => {
    const error = toolError(() => analyseDocument('{ user { ...Missing } }'), 'INVALID_DOCUMENT');
    assert.match(error.message, /Missing/);
  });

  test('a spread of an undefined fragment deep inside fields is INVALID_DOCUMENT', () => {
    const error = toolError(() => analyseDocument('{ a { b { c { ...Deep } } } }'), 'INVALID_DOCUMENT');
    assert.match(error.message, /Deep/);
  });

  test('a spread of an undefined fragment inside an inline fragment is INVALID_DOCUMENT', () => {
    const error = toolError(
      () => analyseDocument('{ node { ... on User { ...Gone } } }'),
      'INVALID_DOCUMENT',
    );
    assert.match(error.message, /Gone/);
  });

  test('a spread of an undefined fragment inside a used fragment is INVALID_DOCUMENT', () => {
    const error = toolError(
      () => analyseDocument('{ user { ...F } } fragment F on User { friends { ...Missing } }'),
      'INVALID_DOCUMENT',
    );
    assert.match(error.message, /Missing/);
  });

  test('a spread of an undefined fragment inside an unused fragment is INVALID_DOCUMENT', () => {
    const error = toolError(
      () => analyseDocument('{ user { id } } fragment Unused on User { ...Missing }'),
      'INVALID_DOCUMENT',
    );
    assert.match(error.message, /Missing/);
  });

  test('a spread of an undefined fragment in an operation that is not run is INVALID_DOCUMENT', () => {
    toolError(() => analyseDocument('query A { a } query B { ...Missing }'), 'INVALID_DOCUMENT');
  });

  test('a fragment that spreads itself is INVALID_DOCUMENT', () => {
    const error = toolError(
      () => analyseDocument('{ user { ...Self } } fragment Self on User { id ...Self }'),
      'INVALID_DOCUMENT',
    );
    assert.match(error.message, /cycle/);
    assert.match(error.message, /Self/);
  });

  test('an unused fragment that spreads itself is INVALID_DOCUMENT', () => {
    toolError(
      () => analyseDocument('{ user { id } } fragment Self on User { friends { ...Self } }'),
      'INVALID_DOCUMENT',
    );
  });

  test('two fragments spreading each other are INVALID_DOCUMENT naming both', () => {
    const error = toolError(
      () => analyseDocument('{ ...A } fragment A on Q { a ...B } fragment B on Q { b { ...A } }'),
      'INVALID_DOCUMENT',
    );
    assert.match(error.message, /cycle/);
    assert.match(error.message, /A → B → A|B → A → B/);
  });

  test('a cycle reached through an inline fragment is INVALID_DOCUMENT', () => {
    toolError(
      () => analyseDocument('{ ...A } fragment A on Q { ... on Q { ...B } } fragment B on Q { ...A }'),
      'INVALID_DOCUMENT',
    );
  });

  test('a fragment spread twice without a cycle is fine', () => {
    const analysed = analyseDocument('{ a { ...F } b { ...F } } fragment F on T { x }');
    assert.equal(analysed.fragments.size, 1);
  });

  test('a diamond of fragments is not a cycle', () => {
    const analysed = analyseDocument(
      '{ ...A } fragment A on Q { ...B ...C } fragment B on Q { ...D } fragment C on Q { ...D } fragment D on Q { d }',
    );
    assert.equal(analysed.fragments.size, 4);
  });

  test('a fragment defined after its use is fine', () => {
    assert.equal(analyseDocument('{ ...Later } fragment Later on Q { a }').fragments.size, 1);
  });

  test('a chain of 1,800 fragments, the most the token limit lets through, is analysed', () => {
    const analysed = analyseDocument(fragmentChain(1_800));
    assert.equal(analysed.fragments.size, 1_800);
  });

  test('a chain of 1,800 fragments whose last spreads the first is INVALID_DOCUMENT', () => {
    toolError(() => analyseDocument(fragmentChain(1_800, 0)), 'INVALID_DOCUMENT');
  });

  test('a chain of 5,000 fragments ends in a ToolError, not a stack overflow', () => {
    // Over the token limit, so refused before analysis; what matters is that nothing crashes.
    toolError(() => analyseDocument(fragmentChain(5_000, 0)), 'SYNTAX_ERROR');
  });
});

describe('analyseDocument definitions', () => {
  test('two operations with the same name are INVALID_DOCUMENT naming it', () => {
    const error = toolError(() => analyseDocument('query Same { a } query Same { b }'), 'INVALID_DOCUMENT');
    assert.match(error.message, /"Same"/);
  });

  test('a query and a mutation with the same name are INVALID_DOCUMENT', () => {
    toolError(() => analyseDocument('query Same { a } mutation Same { b }'), 'INVALID_DOCUMENT');
  });

  test('two fragments with the same name are INVALID_DOCUMENT naming it', () => {
    const error = toolError(
      () => analyseDocument('{ ...F } fragment F on Q { a } fragment F on Q { b }'),
      'INVALID_DOCUMENT',
    );
    assert.match(error.message, /"F"/);
  });

  const typeSystem: Array<[string, string]> = [
    ['a type definition', 'type Query { a: Int }'],
    ['a schema definition', 'schema { query: Query }'],
    ['a type extension next to an operation', '{ a } extend type Query { b: Int }'],
    ['a directive definition', 'directive @cost(value: Int) on FIELD_DEFINITION'],
    ['a scalar definition next to an operation', '{ a } scalar Date'],
    ['an input definition', 'input Filter { name: String }'],
  ];
  for (const [what, query] of typeSystem) {
    test(`${what} is INVALID_DOCUMENT`, () => {
      const error = toolError(() => analyseDocument(query), 'INVALID_DOCUMENT');
      assert.match(error.message, /only operations and fragments/);
    });
  }

  test('a type-system definition on line 3 is reported on line 3', () => {
    const error = toolError(() => analyseDocument('{ a }\n\ntype Extra { b: Int }'), 'INVALID_DOCUMENT');
    assert.match(error.message, /line 3/);
  });
});

describe('selectOperation', () => {
  test('the only operation is selected without an operationName', () => {
    assert.equal(select('query Only { a }').name?.value, 'Only');
  });

  test('the only anonymous operation is selected without an operationName', () => {
    const operation = select('{ a }');
    assert.equal(operation.name, undefined);
    assert.equal(operation.operation, 'query');
  });

  test('the only operation is selected by its name', () => {
    assert.equal(select('query Only { a }', 'Only').name?.value, 'Only');
  });

  test('the named operation is selected among several', () => {
    const operation = select('query A { a } mutation B { b } query C { c }', 'B');
    assert.equal(operation.name?.value, 'B');
    assert.equal(operation.operation, 'mutation');
  });

  test('a subscription is selected like any other operation', () => {
    assert.equal(select('subscription S { event }').operation, 'subscription');
  });

  test('fragments are not counted as operations', () => {
    assert.equal(select('query A { ...F } fragment F on Q { a }').name?.value, 'A');
  });

  test('several operations without an operationName are OPERATION_NOT_FOUND listing their names', () => {
    const error = toolError(() => select('query First { a } query Second { b }'), 'OPERATION_NOT_FOUND');
    assert.match(error.message, /"First"/);
    assert.match(error.message, /"Second"/);
    assert.match(error.message, /operationName/);
  });

  test('an operationName that matches none is OPERATION_NOT_FOUND naming it and listing those present', () => {
    const error = toolError(
      () => select('query First { a } query Second { b }', 'Third'),
      'OPERATION_NOT_FOUND',
    );
    assert.match(error.message, /"Third"/);
    assert.match(error.message, /"First"/);
    assert.match(error.message, /"Second"/);
  });

  test('an operationName for a document holding one anonymous operation is OPERATION_NOT_FOUND', () => {
    const error = toolError(() => select('{ a }', 'Named'), 'OPERATION_NOT_FOUND');
    assert.match(error.message, /"Named"/);
    assert.match(error.message, /anonymous/);
  });

  test('an operationName that matches only a fragment is OPERATION_NOT_FOUND', () => {
    toolError(() => select('query A { ...F } fragment F on Q { a }', 'F'), 'OPERATION_NOT_FOUND');
  });

  test('an operationName is matched case-sensitively', () => {
    toolError(() => select('query GetUser { a }', 'getuser'), 'OPERATION_NOT_FOUND');
  });

  test('a document of only fragments is OPERATION_NOT_FOUND', () => {
    const error = toolError(() => select('fragment F on Q { a }'), 'OPERATION_NOT_FOUND');
    assert.match(error.message, /no operation/);
  });

  test('an anonymous operation next to a named one is listed as anonymous', () => {
    const error = toolError(() => select('{ a } query Named { b }'), 'OPERATION_NOT_FOUND');
    assert.match(error.message, /\(anonymous\)/);
    assert.match(error.message, /"Named"/);
  });
});

describe('containsMutation', () => {
  test('a mutation is a mutation', () => {
    assert.equal(containsMutation(analyseDocument('mutation { deleteUser(id: 1) { id } }')), true);
  });

  test('a named mutation is a mutation', () => {
    assert.equal(containsMutation(analyseDocument('mutation Delete { deleteUser(id: 1) { id } }')), true);
  });

  test('a mutation as the second operation is found', () => {
    assert.equal(containsMutation(analyseDocument('query Read { user { id } } mutation Write { a }')), true);
  });

  test('a mutation that is not the operation to run is still found', () => {
    const analysed = analyseDocument('query Read { a } mutation Write { b }');
    assert.equal(selectOperation(analysed, 'Read').operation, 'query');
    assert.equal(containsMutation(analysed), true);
  });

  test('a query is not a mutation', () => {
    assert.equal(containsMutation(analyseDocument('query { user { id } }')), false);
  });

  test('a shorthand query is not a mutation', () => {
    assert.equal(containsMutation(analyseDocument('{ user { id } }')), false);
  });

  test('a subscription is not a mutation', () => {
    assert.equal(containsMutation(analyseDocument('subscription { event }')), false);
  });

  test('"mutation" in a string argument is not a mutation', () => {
    assert.equal(
      containsMutation(analyseDocument('{ search(text: "mutation { deleteAll }") { id } }')),
      false,
    );
  });

  test('"mutation" in a block string is not a mutation', () => {
    assert.equal(
      containsMutation(analyseDocument('{ search(text: """\nmutation { x }\n""") { id } }')),
      false,
    );
  });

  test('"mutation" in a comment is not a mutation', () => {
    assert.equal(containsMutation(analyseDocument('# mutation { deleteAll }\n{ user { id } }')), false);
  });

  test('"mutation" as an alias is not a mutation', () => {
    assert.equal(containsMutation(analyseDocument('{ mutation: user { id } }')), false);
  });

  test('"mutation" as a field name is not a mutation', () => {
    assert.equal(containsMutation(analyseDocument('{ mutation { id } }')), false);
  });

  test('"mutation" as an operation name is not a mutation', () => {
    assert.equal(containsMutation(analyseDocument('query mutation { a }')), false);
  });

  test('"mutation" as a fragment name or type condition is not a mutation', () => {
    assert.equal(
      containsMutation(analyseDocument('{ ...mutation } fragment mutation on Mutation { a }')),
      false,
    );
  });

  test('"mutation" as a variable and an enum value is not a mutation', () => {
    assert.equal(
      containsMutation(analyseDocument('query Q($mutation: Kind = mutation) { a(kind: $mutation) }')),
      false,
    );
  });
});

describe('analyseDocument keeps the most recent analyses', () => {
  // Distinct documents of a given length.
  const doc = (i: number, pad = 0) => `query Q${i} { a${i} }${' '.repeat(pad)}`;

  test('the same document text is parsed once: a repeat gives the same analysis', () => {
    const first = analyseDocument(doc(1_000));
    assert.equal(analyseDocument(doc(1_000)), first);
  });

  test('past 64 documents the least recently used is dropped, and parsed again when it comes back', () => {
    const kept = analyseDocument(doc(2_000));
    const dropped = analyseDocument(doc(2_001));
    for (let i = 0; i < 62; i++) analyseDocument(doc(3_000 + i));
    assert.equal(analyseDocument(doc(2_000)), kept); // used again: now the most recent
    analyseDocument(doc(4_000)); // the 65th: doc(2_001) is now the least recently used, and goes
    assert.equal(analyseDocument(doc(2_000)), kept);
    const again = analyseDocument(doc(2_001));
    assert.notEqual(again, dropped);
    assert.deepEqual(again, dropped);
  });

  test('a document over 64 K characters is not kept, nor are documents past 64 K characters in all', () => {
    const big = doc(5_000, 64 * 1024);
    assert.notEqual(analyseDocument(big), analyseDocument(big));
    const half = (i: number) => doc(i, 40 * 1024);
    const a = analyseDocument(half(6_000));
    assert.equal(analyseDocument(half(6_000)), a);
    analyseDocument(half(6_001)); // 80 K in all: the older one goes
    assert.notEqual(analyseDocument(half(6_000)), a);
  });

  test('a document that fails is not kept: it fails again, with the same error', () => {
    const first = toolError(() => analyseDocument('{ a '), 'SYNTAX_ERROR');
    const second = toolError(() => analyseDocument('{ a '), 'SYNTAX_ERROR');
    assert.notEqual(second, first);
    assert.equal(second.message, first.message);
  });
});

// graphql-java's lexer ends a comment at U+2028 and U+2029: "#\u2028mutation\n{ a }" would be a mutation there.
describe('analyseDocument line breaks other parsers know', () => {
  const CHARACTERS = [
    ['\u2028', 'U+2028 (LINE SEPARATOR)'],
    ['\u2029', 'U+2029 (PARAGRAPH SEPARATOR)'],
    ['\u0085', 'U+0085 (NEXT LINE)'],
  ] as const;

  for (const [character, name] of CHARACTERS) {
    test(`MUST refuse ${name} in a comment with SYNTAX_ERROR naming it, its line and column`, () => {
      const error = toolError(() => analyseDocument(`#${character}mutation\n{ deleteAll }`), 'SYNTAX_ERROR');
      assert.match(
        error.message,
        new RegExp(`${name.replace(/[()+]/g, '\\$&')} at line 1, column 2 outside a string`),
      );
      assert.match(error.message, /read it as a line break/);
    });

    test(`MUST refuse ${name} in a comment after an operation, reported where it stands`, () => {
      const error = toolError(
        () => analyseDocument(`query Q { ok }\n  # x${character} mutation M { deleteAll }`),
        'SYNTAX_ERROR',
      );
      assert.match(error.message, /at line 2, column 6 outside a string/);
    });

    test(`MUST refuse ${name} in a comment between two strings that hold it`, () => {
      const query = `{ a(s: "${character}") # ${character}\n b(t: """${character}""") }`;
      const error = toolError(() => analyseDocument(query), 'SYNTAX_ERROR');
      assert.match(error.message, /at line 1, column 15 outside a string/);
    });

    test(`MUST refuse ${name} between tokens`, () => {
      toolError(() => analyseDocument(`{ a }${character}`), 'SYNTAX_ERROR');
    });

    test(`${name} inside a string and a block string is data: the document is accepted`, () => {
      const analysed = analyseDocument(`{ a(s: "x${character}y", t: """x${character}y""") }`);
      assert.equal(analysed.operations.length, 1);
    });
  }

  test('a comment holding another character (U+2027) is a comment: the document is the query it holds', () => {
    const analysed = analyseDocument('#\u2027mutation\n{ deleteAll }');
    assert.equal(containsMutation(analysed), false);
  });
});

describe('analyseDocument printed text', () => {
  test('the text to send is the document printed on one line, without comments or ignored characters', () => {
    const analysed = analyseDocument(
      '# read the books\nquery Read($n: Int = 5) {\n\tbooks(first: $n) , { title # the title\n}\n}\n\n\ufeff,fragment F on Book { id }',
    );
    assert.equal(
      analysed.text,
      'query Read($n: Int = 5) { books(first: $n) { title } } fragment F on Book { id }',
    );
  });

  test('a printed comment that held a mutation for another parser is gone', () => {
    // U+2027 is no line break anywhere: the comment is one for every parser, and is dropped.
    assert.equal(analyseDocument('#\u2027mutation\n{ deleteAll }').text, '{ deleteAll }');
  });

  test('a string holding U+2028 or U+2029 keeps it in the printed text, inside the string', () => {
    const analysed = analyseDocument('{ a(s: "x\u2028y\u2029z") }');
    assert.equal(analysed.text, '{ a(s: "x\u2028y\u2029z") }');
    assert.equal(analyseDocument(analysed.text).text, analysed.text);
  });

  test('a string holding U+0085 is printed with it escaped, the same value', () => {
    assert.equal(analyseDocument('{ a(s: "x\u0085y") }').text, '{ a(s: "x\\u0085y") }');
  });

  test('a block string keeps its value, line breaks included', () => {
    const text = analyseDocument('{ a(s: """\n  one\n  two\n""") }').text;
    assert.equal(text, '{ a(s: """\none\ntwo\n""") }');
  });

  test('a repeated document gives the same analysed object, and the same printed string', () => {
    const query = '{ printedOnce # a comment\n }';
    const first = analyseDocument(query);
    const text = first.text;
    const second = analyseDocument(query);
    assert.equal(second, first);
    assert.equal(second.text, text);
  });

  test(`a document nested ${MAX_DEPTH} levels deep prints in a few characters per level, not two megabytes`, () => {
    const nested = '{a'.repeat(MAX_DEPTH) + '}'.repeat(MAX_DEPTH);
    const text = analyseDocument(nested).text;
    assert.ok(text.length < 8 * MAX_DEPTH, `${text.length} characters`);
    assert.equal(analyseDocument(text).text, text);
  });

  test('a document of the token limit prints, and prints back to itself', () => {
    const query = `{ ${'a '.repeat(MAX_TOKENS - 2)}}`;
    const text = analyseDocument(query).text;
    assert.equal(text, `{ ${'a '.repeat(MAX_TOKENS - 2)}}`);
  });
});
