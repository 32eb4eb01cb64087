// Manifests of trusted documents as operation tools (src/operations/manifest.ts through load.ts): Apollo's
// persisted query manifest and the flat map of Relay, GraphQL Hive and graphql-codegen, read from files in a
// temporary directory and checked against the demo API's schema like any operation file.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createLibraryApi } from '../../demo/library-api.ts';
import { loadOperations, OperationsError, type OperationSet } from '../../src/operations/load.ts';
import { modelSchemaViolations } from '../fixtures/model-schema-rules.ts';

const dir = mkdtempSync(join(tmpdir(), 'graphql-mcp-manifest-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

const schema = createLibraryApi().schema;
const BOOKS =
  'query BooksByGenre($genre: Genre!, $first: Int = 5) {\n  books(genre: $genre, first: $first) { ...Card }\n}\nfragment Card on Book { id title }';
const REVIEW =
  'mutation AddReview($bookId: ID!, $rating: Int!) {\n  addReview(bookId: $bookId, rating: $rating) { id }\n}';
const WATCH = 'subscription Watch { books { id } }';

let count = 0;
/** Writes `content` (JSON unless a string) to a new file of this name in a directory of its own; its path. */
function write(content: unknown, name = 'manifest.json'): string {
  const folder = join(dir, `case-${++count}`);
  mkdirSync(folder);
  const file = join(folder, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

function load(paths: string[], readOnly = false): OperationSet {
  return loadOperations(paths, { schema, maxComplexity: 100, readOnly, endpointName: 'the library' });
}

/** The OperationsError message loading these paths throws. */
function loadError(paths: string[]): string {
  try {
    load(paths);
  } catch (error) {
    assert.ok(error instanceof OperationsError, String(error));
    assert.doesNotMatch(error.message, /\n/, 'one line');
    return error.message;
  }
  assert.fail('the operations loaded');
}

function apollo(operations: Array<{ id?: string; name: string; type: string; body: string }>): unknown {
  return {
    format: 'apollo-persisted-query-manifest',
    version: 1,
    operations: operations.map((operation) => ({ id: sha256(operation.body), ...operation })),
  };
}

const BOOKS_INPUTS = {
  type: 'object',
  properties: {
    genre: { type: 'string', enum: ['FICTION', 'SCIENCE', 'HISTORY'], description: 'A book genre.' },
    first: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: 5 },
  },
  required: ['genre'],
};

describe('a manifest of operations', () => {
  test('in Apollo’s format gives typed tools, each keeping its id and its document as written', () => {
    const set = load([
      write(
        apollo([
          { name: 'BooksByGenre', type: 'query', body: BOOKS },
          { name: 'AddReview', type: 'mutation', body: REVIEW },
        ]),
      ),
    ]);
    const [books, review] = set.tools;
    assert.equal(books!.name, 'BooksByGenre');
    assert.equal(books!.kind, 'query');
    assert.deepEqual(books!.inputSchema, BOOKS_INPUTS);
    assert.deepEqual(modelSchemaViolations(books!.inputSchema), []);
    assert.deepEqual(books!.persisted, { id: sha256(BOOKS), text: BOOKS });
    assert.match(books!.document.text, /fragment Card on Book/);
    assert.equal(review!.kind, 'mutation');
    assert.equal(review!.confirm, true);
  });

  test('as a flat map of ids to documents (Relay, Hive, codegen) gives the same typed tools', () => {
    const set = load([write({ [sha256(BOOKS)]: BOOKS, [sha256(REVIEW)]: REVIEW })]);
    assert.deepEqual(
      set.tools.map((tool) => tool.name),
      ['BooksByGenre', 'AddReview'],
    );
    assert.deepEqual(set.tools[0]!.inputSchema, BOOKS_INPUTS);
    assert.deepEqual(set.tools[1]!.persisted, { id: sha256(REVIEW), text: REVIEW });
  });

  test('its tools check their inputs like those of a .graphql file', () => {
    const set = load([write({ [sha256(BOOKS)]: BOOKS })]);
    assert.throws(() => set.variablesOf(set.tools[0]!, { genre: 'POEMS' }), /INVALID_INPUT|Value "POEMS"/);
    assert.deepEqual(set.variablesOf(set.tools[0]!, { genre: 'SCIENCE' }), { genre: 'SCIENCE' });
  });

  test('its mutations are left out under read-only, as those of a .graphql file', () => {
    const set = load([write({ [sha256(REVIEW)]: REVIEW })], true);
    assert.deepEqual(set.tools, []);
    assert.match(set.skipped[0]!, /AddReview .* is a mutation: left out under --readOnly/);
  });

  test('each document’s fragments are its own: the same fragment in two documents is no duplicate', () => {
    const other = 'query Newest { books(first: 1) { ...Card } }\nfragment Card on Book { id title }';
    const set = load([write({ [sha256(BOOKS)]: BOOKS, [sha256(other)]: other })]);
    assert.equal(set.tools.length, 2);
  });

  test('a document that spreads a fragment of another document is a load error naming it', () => {
    const bare = 'query Newest { books(first: 1) { ...Card } }';
    assert.match(loadError([write({ [sha256(BOOKS)]: BOOKS, [sha256(bare)]: bare })]), /\[Newest\].*Card/);
  });

  test('its subscriptions and anonymous operations are left out, each with a line, not refused', () => {
    const anonymous = '{ books { id } }';
    const set = load([
      write({ [sha256(BOOKS)]: BOOKS, [sha256(WATCH)]: WATCH, [sha256(anonymous)]: anonymous }),
    ]);
    assert.deepEqual(
      set.tools.map((tool) => tool.name),
      ['BooksByGenre'],
    );
    assert.equal(set.skipped.length, 2);
    assert.match(set.skipped.join('\n'), /Watch .* is a subscription/);
    assert.match(set.skipped.join('\n'), /without a name is left out/);
  });

  test('is read again as it changes: a reload gives the tools of the manifest as it is now', () => {
    const file = write({ [sha256(BOOKS)]: BOOKS });
    assert.deepEqual(
      load([file]).tools.map((tool) => tool.name),
      ['BooksByGenre'],
    );
    writeFileSync(file, JSON.stringify({ [sha256(REVIEW)]: REVIEW }));
    assert.deepEqual(
      load([file]).tools.map((tool) => tool.name),
      ['AddReview'],
    );
  });

  test('with a .graphql file: both give tools, and a name in both is a load error', () => {
    const manifest = write({ [sha256(BOOKS)]: BOOKS });
    const graphql = write('query Authors { authors { name } }', 'more.graphql');
    assert.equal(load([manifest, graphql]).tools.length, 2);
    const twice = write('query BooksByGenre { authors { name } }', 'twice.graphql');
    assert.match(loadError([manifest, twice]), /BooksByGenre is used twice/);
  });
});

describe('the ids of a manifest', () => {
  test('MUST refuse an id of 64 hex digits that is not the SHA-256 of its document, naming the file and operation', () => {
    const file = write(apollo([{ id: sha256(REVIEW), name: 'BooksByGenre', type: 'query', body: BOOKS }]));
    const message = loadError([file]);
    assert.ok(message.startsWith(`${file} [BooksByGenre]: `), message);
    assert.match(message, /is not the SHA-256 of its document/);
  });

  test('MUST check a SHA-256 against the document as written: the same operation reformatted does not match', () => {
    const reformatted = BOOKS.replace(/\n {2}/g, ' ');
    assert.match(loadError([write({ [sha256(BOOKS)]: reformatted })]), /not the SHA-256/);
  });

  test('checks an id written as GraphQL over HTTP has it, sha256: and 64 hex digits', () => {
    assert.equal(load([write({ [`sha256:${sha256(BOOKS)}`]: BOOKS })]).tools.length, 1);
    assert.match(loadError([write({ [`sha256:${sha256(REVIEW)}`]: BOOKS })]), /not the SHA-256/);
  });

  test('checks an id of 40 hex digits as a SHA-1, graphql-codegen’s default', () => {
    assert.equal(load([write({ [sha1(BOOKS)]: BOOKS })]).tools.length, 1);
    assert.match(loadError([write({ [sha1(REVIEW)]: BOOKS })]), /not the SHA-1/);
  });

  test('keeps other ids as the manifest gives them (Relay’s MD5, a name of the operator’s)', () => {
    const md5 = createHash('md5').update('something else').digest('hex');
    const set = load([write({ [md5]: BOOKS, 'add-review-v2': REVIEW })]);
    assert.deepEqual(
      set.tools.map((tool) => tool.persisted?.id),
      [md5, 'add-review-v2'],
    );
  });

  test('an id used twice is a load error', () => {
    const operation = { id: 'same', name: 'BooksByGenre', type: 'query', body: BOOKS };
    assert.match(
      loadError([
        write(apollo([operation, { ...operation, name: 'AddReview', type: 'mutation', body: REVIEW }])),
      ]),
      /"same" is used twice/,
    );
  });
});

describe('a manifest with a problem is one line naming the file', () => {
  test('an operation that does not match the schema: the file, the operation, line and column', () => {
    const wrong = 'query Wrong {\n  books { pages }\n}';
    const message = loadError([write({ [sha256(wrong)]: wrong })]);
    assert.match(message, /manifest\.json \[[0-9a-f]{12}…\]:2:11: Wrong: Cannot query field "pages"/);
  });

  test('a document that does not parse', () => {
    const broken = 'query Broken { books { ';
    assert.match(
      loadError([write({ [sha256(broken)]: broken })]),
      /manifest\.json \[.*\]:1:\d+: Syntax Error/,
    );
  });

  test('a file that is not JSON', () => {
    const file = write('{"a": ');
    assert.match(loadError([file]), new RegExp(`^${file.replace(/[.\\]/g, '\\$&')}: not valid JSON`));
  });

  test('JSON that is no manifest, named on its own', () => {
    assert.match(
      loadError([write({ name: 'graphql-mcp', version: 1 })]),
      /not a manifest of operations: expected Apollo's/,
    );
  });

  test('an Apollo manifest of another version', () => {
    const file = write({ format: 'apollo-persisted-query-manifest', version: 2, operations: [] });
    assert.match(loadError([file]), /version 2 is not supported \(version 1 is\)/);
  });

  test('an Apollo entry whose document lacks the operation it names', () => {
    const file = write(apollo([{ name: 'Other', type: 'query', body: BOOKS }]));
    assert.match(loadError([file]), /\[Other\]: the document defines no query named Other/);
  });

  test('an Apollo entry without a body', () => {
    const file = write({
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [{ id: 'x', name: 'A', type: 'query' }],
    });
    assert.match(loadError([file]), /\[A\]: "body" must be the document/);
  });

  test('an operation over the complexity limit', () => {
    const big = `query Big { ${Array.from({ length: 101 }, (_, i) => `a${i}: authors { name }`).join(' ')} }`;
    assert.match(
      loadError([write({ [sha256(big)]: big })]),
      /\[Big\]: Big selects .* more than --maxComplexity/,
    );
  });
});

describe('a directory given to --operations', () => {
  test('reads its .json files that are manifests by shape, and leaves other JSON out with a line', () => {
    const folder = join(dir, `case-${++count}`);
    mkdirSync(folder);
    writeFileSync(join(folder, 'persisted-documents.json'), JSON.stringify({ [sha256(BOOKS)]: BOOKS }));
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'app', scripts: { build: 'tsc' } }));
    writeFileSync(join(folder, 'labels.json'), JSON.stringify({ title: 'Books' }));
    writeFileSync(join(folder, 'broken.json'), '{');
    writeFileSync(join(folder, 'authors.graphql'), 'query Authors { authors { name } }');
    const set = load([folder]);
    assert.deepEqual(set.tools.map((tool) => tool.name).sort(), ['Authors', 'BooksByGenre']);
    assert.equal(set.skipped.length, 3);
    for (const line of set.skipped) assert.match(line, /(package|labels|broken)\.json: not .*, left out/);
  });

  test('MUST refuse the same id in two of its manifests, a query in one and a mutation in the other, naming both', () => {
    const folder = join(dir, `case-${++count}`);
    mkdirSync(folder);
    writeFileSync(join(folder, 'queries.json'), JSON.stringify({ 'op-1': BOOKS }));
    writeFileSync(join(folder, 'mutations.json'), JSON.stringify({ 'op-1': REVIEW }));
    const message = loadError([folder]);
    assert.match(
      message,
      /queries\.json \[BooksByGenre\]: the id "op-1" is also the id of .*mutations\.json \[AddReview\]/,
    );
  });
});
