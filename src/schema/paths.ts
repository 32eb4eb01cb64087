import {
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

// A model that finds a type still has to know how to reach it in a query. So every type gets one path from
// a root field: the cheapest chain of steps from the query (or mutation, subscription) type. Fields cost
// least; arguments and type conditions (an interface or union narrowed to one of its types, or a type seen
// as one of its interfaces) a little more,
// so that `Query.repository → Repository.issue` is preferred over `Query.node → … on Issue`.

/** One step of a path: a field, an argument of a field, an input field, or a type condition. */
export type PathStep =
  | { readonly kind: 'field'; readonly type: string; readonly field: string }
  | { readonly kind: 'argument'; readonly type: string; readonly field: string; readonly argument: string }
  | { readonly kind: 'inputField'; readonly type: string; readonly field: string }
  | { readonly kind: 'typeCondition'; readonly type: string };

const COST = { field: 2, inputField: 2, argument: 3, typeCondition: 3 } as const;
// Reading is what a model mostly does, and a path through a mutation changes data on the way: a path from
// Query wins unless it is more than two fields longer.
const ROOT_COST = { query: 0, mutation: 5, subscription: 5 } as const;

/** The cheapest path from a root type to each type reachable from one; root types map to []. */
export function findRootPaths(schema: GraphQLSchema): Map<string, readonly PathStep[]> {
  const best = new Map<string, { cost: number; from?: string; step?: PathStep }>();
  // Costs are small integers: a bucket queue is Dijkstra without a heap.
  const buckets: string[][] = [];
  const push = (name: string, cost: number, from?: string, step?: PathStep) => {
    const known = best.get(name);
    if (known !== undefined && known.cost <= cost) return;
    best.set(name, { cost, from, step });
    (buckets[cost] ??= []).push(name);
  };
  const roots = [
    [schema.getQueryType(), ROOT_COST.query],
    [schema.getMutationType(), ROOT_COST.mutation],
    [schema.getSubscriptionType(), ROOT_COST.subscription],
  ] as const;
  for (const [root, cost] of roots) if (root) push(root.name, cost);

  const done = new Set<string>();
  for (let cost = 0; cost < buckets.length; cost++) {
    for (const name of buckets[cost] ?? []) {
      if (done.has(name) || best.get(name)!.cost !== cost) continue;
      done.add(name);
      const type = schema.getType(name);
      if (type !== undefined) {
        for (const [next, stepCost, step] of stepsFrom(schema, type)) push(next, cost + stepCost, name, step);
      }
    }
  }

  const paths = new Map<string, readonly PathStep[]>();
  const pathOf = (name: string): readonly PathStep[] => {
    const known = paths.get(name);
    if (known !== undefined) return known;
    const node = best.get(name)!;
    const path = node.from === undefined ? [] : [...pathOf(node.from), node.step!];
    paths.set(name, path);
    return path;
  };
  for (const name of best.keys()) pathOf(name);
  return paths;
}

function* stepsFrom(schema: GraphQLSchema, type: GraphQLNamedType): Generator<[string, number, PathStep]> {
  if (isObjectType(type) || isInterfaceType(type)) {
    for (const field of Object.values(type.getFields())) {
      const step: PathStep = { kind: 'field', type: type.name, field: field.name };
      yield [getNamedType(field.type).name, COST.field, step];
      for (const arg of field.args) {
        const argStep: PathStep = {
          kind: 'argument',
          type: type.name,
          field: field.name,
          argument: arg.name,
        };
        yield [getNamedType(arg.type).name, COST.argument, argStep];
      }
    }
  }
  if (isInterfaceType(type) || isUnionType(type)) {
    for (const possible of schema.getPossibleTypes(type)) {
      yield [possible.name, COST.typeCondition, { kind: 'typeCondition', type: possible.name }];
    }
  }
  // A selection on a type may also spread on any interface it implements (`... on Comment`).
  if (isObjectType(type) || isInterfaceType(type)) {
    for (const implemented of type.getInterfaces()) {
      yield [implemented.name, COST.typeCondition, { kind: 'typeCondition', type: implemented.name }];
    }
  }
  if (isInputObjectType(type)) {
    for (const field of Object.values(type.getFields())) {
      const step: PathStep = { kind: 'inputField', type: type.name, field: field.name };
      yield [getNamedType(field.type).name, COST.inputField, step];
    }
  }
}

/** A path as text: `Query.repository → Repository.issues(states:)`, or `… on Issue` for a type condition. */
export function formatPath(path: readonly PathStep[]): string {
  return path.map(formatStep).join(' → ');
}

function formatStep(step: PathStep): string {
  switch (step.kind) {
    case 'field':
    case 'inputField':
      return `${step.type}.${step.field}`;
    case 'argument':
      return `${step.type}.${step.field}(${step.argument}:)`;
    case 'typeCondition':
      return `… on ${step.type}`;
  }
}
