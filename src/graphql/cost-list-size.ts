import { Kind, valueFromASTUntyped, type ArgumentNode, type FieldNode, type ValueNode } from 'graphql';
import { asSize, mul, SLICING_ARGUMENTS, type FieldCost } from './cost-schema.js';
import type { CallValues } from './cost-variables.js';

// The size of a list: how many items the estimate counts for one list or connection field. The IBM cost
// specification's @listSize says where to read it: the largest value given to its slicingArguments (or, for
// one not given, the argument's default), else its assumedSize. Where the schema says nothing, slicing
// arguments are known by their conventional names (SLICING_ARGUMENTS) and the sizes below are assumed.

/**
 * The size counted for a list that says nothing of its size: no slicing argument, no @listSize. Such lists
 * are the small, bounded collections of an API (a commit's parents, a repository's funding links, reaction
 * groups), since any collection that can grow large takes a slicing argument; 10 is the list size of Apollo
 * Router's documented demand-control example. It still multiplies: four nested unsized lists count 10,000.
 */
export const ASSUMED_LIST_SIZE = 10;

/**
 * The size counted for a list that can be sliced but was given no slicing argument (nor has a default): the API
 * decides, and what it decides is unknown; 100 is the largest page of GitHub and GitLab, and other APIs
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

/** A list's size as counted, and what it was read from. */
export interface Sizing {
  /** Items per enclosing item. */
  readonly size: number;
  readonly from: SizeSource;
  /** The arguments that slice the list (from @listSize or by convention); empty when none is known. */
  readonly slicing: readonly string[];
  /** The slicing argument whose value was counted, when the query gave one. */
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

/** Whether the query gives the field a slicing argument, by its conventional name, with a number. */
export function givesSlicingArgument(node: FieldNode, values: CallValues): boolean {
  for (const argument of node.arguments ?? []) {
    if (
      SLICING_ARGUMENTS.includes(argument.name.value) &&
      typeof numberOf(argument.value, values) === 'number'
    )
      return true;
  }
  return false;
}

/**
 * The size of a list or connection field (`info` as the schema describes it, undefined without one), as the
 * query, the schema and the assumptions give it. A list of lists counts ASSUMED_LIST_SIZE for each inner level.
 */
export function listSize(node: FieldNode, info: FieldCost | undefined, values: CallValues): Sizing {
  const slicing = info !== undefined ? info.slicing : slicingGiven(node);
  // The largest of the values given and of the defaults of those not given (the IBM specification's rule).
  let size = -1;
  let from: SizeSource = 'argument';
  let by: string | undefined;
  let given = 0;
  for (let i = 0; i < slicing.length; i++) {
    const argument = slicing[i]!;
    const value = sliceValue(node, argument, values);
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

/** Without a schema: the slicing arguments the query gives, by their conventional names. */
function slicingGiven(node: FieldNode): readonly string[] {
  const names: string[] = [];
  for (const argument of node.arguments ?? []) {
    if (SLICING_ARGUMENTS.includes(argument.name.value)) names.push(argument.name.value);
  }
  return names;
}

/**
 * A slicing argument's value: a non-negative number, null when given as null, undefined when absent.
 * `path` may name an input field inside an argument (`page.first`), as @listSize allows.
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
  return asSize(value);
}

function numberOf(value: ValueNode, values: CallValues): number | null | undefined {
  if (value.kind === Kind.INT || value.kind === Kind.FLOAT) return asSize(Number(value.value));
  if (value.kind === Kind.NULL) return null;
  if (value.kind === Kind.VARIABLE) return asSize(values.variable(value.name.value));
  return undefined;
}
