import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { fitResponse, shapeResponse } from '../../src/graphql/result-shape.ts';
import { CUT_MARKER } from '../../src/graphql/result-shape-measure.ts';
import { shapeNote } from '../../src/graphql/result-shape-note.ts';
import { estimateTokens } from '../../src/graphql/token-estimate.ts';

const rows = (n: number, text = 'some text for the row') =>
  Array.from({ length: n }, (_, i) => ({ id: i, text }));

describe('shapeResponse', () => {
  test('leaves a response that fits alone (undefined), and does nothing with a budget of 0', async () => {
    assert.equal(await shapeResponse({ data: { a: rows(3) } }, 1_000), undefined);
    assert.equal(await shapeResponse({ data: { a: rows(3000) } }, 0), undefined);
  });

  test('keeps the first items of the largest list, within the budget, without changing the input', async () => {
    const response = { data: { small: rows(3), big: rows(2000) } };
    const copy = structuredClone(response);
    const shaped = (await shapeResponse(response, 5_000))!;
    assert.deepEqual(response, copy, 'the input is not changed');
    assert.ok(JSON.stringify(shaped.value).length <= 5_000);
    assert.equal(shaped.chars, JSON.stringify(shaped.value).length);
    const big = (shaped.value.data as { big: unknown[] }).big;
    assert.deepEqual(big, rows(big.length), 'a prefix of the list');
    assert.deepEqual((shaped.value.data as { small: unknown[] }).small, rows(3), 'the small list is whole');
    assert.deepEqual(shaped.cuts, [{ path: 'data.big', kind: 'list', kept: big.length, total: 2000 }]);
  });

  test('cuts inner lists when one outer item holds them', async () => {
    const response = {
      data: {
        authors: [
          { name: 'a', books: rows(1000) },
          { name: 'b', books: rows(1000) },
        ],
      },
    };
    const shaped = (await shapeResponse(response, 3_000))!;
    assert.ok(shaped.chars <= 3_000);
    assert.ok(shaped.cuts.length >= 1);
  });

  test('cuts a long string with the marker, keeping its start', async () => {
    const shaped = (await shapeResponse({ data: { blob: 'abc'.repeat(10_000) } }, 2_000))!;
    const blob = (shaped.value.data as { blob: string }).blob;
    assert.ok(blob.endsWith(CUT_MARKER));
    assert.ok('abc'.repeat(10_000).startsWith(blob.slice(0, -CUT_MARKER.length)));
    assert.ok(shaped.chars <= 2_000);
    assert.deepEqual(shaped.cuts, [
      { path: 'data.blob', kind: 'string', kept: blob.length - CUT_MARKER.length, total: 30_000 },
    ]);
  });

  test('MUST NOT split a surrogate pair', async () => {
    const shaped = (await shapeResponse({ data: { s: '😀'.repeat(5_000) } }, 1_000))!;
    const text = (shaped.value.data as { s: string }).s.slice(0, -CUT_MARKER.length);
    assert.ok(!/[\uD800-\uDBFF]$/.test(text));
  });

  test('cuts data before errors, and never removes every error', async () => {
    const errors = Array.from({ length: 50 }, (_, i) => ({ message: `error ${i}` }));
    const shaped = (await shapeResponse({ data: { big: rows(500) }, errors }, 3_000))!;
    assert.deepEqual(shaped.value.errors, errors, 'errors untouched while data can give room');
    const onlyErrors = (await shapeResponse(
      { data: null, errors: Array.from({ length: 2000 }, (_, i) => ({ message: `e${i}` })) },
      1_000,
    ))!;
    assert.ok((onlyErrors.value.errors as unknown[]).length >= 1);
  });

  test('fits any response of lists, objects and strings into the budget, as valid JSON', async () => {
    const leaf = fc.oneof(fc.string({ maxLength: 3000 }), fc.integer(), fc.boolean(), fc.constant(null));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.array(tie('tree'), { maxLength: 60 }),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tie('tree'), { maxKeys: 6 }),
      ),
    }));
    await fc.assert(
      fc.asyncProperty(tree, fc.integer({ min: 2_000, max: 20_000 }), async (data, maxChars) => {
        const response = { data };
        const shaped = await shapeResponse(response, maxChars);
        if (shaped === undefined) return JSON.stringify(response).length <= maxChars;
        return shaped.chars <= maxChars && shaped.text === JSON.stringify(shaped.value);
      }),
      { numRuns: 200, seed: 424_242 },
    );
  });
});

