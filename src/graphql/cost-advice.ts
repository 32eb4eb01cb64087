import { thousands } from '../common/text.js';
import type { CostEstimate } from './cost.js';
import type { CostContributor } from './cost-contributors.js';
import { add } from './cost-schema.js';

// What a refusal, a note or a question says of an estimate: its number and unit, its largest contributors, and
// how to lower each.

/**
 * The unit of an estimate with @cost weights: not items any more, and not the cost a gateway computes from the
 * same directives (the IBM specification counts a field's resolver where this counts each item; Apollo Router
 * and Hive Gateway count every object, a connection's edges included), so a gateway's budget does not fit it.
 */
const WEIGHTED_UNIT =
  "cost units (list items, each weighted by @cost; not comparable with a gateway's cost budget)";

/** The estimate as a person reads it: `22,060`, `at least 500,001`. */
export function formatCost(estimate: Pick<CostEstimate, 'total' | 'atLeast'>): string {
  return `${estimate.atLeast ? 'at least ' : ''}${formatNumber(estimate.total)}`;
}

/**
 * What the estimate says, in its unit, to follow "the query": `can return 22,060 list items by its estimate`;
 * with @cost weights counted, `is estimated at 15 cost units (list items, each weighted by @cost; …)`.
 */
export function estimated(estimate: Pick<CostEstimate, 'total' | 'atLeast' | 'weighted'>): string {
  return estimate.weighted
    ? `is estimated at ${formatCost(estimate)} ${WEIGHTED_UNIT}`
    : `can return ${formatCost(estimate)} list items by its estimate`;
}

/**
 * The largest contributors and how to lower each, for a refusal or a warning:
 * `viewer.repositories.issues: 500,000 (91%), ask for first: 10 on issues; …`. Over the limit, each size
 * suggested brings the total within it by itself where that one list can (howToLower).
 */
export function costAdvice(estimate: CostEstimate, options: { limit?: number; count?: number } = {}): string {
  const { limit, count = 3 } = options;
  const { contributors, total } = estimate;
  // What lowering a list's size scales: the list and everything under it.
  const under = (c: CostContributor) =>
    contributors.reduce(
      (sum, other) =>
        other.path === c.path || other.path.startsWith(`${c.path}.`) ? add(sum, other.items) : sum,
      0,
    );
  return contributors
    .slice(0, count)
    .map((c) => {
      const share = Math.round(c.share * 100);
      return `${c.path}: ${formatNumber(c.items)} (${share < 1 ? '<1' : share}%), ${howToLower(c, under(c), total, limit)}`;
    })
    .join('; ');
}

/** `22,060`; a weight's fraction to one digit (`2.5`). */
export function formatNumber(value: number): string {
  return thousands(Number.isInteger(value) ? value : Math.round(value * 10) / 10);
}

/**
 * How to lower one contributor, whose size scales `under` items (its own and those of the lists inside it): over
 * the limit, the size that alone brings the total within it (`under` shrinks in proportion), or, where this
 * list alone cannot, its share of a cut of every list alike; else (a warning) a small page.
 */
function howToLower(c: CostContributor, under: number, total: number, limit: number | undefined): string {
  const key = c.path.slice(c.path.lastIndexOf('.') + 1);
  const on = key === c.field ? c.field : `${key}: ${c.field}`;
  if (c.requiredSlicing === 'several') return `give only one of ${c.slicingArguments.join('/')} on ${on}`;
  if (c.slicingArguments.length > 0 && c.size > 1) {
    const argument = c.slicedBy ?? (c.slicingArguments.includes('first') ? 'first' : c.slicingArguments[0]!);
    let target = Math.min(10, c.size / 2);
    if (limit !== undefined && total > limit) {
      const alone = c.size * (1 - (total - limit) / under);
      target = alone >= 1 ? alone : (c.size * limit) / total;
    }
    return `ask for ${argument}: ${Math.min(c.size - 1, roundDown(target))} on ${on}`;
  }
  return c.sizeFrom === 'weight' || c.size <= 1
    ? `leave out ${on}`
    : `leave out ${on} or select less under it`;
}

/** Down to one significant digit, at least 1: 47 → 40, 4.5 → 4, 0.3 → 1. */
function roundDown(value: number): number {
  if (!(value >= 1)) return 1;
  const unit = 10 ** Math.floor(Math.log10(value));
  return Math.floor(value / unit) * unit;
}
