import { add, mul } from './cost-schema.js';
import type { SizeSource, Sizing } from './cost-list-size.js';

// Who adds what to an estimate. The estimate walks each fragment once per context (cost.ts), counting what a
// fragment adds from its own root; how often that root is reached is known only where it is spread. So the walk
// records, per walk (a Frame), what each field adds and where the walk's fragment was spread; the
// contributors are worked out from these records when first read, which most calls never do.

/** One field's part of the estimate. */
export interface CostContributor {
  /** Response keys from the root (aliases where given), connection plumbing (`edges`, `node`, `nodes`) left out. */
  readonly path: string;
  /** The field's name (the last key of `path` is its alias when it has one). */
  readonly field: string;
  /** What it adds to the total, every enclosing list multiplied in. */
  readonly items: number;
  /** `items` as a part of the total, 0 to 1. */
  readonly share: number;
  /** Items per enclosing item: the list size counted (1 for a field counted by its weight alone). */
  readonly size: number;
  readonly sizeFrom: SizeSource;
  /** The arguments that slice it (from @listSize or by convention); empty when none is known. */
  readonly slicingArguments: readonly string[];
  /** The slicing argument whose value was counted, when the query gave one. */
  readonly slicedBy: string | undefined;
  /**
   * The schema requires exactly one slicing argument (@listSize requireOneSlicingArgument) and the query gave
   * none (`missing`: the size is assumed) or several (`several`: the largest is counted). The API is likely
   * to refuse such a query.
   */
  readonly requiredSlicing: 'missing' | 'several' | undefined;
}

/** A connection's size in a fragment spread at its level: that of each place where the fragment is spread. */
export const SYMBOLIC = -1;

/** One step of a path: a field's response key; `sized` when it is a connection's edges or nodes. */
export interface PathNode {
  readonly parent: PathNode | null;
  readonly key: string;
  readonly name: string;
  readonly sized: boolean;
}

/**
 * The walk of the operation, or of one fragment in one context, with what it adds counted from its own
 * root; where it was spread says how often that root is reached (worked out only when contributors are read).
 */
export interface Frame {
  readonly sites: Site[];
  readonly records: Contribution[];
  /** How often the root is reached, and (for a fragment spread at a connection's level) how often per item. */
  reach: number;
  reachPerItem: number;
  best: Site | undefined;
}

/** A spread of a fragment: in which walk, how often per that walk's root, inside which connection (n). */
interface Site {
  readonly container: Frame;
  readonly perItem: boolean;
  readonly multiplier: number;
  /** The connection's size when spread at its level (SYMBOLIC: that of the container's own spread), else 0. */
  readonly n: number;
  readonly path: PathNode | null;
}

/** What one field adds per reach of its walk's root (per item of its connection when `perItem`). */
interface Contribution {
  readonly perItem: boolean;
  readonly items: number;
  readonly path: PathNode;
  readonly field: string;
  readonly sizing: Sizing;
}

export function newFrame(): Frame {
  return { sites: [], records: [], reach: 0, reachPerItem: 0, best: undefined };
}

/**
 * Every field that adds to `total`, merged by path, largest first, from `frames` in the order their walks
 * finished (the operation's last). A field inside a fragment spread in several places is one contributor,
 * named by the path where it adds most.
 */
export function contributorsOf(frames: readonly Frame[], total: number): CostContributor[] {
  countReach(frames);
  const byPath = new Map<string, { items: number; record: Contribution }>();
  const ordered = frames.flatMap((frame) =>
    frame.records.map((record) => ({
      frame,
      record,
      items: mul(record.perItem ? frame.reachPerItem : frame.reach, record.items),
    })),
  );
  ordered.sort((a, b) => b.items - a.items);
  for (const { frame, record, items } of ordered) {
    if (items <= 0) continue;
    const path = pathOf(frame, record.path);
    const known = byPath.get(path);
    if (known === undefined) byPath.set(path, { items, record });
    else known.items = add(known.items, items);
  }
  return [...byPath]
    .map(([path, { items, record }]): CostContributor => {
      const { sizing } = record;
      return {
        path,
        field: record.field,
        items,
        share: total > 0 ? Math.min(items / total, 1) : 0,
        size: sizing.size,
        sizeFrom: sizing.from,
        slicingArguments: sizing.slicing,
        slicedBy: sizing.by,
        requiredSlicing: sizing.required,
      };
    })
    .sort((a, b) => b.items - a.items || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** How often each walk's root is reached, and through which spread it is reached most. */
function countReach(frames: readonly Frame[]): void {
  // A fragment's walk finishes before the walk of anything that spreads it, so in reverse order every
  // container's reach is known before the fragments it spreads.
  // The operation's walk, the last to finish, is reached once.
  frames[frames.length - 1]!.reach = 1;
  for (let i = frames.length - 2; i >= 0; i--) {
    const frame = frames[i]!;
    let most = -1;
    for (const site of frame.sites) {
      const { container } = site;
      let reach: number;
      let perItem: number;
      if (site.n === SYMBOLIC) {
        reach = container.reach;
        perItem = container.reachPerItem;
      } else {
        reach = mul(site.perItem ? container.reachPerItem : container.reach, site.multiplier);
        perItem = mul(reach, site.n);
      }
      frame.reach = add(frame.reach, reach);
      frame.reachPerItem = add(frame.reachPerItem, perItem);
      if (add(reach, perItem) > most) {
        most = add(reach, perItem);
        frame.best = site;
      }
    }
  }
}

/**
 * Response keys from the root, through the spreads where the fragments holding it add most, joined by dots;
 * without a connection's edges/nodes or an edge's node.
 */
function pathOf(frame: Frame, node: PathNode): string {
  const nodes: PathNode[] = [];
  for (let at: PathNode | null = node; at !== null; at = at.parent) nodes.push(at);
  for (let site = frame.best; site !== undefined; site = site.container.best) {
    for (let at = site.path; at !== null; at = at.parent) nodes.push(at);
  }
  const keys: string[] = [];
  let previous: PathNode | undefined;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const at = nodes[i]!;
    if (!at.sized && !(at.name === 'node' && previous?.sized === true)) keys.push(at.key);
    previous = at;
  }
  return keys.join('.');
}
