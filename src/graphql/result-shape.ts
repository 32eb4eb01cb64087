// A GraphQL response too long for a model's context (clients refuse tool results of over ~25,000 tokens, or
// fill the context with them) is shortened to a budget of characters of compact JSON, and of tokens (about half
// as many, estimated: dense text such as CJK or emoji keeps fewer characters), keeping its shape: the
// largest lists keep their first items and the longest strings are cut with a marker, one cut at a time, the
// largest first, until it fits. `errors` are cut last and never away. What was cut is reported, so that the
// model can ask for the rest (smaller pages, fewer fields, the next page).

import { denserBudget, TOKENS_PER_BUDGET_CHAR } from './token-estimate.js';

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
  /** The budget of characters it was shortened to: the option's, or less for dense text. */
  readonly maxChars: number;
  readonly cuts: readonly Cut[];
  /** Its compact JSON. */
  readonly text: string;
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

type Container = Record<string, unknown> | unknown[];

/** The largest cuttable part found by a measuring pass: where it is (keys from the root) and its sizes. */
interface Candidate {
  readonly keys: ReadonlyArray<string | number>;
  readonly size: number;
  /** For lists: the compact JSON length of each item. */
  readonly itemSizes?: readonly number[];
}

/**
 * `response` shortened so that its compact JSON is at most `maxChars` long, or undefined when it fits
 * already (or `maxChars` is 0). `chars` is its compact JSON length, when the caller has it. The response is
 * not changed: what is cut is copied, with the objects and lists on the way to it; the rest is shared.
 */
export function shapeResponse(
  response: Record<string, unknown>,
  maxChars: number,
  chars = JSON.stringify(response).length,
): ShapedResponse | undefined {
  if (maxChars <= 0 || chars <= maxChars) return undefined;
  const originalChars = chars;
  const value: Record<string, unknown> = { ...response };
  const copies = new WeakSet<object>([value]);
  const cuts = new Map<string, Cut>();
  let text: string | undefined;
  for (let round = 0; round < MAX_ROUNDS && chars > maxChars; round++) {
    const over = chars - maxChars;
    const candidate = new Measure(over).largest(value);
    if (candidate === undefined || !cut(value, copies, candidate, over, cuts)) break;
    text = JSON.stringify(value);
    chars = text.length;
  }
  text ??= JSON.stringify(value);
  return { value, maxChars, cuts: [...cuts.values()], text, originalChars, chars };
}

/** Rounds of shortening to a smaller budget of characters, for text denser than the estimate allows. */
const TOKEN_ROUNDS = 4;

/**
 * `response`, whose compact JSON is `text`, shortened to at most `maxChars` characters and about half as many
 * tokens (estimateTokens); undefined when it fits already (or `maxChars` is 0). Text denser than that ratio
 * is shortened again to a budget of characters in proportion, at most a few times.
 */
export function fitResponse(
  response: Record<string, unknown>,
  maxChars: number,
  text = JSON.stringify(response),
): ShapedResponse | undefined {
  if (maxChars <= 0) return undefined;
  let shaped = shapeResponse(response, maxChars, text.length);
  for (let round = 0; round < TOKEN_ROUNDS; round++) {
    const budget = denserBudget(shaped?.text ?? text, maxChars);
    if (budget === undefined) break;
    const next = shapeResponse(response, budget, text.length);
    if (next === undefined || next.chars >= (shaped?.chars ?? text.length)) break;
    shaped = next;
  }
  return shaped;
}

/**
 * One pass over the response computing the compact JSON length of every part, bottom-up (each string is
 * measured once), and keeping the largest list of 2+ items or long string; in `errors` only if nothing
 * else can be cut. Responses nest at most 1,000 levels (post-graphql refuses deeper), so recursion is safe.
 */
class Measure {
  readonly #keys: Array<string | number> = [];
  #best: Candidate | undefined;
  #bestInErrors: Candidate | undefined;
  #inErrors = false;

  constructor(readonly over: number) {}

  largest(root: Record<string, unknown>): Candidate | undefined {
    for (const key of Object.keys(root)) {
      this.#inErrors = key === 'errors';
      this.#keys.push(key);
      this.#size(root[key]);
      this.#keys.pop();
    }
    return this.#best ?? this.#bestInErrors;
  }

