// The mutation guard against a corpus of bypass attempts, end to end: documents that hold a mutation
// somewhere (second operation, behind operationName, through fragments, after odd whitespace, commas,
// a BOM, comments, strings and block strings) MUST be refused and never reach the endpoint; documents
// that merely contain the word mutation (in strings, block strings, comments, aliases, field, argument,
// enum value, fragment, variable, directive and operation names, type conditions) MUST NOT be refused.
// Documents that hold a mutation only for parsers that end a comment at U+2028, U+2029 or U+0085 (graphql-java)
// MUST be refused too. What reaches the endpoint is the document as graphql-js read it, printed from its tree.
// Zero bypasses and zero false refusals, asserted per document; then a property (fast-check, fixed seed)
// over random documents checks the same against graphql-js as the oracle.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { Kind, parse, print } from 'graphql';
import { respond, startFaultServer, type FaultServer } from '../fixtures/http-server.ts';
import { startMcp, texts, type McpSession, type CallToolResult } from '../fixtures/mcp.ts';
import { FUZZ_SCALE, pool } from '../stress/harness.ts';

const SEED = 20_240_405;

let fault: FaultServer;
/** Mutations allowed per call with allowMutations: true. */
let guarded: McpSession;
/** --readOnly. */
let readOnly: McpSession;

before(async () => {
  fault = await startFaultServer();
  const endpoint = fault.route('/graphql', respond.echo());
  // No complexity limit: it would refuse some documents for another reason and hide what is tested.
  [guarded, readOnly] = await Promise.all([
    startMcp([`--endpoint=${endpoint}`, '--maxComplexity=0']),
    startMcp([`--endpoint=${endpoint}`, '--maxComplexity=0', '--readOnly']),
  ]);
});

after(async () => {
  await Promise.allSettled([guarded, readOnly].filter(Boolean).map((session) => session.close()));
  await fault?.close();
});

/** The document as the server sends it: graphql-js's print of each definition, on one line. */
function printed(query: string): string {
  return parse(query)
    .definitions.map((definition) => print(definition, { maxIndentDepth: 0 }))
    .join(' ');
}

function firstText(result: CallToolResult): string {
  return texts(result)[0] ?? '';
}

/** Calls graphql_query and reports whether the document reached the endpoint, and what it was sent as. */
async function send(
  session: McpSession,
  args: Record<string, unknown>,
): Promise<{ result: CallToolResult; sent: string[] }> {
  const before = fault.requestsTo('/graphql').length;
  const result = await session.call('graphql_query', args);
  const sent = fault
    .requestsTo('/graphql')
    .slice(before)
    .map((request) => (JSON.parse(request.body) as { query: string }).query);
  return { result, sent };
}

// ---------------------------------------------------------------------------------------------------------
// The corpus

interface Refused {
  readonly name: string;
  readonly query: string;
  readonly operationName?: string;
  /** The code when an earlier step of the contract refuses the document first; MUTATION_NOT_ALLOWED by default. */
  readonly code?: string;
}

const BOM = '\uFEFF';

