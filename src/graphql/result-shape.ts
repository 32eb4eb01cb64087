// A GraphQL response too long for a model's context (clients refuse tool results of over ~25,000 tokens, or
// fill the context with them) is shortened to a budget of characters of compact JSON, and of tokens (about half
// as many, estimated: dense text such as CJK or emoji keeps fewer characters), keeping its shape.
//
// Two passes, each visiting a node once whatever the response's depth and fan-out: one measures the compact
// JSON length of every object and list, bottom-up (result-shape-measure.ts); the other builds the shortened
// copy top-down, giving each part a share of the budget (result-shape-build.ts). An object's members share its
// room fairly: those that fit are kept whole and the largest are cut (each at least a useful share, else the
// last ones are dropped); a list keeps its first items whole and cuts the one that no longer fits; a long
// string or key keeps its start and a marker. What a part leaves unused goes on to the next one. `errors` are
// cut last and never away. Both passes run in slices, so that pings and other calls are answered meanwhile.
// What was cut is reported (result-shape-note.ts), so that the model can ask for the rest (smaller pages, fewer
// fields, the next page).

import { createYielder } from '../common/time-slice.js';
import { denserBudget, MAX_TOKENS_PER_CHAR, TOKENS_PER_BUDGET_CHAR } from './token-estimate.js';
import { Build, type Cut } from './result-shape-build.js';
import { Measure, type Sizes } from './result-shape-measure.js';

/** A response shortened to a budget: its copy, its compact JSON, and what was cut. */
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

/** Rounds of shortening to a smaller budget of characters, for text denser than the estimate allows. */
const TOKEN_ROUNDS = 6;

/**
 * `response`, whose compact JSON is `text`, shortened to at most `maxChars` characters and about half as many
 * tokens (estimateTokens); undefined when it fits already (or `maxChars` is 0). Text denser than that ratio
 * is shortened again to a budget of characters in proportion. The response is not changed: the parts kept
 * whole are shared.
 */
export async function fitResponse(
  response: Record<string, unknown>,
  maxChars: number,
  text = JSON.stringify(response),
): Promise<ShapedResponse | undefined> {
  if (maxChars <= 0) return undefined;
  let budget = maxChars;
  if (text.length <= maxChars) {
    const denser = denserBudget(text, maxChars);
    if (denser === undefined) return undefined;
    budget = denser;
  }
  const pause = createYielder();
  const sizes = await measure(response, pause);
  // Any text of this many characters is within the budget of tokens, however dense.
  const safeBudget = Math.floor((maxChars * TOKENS_PER_BUDGET_CHAR - 1) / MAX_TOKENS_PER_CHAR);
  for (let round = 1; ; round++) {
    const shaped = await build(response, sizes, budget, text.length, pause);
    const denser = denserBudget(shaped.text, maxChars);
    if (denser === undefined || budget <= safeBudget) return shaped;
    budget = round >= TOKEN_ROUNDS ? safeBudget : Math.max(safeBudget, Math.min(denser, budget - 1));
  }
}

/**
 * `response` shortened so that its compact JSON is at most `maxChars` long (characters only: fitResponse
 * also holds the tokens), or undefined when it fits already (or `maxChars` is 0). `chars` is its compact
 * JSON length, when the caller has it.
 */
export async function shapeResponse(
  response: Record<string, unknown>,
  maxChars: number,
  chars = JSON.stringify(response).length,
): Promise<ShapedResponse | undefined> {
  if (maxChars <= 0 || chars <= maxChars) return undefined;
  const pause = createYielder();
  return build(response, await measure(response, pause), maxChars, chars, pause);
}

/** A piece of work done a slice at a time: `step` does some and says whether all is done. */
interface Sliced {
  step(): boolean;
}

async function finish(work: Sliced, pause: () => Promise<void> | undefined): Promise<void> {
  while (!work.step()) {
    const turn = pause();
    if (turn !== undefined) await turn;
  }
}

async function measure(
  response: Record<string, unknown>,
  pause: () => Promise<void> | undefined,
): Promise<Sizes> {
  const measuring = new Measure(response);
  await finish(measuring, pause);
  return measuring.sizes;
}

async function build(
  response: Record<string, unknown>,
  sizes: Sizes,
  maxChars: number,
  originalChars: number,
  pause: () => Promise<void> | undefined,
): Promise<ShapedResponse> {
  const building = new Build(response, sizes, maxChars);
  await finish(building, pause);
  const value = building.value!;
  const text = JSON.stringify(value);
  const cuts = building.sortedCuts();
  return { value, maxChars, cuts, text, originalChars, chars: text.length };
}
