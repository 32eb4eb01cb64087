import {
  getNamedType,
  getNullableType,
  isAbstractType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isObjectType,
  valueFromASTUntyped,
  type ConstDirectiveNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

// What the cost estimate (cost.ts) needs to know of a schema: which fields are lists and connections, what
// slices them, and the weights and sizes of the IBM cost specification's @cost and @listSize, worked out per
// field and type on first use and kept with the schema.

/** Argument names that slice a list by convention, where the schema says nothing (no @listSize). */
export const SLICING_ARGUMENTS: readonly string[] = [
  'first',
  'last',
  'limit',
  'take',
  'top',
  'count',
  'pageSize',
  'perPage',
  'page_size',
  'per_page',
];

/** Where counting stops: every sum and product is capped here, so a total is never NaN or Infinity. */
export const CEILING = Number.MAX_SAFE_INTEGER;
/** A sum capped at CEILING. */
export const add = (a: number, b: number): number => (a + b < CEILING ? a + b : CEILING);
/** A product capped at CEILING. */
export const mul = (a: number, b: number): number => (a * b < CEILING ? a * b : CEILING);
/** The fields of a connection that take its size. */
export const CONNECTION_FIELDS: readonly string[] = ['edges', 'nodes'];
export const CONNECTION_KEY = CONNECTION_FIELDS.join(',');

/** @listSize(assumedSize:) as a count: a whole number from 0 to CEILING; undefined when not a number. */
function asSize(value: unknown): number | undefined {
  if (typeof value !== 'number' || Number.isNaN(value)) return undefined;
  return value <= 0 ? 0 : Math.min(Math.ceil(value), CEILING);
}

function fieldOf(parent: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

export interface FieldCost {
  readonly def: GraphQLField<unknown, unknown>;
  readonly kind: 'list' | 'connection' | 'single';
  /** The field's named type: that of its items, for a list. */
  readonly type: GraphQLNamedType;
  /** What each item counts: the weight of its type. */
  readonly itemWeight: number;
  /** Whether a @cost sets that weight, where an item would otherwise count 1 (0 for a scalar or an enum). */
  readonly itemWeighted: boolean;
  /** Levels of list inside the first ([[T]] has 1). */
  readonly extraDepth: number;
  /** A connection's fields that take its size, and their memo key. */
  readonly sized: readonly string[];
  readonly sizedKey: string;
  readonly slicing: readonly string[];
  /** The schema's default of each slicing argument, where it is a number (as written: it may be negative). */
  readonly defaults: readonly (number | undefined)[];
  readonly assumedSize: number | undefined;
  readonly requireOne: boolean;
  /** The field's own @cost (for an interface's field, the largest of its implementations'). */
  readonly weight: number;
  readonly argumentWeights: ReadonlyMap<string, number>;
  /** Whether any weight can apply to a call of it (the field's, an argument's, an input field's). */
  readonly weighted: boolean;
}

const cache = new WeakMap<GraphQLSchema, SchemaCosts>();

export function schemaCosts(schema: GraphQLSchema): SchemaCosts {
  let costs = cache.get(schema);
  if (costs === undefined) {
    costs = new SchemaCosts(schema);
    cache.set(schema, costs);
  }
  return costs;
}

/** What the estimate needs of one schema, worked out per field and type on first use and kept. */
export class SchemaCosts {
  private readonly byName = new Map<GraphQLNamedType, Map<string, FieldCost>>();
  private readonly typeWeights = new Map<GraphQLNamedType, number>();
  private readonly inputWeighted = new Map<GraphQLNamedType, boolean>();

  constructor(private readonly schema: GraphQLSchema) {}

  type(name: string): GraphQLNamedType | undefined {
    return this.schema.getType(name) ?? undefined;
  }

  /** The field of that name on `parent`, undefined when it has none (a union, a meta field, a misspelling). */
  lookup(parent: GraphQLNamedType, name: string): FieldCost | undefined {
    let fields = this.byName.get(parent);
    if (fields === undefined) {
      fields = new Map();
      this.byName.set(parent, fields);
    }
    let info = fields.get(name);
    if (info === undefined) {
      // Only fields the schema has are kept: a document's misspellings must not grow what a schema holds.
      const def = fieldOf(parent, name);
      if (def === undefined) return undefined;
      info = this.describe(def, parent);
      fields.set(name, info);
    }
    return info;
  }

  /** What one item of a type counts: @cost on it, else 1 (0 for scalars and enums); abstract: the largest. */
  typeWeight(type: GraphQLNamedType): number {
    let weight = this.typeWeights.get(type);
    if (weight === undefined) {
      if (isAbstractType(type)) {
        const possible = this.schema.getPossibleTypes(type);
        weight = possible.length === 0 ? 1 : Math.max(...possible.map((t) => this.typeWeight(t)));
      } else {
        const nodes = [type.astNode, ...(type.extensionASTNodes ?? [])];
        const explicit = nodes.map((node) => costWeight(node?.directives)).find((w) => w !== undefined);
        weight = explicit ?? (isLeafType(type) ? 0 : 1);
      }
      weight = Math.max(0, weight);
      this.typeWeights.set(type, weight);
    }
    return weight;
  }

  /** The @cost of the input fields present in a value of an input type, through lists and nested objects. */
  inputWeight(type: GraphQLInputType, value: unknown): number {
    const nullable = getNullableType(type);
    if (isListType(nullable)) {
      if (!Array.isArray(value)) return this.inputWeight(nullable.ofType, value);
      let sum = 0;
      for (const item of value) sum += this.inputWeight(nullable.ofType, item);
      return sum;
    }
    if (!isInputObjectType(nullable) || !this.carriesWeights(nullable)) return 0;
    if (typeof value !== 'object' || value === null) return 0;
    let sum = 0;
    for (const field of Object.values(nullable.getFields())) {
      if (!Object.hasOwn(value, field.name)) continue;
      sum += costWeight(field.astNode?.directives) ?? 0;
      sum += this.inputWeight(field.type, (value as Record<string, unknown>)[field.name]);
    }
    return sum;
  }

  private carriesWeights(type: GraphQLNamedType): boolean {
    let carries = this.inputWeighted.get(type);
    if (carries === undefined) {
      this.inputWeighted.set(type, false); // input types may refer to themselves
      carries =
        isInputObjectType(type) &&
        Object.values(type.getFields()).some(
          (field) =>
            costWeight(field.astNode?.directives) !== undefined ||
            this.carriesWeights(getNamedType(field.type)),
        );
      this.inputWeighted.set(type, carries);
    }
    return carries;
  }

  private describe(def: GraphQLField<unknown, unknown>, parent: GraphQLNamedType): FieldCost {
    const listSize = directiveArguments(def.astNode?.directives, 'listSize');
    let type = getNullableType(def.type);
    let depth = 0;
    while (isListType(type)) {
      depth++;
      type = getNullableType(type.ofType);
    }
    const named = getNamedType(def.type);
    // @listSize(sizedFields:) makes the field a connection whose size those fields take.
    const sizedFields = strings(listSize?.get('sizedFields'));
    const sized = sizedFields !== undefined && sizedFields.length > 0 ? sizedFields : undefined;
    const kind =
      sized !== undefined
        ? 'connection'
        : depth > 0
          ? 'list'
          : isConnection(named, def)
            ? 'connection'
            : 'single';
    const slicing =
      kind === 'single'
        ? []
        : (strings(listSize?.get('slicingArguments')) ??
          def.args.filter((a) => SLICING_ARGUMENTS.includes(a.name)).map((a) => a.name));
    const defaults = slicing.map((name) => {
      const value = def.args.find((a) => a.name === name)?.defaultValue;
      return typeof value === 'number' && !Number.isNaN(value) ? value : undefined;
    });
    const assumed = listSize?.get('assumedSize');
    const required = listSize?.get('requireOneSlicingArgument');
    const argumentWeights = new Map<string, number>();
    let weighted = false;
    for (const argument of def.args) {
      const weight = costWeight(argument.astNode?.directives);
      if (weight !== undefined) argumentWeights.set(argument.name, weight);
      if (weight !== undefined || this.carriesWeights(getNamedType(argument.type))) weighted = true;
    }
    const weight = this.fieldWeight(def, parent);
    const itemWeight = this.typeWeight(named);
    return {
      def,
      kind,
      type: named,
      itemWeight,
      itemWeighted: itemWeight !== (isLeafType(named) ? 0 : 1),
      extraDepth: Math.max(0, depth - 1),
      sized: sized ?? CONNECTION_FIELDS,
      sizedKey: sized?.join(',') ?? CONNECTION_KEY,
      slicing,
      defaults,
      assumedSize: asSize(assumed),
      requireOne: listSize !== undefined && required !== false && slicing.length > 0,
      weight,
      argumentWeights,
      weighted: weighted || weight !== 0,
    };
  }

  /** @cost on the field; on an interface's field (where the specification forbids it), its implementations'. */
  private fieldWeight(def: GraphQLField<unknown, unknown>, parent: GraphQLNamedType): number {
    const own = costWeight(def.astNode?.directives);
    if (own !== undefined || !isInterfaceType(parent)) return own ?? 0;
    let largest = 0;
    for (const implementation of this.schema.getPossibleTypes(parent)) {
      const weight = costWeight(implementation.getFields()[def.name]?.astNode?.directives);
      if (weight !== undefined) largest = Math.max(largest, weight);
    }
    return largest;
  }
}

/** A connection: a type with `edges` whose items have a `node`, or `nodes` on a sliced or *Connection type. */
function isConnection(type: GraphQLNamedType, def: GraphQLField<unknown, unknown>): boolean {
  if (!isObjectType(type) && !isInterfaceType(type)) return false;
  const fields = type.getFields();
  const edges = fields.edges && getNullableType(fields.edges.type);
  if (edges !== undefined && isListType(edges)) {
    const edge = getNamedType(edges);
    if ((isObjectType(edge) || isInterfaceType(edge)) && edge.getFields().node !== undefined) return true;
  }
  const nodes = fields.nodes && getNullableType(fields.nodes.type);
  return (
    nodes !== undefined &&
    isListType(nodes) &&
    (type.name.endsWith('Connection') || def.args.some((a) => SLICING_ARGUMENTS.includes(a.name)))
  );
}

function directiveArguments(
  directives: readonly ConstDirectiveNode[] | undefined,
  name: string,
): Map<string, unknown> | undefined {
  const directive = directives?.find((d) => d.name.value === name);
  if (directive === undefined) return undefined;
  return new Map((directive.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value)]));
}

/** @cost(weight:) as the IBM specification writes it (a string holding a float) or as a number. */
function costWeight(directives: readonly ConstDirectiveNode[] | undefined): number | undefined {
  if (directives === undefined || directives.length === 0) return undefined;
  const weight = directiveArguments(directives, 'cost')?.get('weight');
  const value = typeof weight === 'string' ? Number.parseFloat(weight) : weight;
  if (typeof value !== 'number' || Number.isNaN(value)) return undefined;
  return Math.max(-CEILING, Math.min(value, CEILING));
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}