/** Documents that hold a mutation operation: every one MUST be refused and MUST NOT reach the endpoint. */
const MUST_REFUSE: readonly Refused[] = [
  { name: 'an anonymous mutation', query: 'mutation { addReview(bookId: "b1", rating: 5) { id } }' },
  { name: 'a named mutation', query: 'mutation AddReview { addReview(bookId: "b1", rating: 5) { id } }' },
  { name: 'a minified mutation', query: 'mutation{addReview(bookId:"b1",rating:5){id}}' },
  {
    name: 'a mutation as the second operation, operationName naming the first (a query)',
    query: 'query Read { books { title } } mutation Write { addReview(bookId: "b1", rating: 5) { id } }',
    operationName: 'Read',
  },
  {
    name: 'a mutation as the first operation, operationName naming the second (a query)',
    query: 'mutation Write { addReview(bookId: "b1", rating: 5) { id } } query Read { books { title } }',
    operationName: 'Read',
  },
  {
    name: 'a mutation as the third of three operations',
    query: 'query A { a } query B { b } mutation C { c }',
    operationName: 'B',
  },
  {
    name: 'a mutation named by operationName',
    query: 'query Read { books { title } } mutation Write { addReview(bookId: "b1", rating: 5) { id } }',
    operationName: 'Write',
  },
  {
    name: 'an anonymous mutation beside a named query that operationName picks',
    query: 'query Read { books { title } } mutation { addReview(bookId: "b1", rating: 5) { id } }',
    operationName: 'Read',
  },
  {
    name: 'a mutation whose fields come through a fragment spread',
    query: 'mutation { ...Write } fragment Write on Mutation { addReview(bookId: "b1", rating: 5) { id } }',
  },
  {
    name: 'a mutation whose fields come through a chain of fragments, beside the query that is run',
    query:
      'query Read { books { title } } mutation M { ...A } fragment A on Mutation { ...B } fragment B on Mutation { addReview(bookId: "b1", rating: 5) { id } }',
    operationName: 'Read',
  },
  {
    name: 'a mutation whose fields come through an inline fragment',
    query: 'mutation { ... on Mutation { addReview(bookId: "b1", rating: 5) { id } } }',
  },
  {
    name: 'a mutation that shares a fragment with the query that is run',
    query: 'query Read { ...F } mutation Write { ...F } fragment F on Query { __typename }',
    operationName: 'Read',
  },
  {
    name: 'a mutation defined after a fragment',
    query: 'fragment F on Review { id } mutation { addReview(bookId: "b1", rating: 5) { ...F } }',
  },
  { name: 'a mutation after tabs and line breaks', query: '\t\n\r\n  \tmutation\t\n{\naddReview\n}' },
  {
    name: 'a mutation after a lone carriage return',
    query: 'query Q { a }\rmutation M { b }',
    operationName: 'Q',
  },
  { name: 'a mutation surrounded by commas', query: ',,,mutation,,,{,,addReview,,},,,' },
  { name: 'a mutation after a byte-order mark', query: `${BOM}mutation { addReview }` },
  {
    name: 'a mutation after a byte-order mark between operations',
    query: `query Q { a }${BOM}mutation M { b }`,
    operationName: 'Q',
  },
  { name: 'a mutation after byte-order marks, commas and tabs', query: `${BOM},\t${BOM},\r\n mutation {a}` },
  { name: 'a mutation after a comment', query: '# just a query\nmutation { addReview }' },
  {
    name: 'a mutation with a comment between keyword and selection',
    query: 'mutation # query\n { addReview }',
  },
  { name: 'a mutation glued to a comment', query: 'mutation#x\n{a}' },
  {
    name: 'a mutation after a comment that looks like the end of the document',
    query: 'query Q { a } # }\n mutation M { b }',
    operationName: 'Q',
  },
  { name: 'a mutation whose string argument holds "query {"', query: 'mutation { a(s: "query { x }") }' },
  {
    name: 'a mutation whose string argument holds an escaped quote',
    query: 'mutation { a(s: "\\"} query { x }") }',
  },
  {
    name: 'a mutation whose string argument holds unicode escapes',
    query: 'mutation { a(s: "\\u0071uery \\u007B") }',
  },
  {
    name: 'a mutation whose string argument holds non-ASCII',
    query: 'mutation { a(s: "ミューテーション ✓ 🙂") }',
  },
  {
    name: 'a mutation whose block string holds "} query {"',
    query: 'mutation { a(s: """ } query { x } """) }',
  },
  {
    name: 'a mutation whose block string holds an escaped triple quote',
    query: 'mutation { a(s: """ \\""" } query { x } """) }',
  },
  {
    name: 'a mutation after a query whose block string ends early-looking',
    query: 'query Q { a(s: """ mutation-free """) } mutation M { b }',
    operationName: 'Q',
  },
  { name: 'a mutation named "query"', query: 'mutation query { addReview }' },
  { name: 'a mutation named "mutation"', query: 'mutation mutation { addReview }' },
  {
    name: 'a query named "mutation" beside a mutation named "query", run by the name "mutation"',
    query: 'query mutation { a } mutation query { b }',
    operationName: 'mutation',
  },
  { name: 'a mutation with a directive', query: 'mutation @skip(if: true) { addReview }' },
  {
    name: 'a mutation with variables and defaults',
    query: 'mutation ($r: Int = 5) { addReview(rating: $r) { id } }',
  },
  { name: 'a mutation selecting only __typename', query: 'mutation { __typename }' },
  { name: 'a mutation behind an alias named query', query: 'mutation { query: addReview { id } }' },
  {
    name: 'a mutation after a long query, near the token limit',
    query: `query Q { ${'a '.repeat(7_000)}} mutation M { b }`,
    operationName: 'Q',
  },
  {
    name: 'a mutation beside a subscription that operationName picks',
    query: 'subscription S { reviewAdded { id } } mutation M { addReview }',
    operationName: 'S',
    code: 'SUBSCRIPTION_NOT_SUPPORTED',
  },
  {
    name: 'a mutation beside a query, without operationName',
    query: 'query Q { a } mutation M { b }',
    code: 'OPERATION_NOT_FOUND',
  },
  {
    name: 'a mutation spreading an undefined fragment',
    query: 'mutation { ...Missing }',
    code: 'INVALID_DOCUMENT',
  },
];

