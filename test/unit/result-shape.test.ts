import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CUT_MARKER, fitResponse, shapeNote, shapeResponse } from '../../src/graphql/result-shape.ts';
import { estimateTokens } from '../../src/graphql/token-estimate.ts';

const rows = (n: number, text = 'some text for the row') =>
  Array.from({ length: n }, (_, i) => ({ id: i, text }));

describe('shapeResponse', () => {
  test('leaves a response that fits alone (undefined), and does nothing with a budget of 0', () => {
    assert.equal(shapeResponse({ data: { a: rows(3) } }, 1_000), undefined);
    assert.equal(shapeResponse({ data: { a: rows(3000) } }, 0), undefined);
  });

  test('keeps the first items of the largest list, within the budget, without changing the input', () => {
    const response = { data: { small: rows(3), big: rows(2000) } };
    const copy = structuredClone(response);
    const shaped = shapeResponse(response, 5_000)!;
    assert.deepEqual(response, copy, 'the input is not changed');
    assert.ok(JSON.stringify(shaped.value).length <= 5_000);
    assert.equal(shaped.chars, JSON.stringify(shaped.value).length);
    const big = (shaped.value.data as { big: unknown[] }).big;
    assert.deepEqual(big, rows(big.length), 'a prefix of the list');
    assert.deepEqual((shaped.value.data as { small: unknown[] }).small, rows(3), 'the small list is whole');
    assert.deepEqual(shaped.cuts, [{ path: 'data.big', kind: 'list', kept: big.length, total: 2000 }]);
  });

  test('cuts inner lists when one outer item holds them', () => {
    const response = {
      data: {
        authors: [
          { name: 'a', books: rows(1000) },
          { name: 'b', books: rows(1000) },
        ],
      },
    };
    const shaped = shapeResponse(response, 3_000)!;
    assert.ok(shaped.chars <= 3_000);
    assert.ok(shaped.cuts.length >= 1);
  });

  test('cuts a long string with the marker, keeping its start', () => {
    const shaped = shapeResponse({ data: { blob: 'abc'.repeat(10_000) } }, 2_000)!;
    const blob = (shaped.value.data as { blob: string }).blob;
    assert.ok(blob.endsWith(CUT_MARKER));
    assert.ok('abc'.repeat(10_000).startsWith(blob.slice(0, -CUT_MARKER.length)));
    assert.ok(shaped.chars <= 2_000);
    assert.deepEqual(shaped.cuts, [
      { path: 'data.blob', kind: 'string', kept: blob.length - CUT_MARKER.length, total: 30_000 },
    ]);
  });

  test('MUST NOT split a surrogate pair', () => {
    const shaped = shapeResponse({ data: { s: '😀'.repeat(5_000) } }, 1_000)!;
    const text = (shaped.value.data as { s: string }).s.slice(0, -CUT_MARKER.length);
    assert.ok(!/[\uD800-\uDBFF]$/.test(text));
  });

  test('cuts data before errors, and never removes every error', () => {
    const errors = Array.from({ length: 50 }, (_, i) => ({ message: `error ${i}` }));
    const shaped = shapeResponse({ data: { big: rows(500) }, errors }, 3_000)!;
    assert.deepEqual(shaped.value.errors, errors, 'errors untouched while data can give room');
    const onlyErrors = shapeResponse(
      { data: null, errors: Array.from({ length: 2000 }, (_, i) => ({ message: `e${i}` })) },
      1_000,
    )!;
    assert.ok((onlyErrors.value.errors as unknown[]).length >= 1);
  });

  test('fits any response of lists and strings into the budget, as valid JSON of the same shape', () => {
    const leaf = fc.oneof(fc.string({ maxLength: 3000 }), fc.integer(), fc.boolean(), fc.constant(null));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('tree'), { maxLength: 60 }),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tie('tree'), { maxKeys: 6 }),
      ),
    }));
    fc.assert(
      fc.property(tree, fc.integer({ min: 2_000, max: 20_000 }), (data, maxChars) => {
        const response = { data };
        const shaped = shapeResponse(response, maxChars);
        if (shaped === undefined) return JSON.stringify(response).length <= maxChars;
        JSON.parse(JSON.stringify(shaped.value));
        // What cannot be cut (many small scalars in objects) may stay over; lists and long strings never do.
        return shaped.chars <= maxChars || shaped.cuts.length > 0;
      }),
      { numRuns: 200 },
    );
  });
});

describe('shapeNote', () => {
  test('names every cut, how to ask for less, and the pageInfo to page with', () => {
    const response = {
      data: { items: { edges: rows(3000), pageInfo: { endCursor: 'x', hasNextPage: true } } },
    };
    const shaped = shapeResponse(response, 4_000)!;
    const note = shapeNote(shaped);
    assert.match(
      note,
      /^The response was shortened to fit 4,000 characters \(--maxResultChars\); it had [\d,]+ characters\./,
    );
    assert.match(note, /data\.items\.edges kept \d+ of 3,000 items/);
    assert.match(note, /first: \d+ or the API's limit argument on edges/);
    assert.match(note, /data\.items\.pageInfo: pass endCursor as after:/);
  });
});

describe('fitResponse', () => {
  test('leaves a response that fits in characters and tokens alone', () => {
    assert.equal(fitResponse({ data: { a: rows(3) } }, 1_000), undefined);
    assert.equal(fitResponse({ data: { a: rows(3000) } }, 0), undefined);
  });

  test('shortens ordinary JSON to the budget of characters alone, as shapeResponse does', () => {
    const response = { data: { a: rows(3000) } };
    const fitted = fitResponse(response, 4_000)!;
    assert.deepEqual(fitted, shapeResponse(response, 4_000));
    assert.equal(fitted.text, JSON.stringify(fitted.value));
  });

  test('shortens dense text further, to about half as many estimated tokens as the budget has characters', () => {
    const response = { data: { a: rows(3000, '😀🎉🚀✨'.repeat(10)) } };
    const fitted = fitResponse(response, 40_000)!;
    assert.ok(fitted.maxChars < 40_000, `${fitted.maxChars}`);
    assert.ok(estimateTokens(fitted.text) <= 20_000, `${estimateTokens(fitted.text)} estimated tokens`);
    assert.ok(estimateTokens(fitted.text) > 15_000, 'not much shorter than it needs to be');
    assert.match(
      shapeNote(fitted, 40_000),
      /^The response was shortened to fit [\d,]+ characters \(--maxResultChars is 40,000, and about 20,000 tokens: fewer characters for text this dense\); it had [\d,]+ characters\./,
    );
  });
});
