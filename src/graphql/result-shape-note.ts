// What a shortened result says beside it: what was cut (outer cuts first, the rest counted by kind), why the
// budget was smaller than the option's for dense text, and how to get the rest (smaller pages, fewer or less
// deeply nested fields, the next page through the response's own pagination fields).

import { thousands } from '../common/text.js';
import type { ShapedResponse } from './result-shape.js';
import type { Cut } from './result-shape-build.js';
import { CUT_MARKER } from './result-shape-measure.js';
import { render, ROOT, step, type PathNode } from './result-shape-path.js';
import { TOKENS_PER_BUDGET_CHAR } from './token-estimate.js';

/** Most cuts listed by name in the note; the rest are counted. */
const MAX_CUTS_LISTED = 12;

/**
 * What was cut and how to get the rest: smaller pages, fewer fields, or the next page through the
 * pagination fields present in the response.
 */
export function shapeNote(
  shaped: ShapedResponse,
  budget = shaped.maxChars,
  optionName = '--maxResultChars',
  maxNoteChars = Infinity,
): string {
  const advice = adviceOf(shaped);
  const head =
    `The response was shortened to fit ${thousands(shaped.maxChars)} characters (${optionName}${dense(shaped, budget)}); it had ${thousands(shaped.originalChars)} characters. ` +
    'Cut: ';
  const tail = `. To get the rest: ${advice.join('; ')}.`;
  // As many cuts by name as the note has room for, outer ones first; the rest are counted by kind.
  const room = maxNoteChars - head.length - tail.length;
  const listed: string[] = [];
  let used = 0;
  for (const [i, cut] of shaped.cuts.slice(0, MAX_CUTS_LISTED).entries()) {
    const described = describeCut(cut);
    const rest = shaped.cuts.slice(i + 1);
    const more = rest.length > 0 ? `; and ${thousands(rest.length)} more cuts (${kindsOf(rest)})`.length : 0;
    if (i > 0 && used + described.length + 2 + more > room) break;
    listed.push(described);
    used += described.length + 2;
  }
  const rest = shaped.cuts.slice(listed.length);
  if (rest.length > 0) listed.push(`and ${thousands(rest.length)} more cuts (${kindsOf(rest)})`);
  return `${head}${listed.join('; ')}${tail}`;
}

/** How to get what was cut: smaller pages, fewer or less deeply nested fields, the next page. */
function adviceOf(shaped: ShapedResponse): string[] {
  const advice: string[] = [];
  // A page size is asked for on a field of the data, not on the errors.
  const list = shaped.cuts.find((cut) => cut.kind === 'list' && cut.kept > 0 && cut.path.startsWith('data'));
  if (list !== undefined) {
    advice.push(
      `ask for fewer items (e.g. first: ${thousands(list.kept)} or the API's limit argument on ${fieldOf(list.path)})`,
    );
  }
  advice.push('select fewer fields');
  if (shaped.cuts.some((cut) => cut.depth !== undefined)) advice.push('select less deeply nested fields');
  const pages = paginationPaths(shaped.value);
  if (pages.length > 0) {
    advice.push(
      `page through the rest with the cursor fields in the response (${pages.join(', ')}: pass endCursor as after:)`,
    );
  }
  return advice;
}

function describeCut(cut: Cut): string {
  const nesting = cut.depth === undefined ? '' : ` (nesting cut at depth ${thousands(cut.depth)})`;
  const of = `${thousands(cut.kept)} of ${thousands(cut.total)}`;
  switch (cut.kind) {
    case 'list':
      return `${cut.path} kept ${of} items${nesting}`;
    case 'object':
      return `${cut.path} kept ${of} keys${nesting}`;
    case 'string':
      return `${cut.path} kept ${of} characters (ends with "${CUT_MARKER}")`;
    case 'key':
      return `${cut.path} has a key that kept ${of} characters (ends with "${CUT_MARKER}")`;
  }
}

/** `3 lists, 2 strings; nesting cut at depth 9`: what the cuts not listed were, and the shallowest emptied. */
function kindsOf(cuts: readonly Cut[]): string {
  const names = { list: 'lists', object: 'objects', string: 'strings', key: 'keys' } as const;
  const counts = new Map<Cut['kind'], number>();
  let depth = Infinity;
  for (const cut of cuts) {
    counts.set(cut.kind, (counts.get(cut.kind) ?? 0) + 1);
    depth = Math.min(depth, cut.depth ?? Infinity);
  }
  const kinds = [...counts].map(([kind, n]) => `${thousands(n)} ${names[kind]}`).join(', ');
  return depth === Infinity ? kinds : `${kinds}; nesting cut at depth ${thousands(depth)}`;
}

/** Why the budget is below the option's: the text is denser in tokens than the option allows for. */
function dense(shaped: ShapedResponse, budget: number): string {
  if (shaped.maxChars >= budget) return '';
  const tokens = thousands(budget * TOKENS_PER_BUDGET_CHAR);
  return ` is ${thousands(budget)}, and about ${tokens} tokens: fewer characters for text this dense`;
}

/** The field name a response path ends with (`data.a.books[2].reviews` → `reviews`). */
function fieldOf(path: string): string {
  const last =
    path
      .replace(/\[\d+\]$/, '')
      .split('.')
      .pop() ?? path;
  return last.replace(/\[\d+\]/g, '');
}

/** Paths of the first few `pageInfo` objects (Relay connections) in the data, nearest the top first. */
function paginationPaths(root: Record<string, unknown>): string[] {
  const found: string[] = [];
  const queue: Array<{ node: unknown; path: PathNode }> = [{ node: root.data, path: step(ROOT, 'data') }];
  for (let i = 0; i < queue.length && found.length < 3 && i < 10_000; i++) {
    const { node, path } = queue[i]!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      node.slice(0, 3).forEach((item, j) => queue.push({ node: item, path: step(path, j) }));
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'pageInfo' && typeof child === 'object' && child !== null)
        found.push(render(step(path, key)));
      else queue.push({ node: child, path: step(path, key) });
    }
  }
  return found;
}