/** Documents that only mention mutation: every one MUST reach the endpoint, as graphql-js printed it. */
const MUST_NOT_REFUSE: ReadonlyArray<{ name: string; query: string; operationName?: string }> = [
  { name: 'a field named mutation', query: '{ mutation }' },
  { name: 'an alias named mutation', query: '{ mutation: books { title } }' },
  { name: 'aliases named mutation and Mutation', query: '{ mutation: a Mutation: b MUTATION: c }' },
  { name: 'an argument named mutation', query: '{ books(mutation: 1) { title } }' },
  {
    name: 'the word mutation in a string',
    query: '{ search(term: "mutation { addReview }") { __typename } }',
  },
  { name: 'a mutation spelled with unicode escapes in a string', query: '{ a(s: "\\u006dutation { b }") }' },
  { name: 'an escaped quote then mutation in a string', query: '{ a(s: "\\" mutation { b } \\"") }' },
  { name: 'the word mutation in a block string', query: '{ a(s: """\nmutation { addReview }\n""") }' },
  {
    name: 'an escaped triple quote then mutation in a block string',
    query: '{ a(s: """ \\""" mutation { b } """) }',
  },
  { name: 'the word mutation in a comment', query: '# mutation { addReview }\n{ books { title } }' },
  { name: 'a comment after the query', query: '{ __typename } # mutation { addReview }' },
  { name: 'a query named mutation', query: 'query mutation { books { title } }' },
  { name: 'a query named mutationQuery', query: 'query mutationQuery { mutations }' },
  {
    name: 'a query run by the name mutation among queries',
    query: 'query Q { a } query mutation { b }',
    operationName: 'mutation',
  },
  {
    name: 'a variable named mutation',
    query: 'query ($mutation: Int) { books(first: $mutation) { title } }',
  },
  { name: 'an enum value MUTATION', query: '{ books(genre: MUTATION) { title } }' },
  { name: 'an enum value mutation', query: '{ books(genre: mutation) { title } }' },
  { name: 'enum values in a list', query: '{ a(list: [mutation, MUTATION, Mutation]) }' },
  { name: 'an input object field named mutation', query: '{ a(o: { mutation: "mutation" }) }' },
  {
    name: 'a fragment named mutation',
    query: '{ ...mutation } fragment mutation on Query { books { title } }',
  },
  { name: 'an unused fragment named mutation', query: 'query Q { a } fragment mutation on Query { b }' },
  { name: 'a directive named mutation', query: '{ books @mutation { title } }' },
  { name: 'an inline fragment on a type named Mutation inside a query', query: '{ ... on Mutation { a } }' },
  { name: 'a fragment on type Mutation spread into a query', query: '{ ...F } fragment F on Mutation { a }' },
  {
    name: 'the word everywhere at once',
    query:
      'query mutation($mutation: M = mutation) { mutation: mutation(mutation: $mutation) @mutation(mutation: "mutation") { ... on Mutation { mutation } } } # mutation',
  },
  { name: 'a query after a byte-order mark and commas', query: `${BOM},,query Q { mutation },` },
  {
    name: 'a subscription-free query with the word subscription too',
    query: '{ subscription mutation query }',
  },
];

