// Result shaping against hostile responses near the 1 MiB body limit (property-based, fast-check with a fixed
// seed; the responses are built by test/fixtures/hostile-responses.ts from a seed it draws): nesting hundreds
// deep with hundreds of siblings, tens of thousands of keys, megabyte keys, strings of escapes, lists of
// lists, errors, and mixes. For each: valid JSON of the same shape, made only of what the response holds,
// within the budget of characters and of estimated tokens, keeping at least half of one of them, with a note
// naming every kind of cut. GRAPHQL_MCP_FUZZ_SCALE multiplies the case count (npm run test:stress sets 5).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { fitResponse, type ShapedResponse } from '../../src/graphql/result-shape.ts';
import { CUT_MARKER } from '../../src/graphql/result-shape-measure.ts';
import { shapeNote } from '../../src/graphql/result-shape-note.ts';
import { estimateTokens, TOKENS_PER_BUDGET_CHAR } from '../../src/graphql/token-estimate.ts';
import { HOSTILE_SHAPES, hostileResponse } from '../fixtures/hostile-responses.ts';
import { FUZZ_SCALE } from '../stress/harness.ts';

const SEED = 20_260_424;
const RUNS = 16;
/** A hang guard only: shaping a megabyte takes milliseconds; the old shaping took seconds to tens of them. */
const HANG_MS = 5_000;
/** The longest note: twelve cuts with abridged paths, the counts, and the advice. */
const MAX_NOTE_CHARS = 4_000;

const hostile = fc.record({
  shape: fc.constantFrom(...HOSTILE_SHAPES),
  chars: fc.integer({ min: 500_000, max: 1_040_000 }),
  depth: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 30, max: 990 })),
  keyChars: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 16, max: 5_000 })),
  escapes: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
  nestedFirst: fc.boolean(),
  seed: fc.integer(),
  maxChars: fc.oneof(fc.constant(40_000), fc.integer({ min: 1_000, max: 120_000 })),
});

test('MUST shorten any hostile response to valid JSON of its shape within the budgets of characters and tokens, keeping at least half of one, and say what was cut', async () => {
  await fc.assert(
    fc.asyncProperty(hostile, async ({ shape, chars, maxChars, ...options }) => {
      const response = hostileResponse(shape, chars, options);
      const text = JSON.stringify(response);
      const started = performance.now();
      const shaped = await fitResponse(response, maxChars, text);
      const ms = performance.now() - started;
      assert.ok(ms < HANG_MS, `shaping took ${Math.round(ms)} ms`);
      if (shaped === undefined) {
        assert.ok(text.length <= maxChars, 'a response over the budget is shortened');
        return;
      }
      assert.equal(JSON.stringify(response), text, 'the response itself is not changed');
      assertWithinBudget(shaped, maxChars);
      assertSameShape(response, shaped.value);
      assertMadeOf(shaped.value, response, 'response');
      assertNoteNamesCuts(shaped, maxChars);
    }),
    { seed: SEED, numRuns: RUNS * FUZZ_SCALE, endOnFailure: true, includeErrorInReport: true },
  );
});

function assertWithinBudget(shaped: ShapedResponse, maxChars: number): void {
  assert.equal(shaped.text, JSON.stringify(shaped.value), 'text is the compact JSON of value');
  assert.equal(shaped.chars, shaped.text.length);
  JSON.parse(shaped.text);
  assert.ok(shaped.chars <= maxChars, `${shaped.chars} characters, over ${maxChars}`);
  const maxTokens = maxChars * TOKENS_PER_BUDGET_CHAR;
  const tokens = estimateTokens(shaped.text);
  assert.ok(tokens <= maxTokens, `${tokens} estimated tokens, over ${maxTokens}`);
  // As much as fits: at least half of the budget that binds, characters or (for dense text) tokens.
  assert.ok(
    shaped.chars >= maxChars / 2 || tokens >= maxTokens / 2,
    `only ${shaped.chars} characters and ${tokens} tokens kept of ${maxChars} and ${maxTokens}`,
  );
}

