import {
  Kind,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { AnalysedDocument } from './operation.js';
import {
  contributorsOf,
  newFrame,
  SYMBOLIC,
  type CostContributor,
  type Frame,
  type PathNode,
} from './cost-contributors.js';
import { fieldWeight } from './cost-field-weight.js';
import { givesSlicingArgument, listSize, WEIGHT_ONLY, type Sizing } from './cost-list-size.js';
import {
  add,
  CEILING,
  CONNECTION_FIELDS,
  CONNECTION_KEY,
  mul,
  schemaCosts,
  type FieldCost,
  type SchemaCosts,
} from './cost-schema.js';
import { CallValues } from './cost-variables.js';

export type { CostContributor } from './cost-contributors.js';

/** The estimate: a total that is finite and, when `atLeast`, a lower bound; its contributors, largest first. */
export interface CostEstimate {
  /** Items the operation can return, weighted where `weighted` (see estimateCost); never NaN or Infinity. */
  readonly total: number;
  /** Counting stopped past the limit (or at Number.MAX_SAFE_INTEGER): the true total is at least `total`. */
  readonly atLeast: boolean;
  /**
   * A @cost weight counted in the total (a field's, an argument's, or an item's other than 1): the total is
   * then in cost units, list items each weighted by @cost, rather than in items.
   */
  readonly weighted: boolean;
  /**
   * Every field that adds to the total, merged by path, largest first (worked out on first read). A field
   * inside a fragment spread in several places is one contributor, named by the path where it adds most.
   * When counting stopped early, only the fields counted so far.
   */
  readonly contributors: readonly CostContributor[];
}

interface CostOptions {
  /** The call's variables: slicing arguments and @skip/@include conditions may come from them. */
  readonly variables?: Readonly<Record<string, unknown>> | undefined;
  /** The API's schema: which fields are lists, connections, @listSize and @cost. */
  readonly schema?: GraphQLSchema | undefined;
  /** Counting stops once the total passes it (the answer is then `atLeast`). */
  readonly limit?: number | undefined;
}

/**
 * The list items the operation to run can return (GitHub's "nodes"): every list field's size times the items
 * of the lists around it, through fragments (a fragment spread three times counts three times), inline
 * fragments and aliases (each counted). A singular object (`viewer`) and `__typename` add nothing; so does a
 * list of scalars or enums (they are values inside their parent, and their @cost weight is 0 by default).
 * Where a @cost weight counts, the total is in cost units (CostEstimate.weighted), not items.
 *
 * - Size (cost-list-size.ts): the largest slicing value given, else the argument's default in the schema,
 *   else @listSize(assumedSize), else ASSUMED_PAGE_SIZE (a field with slicing arguments) or ASSUMED_LIST_SIZE
 *   (without); a null or negative value counts at least that assumed size.
 * - Connections (a type with `edges`/`nodes` lists, or @listSize sizedFields): the size counts once for
 *   `edges` (each edge's `node` is the same item) and once for `nodes`; `totalCount` alone counts nothing.
 * - Weights (@cost): an item counts the weight of its type (1 by default, 0 for scalars and enums; an
 *   interface or union the largest of its types) instead of 1; a field with @cost adds its weight, plus that
 *   of the arguments and input fields given, each time it is resolved (cost-field-weight.ts).
 * - @skip/@include are honoured when their condition is a literal or a variable the call sets or defaults.
 * - Without a schema a field given a slicing argument (whatever its value) is a list; one without a selection
 *   set counts nothing (a list of scalars), and one that selects `edges` or `nodes` is a connection. Fields
 *   the schema does not know (`__schema`, a misspelt name) are counted the same way.
 * - @listSize and @cost are read from the schema's SDL: only a schema built from SDL carries them, since
 *   introspection does not expose applied directives.
 *
 * Fragments are walked once each (per connection context) and every sum stops once it passes the limit, so
 * nested fragments that would expand exponentially are counted in time linear in the document; products
 * stop at Number.MAX_SAFE_INTEGER.
 */
export function estimateCost(
  analysed: AnalysedDocument,
  operation: OperationDefinitionNode,
  options: CostOptions = {},
): CostEstimate {
  const walk = new CostWalk(analysed, operation, options);
  const root = newFrame();
  const total = walk.selections(operation.selectionSet, {
    type: options.schema?.getRootType(operation.operation) ?? undefined,
    frame: root,
    multiplier: 1,
    perItem: false,
    path: null,
    connection: null,
  });
  walk.finished.push(root);
  const atLeast = total >= CEILING || (walk.stopped && total > walk.limit);
  return new Estimate(total, atLeast, walk.weighted, walk.finished);
}

/** An estimate whose contributors are worked out when first read: most calls never need them. */
class Estimate implements CostEstimate {
  private listed: readonly CostContributor[] | undefined;

  constructor(
    readonly total: number,
    readonly atLeast: boolean,
    readonly weighted: boolean,
    private readonly frames: readonly Frame[],
  ) {}

  get contributors(): readonly CostContributor[] {
    return (this.listed ??= contributorsOf(this.frames, this.total));
  }
}

/** Where a selection set is counted: what the walk hands down from a field to what the field selects. */
interface Scope {
  /** The type it is on: undefined without a schema, or where the schema does not know it. */
  readonly type: GraphQLNamedType | undefined;
  /** The walk that counts it: the operation's, or a fragment's in one context. */
  readonly frame: Frame;
  /** How often it is reached per reach of the frame's root (per item, when `perItem`). */
  readonly multiplier: number;
  /** Inside the items of a connection whose size is that of each place the frame's fragment is spread. */
  readonly perItem: boolean;
  /** Response keys from the frame's root. */
  readonly path: PathNode | null;
  /** The connection this is the selection set of, whose edges and nodes take its size; else null. */
  readonly connection: Connection | null;
}

/**
 * A connection as its selection set is walked: `edges` and `nodes` (or @listSize sizedFields) take its size
 * `n`, known, or SYMBOLIC in a fragment spread at its level (its result then holds `items` and `perItem` for
 * each place it is spread to multiply by that place's n).
 */
interface Connection {
  readonly names: readonly string[];
  readonly key: string;
  readonly n: number;
  items: number;
  perItem: number;
}

/** A field where it is counted: what the schema says of it (undefined without a schema), its weight, its path. */
interface Field {
  readonly node: FieldNode;
  readonly info: FieldCost | undefined;
  readonly weight: number;
  readonly here: PathNode;
}

/** A fragment counted once in one context: what it adds where it is spread. */
interface FragmentCount {
  readonly frame: Frame;
  readonly plain: number;
  readonly items: number;
  readonly perItem: number;
}

/** The walk of one operation: what it reads of the call and the schema, and its bookkeeping. */
class CostWalk {
  readonly limit: number;
  /** Each walk as it finishes: a fragment's before the walks that spread it. */
  readonly finished: Frame[] = [];
  stopped = false;
  weighted = false;
  private readonly values: CallValues;
  private readonly costs: SchemaCosts | undefined;
  private fragmentCounts: Map<string, FragmentCount> | undefined;
  private plumbing: Map<string, boolean> | undefined;

  constructor(
    private readonly analysed: AnalysedDocument,
    operation: OperationDefinitionNode,
    options: CostOptions,
  ) {
    this.limit = options.limit ?? CEILING;
    this.costs = options.schema ? schemaCosts(options.schema) : undefined;
    this.values = new CallValues(operation, options.variables);
  }

  /** What a selection set adds per reach of its scope; it stops once past the limit. */
  selections(set: SelectionSetNode, scope: Scope): number {
    let total = 0;
    for (const selection of set.selections) {
      if (total > this.limit) {
        this.stopped = true;
        break;
      }
      if (selection.directives !== undefined && selection.directives.length > 0) {
        if (!this.values.included(selection.directives)) continue;
      }
      if (selection.kind === Kind.FIELD) {
        total = add(total, this.field(selection, scope));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition;
        const type = condition ? this.costs?.type(condition.name.value) : scope.type;
        total = add(
          total,
          this.selections(selection.selectionSet, {
            type,
            frame: scope.frame,
            multiplier: scope.multiplier,
            perItem: scope.perItem,
            path: scope.path,
            connection: scope.connection,
          }),
        );
      } else {
        total = add(total, this.spread(selection.name.value, scope));
      }
    }
    return total;
  }

  private field(node: FieldNode, scope: Scope): number {
    const name = node.name.value;
    if (name === '__typename') return 0;
    const info = scope.type !== undefined ? this.costs?.lookup(scope.type, name) : undefined;
    const weight = info !== undefined && info.weighted ? this.weightOf(node, info) : 0;
    const key = node.alias?.value ?? name;
    if (scope.connection !== null && scope.connection.names.includes(name)) {
      const here: PathNode = { parent: scope.path, key, name, sized: true };
      return this.connectionItems({ node, info, weight, here }, scope);
    }
    const kind = info !== undefined ? info.kind : this.guessKind(node);
    // A scalar (most fields) adds nothing but its weight.
    if (kind === 'single' && node.selectionSet === undefined && weight === 0) return 0;
    const field: Field = { node, info, weight, here: { parent: scope.path, key, name, sized: false } };
    if (kind === 'single') return this.single(field, scope);
    if (kind === 'connection') return this.connection(field, scope);
    return this.list(field, scope);
  }

  /** A singular field: its weight, and what is selected under it once. */
  private single({ node, info, weight, here }: Field, scope: Scope): number {
    if (weight > 0) this.record(scope, weight, here, WEIGHT_ONLY);
    if (node.selectionSet === undefined) return weight;
    return add(
      weight,
      this.selections(node.selectionSet, {
        type: info?.type,
        frame: scope.frame,
        multiplier: scope.multiplier,
        perItem: scope.perItem,
        path: here,
        connection: null,
      }),
    );
  }

  /** A list: each of its n items counts its type's weight, and everything selected under it n times. */
  private list({ node, info, weight, here }: Field, scope: Scope): number {
    const sizing = listSize(node, info, this.values);
    const n = sizing.size;
    const own = add(weight, mul(n, this.itemWeight(node, info)));
    if (own > 0) this.record(scope, own, here, sizing);
    if (node.selectionSet === undefined) return own;
    const each = this.selections(node.selectionSet, {
      type: info?.type,
      frame: scope.frame,
      multiplier: mul(scope.multiplier, n),
      perItem: scope.perItem,
      path: here,
      connection: null,
    });
    return add(own, mul(n, each));
  }

  /** A connection: n items for each of its edges and nodes selected, what they select n times. */
  private connection({ node, info, weight, here }: Field, scope: Scope): number {
    if (node.selectionSet === undefined) return weight;
    const sizing = listSize(node, info, this.values);
    const n = sizing.size;
    const names = info?.sized ?? CONNECTION_FIELDS;
    const connection: Connection = { names, key: info?.sizedKey ?? CONNECTION_KEY, n, items: 0, perItem: 0 };
    const plain = this.selections(node.selectionSet, {
      type: info?.type,
      frame: scope.frame,
      multiplier: scope.multiplier,
      perItem: scope.perItem,
      path: here,
      connection,
    });
    const own = add(weight, mul(n, connection.items));
    if (own > 0) this.record(scope, own, here, sizing);
    return add(add(own, plain), mul(n, connection.perItem));
  }

  /** A connection's edges or nodes: its items, counted by the connection (once per field selected). */
  private connectionItems({ node, info, weight, here }: Field, scope: Scope): number {
    const connection = scope.connection!;
    const known = connection.n !== SYMBOLIC;
    const each =
      node.selectionSet === undefined
        ? 0
        : this.selections(node.selectionSet, {
            type: info?.type,
            frame: scope.frame,
            multiplier: known ? mul(scope.multiplier, connection.n) : scope.multiplier,
            perItem: known ? scope.perItem : true,
            path: here,
            connection: null,
          });
    connection.items += this.itemWeight(node, info);
    connection.perItem = add(connection.perItem, each);
    if (weight > 0) this.record(scope, weight, here, WEIGHT_ONLY);
    return weight;
  }

  /** A fragment spread: walked once per connection context, then counted where it is spread. */
  private spread(name: string, scope: Scope): number {
    const { connection } = scope;
    const memoKey = connection === null ? name : `${name}\u0000${connection.key}`;
    this.fragmentCounts ??= new Map();
    let counted = this.fragmentCounts.get(memoKey);
    if (counted === undefined) {
      // analyseDocument has checked that the fragment exists and that fragments are acyclic.
      const fragment = this.analysed.fragments.get(name)!;
      const frame = newFrame();
      const inner: Connection | null =
        connection === null ? null : { ...connection, n: SYMBOLIC, items: 0, perItem: 0 };
      const plain = this.selections(fragment.selectionSet, {
        type: this.costs?.type(fragment.typeCondition.name.value),
        frame,
        multiplier: 1,
        perItem: false,
        path: null,
        connection: inner,
      });
      counted = { frame, plain, items: inner?.items ?? 0, perItem: inner?.perItem ?? 0 };
      this.fragmentCounts.set(memoKey, counted);
      this.finished.push(frame);
    }
    const { frame, perItem, multiplier, path } = scope;
    counted.frame.sites.push({ container: frame, perItem, multiplier, n: connection?.n ?? 0, path });
    if (connection !== null) {
      connection.items += counted.items;
      connection.perItem = add(connection.perItem, counted.perItem);
    }
    return counted.plain;
  }

  private record(scope: Scope, items: number, path: PathNode, sizing: Sizing): void {
    const { perItem, multiplier } = scope;
    scope.frame.records.push({ perItem, items: mul(multiplier, items), path, field: path.name, sizing });
  }

  /** What one item of a list or connection counts: its type's weight; without a schema, 1 for an object. */
  private itemWeight(node: FieldNode, info: FieldCost | undefined): number {
    if (info === undefined) return node.selectionSet ? 1 : 0;
    if (info.itemWeighted) this.weighted = true;
    return info.itemWeight;
  }

  private weightOf(node: FieldNode, info: FieldCost): number {
    const weight = fieldWeight(node, info, this.costs!, this.values);
    if (weight > 0) this.weighted = true;
    return weight;
  }

  /** Without a schema: a field given a slicing argument is a list, a connection if it selects edges or nodes. */
  private guessKind(node: FieldNode): 'list' | 'connection' | 'single' {
    if (node.selectionSet === undefined || !givesSlicingArgument(node)) return 'single';
    return this.selectsPlumbing(node.selectionSet) ? 'connection' : 'list';
  }

  private selectsPlumbing(set: SelectionSetNode): boolean {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (CONNECTION_FIELDS.includes(selection.name.value)) return true;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (this.selectsPlumbing(selection.selectionSet)) return true;
      } else {
        const name = selection.name.value;
        this.plumbing ??= new Map();
        let selects = this.plumbing.get(name);
        if (selects === undefined) {
          selects = this.selectsPlumbing(this.analysed.fragments.get(name)!.selectionSet);
          this.plumbing.set(name, selects);
        }
        if (selects) return true;
      }
    }
    return false;
  }
}