// ---------------------------------------------------------------------------------------------------------

describe('documents holding a mutation', () => {
  test(`the corpus holds at least 30 documents, each holding a mutation operation for graphql-js`, () => {
    assert.ok(MUST_REFUSE.length >= 30, `${MUST_REFUSE.length} documents`);
    for (const { name, query } of MUST_REFUSE) {
      const operations = parse(query).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      assert.ok(
        operations.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'mutation'),
        name,
      );
    }
  });

  for (const { name, query, operationName, code = 'MUTATION_NOT_ALLOWED' } of MUST_REFUSE) {
    const args = operationName === undefined ? { query } : { query, operationName };

    test(`MUST NOT send ${name} without allowMutations`, async () => {
      const { result, sent } = await send(guarded, args);
      assert.equal(result.isError, true);
      assert.ok(firstText(result).startsWith(`${code}: `), firstText(result));
      assert.deepEqual(sent, []);
    });

    test(`MUST NOT send ${name} with allowMutations false`, async () => {
      const { result, sent } = await send(guarded, { ...args, allowMutations: false });
      assert.ok(firstText(result).startsWith(`${code}: `), firstText(result));
      assert.deepEqual(sent, []);
    });

    test(`MUST NOT send ${name} on a --readOnly server, even with allowMutations true`, async () => {
      const { result, sent } = await send(readOnly, { ...args, allowMutations: true });
      assert.ok(firstText(result).startsWith(`${code}: `), firstText(result));
      if (code === 'MUTATION_NOT_ALLOWED') assert.match(firstText(result), /read-?only/i);
      assert.deepEqual(sent, []);
    });

    if (code === 'MUTATION_NOT_ALLOWED') {
      // Proves the refusals above come from the mutation rule and nothing else.
      test(`sends ${name}, printed, with allowMutations true`, async () => {
        const { result, sent } = await send(guarded, { ...args, allowMutations: true });
        assert.notEqual(result.isError, true, firstText(result));
        assert.deepEqual(sent, [printed(query)]);
      });
    }
  }

  for (const value of ['true', 1, 'yes']) {
    test(`MUST NOT send a mutation when allowMutations is ${JSON.stringify(value)} (not the boolean true)`, async () => {
      const { result, sent } = await send(guarded, {
        query: 'mutation { addReview }',
        allowMutations: value,
      });
      assert.ok(firstText(result).startsWith('INVALID_INPUT: '), firstText(result));
      assert.deepEqual(sent, []);
    });
  }
});