  #size(node: unknown): number {
    if (typeof node === 'string') {
      const size = JSON.stringify(node).length;
      if (node.length >= MIN_CUT_STRING) this.#consider(size);
      return size;
    }
    if (Array.isArray(node)) {
      const itemSizes = new Array<number>(node.length);
      let size = 1;
      for (let i = 0; i < node.length; i++) {
        this.#keys.push(i);
        itemSizes[i] = this.#size(node[i]);
        this.#keys.pop();
        size += itemSizes[i]! + 1;
      }
      if (node.length === 0) size = 2;
      // A list of small items is worth cutting only if that removes something that matters.
      if (node.length >= 2 && size > Math.min(this.over, 1_000)) this.#consider(size, itemSizes);
      return size;
    }
    if (typeof node === 'object' && node !== null) {
      let size = 1;
      let members = 0;
      for (const key of Object.keys(node)) {
        this.#keys.push(key);
        size += JSON.stringify(key).length + 2 + this.#size((node as Record<string, unknown>)[key]);
        this.#keys.pop();
        members++;
      }
      return members === 0 ? 2 : size;
    }
    return JSON.stringify(node)?.length ?? 4;
  }

  #consider(size: number, itemSizes?: number[]): void {
    const best = this.#inErrors ? this.#bestInErrors : this.#best;
    if (best !== undefined && best.size >= size) return;
    const candidate = { keys: [...this.#keys], size, itemSizes };
    if (this.#inErrors) this.#bestInErrors = candidate;
    else this.#best = candidate;
  }
}

/** Cuts one candidate by `over` characters where it can; false when it cannot be cut further. */
function cut(
  root: Record<string, unknown>,
  copies: WeakSet<object>,
  candidate: Candidate,
  over: number,
  cuts: Map<string, Cut>,
): boolean {
  // Copy the containers on the way down, once: the caller's response stays as it was.
  let parent: Container = root;
  const { keys } = candidate;
  for (const key of keys.slice(0, -1)) {
    const child = (parent as Record<string | number, unknown>)[key] as Container;
    const own: Container = copies.has(child) ? child : Array.isArray(child) ? [...child] : { ...child };
    copies.add(own);
    (parent as Record<string | number, unknown>)[key] = own;
    parent = own;
  }
  const key = keys.at(-1)!;
  const node = (parent as Record<string | number, unknown>)[key];
  const path = pathOf(keys);
  if (typeof node === 'string') {
    const keep = Math.max(MIN_KEPT_CHARS, node.length - over - CUT_MARKER.length);
    if (keep >= node.length) return false;
    // Not in the middle of a surrogate pair.
    const end = /[\uD800-\uDBFF]/.test(node[keep - 1] ?? '') ? keep - 1 : keep;
    (parent as Record<string | number, unknown>)[key] = node.slice(0, end) + CUT_MARKER;
    cuts.set(path, { path, kind: 'string', kept: end, total: cuts.get(path)?.total ?? node.length });
    return true;
  }
  const list = node as unknown[];
  const sizes = candidate.itemSizes!;
  // Keep the first items whose JSON fits in what the list may still take; at least one.
  const room = candidate.size - over;
  let kept = 1;
  let used = 2 + sizes[0]!;
  while (kept < list.length && used + sizes[kept]! + 1 <= room) used += sizes[kept++]! + 1;
  if (kept >= list.length) kept = list.length - 1;
  const kept_ = list.slice(0, kept);
  copies.add(kept_);
  (parent as Record<string | number, unknown>)[key] = kept_;
  cuts.set(path, { path, kind: 'list', kept, total: cuts.get(path)?.total ?? list.length });
  return true;
}

/** `data.books[3].title` */
function pathOf(keys: ReadonlyArray<string | number>): string {
  return keys.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('');
}

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
): string {
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
    `The response was shortened to fit ${count(shaped.maxChars)} characters (${optionName}${dense(shaped, budget)}); it had ${count(shaped.originalChars)} characters. ` +
    `Cut: ${listed.join('; ')}. To get the rest: ${advice.join('; ')}.`
  );
}

/** Why the budget is below the option's: the text is denser in tokens than the option allows for. */
function dense(shaped: ShapedResponse, budget: number): string {
  if (shaped.maxChars >= budget) return '';
  const tokens = count(budget * TOKENS_PER_BUDGET_CHAR);
  return ` is ${count(budget)}, and about ${tokens} tokens: fewer characters for text this dense`;
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
