import { Kind, valueFromASTUntyped, type ArgumentNode, type FieldNode, type ValueNode } from 'graphql';
import { CEILING, mul, SLICING_ARGUMENTS, type FieldCost } from './cost-schema.js';
import type { CallValues } from './cost-variables.js';

// The size of a list: how many items the estimate counts for one list or connection field. The IBM cost
// specification's @listSize says where to read it: the largest value given to its slicingArguments (or, for
// one not given, the argument's default), else its assumedSize. Where the schema says nothing, slicing
// arguments are known by their conventional names (SLICING_ARGUMENTS) and the sizes below are assumed.
// A query may give a slicing argument a value that each API reads its own way (a negative number may mean
// "the last n" or nothing at all, null "no limit" or the API's own page), so such a value never counts less
// than the size assumed where none is given.

/**
 * The size counted for a list that says nothing of its size: no slicing argument, no @listSize. Such lists
 * are the small, bounded collections of an API (a commit's parents, a repository's funding links, reaction
 * groups), since any collection that can grow large takes a slicing argument; 10 is the list size of Apollo
 * Router's documented demand-control example. It still multiplies: four nested unsized lists count 10,000.
 */
export const ASSUMED_LIST_SIZE = 10;

/**
 * The size counted for a list that can be sliced but was given no slicing value (nor has a default): the API
 * decides, and what it decides is unknown; 100 is the largest page of GitHub and GitLab, and other APIs
 * (Hasura, Prisma, graphql-relay) return everything. Such a field is also flagged, so advice can ask for one.
 */
export const ASSUMED_PAGE_SIZE = 100;

/**
 * Where a contributor's size came from: `argument` given in the query (literally, or through a variable or
 * the variable's default); `default`, a slicing argument's default in the schema; `listSize`, the schema's
 * @listSize(assumedSize); `assumed`, none of these, or a null or negative value that says no size
 * (ASSUMED_PAGE_SIZE when the field has slicing arguments, ASSUMED_LIST_SIZE when it has none); `weight`, not
 * a list: counted for its @cost weight alone.
 */
export type SizeSource = 'argument' | 'default' | 'listSize' | 'assumed' | 'weight';

/** A list's size as counted, and what it was read from. */
export interface Sizing {
  /** Items per enclosing item. */
  readonly size: number;
  readonly from: SizeSource;
  /** The arguments that slice the list (from @listSize or by convention); empty when none is known. */
  readonly slicing: readonly string[];
  /** The slicing argument whose value was counted (null or negative ones included), when the query gave one. */
  readonly by: string | undefined;
  /** @listSize(requireOneSlicingArgument) broken: no slicing value given, or several. */
  readonly required: 'missing' | 'several' | undefined;
}

/** The sizing of a field counted for its @cost weight alone: once per enclosing item. */
export const WEIGHT_ONLY: Sizing = {
  size: 1,
  from: 'weight',
  slicing: [],
  by: undefined,
  required: undefined,
};

/** Whether the query gives the field a slicing argument, by its conventional name (whatever its value). */
export function givesSlicingArgument(node: FieldNode): boolean {
  for (const argument of node.arguments ?? []) {
    if (SLICING_ARGUMENTS.includes(argument.name.value)) return true;
  }
  return false;
}

/**
 * The items a slicing value counts, `assumed` being the list's size where no value is given: a number rounded
 * up; a negative one the larger of its magnitude and `assumed`; null, `assumed`.
 */
export function sliceCount(value: number | null, assumed: number): number {
  if (value === null) return assumed;
  const count = Math.min(Math.ceil(Math.abs(value)), CEILING);
  return value < 0 ? Math.max(count, assumed) : count;
}

/**
 * The size of a list or connection field (`info` as the schema describes it, undefined without one), as the
 * query, the schema and the assumptions give it. A list of lists counts ASSUMED_LIST_SIZE for each inner level.
 */
export function listSize(node: FieldNode, info: FieldCost | undefined, values: CallValues): Sizing {
  const slicing = info !== undefined ? info.slicing : slicingGiven(node);
  const assumed = info?.assumedSize ?? (slicing.length > 0 ? ASSUMED_PAGE_SIZE : ASSUMED_LIST_SIZE);
  const assumedFrom: SizeSource = info?.assumedSize !== undefined ? 'listSize' : 'assumed';
  // The largest of the values given and of the defaults of those not given (the IBM specification's rule).
  let size = -1;
  let from: SizeSource = assumedFrom;
  let by: string | undefined;
  let given = 0;
  for (let i = 0; i < slicing.length; i++) {
    const argument = slicing[i]!;
    const value = sliceValue(node, argument, values);
    if (value === undefined) {
      const fallback = info?.defaults[i];
      if (fallback !== undefined && sliceCount(fallback, assumed) > size) {
        size = sliceCount(fallback, assumed);
        from = 'default';
        by = undefined;
      }
      continue;
    }
    if (value !== null) given++;
    const count = sliceCount(value, assumed);
    if (count > size) {
      size = count;
      from = value !== null && (value >= 0 || count > assumed) ? 'argument' : assumedFrom;
      by = argument;
    }
  }
  if (size < 0) {
    size = assumed;
    from = assumedFrom;
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

/** Without a schema: the slicing arguments the query gives, by their conventional names. */
function slicingGiven(node: FieldNode): readonly string[] {
  const names: string[] = [];
  for (const argument of node.arguments ?? []) {
    if (SLICING_ARGUMENTS.includes(argument.name.value)) names.push(argument.name.value);
  }
  return names;
}

/**
 * A slicing argument's value: a number, null when given as null, undefined when absent or not a number. A
 * variable the call leaves out, with no default in the operation, leaves the argument out, as GraphQL does
 * (the schema's default then applies). `path` may name an input field inside an argument (`page.first`), as
 * @listSize allows.
 */
function sliceValue(node: FieldNode, path: string, values: CallValues): number | null | undefined {
  const dot = path.indexOf('.');
  const name = dot < 0 ? path : path.slice(0, dot);
  let argument: ArgumentNode | undefined;
  for (const given of node.arguments ?? []) if (given.name.value === name) argument = given;
  if (argument === undefined) return undefined;
  if (dot < 0) return numberOf(argument.value, values);
  let value: unknown = valueFromASTUntyped(argument.value, values.all());
  for (const step of path.slice(dot + 1).split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, step)) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return asNumber(value);
}

function numberOf(value: ValueNode, values: CallValues): number | null | undefined {
  if (value.kind === Kind.INT || value.kind === Kind.FLOAT) return asNumber(Number(value.value));
  if (value.kind === Kind.NULL) return null;
  if (value.kind === Kind.VARIABLE) return asNumber(values.variable(value.name.value));
  return undefined;
}

function asNumber(value: unknown): number | null | undefined {
  if (value === null) return null;
  return typeof value === 'number' && !Number.isNaN(value) ? value : undefined;
}