describe('shapeResponse on hostile shapes', () => {
  test('MUST keep an object of 96,000 keys within the budget: its first keys, saying how many', async () => {
    const o = Object.fromEntries(Array.from({ length: 96_000 }, (_, i) => [`k${i}`, i]));
    const shaped = (await shapeResponse({ data: { o } }, 40_000))!;
    assert.ok(shaped.chars <= 40_000 && shaped.chars > 39_000, `${shaped.chars} characters`);
    const kept = Object.keys((shaped.value.data as { o: object }).o);
    assert.deepEqual(kept, Object.keys(o).slice(0, kept.length));
    assert.deepEqual(shaped.cuts, [{ path: 'data.o', kind: 'object', kept: kept.length, total: 96_000 }]);
    assert.match(
      shapeNote(shaped),
      new RegExp(`data\\.o kept ${kept.length.toLocaleString('en-US')} of 96,000 keys`),
    );
  });

  test('MUST cut a key of a million characters to its start and the marker, and say so', async () => {
    const key = 'k'.repeat(1_000_000);
    const shaped = (await shapeResponse({ data: { [key]: 1 } }, 40_000))!;
    assert.ok(shaped.chars <= 40_000 && shaped.chars > 39_000, `${shaped.chars} characters`);
    const [written] = Object.keys(shaped.value.data as object);
    assert.ok(written!.endsWith(CUT_MARKER) && key.startsWith(written!.slice(0, -CUT_MARKER.length)));
    assert.deepEqual(shaped.cuts, [
      { path: 'data', kind: 'key', kept: written!.length - CUT_MARKER.length, total: 1_000_000 },
    ]);
    assert.match(
      shapeNote(shaped),
      /data has a key that kept [\d,]+ of 1,000,000 characters \(ends with "…\[cut\]"\)/,
    );
  });

  test('MUST count a string as JSON: one of escapes keeps as many characters as fit written out', async () => {
    const shaped = (await shapeResponse({ data: { s: '\u0001'.repeat(200_000) } }, 40_000))!;
    assert.ok(shaped.chars <= 40_000 && shaped.chars > 39_990, `${shaped.chars} characters`);
    const kept = (shaped.value.data as { s: string }).s.length - CUT_MARKER.length;
    assert.equal(kept, Math.floor((40_000 - '{"data":{"s":""}}'.length - CUT_MARKER.length) / 6));
  });

  test('MUST shorten lists nested 990 deep with 400 siblings at each level to the budget', async () => {
    let list: unknown[] = [];
    for (let level = 0; level < 990; level++) list = [list, ...Array.from({ length: 400 }, () => 0)];
    const shaped = (await shapeResponse({ data: { a: list } }, 40_000))!;
    assert.ok(shaped.chars <= 40_000 && shaped.chars > 39_000, `${shaped.chars} characters`);
    assert.deepEqual(shaped.cuts[0], { path: 'data.a', kind: 'list', kept: 1, total: 401 });
    // The paths of deep cuts are abridged: the note stays short.
    const note = shapeNote(shaped);
    assert.match(note, /data\.a(\[0\]){4}…\(\d+ levels?\)…(\[0\]){6} kept 1 of 401 items/);
    assert.ok(note.length < 2_000, `a note of ${note.length} characters`);
  });

  test("an object's members share its room: the small ones whole, the largest cut to about the same", async () => {
    const response = { data: { a: rows(3), b: rows(2_000), c: 'x'.repeat(50_000) } };
    const shaped = (await shapeResponse(response, 10_000))!;
    const data = shaped.value.data as typeof response.data;
    assert.deepEqual(data.a, rows(3));
    const b = JSON.stringify(data.b).length;
    const c = JSON.stringify(data.c).length;
    assert.ok(shaped.chars <= 10_000 && shaped.chars > 9_500, `${shaped.chars} characters`);
    assert.ok(Math.abs(b - c) < 100, `${b} and ${c} characters`);
  });

  test('a list keeps its first items whole and cuts the next one to what is left', async () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ id: i, text: 'x'.repeat(3_000) }));
    const shaped = (await shapeResponse({ data: { items } }, 11_000))!;
    const kept = (shaped.value.data as { items: typeof items }).items;
    assert.deepEqual(kept.slice(0, 3), items.slice(0, 3));
    assert.equal(kept.length, 4);
    assert.ok(kept[3]!.text.endsWith(CUT_MARKER));
    assert.ok(shaped.chars <= 11_000 && shaped.chars > 10_900, `${shaped.chars} characters`);
    assert.deepEqual(
      shaped.cuts.map(({ path, kind }) => `${path} ${kind}`),
      ['data.items list', 'data.items[3].text string'],
    );
  });

  test('MUST say at which depth nesting was cut when an object or list keeps nothing', async () => {
    let chain: unknown = 'leaf';
    for (let level = 0; level < 500; level++) chain = { a: chain };
    const shaped = (await shapeResponse({ data: chain as object }, 1_000))!;
    assert.ok(shaped.chars <= 1_000, `${shaped.chars} characters`);
    const [cut] = shaped.cuts;
    assert.equal(cut!.kind, 'object');
    assert.equal(cut!.kept, 0);
    assert.match(shapeNote(shaped), new RegExp(`kept 0 of 1 keys \\(nesting cut at depth ${cut!.depth}\\)`));
    assert.match(shapeNote(shaped), /select less deeply nested fields/);
  });

  test('keeps data and errors, least first, under a budget too small for anything else', async () => {
    const shaped = (await shapeResponse(
      { data: { a: rows(100) }, errors: [{ message: 'x'.repeat(500) }] },
      10,
    ))!;
    assert.deepEqual(Object.keys(shaped.value), ['data', 'errors']);
    assert.equal(typeof shaped.value.data, 'object');
    assert.ok(Array.isArray(shaped.value.errors));
  });
});