describe('documents that only mention mutation', () => {
  test('none of them holds a mutation operation for graphql-js', () => {
    for (const { name, query } of MUST_NOT_REFUSE) {
      const mutation = parse(query).definitions.some(
        (d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === 'mutation',
      );
      assert.equal(mutation, false, name);
    }
  });

  for (const { name, query, operationName } of MUST_NOT_REFUSE) {
    const args = operationName === undefined ? { query } : { query, operationName };

    test(`MUST send ${name}, printed`, async () => {
      const { result, sent } = await send(guarded, args);
      assert.notEqual(result.isError, true, firstText(result));
      assert.deepEqual(sent, [printed(query)]);
    });

    test(`MUST send ${name}, printed, on a --readOnly server`, async () => {
      const { result, sent } = await send(readOnly, args);
      assert.notEqual(result.isError, true, firstText(result));
      assert.deepEqual(sent, [printed(query)]);
    });
  }
});

// ---------------------------------------------------------------------------------------------------------
// Line breaks for other parsers

/**
 * graphql-js ends a comment only at \n or \r; graphql-java's lexer also at U+2028 and U+2029, and some
 * parsers at U+0085. Each of these documents is a query for graphql-js and a mutation for such a parser.
 */
const OTHER_LINE_BREAKS = [
  ['U+2028', '\u2028'],
  ['U+2029', '\u2029'],
  ['U+0085', '\u0085'],
] as const;
const READ_OTHERWISE = OTHER_LINE_BREAKS.flatMap(([name, character]) => [
  { name: `a comment ended by ${name} before a mutation`, query: `#${character}mutation\n{ deleteAll }` },
  {
    name: `a query, then a comment ended by ${name} before a mutation`,
    query: `query Q { ok } #${character} mutation M { deleteAll }`,
  },
]);

describe('documents that hold a mutation for parsers that end a comment at U+2028, U+2029 or U+0085', () => {
  for (const { name, query } of READ_OTHERWISE) {
    test(`MUST NOT send ${name}: SYNTAX_ERROR naming the character`, async () => {
      const { result, sent } = await send(guarded, { query });
      assert.equal(result.isError, true);
      assert.match(firstText(result), /^SYNTAX_ERROR: .*U\+(2028|2029|0085) .* outside a string/);
      assert.deepEqual(sent, []);
    });

    test(`MUST NOT send ${name} with allowMutations true`, async () => {
      const { result, sent } = await send(guarded, { query, allowMutations: true });
      assert.ok(firstText(result).startsWith('SYNTAX_ERROR: '), firstText(result));
      assert.deepEqual(sent, []);
    });

    test(`MUST NOT send ${name} on a --readOnly server`, async () => {
      for (const args of [{ query }, { query, allowMutations: true }]) {
        const { result, sent } = await send(readOnly, args);
        assert.ok(firstText(result).startsWith('SYNTAX_ERROR: '), firstText(result));
        assert.deepEqual(sent, []);
      }
    });
  }

  for (const [name, character] of OTHER_LINE_BREAKS) {
    test(`MUST send a string value holding ${name} intact, and the character only inside the string`, async () => {
      const query = `{ search(term: "a${character}mutation { deleteAll }", block: """b${character}c""") { id } }`;
      const { result, sent } = await send(guarded, { query });
      assert.notEqual(result.isError, true, firstText(result));
      assert.equal(sent.length, 1);
      const operation = parse(sent[0]!).definitions[0];
      assert.ok(operation?.kind === Kind.OPERATION_DEFINITION);
      const field = operation.selectionSet.selections[0];
      assert.ok(field?.kind === Kind.FIELD);
      const values = field.arguments?.map((argument) =>
        argument.value.kind === Kind.STRING ? argument.value.value : undefined,
      );
      assert.deepEqual(values, [`a${character}mutation { deleteAll }`, `b${character}c`]);
      // Outside the two strings the text sent holds none of the three characters.
      const outside = sent[0]!.replace(/"""[^]*?"""|"(?:\\.|[^"\\])*"/g, '');
      assert.doesNotMatch(outside, /[\u2028\u2029\u0085]/);
    });
  }
});

