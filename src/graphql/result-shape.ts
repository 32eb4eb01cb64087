// A GraphQL response too long for a model's context (clients refuse tool results of over ~25,000 tokens, or
// fill the context with them) is shortened to a budget of characters of compact JSON, keeping its shape: the
// largest lists keep their first items and the longest strings are cut with a marker, one cut at a time, the
// largest first, until it fits. `errors` are cut last and never away. What was cut is reported, so that the
// model can ask for the rest (smaller pages, fewer fields, the next page).

/** One cut: a list that kept its first items, or a string that kept its start. */
export interface Cut {
  /** Where, as a JavaScript-like path: `data.books`, `data.author.books[3].title`. */
  readonly path: string;
  readonly kind: 'list' | 'string';
  readonly kept: number;
  readonly total: number;
}

export interface ShapedResponse {
  readonly value: Record<string, unknown>;
  readonly cuts: readonly Cut[];
  /** Compact JSON length before and after. */
  readonly originalChars: number;
  readonly chars: number;
}

/** Strings shorter than this are never cut: cutting many short strings would lose data for little room. */
const MIN_CUT_STRING = 200;
/** What a cut string keeps at least. */
const MIN_KEPT_CHARS = 100;
/** Marker appended to a cut string; the note gives the lengths. */
export const CUT_MARKER = '…[cut]';
/** Cuts allowed before giving up: each one removes at least a large part of what is over. */
const MAX_ROUNDS = 200;

interface Candidate {
  readonly parent: Record<string, unknown> | unknown[];
  readonly key: string | number;
  readonly path: string;
  readonly size: number;
  /** For lists: the compact JSON length of each item. */
  readonly itemSizes?: number[];
  readonly inErrors: boolean;
}

/**
 * `response` shortened so that its compact JSON is at most `maxChars` long, or undefined when it fits
 * already (or `maxChars` is 0). The response is not changed: the cut parts are copied.
 */
export function shapeResponse(
  response: Record<string, unknown>,
  maxChars: number,
): ShapedResponse | undefined {
  if (maxChars <= 0) return undefined;
  const originalChars = JSON.stringify(response).length;
  if (originalChars <= maxChars) return undefined;

  const value = structuredClone(response);
  const cuts = new Map<string, Cut>();
  let chars = originalChars;
  for (let round = 0; round < MAX_ROUNDS && chars > maxChars; round++) {
    const over = chars - maxChars;
    const candidate = largest(value, over);
    if (candidate === undefined) break;
    const removed = cut(candidate, over, cuts);
    if (removed <= 0) break;
    chars = JSON.stringify(value).length;
  }
  return { value, cuts: [...cuts.values()], originalChars, chars };
}

/** The cuttable part with the most characters: a list of 2+ items or a long string; errors only if no other. */
function largest(root: Record<string, unknown>, over: number): Candidate | undefined {
  let best: Candidate | undefined;
  let bestInErrors: Candidate | undefined;
  const consider = (candidate: Candidate) => {
    if (candidate.inErrors) {
      if (bestInErrors === undefined || candidate.size > bestInErrors.size) bestInErrors = candidate;
    } else if (best === undefined || candidate.size > best.size) best = candidate;
  };
  // Iterative walk: responses may nest hundreds of levels.
  const stack: Array<{
    node: unknown;
    path: string;
    inErrors: boolean;
    parent?: Candidate['parent'];
    key?: string | number;
  }> = [];
  for (const key of Object.keys(root)) {
    stack.push({ node: root[key], path: key, inErrors: key === 'errors', parent: root, key });
  }
  while (stack.length > 0) {
    const { node, path, inErrors, parent, key } = stack.pop()!;
    if (typeof node === 'string') {
      if (node.length >= MIN_CUT_STRING && parent !== undefined && key !== undefined) {
        consider({ parent, key, path, size: node.length, inErrors });
      }
    } else if (Array.isArray(node)) {
      if (node.length >= 2 && parent !== undefined && key !== undefined) {
        const itemSizes = node.map((item) => jsonLength(item));
        const size = itemSizes.reduce((sum, n) => sum + n + 1, 1);
        // A list of small items is worth cutting only if it removes something that matters.
        if (size > Math.min(over, 1_000)) consider({ parent, key, path, size, itemSizes, inErrors });
      }
      node.forEach((item, i) =>
        stack.push({ node: item, path: `${path}[${i}]`, inErrors, parent: node, key: i }),
      );
    } else if (typeof node === 'object' && node !== null) {
      const object = node as Record<string, unknown>;
      for (const child of Object.keys(object)) {
        stack.push({ node: object[child], path: `${path}.${child}`, inErrors, parent: object, key: child });
      }
    }
  }
  return best ?? bestInErrors;
}