/** `data` stays an object or null, `errors` a list that keeps at least one error. */
function assertSameShape(response: Record<string, unknown>, value: Record<string, unknown>): void {
  assert.equal(value.data === null, response.data === null, 'data stays null or not');
  if (response.data !== null) assert.equal(typeof value.data, 'object');
  if (Array.isArray(response.errors)) {
    assert.ok(Array.isArray(value.errors), 'errors stays a list');
    assert.ok((value.errors as unknown[]).length >= 1, 'errors are never cut away');
  }
}

/**
 * Everything in the shortened value is in the response, where it was: a list's first items, an object's
 * keys (a cut key as its start and the marker), a string or its start and the marker, the same scalars.
 */
function assertMadeOf(kept: unknown, original: unknown, path: string): void {
  if (typeof kept === 'string' && kept !== original) {
    assert.equal(typeof original, 'string', path);
    assert.ok(kept.endsWith(CUT_MARKER), `${path}: a changed string ends with the marker`);
    assert.ok((original as string).startsWith(kept.slice(0, -CUT_MARKER.length)), `${path}: its start`);
    return;
  }
  if (typeof kept !== 'object' || kept === null) {
    assert.equal(kept, original, path);
    return;
  }
  if (kept === original) return;
  if (Array.isArray(kept)) {
    assert.ok(Array.isArray(original), `${path} stays a list`);
    assert.ok(kept.length <= original.length, `${path}: no more items`);
    kept.forEach((item, i) => assertMadeOf(item, original[i], `${path}[${i}]`));
    return;
  }
  assert.ok(
    typeof original === 'object' && original !== null && !Array.isArray(original),
    `${path}: an object`,
  );
  const members = original as Record<string, unknown>;
  for (const [key, value] of Object.entries(kept)) {
    if (Object.hasOwn(members, key)) {
      assertMadeOf(value, members[key], `${path}.${key.slice(0, 20)}`);
      continue;
    }
    assert.ok(key.endsWith(CUT_MARKER), `${path}: a key not in the response is a cut one`);
    const start = key.slice(0, -CUT_MARKER.length);
    assert.ok(start.length > 0, `${path}: a cut key keeps its start`);
    const sources = Object.keys(members).filter((name) => name.startsWith(start) && name !== start);
    const madeOf = (source: string) => {
      try {
        assertMadeOf(value, members[source], `${path}.${source.slice(0, 20)}`);
        return true;
      } catch {
        return false;
      }
    };
    assert.ok(
      sources.some(madeOf),
      `${path}: a cut key is the start of a key of the response, with its value`,
    );
  }
}

function assertNoteNamesCuts(shaped: ShapedResponse, maxChars: number): void {
  assert.ok(shaped.cuts.length > 0, 'a shortened response has cuts');
  const note = shapeNote(shaped, maxChars);
  assert.ok(note.length <= MAX_NOTE_CHARS, `a note of ${note.length} characters`);
  assert.match(note, /^The response was shortened to fit [\d,]+ characters/);
  const wording = {
    list: 'items',
    object: 'keys',
    string: `characters (ends with "${CUT_MARKER}")`,
    key: 'has a key that kept',
  } as const;
  for (const cut of shaped.cuts.slice(0, 12)) {
    const counts = `kept ${cut.kept.toLocaleString('en-US')} of ${cut.total.toLocaleString('en-US')}`;
    assert.ok(
      note.includes(`${counts} ${wording[cut.kind]}`) ||
        note.includes(`${wording[cut.kind]} ${counts.slice(5)}`),
      `the note says ${cut.path} ${counts}`,
    );
  }
  // The rest are counted by kind.
  const rest = shaped.cuts.slice(12);
  const summary = /and ([\d,]+) more cuts \(([^)]*)\)/.exec(note);
  assert.equal(summary?.[1], rest.length > 0 ? rest.length.toLocaleString('en-US') : undefined);
  const names = { list: 'lists', object: 'objects', string: 'strings', key: 'keys' } as const;
  for (const cut of rest)
    assert.ok(summary![2]!.includes(names[cut.kind]), `the note counts the ${cut.kind} cuts`);
  for (const cut of shaped.cuts) assert.ok(cut.kept < cut.total, `${cut.path}: a cut keeps less than all`);
  if (shaped.cuts.some((cut) => cut.depth !== undefined)) assert.match(note, /nesting cut at depth [\d,]+/);
}