describe('what the endpoint receives', () => {
  test('MUST send the document printed from what was analysed: no comments, no ignored characters', async () => {
    const query =
      '# a note for nobody\n\uFEFFquery   Read($n:Int=5)\r\n{\tbooks(first:$n),,{ title # the title\n } }\n# the end';
    const { result, sent } = await send(guarded, { query, variables: { n: 2 }, operationName: 'Read' });
    assert.notEqual(result.isError, true, firstText(result));
    assert.deepEqual(sent, ['query Read($n: Int = 5) { books(first: $n) { title } }']);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The property

const word = fc.constantFrom('mutation', 'Mutation', 'MUTATION', 'query', 'subscription', 'm', 'x');
/** Places the word mutation can hide in, as text: each piece is one place of a selection set. */
const piece = fc.oneof(
  word,
  fc.tuple(word, word).map(([a, f]) => `${a}: ${f}`),
  fc.tuple(word, word).map(([f, a]) => `${f}(${a}: 1)`),
  fc.tuple(word, fc.constantFrom('"', '"""')).map(([w, q]) => `f(s: ${q}${w} { ${w} }${q})`),
  word.map((w) => `f(e: ${w})`),
  word.map((w) => `f @${w}`),
  word.map((w) => `... on ${w} { a }`),
  word.map((w) => `# ${w} {\n`),
);
const separator = fc.constantFrom(' ', ',', '\n', '\t', '\r\n', BOM, ' # mutation\n');
const operation = fc
  .tuple(
    fc.constantFrom('query', 'mutation', '', 'query', 'query'),
    fc.option(word, { nil: undefined }),
    fc.array(piece, { minLength: 1, maxLength: 4 }),
    separator,
  )
  .map(([kind, name, pieces, sep]) => {
    const head = kind === '' ? '' : `${kind}${name === undefined ? '' : ` ${name}`}${sep}`;
    return {
      kind: kind === '' ? 'query' : kind,
      name: kind === '' ? undefined : name,
      text: `${head}{${sep}${pieces.join(sep)}${sep}}`,
    };
  });

describe('random documents (graphql-js as the oracle)', () => {
  test('MUST refuse every random document that holds a mutation and send every other, printed', async (t) => {
    const documents = fc.sample(
      fc.tuple(fc.array(operation, { minLength: 1, maxLength: 3 }), separator, fc.nat()),
      { seed: SEED, numRuns: 600 * FUZZ_SCALE },
    );
    let refused = 0;
    let sentCount = 0;
    await pool(documents, 8, async ([operations, sep, pick]) => {
      const query = operations.map((o) => o.text).join(sep);
      let definitions;
      try {
        definitions = parse(query).definitions;
      } catch {
        return; // not a document: the syntax checks are another suite's
      }
      const ops = definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
      const named = ops.map((d) => d.name?.value).filter((n): n is string => n !== undefined);
      const operationName = ops.length > 1 ? named[pick % Math.max(1, named.length)] : undefined;
      const holdsMutation = ops.some((d) => d.operation === 'mutation');
      // Each call's own document: the echo keeps them apart when they run concurrently.
      const before = fault.requestsTo('/graphql').length;
      const result = await guarded.call(
        'graphql_query',
        operationName === undefined ? { query } : { query, operationName },
      );
      const text = firstText(result);
      const reached = fault
        .requestsTo('/graphql')
        .slice(before)
        .some((r) => (JSON.parse(r.body) as { query: string }).query === printed(query));
      if (holdsMutation) {
        assert.ok(result.isError === true && !reached, `a bypass: ${JSON.stringify(query)} → ${text}`);
        refused++;
      } else {
        assert.doesNotMatch(text, /^MUTATION_NOT_ALLOWED: /, `a false refusal: ${JSON.stringify(query)}`);
        if (result.isError !== true) sentCount++;
      }
    });
    t.diagnostic(
      `${documents.length} random documents: ${refused} refused for a mutation, ${sentCount} sent`,
    );
    assert.ok(refused > 50 && sentCount > 50, 'both kinds were exercised');
  });
});