/** Cuts one candidate by at least `over` characters where it can; returns the characters removed. */
function cut(candidate: Candidate, over: number, cuts: Map<string, Cut>): number {
  const { parent, key, path } = candidate;
  const node = (parent as Record<string | number, unknown>)[key];
  if (typeof node === 'string') {
    const keep = Math.max(MIN_KEPT_CHARS, node.length - over - CUT_MARKER.length);
    if (keep >= node.length) return 0;
    // Not in the middle of a surrogate pair.
    const end = /[\uD800-\uDBFF]/.test(node[keep - 1] ?? '') ? keep - 1 : keep;
    (parent as Record<string | number, unknown>)[key] = node.slice(0, end) + CUT_MARKER;
    const total = cuts.get(path)?.total ?? node.length;
    cuts.set(path, { path, kind: 'string', kept: end, total });
    return node.length - end - CUT_MARKER.length;
  }
  const list = node as unknown[];
  const sizes = candidate.itemSizes!;
  // Keep the first items whose JSON fits in what the list may still take; at least one.
  const room = candidate.size - over;
  let kept = 0;
  let used = 2;
  while (kept < list.length && (kept === 0 || used + sizes[kept]! + 1 <= room)) {
    used += sizes[kept]! + 1;
    kept++;
  }
  if (kept >= list.length) kept = list.length - 1;
  const total = cuts.get(path)?.total ?? list.length;
  (parent as Record<string | number, unknown>)[key] = list.slice(0, kept);
  cuts.set(path, { path, kind: 'list', kept, total });
  return sizes.slice(kept).reduce((sum, n) => sum + n + 1, 0);
}

function jsonLength(value: unknown): number {
  return JSON.stringify(value)?.length ?? 4;
}

/** Most cuts listed by name in the note; the rest are counted. */
const MAX_CUTS_LISTED = 12;

/**
 * What was cut and how to get the rest: smaller pages, fewer fields, or the next page through the
 * pagination fields present in the response.
 */
export function shapeNote(shaped: ShapedResponse, maxChars: number, optionName = '--maxResultChars'): string {
  const listed = shaped.cuts
    .slice(0, MAX_CUTS_LISTED)
    .map((cut) =>
      cut.kind === 'list'
        ? `${cut.path} kept ${count(cut.kept)} of ${count(cut.total)} items`
        : `${cut.path} kept ${count(cut.kept)} of ${count(cut.total)} characters (ends with "${CUT_MARKER}")`,
    );
  const more = shaped.cuts.length - listed.length;
  if (more > 0) listed.push(`and ${count(more)} more cuts`);
  const advice: string[] = [];
  const lists = shaped.cuts.filter((cut) => cut.kind === 'list');
  if (lists.length > 0) {
    advice.push(
      `ask for fewer items (e.g. first: ${count(lists[0]!.kept)} or the API's limit argument on ${fieldOf(lists[0]!.path)})`,
    );
  }
  advice.push('select fewer fields');
  const pages = paginationPaths(shaped.value);
  if (pages.length > 0) {
    advice.push(
      `page through the rest with the cursor fields in the response (${pages.slice(0, 3).join(', ')}: pass endCursor as after:)`,
    );
  }
  return (
    `The response was shortened to fit ${count(maxChars)} characters (${optionName}); it had ${count(shaped.originalChars)}. ` +
    `Cut: ${listed.join('; ')}. To get the rest: ${advice.join('; ')}.`
  );
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

/** Paths of `pageInfo` objects (Relay connections) in the data, first ones first. */
function paginationPaths(root: Record<string, unknown>): string[] {
  const found: string[] = [];
  const queue: Array<{ node: unknown; path: string }> = [{ node: root.data, path: 'data' }];
  for (let i = 0; i < queue.length && found.length < 3 && i < 10_000; i++) {
    const { node, path } = queue[i]!;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      node.slice(0, 3).forEach((item, j) => queue.push({ node: item, path: `${path}[${j}]` }));
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === 'pageInfo' && typeof child === 'object' && child !== null) found.push(`${path}.pageInfo`);
      else queue.push({ node: child, path: `${path}.${key}` });
    }
  }
  return found;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
