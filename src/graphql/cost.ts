import {
  Kind,
  valueFromASTUntyped,
  type ArgumentNode,
  type DirectiveNode,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { thousands } from '../common/text.js';
import type { AnalysedDocument } from './operation.js';
import {
  asSize,
  CEILING,
  CONNECTION_FIELDS,
  CONNECTION_KEY,
  schemaCosts,
  SLICING_ARGUMENTS,
  type FieldCost,
  type SchemaCosts,
} from './cost-schema.js';

/**
 * The size counted for a list that says nothing of its size: no slicing argument, no @listSize. Such lists
 * are the small, bounded collections of an API (a commit's parents, a repository's funding links, reaction
 * groups), since any collection that can grow large takes a slicing argument; 10 is the list size of Apollo
 * Router's documented demand-control example. It still multiplies: four nested unsized lists count 10,000.
 */
export const ASSUMED_LIST_SIZE = 10;

/**
 * The size counted for a list that can be sliced but was given no slicing argument (nor has a default): the
 * API decides, and what it decides is unknown; 100 is the largest page of GitHub and GitLab, and other APIs
 * (Hasura, Prisma, graphql-relay) return everything. Such a field is also flagged, so advice can ask for one.
 */
export const ASSUMED_PAGE_SIZE = 100;

/**
 * Where a contributor's size came from: `argument` given in the query (literally, or through a variable or
 * the variable's default); `default`, a slicing argument's default in the schema; `listSize`, the schema's
 * @listSize(assumedSize); `assumed`, none of these (ASSUMED_PAGE_SIZE when the field has slicing arguments,
 * ASSUMED_LIST_SIZE when it has none); `weight`, not a list: counted for its @cost weight alone.
 */
export type SizeSource = 'argument' | 'default' | 'listSize' | 'assumed' | 'weight';

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

/** The estimate: a total that is finite and, when `atLeast`, a lower bound; its contributors, largest first. */
export interface CostEstimate {
  /** Items the operation can return (see estimateCost), never NaN or Infinity. */
  readonly total: number;
  /** Counting stopped past the limit (or at Number.MAX_SAFE_INTEGER): the true total is at least `total`. */
  readonly atLeast: boolean;
  /**
   * Every field that adds to the total, merged by path, largest first (worked out on first read). A field
   * inside a fragment spread in several places is one contributor, named by the path where it adds most.
   * When counting stopped early, only the fields counted so far.
   */
  readonly contributors: readonly CostContributor[];
}

export interface CostOptions {
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
 *
 * - Size: the largest slicing argument given (`first`, `last`, … as SLICING_ARGUMENTS, or @listSize
 *   slicingArguments; literal or through variables and their defaults), else the argument's default in the
 *   schema, else @listSize(assumedSize), else ASSUMED_PAGE_SIZE (a field with slicing arguments) or
 *   ASSUMED_LIST_SIZE (without). A list of lists counts ASSUMED_LIST_SIZE for each inner level.
 * - Connections (a type with `edges`/`nodes` lists, or @listSize sizedFields): the size counts once for
 *   `edges` (each edge's `node` is the same item) and once for `nodes`; `totalCount` alone counts nothing.
 * - Weights (@cost): an item counts the weight of its type (1 by default, 0 for scalars and enums; an
 *   interface or union the largest of its types) instead of 1; a field with @cost adds its weight, plus that
 *   of the arguments and input fields given, each time it is resolved (at least 0), as the IBM specification
 *   counts it. Weights of directives are not counted.
 * - @skip/@include are honoured when their condition is a literal or a variable the call sets or defaults.
 * - Without a schema only a field given a slicing argument is known to be a list; one without a selection
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
  const rootType = options.schema?.getRootType(operation.operation) ?? undefined;
  const total = walk.selections(operation.selectionSet, rootType, null, root, 1, false, null);
  walk.finished.push(root);
  return new Estimate(total, total >= CEILING || (walk.stopped && total > walk.limit), walk.finished);
}

/** An estimate whose contributors are worked out when first read: most calls never need them. */
class Estimate implements CostEstimate {
  private listed: readonly CostContributor[] | undefined;

  constructor(
    readonly total: number,
    readonly atLeast: boolean,
    private readonly frames: readonly Frame[],
  ) {}

  get contributors(): readonly CostContributor[] {
    return (this.listed ??= contributorsOf(this.frames, this.total));
  }
}

/** The estimate as a person reads it: `22,060`, `at least 500,001`. */
export function formatCost(estimate: Pick<CostEstimate, 'total' | 'atLeast'>): string {
  return `${estimate.atLeast ? 'at least ' : ''}${formatNumber(estimate.total)}`;
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

/**
 * What a schema answer can say beside a field so that a model writes cheap queries first, such as
 * `list: slice with first/last (none given: counted as 100)`; undefined for a field that adds nothing.
 * @listSize and @cost are known only from a schema built from SDL (see estimateCost).
 */
export function describeListSize(
  schema: GraphQLSchema,
  typeName: string,
  fieldName: string,
): string | undefined {
  const type = schema.getType(typeName);
  const info = type ? schemaCosts(schema).lookup(type, fieldName) : undefined;
  if (info === undefined) return undefined;
  const parts: string[] = [];
  if (info.kind !== 'single' && (info.kind === 'connection' || info.itemWeight > 0)) {
    const defaults = info.defaults.filter((d): d is number => d !== undefined);
    if (info.slicing.length > 0) {
      const names = info.slicing.join('/');
      const fallback =
        defaults.length > 0
          ? `default ${formatNumber(Math.max(...defaults))}`
          : `none given: counted as ${formatNumber(info.assumedSize ?? ASSUMED_PAGE_SIZE)}`;
      parts.push(`list: slice with ${names} (${fallback})${info.requireOne ? ', one of them required' : ''}`);
    } else if (info.assumedSize !== undefined) {
      parts.push(`list of at most ${formatNumber(info.assumedSize)} (@listSize)`);
    } else {
      parts.push(`list without slicing arguments (counted as ${ASSUMED_LIST_SIZE})`);
    }
    if (info.kind === 'list' && info.itemWeight !== 1)
      parts.push(`each item costs ${formatNumber(info.itemWeight)}`);
  }
  if (info.weight > 0) parts.push(`cost ${formatNumber(info.weight)} per call`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

// ——— the walk ———

const SYMBOLIC = -1;

const add = (a: number, b: number): number => (a + b < CEILING ? a + b : CEILING);
const mul = (a: number, b: number): number => (a * b < CEILING ? a * b : CEILING);

/** One step of a path: a field's response key; `sized` when it is a connection's edges or nodes. */
interface PathNode {
  readonly parent: PathNode | null;
  readonly key: string;
  readonly name: string;
  readonly sized: boolean;
}

/**
 * The walk of the operation, or of one fragment in one context, with what it adds counted from its own
 * root; where it was spread says how often that root is reached (worked out only when contributors are read).
 */
interface Frame {
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

interface Contribution {
  readonly perItem: boolean;
  readonly items: number;
  readonly path: PathNode;
  readonly field: string;
  readonly sizing: Sizing;
}

interface Sizing {
  readonly size: number;
  readonly from: SizeSource;
  readonly slicing: readonly string[];
  readonly by: string | undefined;
  readonly required: 'missing' | 'several' | undefined;
}

const WEIGHT_ONLY: Sizing = { size: 1, from: 'weight', slicing: [], by: undefined, required: undefined };

/**
 * The selection set of a connection as it is walked: `edges` and `nodes` (or @listSize sizedFields) take
 * the connection's size `n`, known, or SYMBOLIC in a fragment spread at that level (its result then holds
 * `items` and `perItem` for the site to multiply by its own n).
 */
interface Level {
  readonly names: readonly string[];
  readonly key: string;
  readonly n: number;
  items: number;
  perItem: number;
}

interface FragmentCount {
  readonly frame: Frame;
  readonly plain: number;
  readonly items: number;
  readonly perItem: number;
}

// The type a selection set is on: undefined without a schema, or where the schema does not know it.
type KnownType = GraphQLNamedType | undefined;

function newFrame(): Frame {
  return { sites: [], records: [], reach: 0, reachPerItem: 0, best: undefined };
}

class CostWalk {
  readonly limit: number;
  readonly finished: Frame[] = [];
  stopped = false;
  private readonly costs: SchemaCosts | undefined;
  private fragmentCounts: Map<string, FragmentCount> | undefined;
  private plumbing: Map<string, boolean> | undefined;
  private variableValues: Record<string, unknown> | undefined;
  private defaultValues: Map<string, unknown> | undefined;

  constructor(
    private readonly analysed: AnalysedDocument,
    private readonly operation: OperationDefinitionNode,
    private readonly options: CostOptions,
  ) {
    this.limit = options.limit ?? CEILING;
    this.costs = options.schema ? schemaCosts(options.schema) : undefined;
  }

  /** What a selection set adds per item of its parent; `level` when it is a connection's. */
  selections(
    set: SelectionSetNode,
    type: KnownType,
    level: Level | null,
    frame: Frame,
    multiplier: number,
    perItem: boolean,
    path: PathNode | null,
  ): number {
    let total = 0;
    for (const selection of set.selections) {
      if (total > this.limit) {
        this.stopped = true;
        break;
      }
      if (selection.directives !== undefined && selection.directives.length > 0) {
        if (!this.included(selection.directives)) continue;
      }
      if (selection.kind === Kind.FIELD) {
        total = add(total, this.field(selection, type, level, frame, multiplier, perItem, path));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition;
        const inner = condition ? this.costs?.type(condition.name.value) : type;
        total = add(
          total,
          this.selections(selection.selectionSet, inner, level, frame, multiplier, perItem, path),
        );
      } else {
        total = add(total, this.spread(selection.name.value, level, frame, multiplier, perItem, path));
      }
    }
    return total;
  }

  private field(
    node: FieldNode,
    parent: KnownType,
    level: Level | null,
    frame: Frame,
    multiplier: number,
    perItem: boolean,
    path: PathNode | null,
  ): number {
    const name = node.name.value;
    if (name === '__typename') return 0;
    const info = parent !== undefined ? this.costs?.lookup(parent, name) : undefined;
    const key = node.alias?.value ?? name;
    const weight = info !== undefined && info.weighted ? this.fieldWeight(node, info) : 0;

    if (level !== null && level.names.includes(name)) {
      // A connection's edges or nodes: its items, counted by the connection (once per field selected).
      const here: PathNode = { parent: path, key, name, sized: true };
      const known = level.n !== SYMBOLIC;
      const perItemCost =
        node.selectionSet === undefined
          ? 0
          : this.selections(
              node.selectionSet,
              info?.type,
              null,
              frame,
              known ? mul(multiplier, level.n) : multiplier,
              known ? perItem : true,
              here,
            );
      level.items += info !== undefined ? info.itemWeight : node.selectionSet ? 1 : 0;
      level.perItem = add(level.perItem, perItemCost);
      if (weight > 0) this.record(frame, perItem, multiplier, weight, here, name, WEIGHT_ONLY);
      return weight;
    }

    const kind = info !== undefined ? info.kind : this.guessKind(node);
    if (kind === 'single') {
      if (node.selectionSet === undefined && weight === 0) return 0;
      const here: PathNode = { parent: path, key, name, sized: false };
      if (weight > 0) this.record(frame, perItem, multiplier, weight, here, name, WEIGHT_ONLY);
      if (node.selectionSet === undefined) return weight;
      return add(
        weight,
        this.selections(node.selectionSet, info?.type, null, frame, multiplier, perItem, here),
      );
    }

    const sizing = this.size(node, info);
    const n = sizing.size;
    const here: PathNode = { parent: path, key, name, sized: false };
    if (kind === 'connection') {
      if (node.selectionSet === undefined) return weight;
      const names = info?.sized ?? CONNECTION_FIELDS;
      const inner: Level = { names, key: info?.sizedKey ?? CONNECTION_KEY, n, items: 0, perItem: 0 };
      const plain = this.selections(node.selectionSet, info?.type, inner, frame, multiplier, perItem, here);
      const own = add(weight, mul(n, inner.items));
      if (own > 0) this.record(frame, perItem, multiplier, own, here, name, sizing);
      return add(add(own, plain), mul(n, inner.perItem));
    }

    // A list: each of its n items counts its type's weight, and everything selected under it n times.
    const itemWeight = info !== undefined ? info.itemWeight : node.selectionSet ? 1 : 0;
    const own = add(weight, mul(n, itemWeight));
    if (own > 0) this.record(frame, perItem, multiplier, own, here, name, sizing);
    if (node.selectionSet === undefined) return own;
    const each = this.selections(
      node.selectionSet,
      info?.type,
      null,
      frame,
      mul(multiplier, n),
      perItem,
      here,
    );
    return add(own, mul(n, each));
  }

  private spread(
    name: string,
    level: Level | null,
    frame: Frame,
    multiplier: number,
    perItem: boolean,
    path: PathNode | null,
  ): number {
    const memoKey = level === null ? name : `${name}\u0000${level.key}`;
    this.fragmentCounts ??= new Map();
    let counted = this.fragmentCounts.get(memoKey);
    if (counted === undefined) {
      // analyseDocument has checked that the fragment exists and that fragments are acyclic.
      const fragment = this.analysed.fragments.get(name)!;
      const type = this.costs?.type(fragment.typeCondition.name.value);
      const own = newFrame();
      const inner: Level | null =
        level === null ? null : { names: level.names, key: level.key, n: SYMBOLIC, items: 0, perItem: 0 };
      const plain = this.selections(fragment.selectionSet, type, inner, own, 1, false, null);
      counted = { frame: own, plain, items: inner?.items ?? 0, perItem: inner?.perItem ?? 0 };
      this.fragmentCounts.set(memoKey, counted);
      this.finished.push(own);
    }
    counted.frame.sites.push({ container: frame, perItem, multiplier, n: level?.n ?? 0, path });
    if (level !== null) {
      level.items += counted.items;
      level.perItem = add(level.perItem, counted.perItem);
    }
    return counted.plain;
  }

  private record(
    frame: Frame,
    perItem: boolean,
    multiplier: number,
    items: number,
    path: PathNode,
    field: string,
    sizing: Sizing,
  ): void {
    frame.records.push({ perItem, items: mul(multiplier, items), path, field, sizing });
  }

  /** Without a schema: a field given a slicing argument is a list, a connection if it selects edges or nodes. */
  private guessKind(node: FieldNode): 'list' | 'connection' | 'single' {
    if (node.selectionSet === undefined || node.arguments === undefined) return 'single';
    let sliced = false;
    for (const argument of node.arguments) {
      if (
        SLICING_ARGUMENTS.includes(argument.name.value) &&
        typeof this.number(argument.value) === 'number'
      ) {
        sliced = true;
        break;
      }
    }
    if (!sliced) return 'single';
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

  /** The size of a list or connection field as the query, the schema or the assumptions give it. */
  private size(node: FieldNode, info: FieldCost | undefined): Sizing {
    const slicing = info !== undefined ? info.slicing : givenSlicing(node);
    // The largest of the values given and of the defaults of those not given (the IBM specification's rule).
    let size = -1;
    let from: SizeSource = 'argument';
    let by: string | undefined;
    let given = 0;
    for (let i = 0; i < slicing.length; i++) {
      const argument = slicing[i]!;
      const value = this.argument(node, argument);
      if (value === null) continue; // given as null: no value, and not the default either
      if (value !== undefined) {
        given++;
        if (value > size) {
          size = value;
          from = 'argument';
          by = argument;
        }
      } else {
        const fallback = info?.defaults[i];
        if (fallback !== undefined && fallback > size) {
          size = fallback;
          from = 'default';
          by = undefined;
        }
      }
    }
    if (size < 0 && info?.assumedSize !== undefined) {
      size = info.assumedSize;
      from = 'listSize';
    } else if (size < 0) {
      size = slicing.length > 0 ? ASSUMED_PAGE_SIZE : ASSUMED_LIST_SIZE;
      from = 'assumed';
    }
    for (let depth = info?.extraDepth ?? 0; depth > 0; depth--) size = mul(size, ASSUMED_LIST_SIZE);
    const required = info?.requireOne
      ? given === 0
        ? 'missing'
        : given > 1
          ? 'several'
          : undefined
      : undefined;
    return { size, from, slicing, by, required };
  }

  /**
   * A slicing argument's value: a non-negative number, null when given as null, undefined when absent.
   * `path` may name an input field inside an argument (`page.first`), as @listSize allows.
   */
  private argument(node: FieldNode, path: string): number | null | undefined {
    const dot = path.indexOf('.');
    const name = dot < 0 ? path : path.slice(0, dot);
    let argument: ArgumentNode | undefined;
    for (const given of node.arguments ?? []) if (given.name.value === name) argument = given;
    if (argument === undefined) return undefined;
    if (dot < 0) return this.number(argument.value);
    let value: unknown = valueFromASTUntyped(argument.value, this.variables());
    for (const step of path.slice(dot + 1).split('.')) {
      if (typeof value !== 'object' || value === null || !Object.hasOwn(value, step)) return undefined;
      value = (value as Record<string, unknown>)[step];
    }
    return asSize(value);
  }

  private number(value: ValueNode): number | null | undefined {
    if (value.kind === Kind.INT || value.kind === Kind.FLOAT) return asSize(Number(value.value));
    if (value.kind === Kind.NULL) return null;
    if (value.kind === Kind.VARIABLE) return asSize(this.variable(value.name.value));
    return undefined;
  }

  /** A variable's value: the call's, else its default in the operation; undefined when neither. */
  private variable(name: string): unknown {
    const given = this.options.variables;
    if (given !== undefined && Object.hasOwn(given, name)) return given[name];
    return this.defaults().get(name);
  }

  /** The defaults of the operation's variables, read once. */
  private defaults(): Map<string, unknown> {
    if (this.defaultValues === undefined) {
      this.defaultValues = new Map();
      for (const definition of this.operation.variableDefinitions ?? []) {
        if (definition.defaultValue === undefined) continue;
        this.defaultValues.set(definition.variable.name.value, valueFromASTUntyped(definition.defaultValue));
      }
    }
    return this.defaultValues;
  }

  private variables(): Record<string, unknown> {
    if (this.variableValues === undefined) {
      this.variableValues = {};
      for (const definition of this.operation.variableDefinitions ?? []) {
        const name = definition.variable.name.value;
        const value = this.variable(name);
        if (value !== undefined) this.variableValues[name] = value;
      }
    }
    return this.variableValues;
  }

  /** Whether @skip/@include leave a selection in; a condition not known here leaves it in. */
  private included(directives: readonly DirectiveNode[]): boolean {
    for (const directive of directives) {
      const name = directive.name.value;
      if (name !== 'skip' && name !== 'include') continue;
      const condition = directive.arguments?.find((a) => a.name.value === 'if')?.value;
      let value: unknown;
      if (condition?.kind === Kind.BOOLEAN) value = condition.value;
      else if (condition?.kind === Kind.VARIABLE) value = this.variable(condition.name.value);
      if (typeof value === 'boolean' && value === (name === 'skip')) return false;
    }
    return true;
  }

  /** A field's own @cost, with that of the arguments and input fields given, each call; at least 0. */
  private fieldWeight(node: FieldNode, info: FieldCost): number {
    let weight = info.weight;
    for (const argument of node.arguments ?? []) {
      const defined = info.def.args.find((a) => a.name === argument.name.value);
      if (defined === undefined) continue;
      const value = valueFromASTUntyped(argument.value, this.variables());
      if (value === undefined) continue;
      weight += info.argumentWeights.get(defined.name) ?? 0;
      weight += this.costs!.inputWeight(defined.type, value);
    }
    return weight > 0 ? Math.min(weight, CEILING) : 0;
  }
}

function givenSlicing(node: FieldNode): readonly string[] {
  const names: string[] = [];
  for (const argument of node.arguments ?? []) {
    if (SLICING_ARGUMENTS.includes(argument.name.value)) names.push(argument.name.value);
  }
  return names;
}

// ——— contributors: how often each walk's root is reached, then each field's items ———

function contributorsOf(frames: readonly Frame[], total: number): CostContributor[] {
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

// ——— advice ———

/** `22,060`; a weight's fraction to one digit (`2.5`). */
function formatNumber(value: number): string {
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