describe('shapeNote', () => {
  test('MUST fit a given length, naming as many cuts as fit and counting the rest, and keep the advice whole', () => {
    const key = 'k'.repeat(190);
    const cuts = Array.from({ length: 12 }, (_, i) => ({
      path: `data.${key}${i}.${key}`,
      kind: 'list' as const,
      kept: 1,
      total: 50,
    }));
    const shaped = {
      value: { data: {} },
      maxChars: 40_000,
      cuts,
      text: '{}',
      originalChars: 900_000,
      chars: 2,
    };
    const note = shapeNote(shaped, 40_000, '--maxResultChars', 1_000);
    assert.ok(note.length <= 1_000, `${note.length} characters`);
    assert.match(note, /and \d+ more cuts \(\d+ lists\)\. To get the rest: ask for fewer items/);
    assert.match(note, /select fewer fields\.$/);
  });

  test('names every cut, how to ask for less, and the pageInfo to page with', async () => {
    const response = {
      data: { items: { edges: rows(3000), pageInfo: { endCursor: 'x', hasNextPage: true } } },
    };
    const shaped = (await shapeResponse(response, 4_000))!;
    const note = shapeNote(shaped);
    assert.match(
      note,
      /^The response was shortened to fit 4,000 characters \(--maxResultChars\); it had [\d,]+ characters\./,
    );
    assert.match(note, /data\.items\.edges kept \d+ of 3,000 items/);
    assert.match(note, /first: \d+ or the API's limit argument on edges/);
    assert.match(note, /data\.items\.pageInfo: pass endCursor as after:/);
  });

  test('asks for fewer items on a list of the data, never on the errors', async () => {
    const errors = Array.from({ length: 2_000 }, (_, i) => ({ message: `error ${i}` }));
    const note = shapeNote((await shapeResponse({ data: null, errors }, 2_000))!);
    assert.match(note, /errors kept [\d,]+ of 2,000 items/);
    assert.doesNotMatch(note, /first:/);
  });
});

describe('fitResponse', () => {
  test('leaves a response that fits in characters and tokens alone', async () => {
    assert.equal(await fitResponse({ data: { a: rows(3) } }, 1_000), undefined);
    assert.equal(await fitResponse({ data: { a: rows(3000) } }, 0), undefined);
  });

  test('shortens ordinary JSON to the budget of characters alone, as shapeResponse does', async () => {
    const response = { data: { a: rows(3000) } };
    const fitted = (await fitResponse(response, 4_000))!;
    assert.deepEqual(fitted, await shapeResponse(response, 4_000));
    assert.equal(fitted.text, JSON.stringify(fitted.value));
  });

  test('shortens dense text further, to about half as many estimated tokens as the budget has characters', async () => {
    const response = { data: { a: rows(3000, '😀🎉🚀✨'.repeat(10)) } };
    const fitted = (await fitResponse(response, 40_000))!;
    assert.ok(fitted.maxChars < 40_000, `${fitted.maxChars}`);
    assert.ok(estimateTokens(fitted.text) <= 20_000, `${estimateTokens(fitted.text)} estimated tokens`);
    assert.ok(estimateTokens(fitted.text) > 15_000, 'not much shorter than it needs to be');
    assert.match(
      shapeNote(fitted, 40_000),
      /^The response was shortened to fit [\d,]+ characters \(--maxResultChars is 40,000, and about 20,000 tokens: fewer characters for text this dense\); it had [\d,]+ characters\./,
    );
  });
});
